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
  tot_ = credits_ = 0;
  st_valid_ = st_mem_ = false;
  st_status_ = st_ctr_ = st_tag_ = 0;
  cp_wr_ = cp_rd_ = cp_n_ = 0;
  cp_hv_ = false;
  stat_ = DmaCreditStats{};
}

DmaCreditCore::Cmd DmaCreditCore::queued(const DmaCreditCoreInputs& in, bool go) const {
  const DmaRequest r =
      go ? DmaRequest{in.reg.local_addr, in.reg.net_addr, in.reg.len, in.reg.red_op, in.reg.dtype,
                      in.reg.pull, in.reg.src, in.reg.dst, in.reg.tag}
         : DmaRequest{in.cmd_local_addr, in.cmd_net_addr, in.cmd_len, in.cmd_red_op, in.cmd_dtype,
                      in.cmd_pull, in.cmd_src, in.cmd_dst, in.cmd_tag};
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

DmaCreditCore::Decision DmaCreditCore::decide(const DmaCreditCoreInputs& in) const {
  Decision d;

  // ---- requests in: CMD_GO first (its pulse, or held while the queue is full)
  d.go = in.reg.go || go_pend_;
  d.room = cq_n_ < p_.cmd_depth;
  d.push = d.room && (d.go || in.cmd_valid);

  // ---- the completion port: one record a cycle, in this priority: a
  // timeout, the head's record (a refusal, NO_CREDIT), a request's last
  // result. Every source waits while the completion queue has no room.
  d.cpl_room = cp_n_ + unsigned(st_valid_) < p_.cpl_depth;

  // ---- timeouts: the counter chosen at the last edge (the lowest whose
  // timer had reached a non-zero TIMEOUT; the compares and the choice
  // registered: the timers saturate at 2^TIMEOUT_W - 1, TIMEOUT is at most
  // that), if it still waits for results
  if (d.cpl_room) {
    const uint64_t due = exp_ & valid_ & all_;
    if (due != 0) {
      d.to_fire = true;
      d.to_ctr = unsigned(__builtin_ctzll(due));
    }
  }

  // ---- the head of the command queue: one action a cycle, when a record
  // could be written (any of them may end in one)
  if (cq_hv_ && d.cpl_room && !d.to_fire) {
    const Cmd& h = cmdq_.rdata();
    if (h.cause != 0) {
      d.head = Head::refuse;
    } else if (!eng_valid_ && wait_ == 0) {
      const uint64_t free = ~valid_ & low_mask(p_.ctrs);
      if (free != 0) {
        d.head = Head::alloc;
        d.alloc_ctr = unsigned(__builtin_ctzll(free));
      } else {
        d.head = tries_ >= in.cfg.retry_limit ? Head::give_up : Head::fail;
      }
    }
  }

  // ---- results: taken while the completion port is left to them (a
  // result may complete its request)
  d.res_ready = d.cpl_room && !d.to_fire && d.head != Head::refuse && d.head != Head::give_up;
  d.res_fire = in.res_valid && d.res_ready;
  if (d.res_fire) {
    const pkt::Header h = pkt::unpack(in.res_hdr);
    d.res_bad = !(h.op == uint8_t(pkt::Op::result) || h.op == uint8_t(pkt::Op::pull_rsp)) ||
                pkt::check(h, p_.max_len, p_.flit_w) != pkt::Malformed::none;
    d.res_ctr = h.ctr;
    // Matched by the counter id the packet carries (paper §IV): live, with a
    // packet outstanding; anything else is a stray.
    d.res_match = !d.res_bad && h.ctr < p_.ctrs && ((valid_ >> h.ctr) & 1) && out_[h.ctr] != 0;
    d.res_done = d.res_match && ((all_ >> h.ctr) & 1) && out_[h.ctr] == 1;
  }

  // ---- the request generator: a packet while fewer than INJ_LIMIT are out
  const bool inj_ok = in.cfg.inj_limit != 0 && tot_ < in.cfg.inj_limit;
  d.issue = eng_valid_ && (!pkt_valid_ || in.pkt_ready) && inj_ok;
  d.last = eng_.len <= p_.max_len;
  d.len = d.last ? eng_.len : p_.max_len;

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

void DmaCreditCore::outputs(const DmaCreditCoreInputs& in, const Decision& d,
                            DmaCreditCoreOutputs& o) const {
  o.cmd_ready = d.room && !d.go;
  o.pkt_valid = pkt_valid_;
  if (pkt_valid_) {  // data gated with valid: zeros before the first packet and after reset
    o.pkt_hdr = pkt_hdr_;
    o.pkt_local_addr = pkt_local_;
  }
  o.res_ready = d.res_ready;
  o.cpl_wr = st_valid_;
  o.cpl_status = st_valid_ ? st_status_ : 0;
  o.cpl_ctr = st_valid_ ? st_ctr_ : 0;
  o.cpl_tag = st_valid_ ? (st_mem_ ? tags_.rdata() : st_tag_) : 0;
  o.credits = uint8_t(credits_);
  o.outstanding = tot_;
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
  o.stat = stat_;
  (void)in;
}

DmaCreditCoreOutputs DmaCreditCore::eval(const DmaCreditCoreInputs& in) const {
  DmaCreditCoreOutputs o;
  outputs(in, decide(in), o);
  return o;
}

DmaCreditCoreOutputs DmaCreditCore::step(const DmaCreditCoreInputs& in) {
  const Decision d = decide(in);
  DmaCreditCoreOutputs o;
  outputs(in, d, o);
  if (!in.rst_n) {
    reset();
    ++now_;
  } else {
    edge(in, d);
  }
  return o;
}

void DmaCreditCore::clock(const DmaCreditCoreInputs& in) {
  if (!in.rst_n) {
    reset();
    ++now_;
    return;
  }
  edge(in, decide(in));
}

void DmaCreditCore::edge(const DmaCreditCoreInputs& in, const Decision& d) {
  const uint32_t b = p_.flit_bytes();
  const uint8_t head_tag = cmdq_.rdata().tag;
  if (d.head == Head::alloc) eng_ = cmdq_.rdata();  // before the queue's read port moves
  const uint32_t tries0 = tries_;
  const bool pop_head = d.head == Head::refuse || d.head == Head::alloc || d.head == Head::give_up;

  // ---- completion queue: the stage's record lands; CPL_POP; the head reloads
  {
    Rec w;
    w.status = st_status_;
    w.ctr = st_ctr_;
    w.tag = st_mem_ ? tags_.rdata() : st_tag_;
    const bool pop = in.cpl_pop && cp_hv_;
    const bool load = cp_n_ > 0 && (!cp_hv_ || pop);
    cplq_.clock(st_valid_, cp_wr_, w, load, cp_rd_);
    if (st_valid_) cp_wr_ = cp_wr_ + 1 == p_.cpl_depth ? 0 : cp_wr_ + 1;
    if (load) cp_rd_ = cp_rd_ + 1 == p_.cpl_depth ? 0 : cp_rd_ + 1;
    cp_n_ = cp_n_ + unsigned(st_valid_) - unsigned(load);
    cp_hv_ = load || (cp_hv_ && !pop);
  }

  // ---- completion stage (the counter's tag is read from the tag memory)
  st_valid_ = d.ev;
  st_status_ = d.ev ? d.ev_status : 0;
  st_ctr_ = d.ev ? uint8_t(d.ev_ctr) : 0;
  st_mem_ = d.res_done || d.to_fire;
  st_tag_ = (d.head == Head::refuse || d.head == Head::give_up) ? head_tag : 0;
  // the tag memory is read every cycle, at the timed-out counter or at the
  // counter the result on res_hdr_i names (valid or not: no path from the
  // result decode to the read address); the stage uses what it read
  const unsigned res_ctr_pins = unsigned(in.res_hdr.w[0] >> pkt::kCtrLsb) & unsigned(low_mask(ctr_w_));
  tags_.clock(d.head == Head::alloc, d.alloc_ctr, head_tag, true, d.to_fire ? d.to_ctr : res_ctr_pins);

  // ---- command queue
  {
    const bool load = cq_n_ > 0 && (!cq_hv_ || pop_head);
    if (d.push) cmdq_.clock(true, cq_wr_, queued(in, d.go), load, cq_rd_);
    else cmdq_.clock(false, 0, Cmd{}, load, cq_rd_);
    if (d.push) cq_wr_ = cq_wr_ + 1 == p_.cmd_depth ? 0 : cq_wr_ + 1;
    if (load) cq_rd_ = cq_rd_ + 1 == p_.cmd_depth ? 0 : cq_rd_ + 1;
    cq_n_ = cq_n_ + unsigned(d.push) - unsigned(load);
    cq_hv_ = load || (cq_hv_ && !pop_head);
  }
  go_pend_ = d.go && !d.room;

  // ---- retries (paper §IV: no counter, the DMA retries, then reports)
  if (d.head == Head::fail) {
    tries_ = tries_ + 1;
    wait_ = in.cfg.retry_interval;
  } else if (pop_head) {
    tries_ = 0;
    wait_ = 0;
  } else if (wait_ != 0) {
    wait_ = wait_ - 1;
  }

  // ---- counters (a timer is zeroed by its allocation, its last packet
  // and each of its results: the cycle after this edge reads 0)
  const unsigned to_out = d.to_fire ? out_[d.to_ctr] : 0;
  // the lowest counter whose timer has reached TIMEOUT in this cycle, unless
  // a result restarts it (then none: the next cycle looks again)
  exp_ = 0;
  if (in.cfg.timeout != 0)
    for (uint64_t w = valid_ & all_; w != 0; w &= w - 1) {
      const unsigned c = unsigned(__builtin_ctzll(w));
      if (now_ - prog_[c] >= in.cfg.timeout) {
        if (!(d.res_match && d.res_ctr == c)) exp_ = uint64_t{1} << c;
        break;
      }
    }
  ++now_;
  if (d.head == Head::alloc) prog_[d.alloc_ctr] = now_;
  if (d.res_match) prog_[d.res_ctr] = now_;
  if (d.issue && d.last) prog_[eng_ctr_] = now_;
  if (d.res_match) out_[d.res_ctr] -= 1;
  if (d.issue) out_[eng_ctr_] += 1;
  if (d.issue && d.last) all_ |= uint64_t{1} << eng_ctr_;
  if (d.res_done) valid_ &= ~(uint64_t{1} << d.res_ctr);
  if (d.to_fire) valid_ &= ~(uint64_t{1} << d.to_ctr);
  if (d.head == Head::alloc) {
    valid_ |= uint64_t{1} << d.alloc_ctr;
    all_ &= ~(uint64_t{1} << d.alloc_ctr);
    out_[d.alloc_ctr] = 0;
  }
  tot_ = tot_ + unsigned(d.issue) - unsigned(d.res_match) - to_out;
  credits_ = credits_ + unsigned(d.head == Head::alloc) - unsigned(d.res_done) - unsigned(d.to_fire);

  // ---- packet descriptor register and the request generator
  if (d.issue) {
    pkt_valid_ = true;
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
    pkt_hdr_ = pkt::pack(h);
    pkt_local_ = eng_.local;
  } else if (in.pkt_ready) {
    pkt_valid_ = false;
  }
  if (d.head == Head::alloc) {
    eng_valid_ = true;
    eng_ctr_ = d.alloc_ctr;  // eng_ took the head above
  } else if (d.issue) {
    eng_.len -= d.len;
    eng_.local = (eng_.local + uint64_t{d.len} * b) & low_mask(pkt::kAddrW);
    eng_.net = (eng_.net + uint64_t{d.len} * b) & low_mask(pkt::kAddrW);
    if (d.last) eng_valid_ = false;
  }

  // ---- status counters (they wrap at 2^STAT_W)
  const bool tried = d.head == Head::alloc || d.head == Head::fail || d.head == Head::give_up;
  const bool failed = d.head == Head::fail || d.head == Head::give_up;
  stat_.alloc_fail = stat_add(stat_.alloc_fail, failed);
  stat_.retries = stat_add(stat_.retries, tried && tries0 != 0);
  stat_.no_credit = stat_add(stat_.no_credit, d.head == Head::give_up);
  stat_.timeouts = stat_add(stat_.timeouts, d.to_fire);
  stat_.bytes = stat_add(stat_.bytes, d.issue ? d.len * b : 0);
  stat_.pkts = stat_add(stat_.pkts, d.issue);
  stat_.results = stat_add(stat_.results, d.res_match);
  stat_.strays = stat_add(stat_.strays, d.res_fire && !d.res_bad && !d.res_match);
  stat_.bad_res = stat_add(stat_.bad_res, d.res_fire && d.res_bad);
  stat_.cpl_ok = stat_add(stat_.cpl_ok, d.res_done);
  stat_.refused = stat_add(stat_.refused, d.head == Head::refuse);
}

}  // namespace t3
