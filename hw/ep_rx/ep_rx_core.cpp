#include "ep_rx/ep_rx_core.h"

#include "common/bits.h"

namespace t3 {

void EpRxParams::validate() const { validate_param_ranges(*this, "ep_rx"); }

EpWindowParams EpRxParams::ep_window() const {
  EpWindowParams w;
  w.flit_w = flit_w;
  w.windows = windows;
  return w;
}

const char* name(EpRxCause c) {
  switch (c) {
    case EpRxCause::none: return "none";
    case EpRxCause::malformed: return "MALFORMED";
    case EpRxCause::no_window: return "NO_WINDOW";
    case EpRxCause::wrong_op: return "WRONG_OP";
    case EpRxCause::not_home: return "NOT_HOME";
    case EpRxCause::overcount: return "OVERCOUNT";
    case EpRxCause::wrong_dtype: return "WRONG_DTYPE";
    case EpRxCause::counter: return "COUNTER";
  }
  return "?";
}

EpRxCore::EpRxCore(const EpRxParams& p)
    : p_((p.validate(), p)),
      stat_mask_(uint32_t(low_mask(p.stat_w))),
      front_(p.ep_window(), p.max_len, p.count_depth, p.stat_w),
      resq_(p.resq),
      finq_(p.finq) {}

// The receiver's checks after the front end's first three, in the
// endpoint's order (docs/blocks/ep_rx.md, "Behaviour"), on the window the
// lookup found (its record as the table holds it now), and its body.
EpFrontEngine EpRxCore::engine(const EpRxCoreInputs& in) const {
  EpFrontEngine e;
  const bool merges = !is(pkt::Op::result);
  if (front_.decoding()) {
    const EpWin win = front_.record(in.tbl);
    const pkt::Header& h = front_.h();
    e.takes_op = is(pkt::Op::result) || is(pkt::Op::pull_rsp) || is(pkt::Op::partial);
    if (win.copy) e.cause = uint8_t(EpRxCause::wrong_op);  // a copy window takes WRITEs only
    else if (h.dtype != win.dtype) e.cause = uint8_t(EpRxCause::wrong_dtype);
    else if (is(pkt::Op::partial) && !win.home) e.cause = uint8_t(EpRxCause::not_home);
    else if (merges && h.count == 0) e.cause = uint8_t(EpRxCause::overcount);
    e.count = merges;
    // Waits (the DMA credit controller takes results as it can), looked up again.
    e.wait = is(pkt::Op::result) && !res_room();
    // A pull's requester holds its own contribution (the PULL's count 1,
    // docs/blocks/dma_credit.md), a home all of them.
    e.limit = uint8_t(is(pkt::Op::pull_rsp) ? win.expected - 1u : win.expected);
  }
  e.room = is(pkt::Op::partial) || fin_room();
  e.body_ready = data() && in.mw_ready;
  // A pulled line whole goes on to clear its counter.
  e.body_done = (last_flit(in) && !(is(pkt::Op::pull_rsp) && whole_)) || (clearing() && in.cnt_ready);
  return e;
}

EpRxCoreOutputs EpRxCore::eval(const EpRxCoreInputs& in) const {
  EpRxCoreOutputs o;
  const bool merges = !is(pkt::Op::result);
  const EpFrontOut f = front_.eval(pins(in), engine(in));
  o.rsp_in_ready = f.in_ready;
  o.drop = f.drop;
  o.cnt_valid = f.cnt_valid || clearing();
  o.cnt_op = f.cnt_valid ? 1 : clearing() ? 2 : 0;  // ADD, CLEAR
  o.cnt_line = clearing() ? front_.line() : f.cnt_line;
  o.cnt_n = f.cnt_n;
  o.cnt_limit = f.cnt_limit;
  o.cnt_len = f.cnt_len;
  o.cnt_whole_ok = f.cnt_whole_ok || clearing();
  if (data()) {
    o.mw_valid = in.rsp_in_valid;
    o.mw_addr = addr_;
    o.mw_data = in.rsp_in_flit;
    o.mw_add = merges && !first_;
    o.mw_dtype = front_.h().dtype;
  }
  o.merging = merges && (front_.counting() || data());
  o.merge_line = o.merging ? front_.line() : 0;
  o.res_valid = resq_.valid();
  if (o.res_valid) o.res_hdr = resq_.rdata();
  o.fin_valid = finq_.valid();
  if (o.fin_valid) {
    o.fin_src = finq_.rdata().src;
    o.fin_dst = finq_.rdata().dst;
    o.fin_hdr = finq_.rdata().hdr;
  }
  o.home = home_;
  o.home_win = home_win_;
  o.home_line = home_line_;
  o.home_len = home_len_;
  o.idle = front_.idle() && !resq_.valid() && !finq_.valid() && !home_;
  o.cause = front_.cause();
  o.drop_addr = front_.drop_addr();
  o.stat = stat_;
  o.stat.drops = front_.stat_drops();
  return o;
}

void EpRxCore::clock(const EpRxCoreInputs& in) {
  const EpFrontEngine e = engine(in);
  if (!in.rst_n) {
    front_.clock(false, pins(in), e, EpFrontOut{});
    resq_.clock(false, false, Wide{}, false);
    finq_.clock(false, false, FinEntry{}, false);
    res_resv_ = fin_resv_ = false;
    home_ = false;
    home_win_ = home_line_ = home_len_ = 0;
    stat_ = EpRxStats{};
    return;
  }
  auto bump = [this](uint32_t& c) { c = (c + 1) & stat_mask_; };
  const EpFrontOut f = front_.eval(pins(in), e);
  // The body's step before this edge.
  const bool data = this->data(), last = last_flit(in);
  bool res_push = false, fin_push = false;
  FinEntry fe;
  home_ = false;
  home_win_ = home_line_ = home_len_ = 0;
  if (f.take) {
    const EpWin win = front_.record(in.tbl);
    const uint64_t off = front_.off();
    left_ = front_.h().len;
    fsrc_ = (win.src + off) & low_mask(48);
    fdst_ = (win.dst + off) & low_mask(48);
    addr_ = ((is(pkt::Op::result) || is(pkt::Op::pull_rsp) ? win.dst : win.merge) + off) & low_mask(48);
    body_ = kData;
    if (is(pkt::Op::result)) {
      // Taken only with room: the DMA credit controller takes results as it can.
      res_resv_ = true;
      first_ = true;
      bump(stat_.results);
    }
  }
  if (f.counted) {
    first_ = in.cnt_rsp_count == 0;
    whole_ = in.cnt_rsp_whole;
    if (is(pkt::Op::pull_rsp) && whole_) fin_resv_ = true;
    bump(is(pkt::Op::pull_rsp) ? stat_.pull_rsps : stat_.partials);
  }
  if (data && in.rsp_in_valid && in.mw_ready) {
    addr_ = (addr_ + p_.flit_bytes()) & low_mask(48);
    --left_;
  }
  if (last) {
    if (is(pkt::Op::result)) {
      res_push = true;
      res_resv_ = false;
    } else if (is(pkt::Op::pull_rsp) && whole_) {
      fin_push = true;
      fe = FinEntry{fsrc_, fdst_, front_.hdr()};
      fin_resv_ = false;
      body_ = kClear;  // the line's count back to 0 for the next pull
    } else if (is(pkt::Op::partial) && whole_) {
      home_ = true;
      home_win_ = front_.win();
      home_line_ = front_.line();
      home_len_ = uint32_t(front_.h().len & low_mask(p_.len_w()));
    }
  }
  resq_.clock(true, res_push, front_.hdr(), resq_.valid() && in.res_ready);
  finq_.clock(true, fin_push, fe, finq_.valid() && in.fin_ready);
  front_.clock(true, pins(in), e, f);
}

}  // namespace t3
