#include "tracker/tracker_core.h"

#include <algorithm>
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
  ways_mask_ = low_mask(p_.ways);
  rows_.assign(p_.ways, Mem<Row>(p_.sets));
  valid_.assign(p_.sets, 0);
}

uint64_t TrackerCore::threshold_of(const TrackerConfig& c) const {
  return (c.tile_size & cnt_mask_) * (c.updates_per_elem & upe_mask_);
}

// The P stage of rtl/tracker_core.sv (its first always_comb blocks),
// including its truncation of every input to the port width.
TrackerCore::Decision TrackerCore::decide(const TrackerCoreInputs& in) const {
  Decision d{};
  // The configuration register (C): the register block's values of the last
  // cycle and the verdict on them.
  const uint64_t base = cfg_q_.base & addr_mask_;
  const uint64_t limit = cfg_q_.limit & addr_mask_;
  d.cfg_error = cfg_q_.enable && fault_q_;
  const bool tracking = cfg_q_.enable && !fault_q_;

  const uint64_t addr = in.in_addr & addr_mask_;
  const uint32_t wg = uint32_t(in.in_wg_id & wg_mask_);
  const uint32_t wf = uint32_t(in.in_wf_id & wf_mask_);
  d.size = uint32_t(in.in_size & cnt_mask_);
  d.set = wg & (p_.sets - 1);
  d.tag = ((wg >> p_.set_w()) << p_.wf_id_w) | wf;
  d.tile = uint32_t(cfg_q_.tile_size & cnt_mask_);
  d.upe = uint32_t(cfg_q_.updates_per_elem & upe_mask_);
  d.tracked = in.in_valid && tracking && addr >= base && addr < limit;

  // The set's valid bits after the edge (wb's change lands at it).
  uint64_t vset = valid_[d.set];
  if (wb_.chg && wb_.set == d.set)
    vset = (vset & ~(uint64_t{1} << wb_.way)) | (uint64_t(wb_.vnew) << wb_.way);
  const uint64_t free = ~vset & ways_mask_;
  // The write in S1 may take a way of this set if it is another tile.
  const bool s1_other = s1_.acc && s1_.set == d.set && s1_.tag != d.tag;
  // A known tile keeps its way through the writes in flight, unless the one
  // in WB (not yet in the list) completes it.
  bool known = false;
  for (const Known& k : kn_) known |= k.valid && k.set == d.set && k.tag == d.tag;
  if (wb_.push && wb_.set == d.set && wb_.row.tag == d.tag) known = false;
  const bool way_ok = known || (s1_other ? (free & (free - 1)) != 0 : free != 0);
  // The output queue after this edge, then room for the triggers of the
  // write in S1 and of this one, as if the consumer took none.
  d.pop = tq_cnt_ != 0 && in.trig_ready;
  const unsigned q_next = tq_cnt_ - unsigned(d.pop) + unsigned(wb_.push);
  const bool out_ok = q_next + unsigned(s1_.acc) < kTrigQueue;
  const bool out_room = q_next < kTrigQueue;
  const bool fast = way_ok && out_ok;
  // The exact decision from the lookup of this very write (nothing accepted
  // since: s1_.acc is the write taken in the cycle after the lookup's),
  // under the same threshold fields.
  const bool lk_match = lk_.valid && !s1_.acc && lk_.set == d.set && lk_.tag == d.tag &&
                        lk_.size == d.size && lk_.tile == d.tile && lk_.upe == d.upe;
  const bool slow = lk_match && (lk_.fire ? out_room : (lk_.hit || lk_.free));

  d.in_ready = !d.tracked || fast || slow;
  d.set_full = d.tracked && lk_match && !lk_.fire && !lk_.hit && !lk_.free;
  d.accept = d.tracked && d.in_ready;
  return d;
}

