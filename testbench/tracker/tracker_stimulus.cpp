#include "tracker_stimulus.h"

#include <algorithm>
#include <stdexcept>

namespace t3::tb {
namespace {

uint64_t bits(unsigned w) { return w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1; }
uint64_t key(uint32_t wg, uint32_t wf) { return (uint64_t(wg) << 32) | wf; }

}  // namespace

uint64_t TrackerTraffic::limit() const {
  const uint64_t elems = uint64_t(m_rows) * n_cols;
  return limit_at_last_element ? base + (elems - 1) * elem_bytes + 1 : base + elems * elem_bytes;
}

TrackerConfig TrackerTraffic::config() const {
  TrackerConfig c;
  c.enable = true;
  c.base = base;
  c.limit = limit();
  c.tile_size = tile_rows * tile_cols;
  c.updates_per_elem = updates_per_elem;
  return c;
}

TrackerTraffic TrackerTraffic::random(const TrackerParams& p, std::mt19937_64& rng) {
  auto pick = [&rng](uint64_t lo, uint64_t hi) {
    return std::uniform_int_distribution<uint64_t>(lo, hi)(rng);
  };
  auto u = [&rng] { return std::uniform_real_distribution<double>(0, 1)(rng); };
  const uint64_t cnt_max = bits(p.cnt_w);
  TrackerTraffic t;
  do {
    t.tile_rows = 1u << pick(0, 3);
    t.tile_cols = 1u << pick(0, 2);
    t.updates_per_elem = uint32_t(pick(1, std::min<uint64_t>(4, bits(p.upe_w))));
  } while (uint64_t(t.tile_rows) * t.tile_cols * t.updates_per_elem > cnt_max);
  t.elem_bytes = 1u << pick(0, 2);
  // Now and then a tile spans whole columns, and writes run across columns.
  t.m_rows = u() < 0.2 ? t.tile_rows : t.tile_rows * uint32_t(pick(1, 64));
  t.n_cols = t.tile_cols * uint32_t(pick(1, 64));
  t.limit_at_last_element = u() < 0.5;
  const uint64_t span = uint64_t(t.m_rows) * t.n_cols * t.elem_bytes;
  const uint64_t addr_max = bits(p.addr_w);
  if (span + 1 > addr_max) throw std::invalid_argument("traffic: the array does not fit ADDR_W");
  // Anywhere in the address space, so that every address bit is exercised;
  // sometimes right at either end of it.
  const double where = u();
  t.base = where < 0.1 ? 0 : where < 0.2 ? addr_max - span : pick(0, addr_max - span);
  t.hot_sets = unsigned(pick(1, 3));
  t.p_hot = 0.3 + 0.6 * u();
  t.max_write = uint32_t(pick(1, 8));
  t.p_trig_ready = 0.2 + 0.8 * u();
  t.pending_target = p.ways * 16;
  return t;
}

TrackerStimulus::TrackerStimulus(const TrackerParams& p, const TrackerTraffic& t, uint64_t seed)
    : p_(p), t_(t), rng_(seed), live_per_set_(p.sets, 0) {
  threshold_ = uint64_t(t.tile_rows) * t.tile_cols * t.updates_per_elem;
  if (t.tile_rows == 0 || t.tile_cols == 0 || t.m_rows % t.tile_rows || t.n_cols % t.tile_cols)
    throw std::invalid_argument("traffic: the array must be a whole number of tiles");
  for (unsigned i = 0; i < t.hot_sets; ++i) hot_.push_back(unsigned(rng_() % p.sets));
}

void TrackerStimulus::add_writes(uint32_t wg, uint32_t wf, uint64_t r0, uint64_t c0) {
  std::uniform_int_distribution<uint32_t> pick_size(1, t_.max_write);
  const uint64_t last_elem = uint64_t(t_.m_rows) * t_.n_cols - 1;
  // Runs of contiguous elements: a column segment, or the whole tile when it
  // spans whole columns (then a write may run from one column into the next).
  const bool whole_columns = t_.m_rows == t_.tile_rows;
  const uint32_t runs = whole_columns ? 1 : t_.tile_cols;
  const uint32_t run_len = whole_columns ? t_.tile_rows * t_.tile_cols : t_.tile_rows;
  for (uint32_t pass = 0; pass < t_.updates_per_elem; ++pass) {
    const uint32_t src = pass == 0 ? 0 : 1 + uint32_t(rng_() & 1);  // local first, then remote/DMA
    for (uint32_t run = 0; run < runs; ++run) {
      const uint64_t first = (c0 + run) * t_.m_rows + r0;
      for (uint32_t e = 0; e < run_len;) {
        uint32_t n = std::min(pick_size(rng_), run_len - e);
        // The array's last element gets a write of its own: one at limit - 1.
        if (first + e + n - 1 == last_elem && n > 1) --n;
        TileWrite w;
        w.wg_id = wg;
        w.wf_id = wf;
        w.addr = t_.base + (first + e) * t_.elem_bytes;
        w.size = n;
        w.src = src;
        pending_.push_back(w);
        e += n;
      }
    }
  }
}

void TrackerStimulus::begin_tile() {
  const uint32_t wf_count = uint32_t(bits(p_.wf_id_w)) + 1;
  for (int attempt = 0; attempt < 8; ++attempt) {
    uint32_t wg = uint32_t(rng_() & bits(p_.wg_id_w));
    if (std::uniform_real_distribution<double>(0, 1)(rng_) < t_.p_hot)
      wg = (wg & ~uint32_t(p_.sets - 1)) | hot_[rng_() % hot_.size()];
    const uint32_t wf = uint32_t(rng_() % wf_count);
    const unsigned set = wg & (p_.sets - 1);
    if (remaining_.count(key(wg, wf))) continue;
    if (live_per_set_[set] > p_.ways) continue;
    if (live_per_set_[set] == p_.ways) {
      if (oversubscribed_ >= t_.oversubscribed_sets) continue;
      ++oversubscribed_;
    }
    ++live_per_set_[set];
    remaining_[key(wg, wf)] = threshold_;
    // A tile_rows x tile_cols rectangle, sometimes at either corner of the array.
    uint64_t r0 = t_.tile_rows * (rng_() % (t_.m_rows / t_.tile_rows));
    uint64_t c0 = t_.tile_cols * (rng_() % (t_.n_cols / t_.tile_cols));
    const double corner = std::uniform_real_distribution<double>(0, 1)(rng_);
    if (corner < t_.p_corner / 2) {
      r0 = c0 = 0;
    } else if (corner < t_.p_corner) {
      r0 = t_.m_rows - t_.tile_rows;
      c0 = t_.n_cols - t_.tile_cols;
    }
    add_writes(wg, wf, r0, c0);
    return;
  }
}

TileWrite TrackerStimulus::untracked_write() {
  TileWrite w;
  w.wg_id = uint32_t(rng_() & bits(p_.wg_id_w));
  w.wf_id = uint32_t(rng_() & bits(p_.wf_id_w));
  const uint64_t addr_max = bits(p_.addr_w), limit = t_.limit();
  const bool below_ok = t_.base > 0, above_ok = limit <= addr_max;
  const bool below = below_ok && (!above_ok || (rng_() & 1));
  const bool edge = (rng_() & 3) == 0;  // right at the boundary
  if (below) w.addr = edge ? t_.base - 1 : rng_() % t_.base;
  else w.addr = edge ? limit : limit + rng_() % (addr_max - limit + 1);
  w.size = 1 + uint32_t(rng_() % t_.max_write);
  w.src = uint32_t(rng_() % 3);
  return w;
}

void TrackerStimulus::drive(TrackerInputs& in) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  if (burst_left_ > 0) {
    --burst_left_;
    in.trig_ready = false;
  } else if (u(rng_) < t_.p_trig_burst) {
    burst_left_ = t_.trig_burst_len;
    in.trig_ready = false;
  } else {
    in.trig_ready = u(rng_) < t_.p_trig_ready;
  }

