#include "dma_credit/dma_credit_core.h"

#include "common/bits.h"

namespace t3 {

namespace {
constexpr uint64_t kAddrSpace = uint64_t{1} << pkt::kAddrW;  // 48-bit addresses (docs/packet.md)
}

const char* name(DmaCplStatus s) {
  switch (s) {
    case DmaCplStatus::ok: return "OK";
    case DmaCplStatus::timeout: return "TIMEOUT";
    case DmaCplStatus::no_credit: return "NO_CREDIT";
    case DmaCplStatus::bad_len: return "BAD_LEN";
    case DmaCplStatus::bad_red_op: return "BAD_RED_OP";
    case DmaCplStatus::bad_dtype: return "BAD_DTYPE";
    case DmaCplStatus::bad_addr: return "BAD_ADDR";
  }
  return "?";
}

void DmaCreditParams::validate() const { validate_param_ranges(*this, "dma_credit"); }

DmaCplStatus dma_request_check(const DmaCreditParams& p, const DmaRequest& r) {
  const uint64_t b = p.flit_bytes();
  if (r.len == 0 || (uint64_t{r.len} >> p.len_w) != 0) return DmaCplStatus::bad_len;
  if (r.red_op != uint8_t(pkt::RedOp::add)) return DmaCplStatus::bad_red_op;
  if (r.dtype > uint8_t(pkt::Dtype::fp32)) return DmaCplStatus::bad_dtype;
  const uint64_t bytes = uint64_t{r.len} * b;
  if ((r.local_addr & (b - 1)) != 0 || (r.net_addr & (b - 1)) != 0 ||
      r.local_addr + bytes > kAddrSpace || r.net_addr + bytes > kAddrSpace)
    return DmaCplStatus::bad_addr;
  return DmaCplStatus::ok;
}

DmaCreditCore::DmaCreditCore(const DmaCreditParams& p)
    : p_(p),
      stat_mask_((p.validate(), low_mask(p.stat_w))),
      timer_max_(uint32_t(low_mask(p.timeout_w))),
      ctr_w_(p.ctr_w()),
      cmdq_(p.cmd_depth),
      out_(p.ctrs, 0),
      prog_(p.ctrs, 0),
      tags_(p.ctrs),
      cplq_(p.cpl_depth) {}

void DmaCreditCore::reset() {
  cq_wr_ = cq_rd_ = cq_n_ = 0;
  cq_hv_ = go_pend_ = false;
  tries_ = wait_ = 0;
  eng_valid_ = false;
  eng_ctr_ = 0;
  eng_ = Cmd{};
  pkt_valid_ = false;
  pkt_hdr_ = Wide{};
  pkt_local_ = 0;
  valid_ = all_ = exp_ = 0;
  for (unsigned c = 0; c < p_.ctrs; ++c) {
    out_[c] = 0;
    prog_[c] = now_ + 1;  // the edge that resets them
  }
  prog_lb_ = 0;
  tot_ = credits_ = 0;
  cpl_room_ = true;
  st_valid_ = st_mem_ = false;
  st_status_ = st_ctr_ = st_tag_ = 0;
  cp_wr_ = cp_rd_ = cp_n_ = 0;
  cp_hv_ = false;
  stat_ = DmaCreditStats{};
}

DmaCreditCore::Cmd DmaCreditCore::queued(const DmaCreditDataIn& pins, const DmaCreditCoreInputs& ctl,
                                         bool go) const {
  const DmaCreditRegCmd& g = ctl.reg;
  const DmaRequest r =
      go ? DmaRequest{g.local_addr, g.net_addr, g.len, g.red_op, g.dtype, g.pull, g.src, g.dst, g.tag}
         : DmaRequest{pins.cmd_local_addr, pins.cmd_net_addr, pins.cmd_len, pins.cmd_red_op,
                      pins.cmd_dtype, pins.cmd_pull, pins.cmd_src, pins.cmd_dst, pins.cmd_tag};
  Cmd c;
  c.cause = uint8_t(dma_request_check(p_, r));
  c.local = r.local_addr;
  c.net = r.net_addr;
  c.len = uint32_t(r.len & low_mask(p_.len_w));
  c.dtype = r.dtype;
  c.pull = r.pull;
  c.src = r.src;
  c.dst = r.dst;
  c.tag = r.tag;
  return c;
}

[[gnu::always_inline]] inline DmaCreditCore::Decision DmaCreditCore::decide(const DmaCreditDataIn& pins,
                                              const DmaCreditCoreInputs& ctl) const {
  Decision d;

  // ---- requests in: CMD_GO first (its pulse, or held while the queue is full)
  d.go = ctl.reg.go | go_pend_;
  d.room = cq_n_ < p_.cmd_depth;
  d.push = d.room & (d.go | pins.cmd_valid);

  // ---- the completion port: one record a cycle, in this priority: a
  // timeout, the head's record (a refusal, NO_CREDIT), a request's last
  // result. Every source waits while the completion queue has no room
  // (cpl_room_, decided at the edge before).
  d.cpl_room = cpl_room_;

  // ---- timeouts: the counter chosen at the last edge (the lowest whose
  // timer had reached a non-zero TIMEOUT; the compares and the choice
  // registered: the timers saturate at 2^TIMEOUT_W - 1, TIMEOUT is at most
  // that); it still waits for results (see edge())
  const uint64_t due = exp_;
  d.to_fire = d.cpl_room & (due != 0);
  d.to_ctr = unsigned(__builtin_ctzll(due | uint64_t{1} << 63)) & 63;

  // ---- the head of the command queue: one action a cycle, when a record
  // could be written (any of them may end in one)
  if (cq_hv_ & d.cpl_room & !d.to_fire) {
    const Cmd& h = cmdq_.rdata();
    if (h.cause != 0) {
      d.head = Head::refuse;
    } else if (!eng_valid_ && wait_ == 0) {
      const uint64_t free = ~valid_ & low_mask(p_.ctrs);
      if (free != 0) {
        d.head = Head::alloc;
        d.alloc_ctr = unsigned(__builtin_ctzll(free));
      } else {
        d.head = tries_ >= ctl.cfg.retry_limit ? Head::give_up : Head::fail;
      }
    }
  }

  // ---- results: taken while the completion port is left to them (a
  // result may complete its request)
  d.res_ready = d.cpl_room & !d.to_fire & (d.head != Head::refuse) & (d.head != Head::give_up);
  d.res_fire = pins.res_valid & d.res_ready;
  if (d.res_fire) {
    const pkt::Header h = pkt::unpack(pins.res_hdr);
    d.res_bad = !(h.op == uint8_t(pkt::Op::result) || h.op == uint8_t(pkt::Op::pull_rsp)) ||
                pkt::check(h, p_.max_len, p_.flit_w) != pkt::Malformed::none;
    d.res_ctr = h.ctr;
    // Matched by the counter id the packet carries (paper §IV): live, with a
    // packet outstanding; anything else is a stray.
    d.res_match = !d.res_bad && h.ctr < p_.ctrs && ((valid_ >> h.ctr) & 1) && out_[h.ctr] != 0;
    d.res_done = d.res_match && ((all_ >> h.ctr) & 1) && out_[h.ctr] == 1;
  }

  // ---- the request generator: a packet while fewer than INJ_LIMIT are out
  // (INJ_LIMIT 0: none, as tot_ < 0 never holds)
  d.issue = eng_valid_ & (!pkt_valid_ | pins.pkt_ready) & (tot_ < ctl.cfg.inj_limit);
  d.last = eng_.len <= p_.max_len;
  d.len = pick(d.last, eng_.len, p_.max_len);

  // ---- the completion record of the cycle (one source at most)
  if (d.to_fire) {
    d.ev = true;
    d.ev_status = uint8_t(DmaCplStatus::timeout);
    d.ev_ctr = d.to_ctr;
  } else if (d.head == Head::refuse) {
    d.ev = true;
    d.ev_status = cmdq_.rdata().cause;
  } else if (d.head == Head::give_up) {
    d.ev = true;
    d.ev_status = uint8_t(DmaCplStatus::no_credit);
  } else if (d.res_done) {
    d.ev = true;
    d.ev_status = uint8_t(DmaCplStatus::ok);
    d.ev_ctr = d.res_ctr;
  }
  return d;
}

[[gnu::always_inline]] inline void DmaCreditCore::pin_outputs(const Decision& d, DmaCreditDataOut& o) const {
  o.cmd_ready = d.room & !d.go;
  o.pkt_valid = pkt_valid_;
  o.pkt_hdr = pkt_hdr_;  // zero without pkt_valid_ (data gated with valid)
  o.pkt_local_addr = pkt_local_;
  o.res_ready = d.res_ready;
  o.cpl_wr = st_valid_;
  o.cpl_status = st_status_;  // the stage holds zeros without a record
  o.cpl_ctr = st_ctr_;
  o.cpl_tag = st_mem_ ? tags_.rdata() : st_tag_;  // st_mem_ only with a record
  o.credits = uint8_t(credits_);
  o.outstanding = tot_;
}

void DmaCreditCore::reg_outputs(const Decision& d, DmaCreditCoreOutputs& o) const {
  o.go_pending = go_pend_;
  o.eng_busy = eng_valid_;
  o.cmd_count = uint8_t(cq_n_ + cq_hv_);
  o.cpl_count = uint8_t(cp_n_ + cp_hv_);
  o.cpl_head_valid = cp_hv_;
  const Rec& hr = cplq_.rdata();
  o.cpl_head_status = cp_hv_ ? hr.status : 0;
  o.cpl_head_ctr = cp_hv_ ? hr.ctr : 0;
  o.cpl_head_tag = cp_hv_ ? hr.tag : 0;
  o.ev_cpl_ok = st_valid_ && st_status_ == 0;
  o.ev_cpl_err = st_valid_ && st_status_ != 0;
  o.ev_stray = d.res_fire && !d.res_match;
  const uint32_t m = uint32_t(stat_mask_);
  o.stat.alloc_fail = stat_.alloc_fail & m;
  o.stat.retries = stat_.retries & m;
  o.stat.no_credit = stat_.no_credit & m;
  o.stat.timeouts = stat_.timeouts & m;
  o.stat.bytes = stat_.bytes & m;
  o.stat.pkts = stat_.pkts & m;
  o.stat.results = stat_.results & m;
  o.stat.strays = stat_.strays & m;
  o.stat.bad_res = stat_.bad_res & m;
  o.stat.cpl_ok = stat_.cpl_ok & m;
  o.stat.refused = stat_.refused & m;
}

DmaCreditCoreOutputs DmaCreditCore::eval(const DmaCreditCoreInputs& in) const {
  DmaCreditCoreOutputs o;
  const Decision d = decide(in, in);
  pin_outputs(d, o);
  reg_outputs(d, o);
  return o;
}

DmaCreditCoreOutputs DmaCreditCore::step(const DmaCreditCoreInputs& in) {
  const Decision d = decide(in, in);
  DmaCreditCoreOutputs o;
  pin_outputs(d, o);
  reg_outputs(d, o);
  if (!in.rst_n) {
    reset();
    ++now_;
  } else {
    edge(in, in, d);
  }
  return o;
}

bool DmaCreditCore::step(const DmaCreditDataIn& pins, const DmaCreditCoreInputs& ctl,
                         DmaCreditDataOut& o, DmaCreditCoreOutputs* regs) {
  const Decision d = decide(pins, ctl);
  pin_outputs(d, o);
  if (regs) {
    if (static_cast<DmaCreditDataOut*>(regs) != &o) static_cast<DmaCreditDataOut&>(*regs) = o;
    reg_outputs(d, *regs);
  }
  edge(pins, ctl, d);
  return d.res_fire & !d.res_match;
}

void DmaCreditCore::clock(const DmaCreditCoreInputs& in) {
  if (!in.rst_n) {
    reset();
    ++now_;
    return;
  }
  edge(in, in, decide(in, in));
}

// The lowest counter whose timer has reached TIMEOUT in this cycle (one-hot;
// 0: none, or TIMEOUT is 0), unless keep does not have it (then 0). A counter's timer is now_ - prog_[c]; no timer
// of a waiting counter is above now_ - prog_lb_, so while that is below
// TIMEOUT (the common cycle) none is looked at. Otherwise every waiting
// counter is, and prog_lb_ becomes their smallest prog_ (a prog_ set later
// is larger: the bound holds until then).
uint64_t DmaCreditCore::expired(uint32_t timeout, uint64_t keep) {
  if (timeout == 0 || now_ - prog_lb_ < timeout) return 0;
  uint64_t hit = 0, lb = now_;
  for (uint64_t w = valid_ & all_; w != 0; w &= w - 1) {
    const unsigned c = unsigned(__builtin_ctzll(w));
    hit |= uint64_t(now_ - prog_[c] >= timeout) << c;
    lb = prog_[c] < lb ? prog_[c] : lb;
  }
  prog_lb_ = lb;
  return hit & (~hit + 1) & keep;
}

[[gnu::always_inline]] inline void DmaCreditCore::edge(const DmaCreditDataIn& pins, const DmaCreditCoreInputs& ctl, const Decision& d) {
  // A quiet cycle (two in three of the random test's): no record in the
  // stage or decided, nothing into or out of either queue, no action of the
  // head, no packet issued or taken, no result taken, CMD_GO's wait as it
  // was. Then only the clocks run: the retry wait, the timeout choice
  // (nothing restarts or frees a counter) and the cycle count; every other
  // assignment below would write the value the state has.
  const bool cpl_moves = st_valid_ | d.ev | (ctl.cpl_pop & cp_hv_) | ((cp_n_ > 0) & !cp_hv_);
  const bool cmd_moves = d.push | (d.head != Head::none) | ((cq_n_ > 0) & !cq_hv_) |
                         ((d.go & !d.room) != go_pend_);
  const bool pkt_moves = d.issue | (pins.pkt_ready & pkt_valid_) | d.res_fire;
  if (!(cpl_moves | cmd_moves | pkt_moves)) {
    wait_ -= wait_ != 0;
    exp_ = expired(ctl.cfg.timeout, ~uint64_t{0});
    ++now_;
    return;
  }
  const unsigned cpl_depth = p_.cpl_depth, cmd_depth = p_.cmd_depth;
  const uint32_t b = p_.flit_bytes();
  const bool alloc = d.head == Head::alloc;
  const bool head_rec = d.head == Head::refuse || d.head == Head::give_up;  // the head's record
  const bool pop_head = alloc || head_rec;

  // ---- completion queue: the stage's record lands; CPL_POP; the head reloads
  {
    const bool pop = ctl.cpl_pop & cp_hv_;
    const bool load = (cp_n_ > 0) & (!cp_hv_ | pop);
    if (st_valid_ | load) {
      Rec w;
      w.status = st_status_;
      w.ctr = st_ctr_;
      w.tag = st_mem_ ? tags_.rdata() : st_tag_;
      cplq_.clock(st_valid_, cp_wr_, w, load, cp_rd_);
      if (st_valid_) cp_wr_ = cp_wr_ + 1 == cpl_depth ? 0 : cp_wr_ + 1;
      if (load) cp_rd_ = cp_rd_ + 1 == cpl_depth ? 0 : cp_rd_ + 1;
    }
    cp_n_ = cp_n_ + unsigned(st_valid_) - unsigned(load);
    cp_hv_ = load | (cp_hv_ & !pop);
  }

  // ---- completion stage (the counter's tag is read from the tag memory)
  st_valid_ = d.ev;
  st_status_ = d.ev_status;  // 0 without a record
  st_ctr_ = uint8_t(d.ev_ctr);
  st_mem_ = d.res_done | d.to_fire;
  st_tag_ = head_rec ? cmdq_.rdata().tag : 0;
  // The RTL reads the tag memory every cycle, at the timed-out counter or at
  // the counter res_hdr_i names (valid or not); what it read is used only
  // in the cycle after a timeout or a last result (st_mem_), so the model
  // reads in those cycles alone, at the same address. The allocation writes
  // the head's tag.
  if (alloc | st_mem_)
    tags_.clock(alloc, d.alloc_ctr, cmdq_.rdata().tag, st_mem_, pick(d.to_fire, d.to_ctr, d.res_ctr));
  cpl_room_ = cp_n_ + unsigned(st_valid_) < cpl_depth;  // !cpl_full_q

  // ---- command queue
  {
    const bool load = (cq_n_ > 0) & (!cq_hv_ | pop_head);
    if (alloc) eng_ = cmdq_.rdata();  // before the queue's read port moves
    if (d.push) cmdq_.clock(true, cq_wr_, queued(pins, ctl, d.go), load, cq_rd_);
    else if (load) cmdq_.clock(false, 0, Cmd{}, true, cq_rd_);
    if (d.push) cq_wr_ = cq_wr_ + 1 == cmd_depth ? 0 : cq_wr_ + 1;
    if (load) cq_rd_ = cq_rd_ + 1 == cmd_depth ? 0 : cq_rd_ + 1;
    cq_n_ = cq_n_ + unsigned(d.push) - unsigned(load);
    cq_hv_ = load | (cq_hv_ & !pop_head);
  }
  go_pend_ = d.go & !d.room;

  // ---- retries (paper §IV: no counter, the DMA retries, then reports);
  // the status counters of the head's actions (32 bits here, cut to STAT_W
  // as read; each counter is counted where its event is handled)
  if (d.head != Head::none) {
    const bool failed = (d.head == Head::fail) | (d.head == Head::give_up);
    stat_.alloc_fail += failed;
    stat_.retries += (failed | alloc) & (tries_ != 0);
    stat_.no_credit += d.head == Head::give_up;
    stat_.refused += d.head == Head::refuse;
    tries_ = pick(d.head == Head::fail, tries_ + 1, 0u);  // 0 once the head leaves
    wait_ = pick(d.head == Head::fail, ctl.cfg.retry_interval, 0u);
  } else {
    wait_ -= wait_ != 0;
  }

  // ---- counters (a timer is zeroed by its allocation, its last packet
  // and each of its results: the cycle after this edge reads 0)
  // the lowest counter whose timer has reached TIMEOUT in this cycle, unless
  // a result restarts it or it times out now (then none: the next cycle
  // looks again); nothing else frees it before the next cycle
  exp_ = expired(ctl.cfg.timeout, ~(uint64_t(d.res_match) << (d.res_ctr & 63)) &
                                       ~(uint64_t(d.to_fire) << d.to_ctr));
  ++now_;
  if (d.to_fire) {  // its packets stop counting; the counter is free
    tot_ -= out_[d.to_ctr];
    valid_ &= ~(uint64_t{1} << d.to_ctr);
    credits_ -= 1;
    stat_.timeouts += 1;
  }
  if (alloc) {
    prog_[d.alloc_ctr] = now_;
    valid_ |= uint64_t{1} << d.alloc_ctr;
    all_ &= ~(uint64_t{1} << d.alloc_ctr);
    out_[d.alloc_ctr] = 0;
    credits_ += 1;
    eng_valid_ = true;  // the request generator (it was idle) takes the head
    eng_ctr_ = d.alloc_ctr;
  }
  if (d.res_fire) {
    if (d.res_match) {
      prog_[d.res_ctr] = now_;
      out_[d.res_ctr] -= 1;
      tot_ -= 1;
      valid_ &= ~(uint64_t(d.res_done) << d.res_ctr);
      credits_ -= d.res_done;
      stat_.cpl_ok += d.res_done;
    }
    stat_.results += d.res_match;
    stat_.strays += !d.res_bad & !d.res_match;
    stat_.bad_res += d.res_bad;
  }

  // ---- packet descriptor register and the request generator
  if (d.issue) {
    out_[eng_ctr_] += 1;
    tot_ += 1;
    if (d.last) {
      prog_[eng_ctr_] = now_;
      all_ |= uint64_t{1} << eng_ctr_;
    }
    pkt_valid_ = true;
    // the header flit (docs/packet.md) packed in place: its fields end in word 1
    pkt::Header h;
    h.op = uint8_t(eng_.pull ? pkt::Op::pull : pkt::Op::push);
    h.red_op = uint8_t(pkt::RedOp::add);
    h.dtype = eng_.dtype;
    h.len = uint8_t(d.len);
    h.src = eng_.src;
    h.dst = eng_.dst;
    h.count = 1;
    h.ctr = uint8_t(eng_ctr_);
    h.addr = eng_.net;
    const Wide f = pkt::pack(h);
    pkt_hdr_.w[0] = f.w[0];
    pkt_hdr_.w[1] = f.w[1];
    pkt_local_ = eng_.local;
    eng_.len -= d.len;
    eng_.local = (eng_.local + uint64_t{d.len} * b) & low_mask(pkt::kAddrW);
    eng_.net = (eng_.net + uint64_t{d.len} * b) & low_mask(pkt::kAddrW);
    eng_valid_ = !d.last;
    stat_.pkts += 1;
    stat_.bytes += d.len * b;
  } else if (pins.pkt_ready & pkt_valid_) {
    pkt_valid_ = false;
    pkt_hdr_.w[0] = pkt_hdr_.w[1] = 0;
    pkt_local_ = 0;
  }
}

}  // namespace t3
