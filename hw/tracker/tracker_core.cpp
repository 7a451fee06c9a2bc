#include "tracker/tracker_core.h"

#include <algorithm>
#include <stdexcept>

#include "common/bits.h"

namespace t3 {

unsigned TrackerParams::set_w() const { return clog2(sets); }
unsigned TrackerParams::own_wf_n() const {
  return wf_id_w < 7 && (1u << wf_id_w) < ways ? 1u << wf_id_w : ways;
}

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
  // One scratch row, trigger slot and known-tile slot past the end each:
  // apply() writes there when a cycle writes nothing.
  scratch_row_ = size_t(p_.sets) * p_.ways;
  rows_.assign(scratch_row_ + 1, Row{});
  valid_.assign(p_.sets, 0);
  own_wg_.assign(p_.sets, 0);
  own_wf_.assign(p_.sets, 0);
  own_wf_n_ = p_.own_wf_n();
  set_w_ = p_.set_w();
}

uint64_t TrackerCore::threshold_of(const TrackerConfig& c) const {
  return (c.tile_size & cnt_mask_) * (c.updates_per_elem & upe_mask_);
}

// The P stage of rtl/tracker_core.sv (its first always_comb blocks),
// including its truncation of every input to the port width.
const TrackerCore::Decision& TrackerCore::decide(const TrackerCoreInputs& in) const {
  // eval() and then clock() of one cycle decide on the same inputs: the
  // decision is kept until the state (apply) or these inputs change. Not
  // trig_ready: no decision reads it (the consumer's take is apply()'s), and
  // a composition learns it only after the Tracker's outputs
  // (hw/mem_subsystem: the DMA table's ready follows the Tracker's trigger).
  if (dc_valid_ && dc_in_.in_valid == in.in_valid && dc_in_.in_wg_id == in.in_wg_id &&
      dc_in_.in_wf_id == in.in_wf_id && dc_in_.in_addr == in.in_addr && dc_in_.in_size == in.in_size)
    return dc_;
  // Written in place: a struct built on the stack and copied whole stalls
  // on its partly written words (store forwarding).
  Decision& d = dc_;
  // The configuration register (C): the register block's values of the last
  // cycle and the verdict on them.
  d.cfg_error = en_q_ && fault_q_;
  const bool tracking = en_q_ && !fault_q_;

  const uint64_t addr = in.in_addr & addr_mask_;
  const uint32_t wg = uint32_t(in.in_wg_id & wg_mask_);
  const uint32_t wf = uint32_t(in.in_wf_id & wf_mask_);
  d.size = uint32_t(in.in_size & cnt_mask_);
  d.set = wg & (p_.sets - 1);
  d.tag = ((wg >> set_w_) << p_.wf_id_w) | wf;
  d.tile = tile_q_;
  d.upe = upe_q_;
  // Bitwise & and | on bools below, not && and ||: on random traffic every
  // short-circuit is a branch the host mispredicts about half the time
  // (issue 20 measured seven a cycle, most of the model's time).
  d.tracked = in.in_valid & tracking & (addr >= base_q_) & (addr < limit_q_);

  // The set's valid bits after the edge (wb's change lands at it).
  const bool wb_here = wb_.chg & (wb_.set == d.set);
  const uint64_t vset = (valid_[d.set] & ~(uint64_t(wb_here) << wb_.way)) |
                        (uint64_t(wb_here & wb_.vnew) << wb_.way);
  const uint64_t free = ~vset & ways_mask_;
  // The write in S1 may take a way of this set if it is another tile.
  const bool s1_other = s1_.acc & (s1_.set == d.set) & (s1_.tag != d.tag);
  // A known tile keeps its way through the writes in flight, unless the one
  // in WB (not yet in the list) completes it.
  const uint64_t key = known_key(d.set, d.tag);
  bool known = known_listed(key);
  // Or its set's owner summary says so: the write's WG owns the set and its
  // WF's tile is live there.
  known |= (wf < own_wf_n_) & bool(own_wf_[d.set] >> (wf & 63) & 1) &
           (own_wg_[d.set] == (wg >> set_w_));
  known &= !(wb_.push & (wb_.set == d.set) & (wb_.row.tag == d.tag));
  const bool way_ok = known | (s1_other & ((free & (free - 1)) != 0)) | (!s1_other & (free != 0));
  // The output queue after this edge, then room for the triggers of the
  // write in S1 and of this one. The consumer's take in this cycle is not
  // counted: in_ready does not depend on trig_ready (no path from the
  // consumer through the Tracker to its producer).
  const unsigned q_next = tq_cnt_ + unsigned(wb_.push);
  const bool out_ok = q_next + unsigned(s1_.acc) < kTrigQueue;
  const bool out_room = q_next < kTrigQueue;
  const bool fast = way_ok & out_ok;
  // The exact decision from the lookup of this very write (nothing accepted
  // since: s1_.acc is the write taken in the cycle after the lookup's),
  // under the same threshold fields.
  const bool lk_match = lk_.valid & !s1_.acc & (lk_.set == d.set) & (lk_.tag == d.tag) &
                        (lk_.size == d.size) & (lk_.tile == d.tile) & (lk_.upe == d.upe);
  const bool slow = lk_match & ((lk_.fire & out_room) | ((!lk_.fire) & (lk_.hit | lk_.free)));

  d.in_ready = !d.tracked | fast | slow;
  d.set_full = d.tracked & lk_match & !lk_.fire & !lk_.hit & !lk_.free;
  d.accept = d.tracked & d.in_ready;
  dc_in_ = in;
  dc_valid_ = true;
  return d;
}

