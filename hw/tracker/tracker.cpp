#include "tracker.h"

#include <stdexcept>

namespace t3 {
namespace {

uint64_t mask(unsigned w) { return w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1; }

unsigned clog2(uint64_t v) {
  unsigned r = 0;
  while ((uint64_t{1} << r) < v) ++r;
  return r;
}

void require(bool ok, const char* name, unsigned value, const std::string& range) {
  if (!ok)
    throw std::invalid_argument("tracker parameter " + std::string(name) + " = " +
                                std::to_string(value) + " is out of range; allowed: " + range);
}

}  // namespace

unsigned TrackerParams::set_w() const { return clog2(sets); }
unsigned TrackerParams::live_w() const { return clog2(uint64_t(entries()) + 1); }

void TrackerParams::validate() const {
  require(sets >= 2 && sets <= 65536 && (sets & (sets - 1)) == 0, "sets (SETS)", sets,
          "a power of two from 2 to 65536");
  require(ways >= 1 && ways <= 64, "ways (WAYS)", ways, "1..64");
  require(wg_id_w > set_w() && wg_id_w <= 32, "wg_id_w (WG_ID_W)", wg_id_w,
          std::to_string(set_w() + 1) + "..32 (more bits than the set index log2(sets))");
  require(wf_id_w >= 1 && wf_id_w <= 16, "wf_id_w (WF_ID_W)", wf_id_w, "1..16");
  require(addr_w >= 1 && addr_w <= 64, "addr_w (ADDR_W)", addr_w, "1..64");
  require(cnt_w >= 1 && cnt_w <= 31, "cnt_w (CNT_W)", cnt_w, "1..31");
  require(upe_w >= 1 && upe_w <= 8, "upe_w (UPE_W)", upe_w, "1..8");
  require(stat_w >= 1 && stat_w <= 32, "stat_w (STAT_W)", stat_w, "1..32");
}

std::optional<std::string> TrackerConfig::check(const TrackerParams& p) const {
  const uint64_t cnt_max = mask(p.cnt_w);
  const uint64_t addr_max = mask(p.addr_w);
  if (tile_size == 0 || tile_size > cnt_max)
    return "tile_size = " + std::to_string(tile_size) + " is out of range; allowed: 1.." +
           std::to_string(cnt_max);
  if (updates_per_elem == 0 || updates_per_elem > mask(p.upe_w))
    return "updates_per_elem = " + std::to_string(updates_per_elem) +
           " is out of range; allowed: 1.." + std::to_string(mask(p.upe_w));
  if (uint64_t(tile_size) * updates_per_elem > cnt_max)
    return "tile_size x updates_per_elem = " +
           std::to_string(uint64_t(tile_size) * updates_per_elem) +
           " does not fit the counter; allowed: 1.." + std::to_string(cnt_max) + " (CNT_W = " +
           std::to_string(p.cnt_w) + ")";
  if (limit > addr_max || base >= limit)
    return "region [base, limit) = [" + std::to_string(base) + ", " + std::to_string(limit) +
           ") is empty or wider than ADDR_W; allowed: base < limit <= " + std::to_string(addr_max);
  return std::nullopt;
}

Tracker::Tracker(const TrackerParams& params) : p_(params) {
  p_.validate();
  addr_mask_ = mask(p_.addr_w);
  wg_mask_ = mask(p_.wg_id_w);
  wf_mask_ = mask(p_.wf_id_w);
  cnt_mask_ = mask(p_.cnt_w);
  upe_mask_ = mask(p_.upe_w);
  stat_mask_ = mask(p_.stat_w);
  entries_.resize(p_.entries());
}

// Mirrors the always_comb block of rtl/tracker.sv, including its truncation
// of every input to the port width.
Tracker::Decision Tracker::decide(const TrackerInputs& in) const {
  Decision d{};
  const uint64_t base = in.cfg.base & addr_mask_;
  const uint64_t limit = in.cfg.limit & addr_mask_;
  const uint64_t threshold = (in.cfg.tile_size & cnt_mask_) * (in.cfg.updates_per_elem & upe_mask_);
  d.cfg_error = in.cfg.enable && (threshold == 0 || (threshold >> p_.cnt_w) != 0 || base >= limit);
  const bool tracking = in.cfg.enable && !d.cfg_error;

  const uint64_t addr = in.in_addr & addr_mask_;
  const uint32_t wg = uint32_t(in.in_wg_id & wg_mask_);
  const uint32_t wf = uint32_t(in.in_wf_id & wf_mask_);
  const uint32_t size = uint32_t(in.in_size & cnt_mask_);
  const unsigned set = wg & (p_.sets - 1);
  d.tag = ((wg >> p_.set_w()) << p_.wf_id_w) | wf;
  d.tracked = in.in_valid && tracking && addr >= base && addr < limit;

  const unsigned set_base = set * p_.ways;
  bool has_free = false;
  d.hit_idx = set_base;
  d.free_idx = set_base;
  for (unsigned w = p_.ways; w-- > 0;) {
    const Entry& e = entries_[set_base + w];
    if (e.valid && e.tag == d.tag) {
      d.hit = true;
      d.hit_idx = set_base + w;
    }
    if (!e.valid) {
      has_free = true;
      d.free_idx = set_base + w;
    }
  }
  const uint32_t old_cnt = d.hit ? entries_[d.hit_idx].cnt : 0;
  const uint64_t old_addr = d.hit ? entries_[d.hit_idx].addr : addr;
  d.new_addr = addr < old_addr ? addr : old_addr;
  d.sum = old_cnt + size;  // < 2^(CNT_W+1): old_cnt < threshold < 2^CNT_W
  d.fire = d.sum >= threshold;

  const bool out_free = !trig_valid_ || in.trig_ready;
  d.set_full = d.tracked && !d.fire && !d.hit && !has_free;
  d.stall = d.tracked && (d.fire ? !out_free : (!d.hit && !has_free));
  d.accept = d.tracked && !d.stall;
  return d;
}

TrackerOutputs Tracker::eval(const TrackerInputs& in) const {
  const Decision d = decide(in);
  TrackerOutputs o;
  o.cfg_error = d.cfg_error;
  o.in_ready = !d.stall;
  o.set_full = d.set_full;
  o.trig_valid = trig_valid_;
  o.trig_wg_id = trig_wg_id_;
  o.trig_wf_id = trig_wf_id_;
  o.trig_addr = trig_addr_;
  o.stat_updates = stat_updates_;
  o.stat_triggers = stat_triggers_;
  o.stat_stalls = stat_stalls_;
  o.stat_untracked = stat_untracked_;
  o.live = live_;
  return o;
}

void Tracker::clock(const TrackerInputs& in) {
  if (!in.rst_n) {
    for (Entry& e : entries_) e.valid = false;
    live_ = 0;
    trig_valid_ = false;
    trig_wg_id_ = trig_wf_id_ = 0;
    trig_addr_ = 0;
    stat_updates_ = stat_triggers_ = stat_stalls_ = stat_untracked_ = 0;
    return;
  }
  const Decision d = decide(in);
  auto bump = [this](uint32_t& c) { c = uint32_t((c + 1) & stat_mask_); };

  if (d.accept) {
    if (d.fire) {
      if (d.hit) {
        entries_[d.hit_idx].valid = false;
        --live_;
      }
      trig_valid_ = true;
      trig_wg_id_ = uint32_t(in.in_wg_id & wg_mask_);
      trig_wf_id_ = uint32_t(in.in_wf_id & wf_mask_);
      trig_addr_ = d.new_addr;
      bump(stat_triggers_);
    } else if (d.hit) {
      entries_[d.hit_idx].cnt = d.sum;
      entries_[d.hit_idx].addr = d.new_addr;
    } else {
      entries_[d.free_idx] = Entry{true, d.tag, in.in_addr & addr_mask_, d.sum};
      ++live_;
    }
    bump(stat_updates_);
  }
  if (!(d.accept && d.fire) && in.trig_ready) trig_valid_ = false;
  if (in.in_valid && d.stall) bump(stat_stalls_);
  if (in.in_valid && !d.tracked) bump(stat_untracked_);
}

}  // namespace t3