// The S1 stage: the rows read at the last edge, each way as it is after this
// edge (lw's write landed at the last one, wb's lands at this one).
TrackerCore::S1Result TrackerCore::lookup() const {
  S1Result r{};
  r.new_addr = s1_.addr;
  uint32_t old_cnt = 0;
  uint64_t old_addr = s1_.addr;
  bool hit_seen = false, free_seen = false;
  unsigned hit_way = 0, free_way = 0;
  for (unsigned w = 0; w < p_.ways; ++w) {
    bool v = (s1_.vset >> w) & 1;
    Row row = rows_[w].rdata();
    if (lw_.chg && lw_.set == s1_.set && lw_.way == w) {
      v = lw_.vnew;
      row = lw_.row;
    }
    if (wb_.chg && wb_.set == s1_.set && wb_.way == w) {
      v = wb_.vnew;
      row = wb_.row;
    }
    if (v && row.tag == s1_.tag && !hit_seen) {
      hit_seen = true;
      hit_way = w;
      old_cnt = row.cnt;
      old_addr = row.addr;
    }
    if (!v && !free_seen) {
      free_seen = true;
      free_way = w;
    }
  }
  r.hit = hit_seen;
  r.has_free = free_seen;
  r.way = hit_seen ? hit_way : free_way;
  // count + size >= threshold, as the RTL computes it: count >= threshold - size.
  r.fire = hit_seen ? (s1_.done || old_cnt >= s1_.rem) : s1_.done;
  r.sum = uint32_t((old_cnt + s1_.size) & cnt_mask_);
  r.new_addr = s1_.addr < old_addr ? s1_.addr : old_addr;
  return r;
}

TrackerCoreOutputs TrackerCore::eval(const TrackerCoreInputs& in) const {
  return outputs(decide(in));
}

void TrackerCore::clock(const TrackerCoreInputs& in) { apply(in, decide(in)); }

TrackerCoreOutputs TrackerCore::step(const TrackerCoreInputs& in) {
  const Decision d = decide(in);
  const TrackerCoreOutputs o = in.rst_n ? outputs(d) : TrackerCoreOutputs{};
  apply(in, d);
  return o;
}

TrackerCoreOutputs TrackerCore::outputs(const Decision& d) const {
  TrackerCoreOutputs o;
  o.cfg_error = d.cfg_error;
  o.in_ready = d.in_ready;
  o.set_full = d.set_full;
  o.trig_valid = tq_cnt_ != 0;
  if (o.trig_valid) {  // 0 while empty, as the RTL drives them
    const Trig& t = tq_[tq_head_];
    o.trig_wg_id = t.wg;
    o.trig_wf_id = t.wf;
    o.trig_addr = t.addr;
  }
  o.stat_updates = stat_updates_;
  o.stat_triggers = stat_triggers_;
  o.stat_stalls = stat_stalls_;
  o.stat_untracked = stat_untracked_;
  o.live = live_;
  o.busy = live_ != 0 || s1_.acc || wb_.valid;
  return o;
}

