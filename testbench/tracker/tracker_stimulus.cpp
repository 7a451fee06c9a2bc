#include "tracker_stimulus.h"

#include <stdexcept>

namespace t3::tb {

TrackerStimulus::TrackerStimulus(const TrackerParams& p, const TrackerTraffic& t, uint64_t seed)
    : p_(p), t_(t), rng_(seed), live_per_set_(p.sets, 0) {
  wf_count_ = 1u << p.wf_id_w;
  threshold_ = uint64_t(t.cfg.tile_size) * t.cfg.updates_per_elem;
  if (t.tile_rows == 0 || t.cfg.tile_size % t.tile_rows != 0)
    throw std::invalid_argument("traffic: tile_size must be a multiple of tile_rows");
  if (t.m_rows < t.tile_rows)
    throw std::invalid_argument("traffic: m_rows must be at least tile_rows");
  remaining_.assign(size_t(t.wg_count) * wf_count_, 0);
}

void TrackerStimulus::reset() {
  pending_.clear();
  live_per_set_.assign(p_.sets, 0);
  remaining_.assign(remaining_.size(), 0);
  oversubscribed_ = 0;
  have_cur_ = false;
  burst_left_ = 0;
}

void TrackerStimulus::begin_tile(TrackerScoreboard& sb) {
  std::uniform_int_distribution<uint32_t> pick_k(0, t_.wg_count - 1), pick_wf(0, wf_count_ - 1);
  for (int attempt = 0; attempt < 8; ++attempt) {
    const uint32_t k = pick_k(rng_), wf = pick_wf(rng_);
    const uint32_t wg = t_.wg_first + k * t_.wg_stride;
    const unsigned set = wg & (p_.sets - 1);
    uint64_t& rem = remaining_[size_t(k) * wf_count_ + wf];
    if (rem != 0) continue;
    if (live_per_set_[set] > p_.ways) continue;
    if (live_per_set_[set] == p_.ways) {
      if (oversubscribed_ >= t_.oversubscribed_sets) continue;
      ++oversubscribed_;
    }
    ++live_per_set_[set];
    rem = threshold_;
    sb.begin_tile(wg, wf);

    // A tile_rows x cols rectangle of the column-major M x N output.
    const uint32_t cols = t_.cfg.tile_size / t_.tile_rows;
    const uint64_t r0 = std::uniform_int_distribution<uint64_t>(0, t_.m_rows - t_.tile_rows)(rng_);
    const uint64_t n_cols = (t_.cfg.limit - t_.cfg.base) / (t_.m_rows * t_.elem_bytes);
    const uint64_t c0 = std::uniform_int_distribution<uint64_t>(0, n_cols - cols)(rng_);
    std::uniform_int_distribution<uint32_t> pick_size(1, t_.max_write);
    for (uint32_t pass = 0; pass < t_.cfg.updates_per_elem; ++pass) {
      const uint32_t src = pass == 0 ? 0 : 1 + (rng_() & 1);  // local first, then remote/DMA
      for (uint32_t c = 0; c < cols; ++c) {
        for (uint32_t r = 0; r < t_.tile_rows;) {
          const uint32_t n = std::min(pick_size(rng_), t_.tile_rows - r);
          TileWrite w;
          w.wg_id = wg;
          w.wf_id = wf;
          w.addr = t_.cfg.base + ((c0 + c) * t_.m_rows + r0 + r) * t_.elem_bytes;
          w.size = n;
          w.src = src;
          pending_.push_back(w);
          r += n;
        }
      }
    }
    return;
  }
}

TileWrite TrackerStimulus::untracked_write() {
  TileWrite w;
  w.tracked = false;
  w.wg_id = t_.wg_first + uint32_t(rng_() % t_.wg_count) * t_.wg_stride;
  w.wf_id = uint32_t(rng_() % wf_count_);
  const uint64_t addr_max = p_.addr_w >= 64 ? ~uint64_t{0} : (uint64_t{1} << p_.addr_w) - 1;
  const bool below = t_.cfg.base > 0 && ((rng_() & 1) || t_.cfg.limit > addr_max);
  w.addr = below ? rng_() % t_.cfg.base
                 : t_.cfg.limit + rng_() % (addr_max - t_.cfg.limit + 1);
  w.size = 1 + uint32_t(rng_() % t_.max_write);
  w.src = uint32_t(rng_() % 3);
  return w;
}

void TrackerStimulus::drive(TrackerInputs& in, TrackerScoreboard& sb) {
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
    begin_tile(sb);
    if (pending_.size() == before) break;
  }

  if (!have_cur_ && u(rng_) < t_.p_valid) {
    if (u(rng_) < t_.p_untracked) {
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

void TrackerStimulus::after_cycle(const TrackerInputs& in, const TrackerOutputs& out) {
  if (!in.in_valid) return;
  if (!out.in_ready) {
    have_cur_ = std::uniform_real_distribution<double>(0.0, 1.0)(rng_) < t_.p_hold;
    return;
  }
  have_cur_ = false;
  if (cur_untracked_) return;
  pending_[cur_idx_] = pending_.back();
  pending_.pop_back();
  const uint32_t k = (cur_.wg_id - t_.wg_first) / t_.wg_stride;
  uint64_t& rem = remaining_[size_t(k) * wf_count_ + cur_.wf_id];
  rem -= cur_.size;
  if (rem == 0) {
    const unsigned set = cur_.wg_id & (p_.sets - 1);
    if (live_per_set_[set]-- == p_.ways + 1) --oversubscribed_;
  }
}

}  // namespace t3::tb