  while (!draining_ && pending_.size() < t_.pending_target) {
    const size_t before = pending_.size();
    begin_tile();
    if (pending_.size() == before) break;
  }

  if (!have_cur_ && u(rng_) < t_.p_valid) {
    const bool outside = u(rng_) < t_.p_untracked;
    if (outside && (t_.base > 0 || t_.limit() <= bits(p_.addr_w))) {
      cur_ = untracked_write();
      cur_untracked_ = true;
      have_cur_ = true;
    } else if (!pending_.empty()) {
      cur_idx_ = size_t(rng_() % pending_.size());
      cur_ = pending_[cur_idx_];
      cur_untracked_ = false;
      have_cur_ = true;
    }
  }
  present(in, cur_, have_cur_);
}

void TrackerStimulus::after(const TrackerInputs& in, const TrackerOutputs& out) {
  if (!in.in_valid) return;
  if (!out.in_ready) {
    have_cur_ = std::uniform_real_distribution<double>(0.0, 1.0)(rng_) < t_.p_hold;
    return;
  }
  have_cur_ = false;
  if (cur_untracked_) return;
  pending_[cur_idx_] = pending_.back();
  pending_.pop_back();
  auto it = remaining_.find(key(cur_.wg_id, cur_.wf_id));
  it->second -= cur_.size;
  if (it->second == 0) {
    remaining_.erase(it);
    const unsigned set = cur_.wg_id & (p_.sets - 1);
    if (live_per_set_[set]-- == p_.ways + 1) --oversubscribed_;
  }
}

}  // namespace t3::tb
