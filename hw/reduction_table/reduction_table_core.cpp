#include "reduction_table/reduction_table_core.h"

#include "common/bits.h"
#include "common/fp_convert.h"
#include "common/fp_lanes.h"

namespace t3 {

void ReductionTableParams::validate() const {
  validate_param_ranges(*this, "reduction_table");
  if (acc32 && flit_w > 256)
    param_error("reduction_table", "flit_w", "FLIT_W", flit_w,
                "128 or 256 with ACC32 = 1 (an fp32 accumulator word is 2 x FLIT_W bits, at most 512)");
}

const char* name(RtErr e) {
  switch (e) {
    case RtErr::none: return "none";
    case RtErr::unknown_op: return "unknown_op";
    case RtErr::bad_len: return "bad_len";
    case RtErr::bad_red_op: return "bad_red_op";
    case RtErr::bad_dtype: return "bad_dtype";
    case RtErr::misaligned: return "misaligned";
    case RtErr::wrong_port: return "wrong_port";
    case RtErr::no_region: return "no_region";
    case RtErr::bad_count: return "bad_count";
    case RtErr::mismatch: return "mismatch";
    case RtErr::overcount: return "overcount";
    case RtErr::duplicate: return "duplicate";
  }
  return "?";
}

RtErr rt_check(const pkt::Header& h, bool rsp, const ReductionTableParams& p) {
  const pkt::Malformed m = pkt::check(h, p.max_len, p.flit_w);
  if (m != pkt::Malformed::none) return RtErr(m);
  const bool push = h.op == uint8_t(pkt::Op::push), pull = h.op == uint8_t(pkt::Op::pull);
  const bool prsp = h.op == uint8_t(pkt::Op::pull_rsp);
  if (rsp ? !prsp : !(push || pull)) return RtErr::wrong_port;
  if (!h.hit) return RtErr::no_region;
  // A contribution holds at least one and at most what the region expects;
  // a PULL waits for expect - count (its requester's own) and needs one.
  if (push && (h.count == 0 || h.count > h.expect)) return RtErr::bad_count;
  if (pull && h.count >= h.expect) return RtErr::bad_count;
  if (prsp && h.count == 0) return RtErr::bad_count;
  return RtErr::none;
}

ReductionTableCore::ReductionTableCore(const ReductionTableParams& p)
    : p_(p),
      stat_mask_(uint32_t(low_mask(p.stat_w))),
      flit_lsb_(clog2(p.flit_w / 8)),
      ent_((p.validate(), p.entries)),
      lru_(p.entries, 0),
      key_(p.entries, 0),
      atag_(p.entries, 0),
      mem_(p.words()),
      hfifo_(ReductionTableParams::kHdrDepth),
      dfifo_(p.out_depth()),
      written_(p.out_depth(), 0) {
  fp_lanes_check_host();
  // The power-up state is all zeros, as the RTL's flops under Verilator
  // (the LRU order too: it is a permutation only after a reset).
  settle();
}

bool ReductionTableCore::cfg_error(uint32_t timeout) const {
  return p_.timeout_w < 32 && timeout > low_mask(p_.timeout_w);
}

ReductionTableCore::EntryView ReductionTableCore::entry(unsigned e) const {
  const Entry& x = ent_.at(e);
  return EntryView{x.valid, x.pull, x.rgn, x.who, x.ctr, x.count, x.expect, x.home,
                   x.dtype, x.len, x.atag << flit_lsb_};
}

void ReductionTableCore::reset() {
  hdr_[0] = hdr_[1] = Hdr{};
  turn_ = false;
  for (Entry& e : ent_) e = Entry{};
  for (unsigned e = 0; e < p_.entries; ++e) key_[e] = atag_[e] = 0;
  for (unsigned i = 0; i < p_.entries; ++i) lru_[i] = uint8_t(i);
  occ_ = 0;
  dp_ = DataPhase{};
  dpn_ = DataPhase{};
  for (Stage& s : ring_) s.valid = false;
  last_we_ = false;
  hwptr_ = hrptr_ = hdr_fill_ = 0;
  dwptr_ = drptr_ = data_res_ = 0;
  for (auto& w : written_) w = 0;
  pend_ = pend_hdr_ = false;
  rem_ = 0;
  err_code_ = err_op_ = 0;
  err_stream_ = evt_mal_ = evt_ref_ = false;
  st_alloc_ = st_hits_ = st_compl_ = st_lru_ = st_tmo_ = 0;
  st_stall_[0] = st_stall_[1] = st_bypass_ = st_pass_ = st_mal_ = st_ref_ = 0;
  hwm_ = 0;
  settle();
}

bool ReductionTableCore::hazard() const {
  bool hz = false;
  for (unsigned k = 1; k <= 3; ++k) {
    const Stage& s = st(k);
    hz |= s.valid & (s.dest == kMem) & (s.addr == dp_.addr);
  }
  return hz & dp_.active & reads_mem(dp_.mode);
}

void ReductionTableCore::settle() {
  hz_ = hazard();
  for (unsigned s = 0; s < 2; ++s) {
    own_[s] = dp_.active & (dp_.src == s);
    // A stream whose packet waits in the next data phase gives nothing.
    free_[s] = !(dpn_.active & (dpn_.src == s)) & !hdr_[s].valid;
  }
  busy_ = occ_ != 0 || dp_.active || dpn_.active || hdr_fill_ != 0 || data_res_ != 0 || pend_ || hdr_[0].valid ||
          hdr_[1].valid;
  for (unsigned k = 1; k <= 5; ++k) busy_ |= st(k).valid;
}

void ReductionTableCore::outputs(const ReductionTableCoreInputs& in, ReductionTableCoreOutputs& o) const {
  o.req_in_ready = stream_ready(0, in);
  o.rsp_in_ready = stream_ready(1, in);
  o.out_valid = pend_ && in.rst_n;
  if (o.out_valid) {
    if (pend_hdr_) {
      o.out_flit = Wide{};
      o.out_flit.w[0] = hfifo_.rdata().w[0];
      o.out_flit.w[1] = hfifo_.rdata().w[1];
    } else {
      o.out_flit = dfifo_.rdata();
    }
  } else {
    o.out_flit = Wide{};
  }
  o.stat_alloc = st_alloc_;
  o.stat_hits = st_hits_;
  o.stat_completions = st_compl_;
  o.stat_evict_lru = st_lru_;
  o.stat_evict_timeout = st_tmo_;
  o.stat_stall_req = st_stall_[0];
  o.stat_stall_rsp = st_stall_[1];
  o.stat_bypasses = st_bypass_;
  o.stat_pull_passed = st_pass_;
  o.stat_malformed = st_mal_;
  o.stat_refused = st_ref_;
  o.stat_hwm = hwm_;
  o.cfg_error = cfg_error(in.cfg_timeout);
  o.occupancy = occ_;
  o.busy = busy_;
  o.err_code = err_code_;
  o.err_stream = err_stream_;
  o.err_op = err_op_;
  o.evt_malformed = evt_mal_;
  o.evt_refused = evt_ref_;
}

Wide ReductionTableCore::widen(const Wide& flit, unsigned dtype) const {
  Wide w;
  if (!p_.acc32 || dtype == uint8_t(pkt::Dtype::fp32)) {
    w.copy_low(flit, p_.flit_w);
    return w;
  }
  const FpFormat& f = dtype == uint8_t(pkt::Dtype::fp16) ? kFp16 : kBf16;
  for (unsigned i = 0; i < p_.flit_w / 16; ++i) w.set_lane(32 * i, 32, fp_widen(f, flit.lane(16 * i, 16)));
  return w;
}

Wide ReductionTableCore::narrow(const Wide& word, unsigned dtype) const {
  Wide w;
  const FpFormat& f = dtype == uint8_t(pkt::Dtype::fp16) ? kFp16 : kBf16;
  for (unsigned i = 0; i < p_.flit_w / 16; ++i) w.set_lane(16 * i, 16, fp_narrow(f, word.lane(32 * i, 32)));
  return w;
}

void ReductionTableCore::lru_touch(unsigned e) {
  unsigned p = 0;
  while (lru_[p] != e) ++p;
  for (; p + 1 < p_.entries; ++p) lru_[p] = lru_[p + 1];
  lru_[p_.entries - 1] = uint8_t(e);
}

void ReductionTableCore::lru_free(unsigned e) {
  unsigned p = 0;
  while (lru_[p] != e) ++p;
  for (; p > 0; --p) lru_[p] = lru_[p - 1];
  lru_[0] = uint8_t(e);
}

void ReductionTableCore::free_entry(unsigned e) {
  ent_[e].valid = false;
  key_[e] = 0;
  lru_free(e);
  --occ_;
}

unsigned ReductionTableCore::lowest_expired(uint32_t timeout) const {
  // No scan while nothing can have timed out. The free entries sit at the
  // least recently used end (freed to it, allocated from it, touched to the
  // other end), so the valid ones follow in the order of their last touch:
  // the first of them is the oldest.
  if (occ_ == 0 || cycle_ - ent_[lru_[p_.entries - occ_]].touched - 1 < timeout) return p_.entries;
  for (unsigned e = 0; e < p_.entries; ++e)
    if (ent_[e].valid && cycle_ - ent_[e].touched - 1 >= timeout) return e;
  return p_.entries;
}

// --------------------------------------------------------------------------
// The rising edge. Everything below is decided on the state before the edge
// (as the RTL's always_comb blocks see it), then applied.
void ReductionTableCore::clock(const ReductionTableCoreInputs& in) {
  const bool cerr = cfg_error(in.cfg_timeout);
  // The idle counters are compared with TIMEOUT as it was in the cycle
  // before (the RTL registers each entry's verdict for the next cycle).
  const uint32_t tmo = tmo_prev_;
  const bool tmo_en = tmo_en_prev_;
  tmo_prev_ = in.cfg_timeout;
  tmo_en_prev_ = !cerr && in.cfg_timeout != 0;
  if (!in.rst_n) {
    reset();
    ++cycle_;
    return;
  }
  const unsigned fw = p_.flit_w, dw = p_.data_w(), odm = p_.out_depth() - 1;

  // ---- the streams: readiness, stalls, the data phase's issue, headers taken
  const bool hz = hz_;
  const bool rdy[2] = {stream_ready(0, in), stream_ready(1, in)};
  const bool val[2] = {in.req_in_valid, in.rsp_in_valid};
  const Wide* flit[2] = {&in.req_in_flit, &in.rsp_in_flit};
  for (unsigned s = 0; s < 2; ++s) st_stall_[s] = (st_stall_[s] + (val[s] & !rdy[s])) & stat_mask_;
  const bool issue = dp_.active & (dp_.src < 2 ? val[dp_.src & 1] & rdy[dp_.src & 1] : !hz);
  // A decision needs the next data phase free (not this cycle's issue).
  const bool dec_ok = !dpn_.active;
  bool take[2];
  for (unsigned s = 0; s < 2; ++s) take[s] = val[s] & rdy[s] & !own_[s];

  // ---- the output reader (on the FIFOs' state before the edge)
  const bool issue_ok = !pend_ || in.out_ready;
  bool rd_hdr = false, rd_data = false;
  unsigned rem_next = rem_;
  if (pend_hdr_) {
    rd_data = issue_ok && written_[drptr_];
    if (rd_data) rem_next = unsigned(pkt::unpack(hfifo_.rdata()).len) - 1;
  } else if (rem_ != 0) {
    rd_data = issue_ok && written_[drptr_];
    if (rd_data) rem_next = rem_ - 1;
  } else {
    rd_hdr = issue_ok && hdr_fill_ != 0 && written_[drptr_];
  }

  // ---- the decision: a timeout eviction first, else the header whose turn it is
  enum class Act : uint8_t {
    none, wait, drop_mal, refuse, add, add_out, store_new, store_fill, pass_alone, pass_fill,
    bypass, alloc_pull, pull_passed, evict_lru, free_lru, evict_tmo, free_tmo
  };
  Act act = Act::none;
  unsigned de = 0;  // the entry it concerns
  RtErr refusal = RtErr::none;
  const unsigned hs = turn_ ? 1 : 0;
  const pkt::Header& h = hdr_[hs].h;
  if (dec_ok) {
    if (tmo_en) {
      const unsigned e = lowest_expired(tmo);
      if (e < p_.entries) {
        if (ent_[e].count == 0) act = Act::free_tmo;
        else if (room(ent_[e].len)) act = Act::evict_tmo;
        if (act != Act::none) de = e;
      }
    }
    if (act == Act::none && hdr_[hs].valid) {
      const RtErr code = hdr_[hs].code;
      const bool push = h.op == uint8_t(pkt::Op::push), pull = h.op == uint8_t(pkt::Op::pull);
      if (code != RtErr::none) {
        act = Act::drop_mal;
      } else {
        // The key: kind, region, flit address, and for a pull the requester
        // (a PULL's src, its responses' dst) and counter id.
        const uint64_t atag = h.addr >> flit_lsb_;
        const uint8_t who = push ? 0 : pull ? h.src : h.dst;
        const uint8_t ctr = push ? 0 : h.ctr;
        const uint64_t k = key(!push, h.rgn, who, ctr);
        unsigned hit = p_.entries;
        for (unsigned e = 0; e < p_.entries; ++e)
          hit = pick((atag_[e] == atag) & (key_[e] == k), e, hit);
        const unsigned head = lru_[0];
        const Entry& hd = ent_[head];
        if (hit < p_.entries) {
          const Entry& x = ent_[hit];
          de = hit;
          const unsigned sum = unsigned(x.count) + h.count;
          if (pull) {
            act = Act::refuse;
            refusal = RtErr::duplicate;
          } else if (x.len != h.len || x.dtype != h.dtype ||
                     (push && (x.expect != h.expect || x.home != h.home))) {
            act = Act::refuse;
            refusal = RtErr::mismatch;
          } else if (sum > x.expect) {
            act = Act::refuse;
            refusal = RtErr::overcount;
          } else if (sum == x.expect) {
            act = !room(h.len) ? Act::wait : x.count == 0 ? Act::pass_fill : Act::add_out;
          } else {
            act = x.count == 0 ? Act::store_fill : Act::add;
          }
        } else if (push) {
          if (h.count == h.expect) act = room(h.len) ? Act::pass_alone : Act::wait;
          else if (!hd.valid) act = Act::store_new;
          else if (hd.count == 0) act = Act::free_lru;
          else act = room(hd.len) ? Act::evict_lru : Act::wait;
          de = head;
        } else if (pull) {
          act = !hd.valid ? Act::alloc_pull : in.cfg_pull_pass ? Act::pull_passed : Act::wait;
          de = head;
        } else {
          act = room(h.len) ? Act::bypass : Act::wait;
        }
      }
    }
  }
  const bool hdr_act = act != Act::none && act != Act::evict_tmo && act != Act::free_tmo;
  const bool hdr_done = hdr_act && act != Act::wait && act != Act::evict_lru && act != Act::free_lru;

  // ---- the pipeline: the write-back (s5), the value of s1 (the word read
  // with the writes 4 and 5 cycles older forwarded, and the adders), then
  // every stage moves on and the issue enters s1.
  Stage& s5 = st(5);
  const bool mem_we = s5.valid && s5.dest == kMem;
  const bool fifo_we = s5.valid && s5.dest == kFifo;
  // A stored value is zero above its bits: the FIFO takes it whole, but
  // ACC32's fp32 lanes rounded to the 16-bit dtype.
  if (fifo_we && s5.narrow) narrowed_ = narrow(s5.val, s5.dtype);
  Stage& s1 = st(1);
  if (s1.valid && (s1.sum || s1.evict)) {
    const Wide& cur = (mem_we && s5.addr == s1.addr)         ? s5.val
                      : (last_we_ && last_addr_ == s1.addr) ? last_val_
                                                            : mem_.rdata();
    if (s1.sum) fp_add_burst(p_.acc32 ? uint32_t(pkt::Dtype::fp32) : s1.dtype, cur, s1.val, s1.val, dw);
    else s1.val = cur;
  }
  const bool mem_re = issue && reads_mem(dp_.mode);
  mem_.clock(mem_we, s5.addr, s5.val, mem_re, dp_.addr);
  dfifo_.clock(fifo_we, s5.slot, s5.narrow ? narrowed_ : s5.val, rd_data, drptr_);
  if (fifo_we) written_[s5.slot] = 1;
  last_we_ = mem_we;
  if (mem_we) {
    last_addr_ = s5.addr;
    last_val_ = s5.val;
  }
  head_ = (head_ + 7) & 7;
  Stage& n1 = st(1);
  n1.valid = issue && dp_.mode != Mode::drop;
  if (n1.valid) {
    const Wide& f = *flit[dp_.src & 1];
    n1.dtype = dp_.dtype;
    n1.addr = dp_.addr;
    n1.slot = dp_.slot;
    n1.sum = dp_.mode == Mode::add || dp_.mode == Mode::add_out;
    n1.evict = dp_.mode == Mode::evict;
    n1.dest = dp_.mode == Mode::store || dp_.mode == Mode::add ? kMem : kFifo;
    n1.narrow = p_.acc32 && dp_.dtype != uint8_t(pkt::Dtype::fp32) &&
                (dp_.mode == Mode::add_out || dp_.mode == Mode::evict);
    if (dp_.mode == Mode::pass_out) {
      n1.val = Wide{};
      n1.val.copy_low(f, fw);
    } else if (!n1.evict) {
      n1.val = widen(f, dp_.dtype);
    }
  }
  if (issue) {
    --dp_.left;
    ++dp_.addr;
    dp_.slot = (dp_.slot + 1) & odm;
    if (dp_.left == 0) dp_.active = false;
  }
  // The data phase free: the next one moves in (then no decision was made).
  if (!dp_.active && dpn_.active) {
    dp_ = dpn_;
    dpn_.active = false;
  }

  // ---- the output reader's reads
  if (rd_data) {
    written_[drptr_] = 0;
    drptr_ = (drptr_ + 1) & odm;
    --data_res_;
    rem_ = rem_next;
  }
  bool hfifo_we = false;
  pkt::Header out_h;

  // ---- the decision applied
  evt_mal_ = evt_ref_ = false;
  auto make_out = [&](const Entry& x, uint8_t op, uint8_t count) {
    pkt::Header o;
    o.op = op;
    o.dtype = x.dtype;
    o.len = x.len;
    o.dst = x.pull ? x.who : x.home;
    o.count = count;
    o.ctr = x.ctr;
    o.addr = x.atag << flit_lsb_;
    o.rgn = x.rgn;
    o.expect = x.expect;
    o.home = x.home;
    o.hit = true;
    return o;
  };
  auto result_of = [&](const pkt::Header& c) {
    pkt::Header o;
    o.op = uint8_t(pkt::Op::result);
    o.dtype = c.dtype;
    o.len = c.len;
    o.dst = c.home;
    o.count = c.expect;
    o.addr = c.addr;
    o.rgn = c.rgn;
    o.expect = c.expect;
    o.home = c.home;
    o.hit = true;
    return o;
  };
  auto touch = [&](unsigned e) {
    ent_[e].touched = cycle_;
    lru_touch(e);
  };
  auto allocate = [&](unsigned e, bool pull) {
    Entry& x = ent_[e];
    x.valid = true;
    x.pull = pull;
    x.rgn = h.rgn;
    x.atag = h.addr >> flit_lsb_;
    x.who = pull ? h.src : 0;
    x.ctr = pull ? h.ctr : 0;
    x.count = pull ? 0 : h.count;
    x.expect = pull ? uint8_t(h.expect - h.count) : h.expect;
    x.home = h.home;
    x.dtype = h.dtype;
    x.len = h.len;
    key_[e] = key(pull, x.rgn, x.who, x.ctr);
    atag_[e] = x.atag;
    touch(e);
    ++occ_;
    bump(st_alloc_);
  };
  const unsigned data_flits = pkt::wire_flits(h) - 1;
  switch (act) {
    case Act::none:
    case Act::wait:
      break;
    case Act::drop_mal:
    case Act::refuse:
      err_code_ = uint32_t(act == Act::refuse ? refusal : hdr_[hs].code);
      err_stream_ = hs;
      err_op_ = h.op;
      if (act == Act::refuse) {
        bump(st_ref_);
        evt_ref_ = true;
      } else {
        bump(st_mal_);
        evt_mal_ = true;
      }
      if (data_flits) start(Mode::drop, uint8_t(hs), 0, data_flits, 0);
      break;
    case Act::add:
    case Act::store_fill:  // the first response into an empty pull entry
      ent_[de].count = uint8_t(ent_[de].count + h.count);
      touch(de);
      bump(st_hits_);
      start(act == Act::add ? Mode::add : Mode::store, uint8_t(hs), de, h.len, h.dtype);
      break;
    case Act::add_out:
    case Act::pass_fill: {
      const Entry& x = ent_[de];
      out_h = x.pull ? make_out(x, uint8_t(pkt::Op::pull_rsp), x.expect) : result_of(h);
      hfifo_we = true;
      start(act == Act::add_out ? Mode::add_out : Mode::pass_out, uint8_t(hs), de, h.len, h.dtype);
      free_entry(de);
      bump(st_hits_);
      bump(st_compl_);
      break;
    }
    case Act::store_new:
      allocate(de, false);
      start(Mode::store, uint8_t(hs), de, h.len, h.dtype);
      break;
    case Act::pass_alone:
      out_h = result_of(h);
      hfifo_we = true;
      start(Mode::pass_out, uint8_t(hs), 0, h.len, h.dtype);
      bump(st_compl_);
      break;
    case Act::bypass:
      out_h = h;
      hfifo_we = true;
      start(Mode::pass_out, uint8_t(hs), 0, h.len, h.dtype);
      bump(st_bypass_);
      break;
    case Act::alloc_pull:
      allocate(de, true);
      break;
    case Act::pull_passed:
      bump(st_pass_);
      break;
    case Act::evict_lru:
    case Act::evict_tmo: {
      const Entry& x = ent_[de];
      out_h = make_out(x, x.pull ? uint8_t(pkt::Op::pull_rsp) : uint8_t(pkt::Op::partial), x.count);
      hfifo_we = true;
      start(Mode::evict, 2, de, x.len, x.dtype);
      bump(act == Act::evict_lru ? st_lru_ : st_tmo_);
      free_entry(de);
      break;
    }
    case Act::free_lru:
    case Act::free_tmo:
      bump(act == Act::free_lru ? st_lru_ : st_tmo_);
      free_entry(de);
      break;
  }
  if (hfifo_we) {
    ++hdr_fill_;
    hdr_wd_ = pkt::pack(out_h);
  }
  hfifo_.clock(hfifo_we, hwptr_, hdr_wd_, rd_hdr, hrptr_);
  if (hfifo_we) hwptr_ = (hwptr_ + 1) & (ReductionTableParams::kHdrDepth - 1);
  if (rd_hdr) {
    hrptr_ = (hrptr_ + 1) & (ReductionTableParams::kHdrDepth - 1);
    --hdr_fill_;
  }
  if (occ_ > hwm_) hwm_ = occ_;

  // ---- the reader's output register
  if (rd_hdr || rd_data) {
    pend_ = true;
    pend_hdr_ = rd_hdr;
  } else if (pend_ && in.out_ready) {
    pend_ = pend_hdr_ = false;
  }

  // ---- the header registers and whose turn it is next
  if (hdr_done) hdr_[hs].valid = false;
  for (unsigned s = 0; s < 2; ++s) {
    if (!take[s]) continue;
    Hdr& r = hdr_[s];
    r.valid = true;
    Wide f = *flit[s];
    f.truncate(fw);
    r.h = pkt::unpack(f);
    r.code = rt_check(r.h, s == 1, p_);
  }
  const bool both = hdr_[0].valid && hdr_[1].valid;
  turn_ = both ? (hdr_act ? !turn_ : turn_) : hdr_[1].valid;
  ++cycle_;
  settle();
}

void ReductionTableCore::start(Mode m, uint8_t src, unsigned e, unsigned len, uint8_t dtype) {
  // Into the data phase if it is free after this edge, else the next one.
  DataPhase& d = dp_.active ? dpn_ : dp_;
  d.active = true;
  d.src = src;
  d.mode = m;
  d.left = len;
  d.addr = e * p_.max_len;
  d.slot = dwptr_;
  d.dtype = dtype;
  if (m == Mode::add_out || m == Mode::pass_out || m == Mode::evict) {
    dwptr_ = (dwptr_ + len) & (p_.out_depth() - 1);
    data_res_ += len;
  }
}

}  // namespace t3
