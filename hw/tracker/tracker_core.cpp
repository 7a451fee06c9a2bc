#include "tracker/tracker_core.h"

#include <stdexcept>

#include "common/bits.h"

namespace t3 {

unsigned TrackerParams::set_w() const { return clog2(sets); }
unsigned TrackerParams::live_w() const { return clog2(uint64_t(entries()) + 1); }

void TrackerParams::validate() const {
  validate_param_ranges(*this, "tracker");
  if (wg_id_w <= set_w())
    param_error("tracker", "wg_id_w", "WG_ID_W", wg_id_w,
                std::to_string(set_w() + 1) + "..32 (more bits than the set index log2(sets))");
}

TrackerFault TrackerConfig::fault(const TrackerParams& p) const {
  const uint64_t b = base & low_mask(p.addr_w), l = limit & low_mask(p.addr_w);
  const uint64_t threshold = (tile_size & low_mask(p.cnt_w)) * (updates_per_elem & low_mask(p.upe_w));
  if (threshold == 0) return TrackerFault::threshold_zero;
  if (threshold >> p.cnt_w) return TrackerFault::threshold_too_wide;
  if (b >= l) return TrackerFault::region_empty;
  return TrackerFault::none;
}

std::optional<std::string> TrackerConfig::check(const TrackerParams& p) const {
  const uint64_t cnt_max = low_mask(p.cnt_w), upe_max = low_mask(p.upe_w), addr_max = low_mask(p.addr_w);
  auto out_of_range = [](const char* field, uint64_t v, const std::string& allowed) {
    return std::string(field) + " = " + std::to_string(v) + " is out of range; allowed: " + allowed;
  };
  if (tile_size == 0 || tile_size > cnt_max)
    return out_of_range("tile_size", tile_size, "1.." + std::to_string(cnt_max));
  if (updates_per_elem == 0 || updates_per_elem > upe_max)
    return out_of_range("updates_per_elem", updates_per_elem, "1.." + std::to_string(upe_max));
  if (base > addr_max) return out_of_range("base", base, "0.." + std::to_string(addr_max));
  if (limit > addr_max) return out_of_range("limit", limit, "0.." + std::to_string(addr_max));
  switch (fault(p)) {
    case TrackerFault::none:
      return std::nullopt;
    case TrackerFault::threshold_zero:  // excluded above; kept so every fault has a message
      return std::string("tile_size x updates_per_elem = 0; allowed: 1..") + std::to_string(cnt_max);
    case TrackerFault::threshold_too_wide:
      return "tile_size x updates_per_elem = " +
             std::to_string(uint64_t(tile_size) * updates_per_elem) +
             " does not fit the counter; allowed: 1.." + std::to_string(cnt_max) + " (CNT_W = " +
             std::to_string(p.cnt_w) + ")";
    case TrackerFault::region_empty:
      return "region [base, limit) = [" + std::to_string(base) + ", " + std::to_string(limit) +
             ") is empty; allowed: base < limit";
  }
  return std::nullopt;
}

TrackerCore::TrackerCore(const TrackerParams& params) : p_(params) {
  p_.validate();
  addr_mask_ = low_mask(p_.addr_w);
  wg_mask_ = low_mask(p_.wg_id_w);
  wf_mask_ = low_mask(p_.wf_id_w);
  cnt_mask_ = low_mask(p_.cnt_w);
  upe_mask_ = low_mask(p_.upe_w);
  stat_mask_ = low_mask(p_.stat_w);
  entries_.resize(p_.entries());
}

// Mirrors the always_comb block of rtl/tracker_core.sv, including its truncation
// of every input to the port width.
TrackerCore::Decision TrackerCore::decide(const TrackerCoreInputs& in) const {
  Decision d{};
  const uint64_t base = in.cfg.base & addr_mask_;
  const uint64_t limit = in.cfg.limit & addr_mask_;
  const uint64_t threshold = (in.cfg.tile_size & cnt_mask_) * (in.cfg.updates_per_elem & upe_mask_);
  d.cfg_error = in.cfg.enable && in.cfg.fault(p_) != TrackerFault::none;
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

TrackerCoreOutputs TrackerCore::eval(const TrackerCoreInputs& in) const {
  return outputs(decide(in));
}

void TrackerCore::clock(const TrackerCoreInputs& in) {
  apply(in, in.rst_n ? decide(in) : Decision{});
}

TrackerCoreOutputs TrackerCore::step(const TrackerCoreInputs& in) {
  if (!in.rst_n) {
    clock(in);
    return TrackerCoreOutputs{};
  }
  const Decision d = decide(in);
  const TrackerCoreOutputs o = outputs(d);
  apply(in, d);
  return o;
}

TrackerCoreOutputs TrackerCore::outputs(const Decision& d) const {
  TrackerCoreOutputs o;
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

void TrackerCore::apply(const TrackerCoreInputs& in, const Decision& d) {
  if (!in.rst_n) {
    for (Entry& e : entries_) e.valid = false;
    live_ = 0;
    trig_valid_ = false;
    trig_wg_id_ = trig_wf_id_ = 0;
    trig_addr_ = 0;
    stat_updates_ = stat_triggers_ = stat_stalls_ = stat_untracked_ = 0;
    return;
  }
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