void TrackerCore::apply(const TrackerCoreInputs& in, const Decision& d) {
  // Everything from the state before the edge.
  const S1Result r = lookup();
  const uint64_t vset_pre = valid_[d.set];
  const bool rst = !in.rst_n;
  // The rows (no reset): wb's write (not at a reset edge), every presented
  // write's read.
  for (unsigned w = 0; w < p_.ways; ++w)
    rows_[w].clock(!rst && wb_.chg && wb_.vnew && wb_.way == w, wb_.set, wb_.row, in.in_valid,
                   d.set);
  // The output queue's slots have no reset either.
  if (wb_.push) tq_[(tq_head_ + tq_cnt_) % kTrigQueue] = wb_.trig;

  auto bump = [this](uint32_t& c) { c = uint32_t((c + 1) & stat_mask_); };
  if (rst) {
    std::fill(valid_.begin(), valid_.end(), 0);
    live_ = 0;
    tq_head_ = tq_cnt_ = 0;
    stat_updates_ = stat_triggers_ = stat_stalls_ = stat_untracked_ = 0;
    inc_upd_ = inc_stall_ = inc_untr_ = false;
  } else {
    // WB: the valid bit, the live count, the trigger queue, the counters.
    if (wb_.chg) {
      uint64_t& v = valid_[wb_.set];
      v = (v & ~(uint64_t{1} << wb_.way)) | (uint64_t(wb_.vnew) << wb_.way);
    }
    if (wb_.valid && wb_.alloc) ++live_;
    if (wb_.valid && wb_.free) --live_;
    if (d.pop) tq_head_ = (tq_head_ + 1) % kTrigQueue;
    tq_cnt_ = tq_cnt_ - unsigned(d.pop) + unsigned(wb_.push);
    if (wb_.push) bump(stat_triggers_);
    // What P decided counts at the next edge, off in_ready's path.
    if (inc_upd_) bump(stat_updates_);
    if (inc_stall_) bump(stat_stalls_);
    if (inc_untr_) bump(stat_untracked_);
    inc_upd_ = d.accept;
    inc_stall_ = in.in_valid && !d.in_ready;
    inc_untr_ = in.in_valid && !d.tracked;
  }

  // The known live tiles, at WB (no reset on their set and tag): a write
  // that fires forgets its tile, one that does not makes it known.
  bool kn_hit[kKnown], any_kn_hit = false;
  for (unsigned k = 0; k < kKnown; ++k) {
    kn_hit[k] = kn_[k].valid && kn_[k].set == wb_.set && kn_[k].tag == wb_.row.tag;
    any_kn_hit |= kn_hit[k];
  }
  if (wb_.valid && !wb_.push && !any_kn_hit) {
    kn_[kn_rr_].set = wb_.set;
    kn_[kn_rr_].tag = wb_.row.tag;
  }
  if (rst) {
    for (Known& k : kn_) k.valid = false;
    kn_rr_ = 0;
  } else if (wb_.valid) {
    if (wb_.push) {
      for (unsigned k = 0; k < kKnown; ++k)
        if (kn_hit[k]) kn_[k].valid = false;
    } else if (!any_kn_hit) {
      kn_[kn_rr_].valid = true;
      kn_rr_ = (kn_rr_ + 1) % kKnown;
    }
  }

  // lw: the write landing at this edge; lk: the lookup of a refused write.
  lw_ = static_cast<const WayWrite&>(wb_);
  lw_.chg = !rst && wb_.chg;
  lk_.set = s1_.set;
  lk_.tag = s1_.tag;
  lk_.size = s1_.size;
  lk_.tile = s1_.tile;
  lk_.upe = s1_.upe;
  lk_.hit = r.hit;
  lk_.fire = r.fire;
  lk_.free = r.has_free;
  lk_.valid = !rst && s1_.valid && !s1_.acc;

  // S1 -> WB.
  Wb nwb;
  nwb.valid = !rst && s1_.acc;
  nwb.chg = !rst && s1_.acc && (r.hit || !r.fire);
  nwb.push = !rst && s1_.acc && r.fire;
  nwb.vnew = !r.fire;
  nwb.alloc = !r.hit && !r.fire;
  nwb.free = r.hit && r.fire;
  nwb.set = s1_.set;
  nwb.way = r.way;
  nwb.row = Row{s1_.tag, r.new_addr, r.sum};
  nwb.trig = Trig{s1_.wg, s1_.wf, r.new_addr};
  wb_ = nwb;

  // P -> S1: every presented write, for its lookup.
  S1 ns;
  ns.valid = !rst && d.tracked;
  ns.acc = !rst && d.accept;
  ns.set = d.set;
  ns.tag = d.tag;
  ns.wg = uint32_t(in.in_wg_id & wg_mask_);
  ns.wf = uint32_t(in.in_wf_id & wf_mask_);
  ns.addr = in.in_addr & addr_mask_;
  ns.size = d.size;
  ns.rem = (thr_ - d.size) & uint32_t(cnt_mask_);
  ns.done = d.size >= thr_;
  ns.tile = d.tile;
  ns.upe = d.upe;
  ns.vset = vset_pre;
  s1_ = ns;

  // The configuration register, every edge (reset included).
  cfg_q_ = in.cfg;
  if (rst) cfg_q_.enable = false;  // a reset edge sees the registers from before it
  fault_q_ = in.cfg.fault(p_) != TrackerFault::none;
  thr_ = uint32_t(threshold_of(in.cfg) & cnt_mask_);
}

}  // namespace t3