// The S1 stage, on the rows and valid bits as they are after this edge:
// apply() has landed wb's write before it looks up. The RTL reads the rows a
// cycle earlier (t3_mem) and forwards the two writes not yet in them (wb,
// and lw, written at the edge of its read); the words are the same, and the
// co-simulation compares every pin every cycle. The model reads its array
// directly: a copy of every way's row a cycle was its main cost.
TrackerCore::S1Result TrackerCore::lookup() const {
  S1Result r{};
  const uint64_t v = valid_[s1_.set];
  const Row* row = &rows_[size_t(s1_.set) * p_.ways];
  // Every way compared, as the RTL does (no early exit: a branch per way
  // on random tags); the lowest valid way of the tile wins (a tile holds one
  // way at most).
  uint64_t match = 0;
#pragma GCC unroll 8
  for (unsigned w = 0; w < p_.ways; ++w) match |= uint64_t(row[w].tag == s1_.tag) << w;
  match &= v;
  const uint64_t free = ~v & ways_mask_;
  r.hit = match != 0;
  r.has_free = free != 0;
  // ctz of 0 is undefined: bit 63 stands in, and pick() drops what it gives.
  const unsigned hit_way = pick(r.hit, unsigned(__builtin_ctzll(match | uint64_t{1} << 63)), 0u);
  const unsigned free_way = pick(r.has_free, unsigned(__builtin_ctzll(free | uint64_t{1} << 63)), 0u);
  r.way = pick(r.hit, hit_way, free_way);
  const Row& hr = row[hit_way];
  const uint32_t old_cnt = pick(r.hit, hr.cnt, 0u);
  const uint64_t old_addr = pick(r.hit, hr.addr, s1_.addr);
  // count + size >= threshold, as the RTL computes it: count >= threshold - size.
  r.fire = s1_.done | (r.hit & (old_cnt >= s1_.rem));
  r.sum = uint32_t((old_cnt + s1_.size) & cnt_mask_);
  r.new_addr = s1_.addr < old_addr ? s1_.addr : old_addr;
  return r;
}

TrackerCoreOutputs TrackerCore::eval(const TrackerCoreInputs& in) const {
  return outputs(decide(in));
}

void TrackerCore::clock(const TrackerCoreInputs& in) { apply(in, decide(in)); }

TrackerCoreOutputs TrackerCore::step(const TrackerCoreInputs& in) {
  const Decision& d = decide(in);
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
  // 0 while empty, as the RTL drives them.
  const Trig& t = tq_[tq_head_];
  o.trig_wg_id = pick(o.trig_valid, t.wg, 0u);
  o.trig_wf_id = pick(o.trig_valid, t.wf, 0u);
  o.trig_addr = pick(o.trig_valid, t.addr, uint64_t{0});
  o.stat_updates = stat_updates_;
  o.stat_triggers = stat_triggers_;
  o.stat_stalls = stat_stalls_;
  o.stat_untracked = stat_untracked_;
  o.live = live_;
  o.busy = live_ != 0 || s1_.acc || wb_.valid;
  return o;
}

void TrackerCore::apply(const TrackerCoreInputs& in, const Decision& d) {
  dc_valid_ = false;
  const bool rst = !in.rst_n;
  // Branch-free on the traffic, as decide() is: the writes that may not
  // happen go to a scratch slot past the end of their array.
  // WB: wb's row lands (the rows have no reset, and a reset edge writes
  // none), then its valid bit; S1 looks its write up in the result (the
  // lookup's result is used by an accepted write and by a refused one's
  // lookup register, both of a write presented in the last cycle).
  const bool chg = !rst & wb_.chg;
  rows_[pick(chg & wb_.vnew, size_t(wb_.set) * p_.ways + wb_.way, scratch_row_)] = wb_.row;
  uint64_t& v = valid_[wb_.set];
  v = (v & ~(uint64_t(chg) << wb_.way)) | (uint64_t(chg & wb_.vnew) << wb_.way);
  S1Result r = lookup();
  const bool looked = s1_.valid & !rst;
  r.hit &= looked;
  r.fire &= looked;
  r.has_free &= looked;
  // The output queue's slots have no reset either.
  const unsigned tail = tq_head_ + tq_cnt_;
  tq_[pick(wb_.push, pick(tail >= kTrigQueue, tail - kTrigQueue, tail), kTrigQueue)] = wb_.trig;

  if (rst) {
    std::fill(valid_.begin(), valid_.end(), 0);
    live_ = 0;
    tq_head_ = tq_cnt_ = 0;
    stat_updates_ = stat_triggers_ = stat_stalls_ = stat_untracked_ = 0;
    inc_upd_ = inc_stall_ = inc_untr_ = false;
    for (uint64_t& k : kn_key_) k = 0;
    kn_rr_ = 0;
    std::fill(own_wf_.begin(), own_wf_.end(), 0);
  } else {
    // WB: the live count, the trigger queue, the counters.
    live_ = live_ + unsigned(wb_.valid & wb_.alloc) - unsigned(wb_.valid & wb_.free);
    const bool pop = (tq_cnt_ != 0) & in.trig_ready;
    const unsigned head = tq_head_ + unsigned(pop);
    tq_head_ = head == kTrigQueue ? 0 : head;
    tq_cnt_ = tq_cnt_ - unsigned(pop) + unsigned(wb_.push);
    const auto bump = [this](uint32_t& c, bool inc) { c = uint32_t((c + inc) & stat_mask_); };
    bump(stat_triggers_, wb_.push);
    // What P decided counts at the next edge, off in_ready's path.
    bump(stat_updates_, inc_upd_);
    bump(stat_stalls_, inc_stall_);
    bump(stat_untracked_, inc_untr_);
    inc_upd_ = d.accept;
    inc_stall_ = in.in_valid & !d.in_ready;
    inc_untr_ = in.in_valid & !d.tracked;

    // The known live tiles, at WB: a write that fires forgets its tile, one
    // that does not makes it known (round-robin replacement).
    const uint64_t key = known_key(wb_.set, wb_.row.tag);
    const bool any = known_listed(key);
    // A trigger is rare beside the writes (one per tile): a branch the host
    // predicts.
    if (wb_.valid & wb_.push & any)
      for (uint64_t& k : kn_key_) k = k == key ? 0 : k;
    const bool learn = wb_.valid & !wb_.push & !any;
    kn_key_[pick(learn, kn_rr_, kKnown)] = key;
    kn_rr_ = (kn_rr_ + unsigned(learn)) % kKnown;

    // The set's owner summary, at WB: a tile of the owner that takes a way
    // sets its WF's bit, one that frees its way clears it; the first tile
    // into a set whose owner has no live tile makes its WG the owner.
    const uint32_t m = wb_.row.tag >> p_.wf_id_w, f = wb_.row.tag & uint32_t(wf_mask_);
    const uint64_t bit = f < own_wf_n_ ? uint64_t{1} << (f & 63) : 0;
    uint32_t& own = own_wg_[wb_.set];
    uint64_t& wfs = own_wf_[wb_.set];
    const bool alloc = wb_.valid & wb_.alloc, freed = wb_.valid & wb_.free;
    const bool take = alloc & (wfs == 0);
    const bool mine = (!take) & (alloc | freed) & (own == m);
    own = pick(take, m, own);
    wfs = pick(take, bit, pick(mine, pick(alloc, wfs | bit, wfs & ~bit), wfs));
  }

  // lk: the lookup of a refused write.
  lk_.set = s1_.set;
  lk_.tag = s1_.tag;
  lk_.size = s1_.size;
  lk_.tile = s1_.tile;
  lk_.upe = s1_.upe;
  lk_.hit = r.hit;
  lk_.fire = r.fire;
  lk_.free = r.has_free;
  lk_.valid = !rst & s1_.valid & !s1_.acc;

  // S1 -> WB, field by field in place (a whole-struct copy of one built on
  // the stack stalls on store forwarding).
  wb_.valid = !rst & s1_.acc;
  wb_.chg = !rst & s1_.acc & (r.hit | !r.fire);
  wb_.push = !rst & s1_.acc & r.fire;
  wb_.vnew = !r.fire;
  wb_.alloc = !r.hit & !r.fire;
  wb_.free = r.hit & r.fire;
  wb_.set = s1_.set;
  wb_.way = r.way;
  wb_.row.tag = s1_.tag;
  wb_.row.addr = r.new_addr;
  wb_.row.cnt = r.sum;
  wb_.trig.wg = s1_.wg;
  wb_.trig.wf = s1_.wf;
  wb_.trig.addr = r.new_addr;

  // P -> S1: every presented write, for its lookup.
  s1_.valid = !rst & d.tracked;
  s1_.acc = !rst & d.accept;
  s1_.set = d.set;
  s1_.tag = d.tag;
  s1_.wg = uint32_t(in.in_wg_id & wg_mask_);
  s1_.wf = uint32_t(in.in_wf_id & wf_mask_);
  s1_.addr = in.in_addr & addr_mask_;
  s1_.size = d.size;
  s1_.rem = (thr_ - d.size) & uint32_t(cnt_mask_);
  s1_.done = d.size >= thr_;
  s1_.tile = d.tile;
  s1_.upe = d.upe;

  // The configuration register, every edge (reset included): the enable
  // (a reset edge sees the registers from before it, and clears it), the
  // fields as P reads them, the verdict and the threshold. The model
  // recomputes the derived values only when a field changes (they seldom do).
  en_q_ = !rst & in.cfg.enable;
  if (!cfg_seen_ || in.cfg.base != cfg_in_.base || in.cfg.limit != cfg_in_.limit ||
      in.cfg.tile_size != cfg_in_.tile_size || in.cfg.updates_per_elem != cfg_in_.updates_per_elem) {
    cfg_in_ = in.cfg;
    cfg_seen_ = true;
    fault_q_ = in.cfg.fault(p_) != TrackerFault::none;
    thr_ = uint32_t(threshold_of(in.cfg) & cnt_mask_);
    base_q_ = in.cfg.base & addr_mask_;
    limit_q_ = in.cfg.limit & addr_mask_;
    tile_q_ = uint32_t(in.cfg.tile_size & cnt_mask_);
    upe_q_ = uint32_t(in.cfg.updates_per_elem & upe_mask_);
  }
}

}  // namespace t3
