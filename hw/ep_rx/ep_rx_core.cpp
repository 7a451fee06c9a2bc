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
      wp_(p.ep_window()),
      line_w_(p.line_w()),
      stat_mask_(uint32_t(low_mask(p.stat_w))),
      resq_(p.resq),
      finq_(p.finq) {}

// The checks in the endpoint's order (docs/blocks/ep_rx.md, "Behaviour"),
// on the window the lookup found (its record as the table holds it now).
EpRxCore::Decoded EpRxCore::decode(const EpWinTable& tbl) const {
  Decoded d;
  const pkt::Header& h = h_;
  const EpWin win = unpack_window(tbl, win_);
  const bool known = is(pkt::Op::result) || is(pkt::Op::pull_rsp) || is(pkt::Op::partial);
  const uint64_t off = off_;
  // The line's counter, whole: a window whose counters run past the array
  // is refused, not wrapped onto another window's lines.
  const uint64_t line = win.count_base + off / p_.flit_bytes();
  const bool merges = !is(pkt::Op::result);
  if (pkt::check(h, p_.max_len, p_.flit_w) != pkt::Malformed::none) d.cause = EpRxCause::malformed;
  else if (!known) d.cause = EpRxCause::wrong_op;
  else if (!hit_) d.cause = EpRxCause::no_window;
  else if (win.copy) d.cause = EpRxCause::wrong_op;  // a copy window takes WRITEs only
  else if (h.dtype != win.dtype) d.cause = EpRxCause::wrong_dtype;
  else if (is(pkt::Op::partial) && !win.home) d.cause = EpRxCause::not_home;
  else if (merges && h.count == 0) d.cause = EpRxCause::overcount;
  else if (merges && line >= p_.count_depth) d.cause = EpRxCause::counter;
  d.win = win_;
  d.line = uint32_t(line & low_mask(line_w_));
  // A pull's requester holds its own contribution (the PULL's count 1,
  // docs/blocks/dma_credit.md), a home all of them.
  d.need = uint8_t(is(pkt::Op::pull_rsp) ? win.expected - 1u : win.expected);
  d.dst = (win.dst + off) & low_mask(48);
  d.merge = (win.merge + off) & low_mask(48);
  d.src = (win.src + off) & low_mask(48);
  return d;
}

EpRxCoreOutputs EpRxCore::eval(const EpRxCoreInputs& in) const {
  EpRxCoreOutputs o;
  const bool merges = !is(pkt::Op::result);
  switch (st_) {
    case kIdle: o.rsp_in_ready = true; break;
    case kDecode: {
      const Decoded d = decode(in.tbl);
      o.drop = d.cause != EpRxCause::none;
      break;
    }
    case kAsk:
    case kClear:
      o.cnt_valid = true;
      o.cnt_line = line_;
      if (st_ == kAsk) {
        o.cnt_op = 1;  // ADD
        o.cnt_n = h_.count;
        o.cnt_limit = need_;
        o.cnt_len = uint8_t(h_.len & low_mask(p_.len_w()));
        o.cnt_whole_ok = is(pkt::Op::partial) || fin_room();
      } else {
        o.cnt_op = 2;  // CLEAR
        o.cnt_whole_ok = true;
      }
      break;
    case kWait:
      o.drop = in.cnt_rsp_valid && (in.cnt_rsp_code == 1 || in.cnt_rsp_code == 3);
      break;
    case kData:
      o.rsp_in_ready = in.mw_ready;
      o.mw_valid = in.rsp_in_valid;
      o.mw_addr = addr_;
      o.mw_data = in.rsp_in_flit;
      o.mw_add = merges && !first_;
      o.mw_dtype = h_.dtype;
      break;
    case kDrop: o.rsp_in_ready = true; break;
    case kLook:
    case kHold: break;
  }
  o.merging = merges && (st_ == kAsk || st_ == kWait || st_ == kHold || st_ == kData);
  o.merge_line = o.merging ? line_ : 0;
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
  o.idle = st_ == kIdle && !resq_.valid() && !finq_.valid() && !home_;
  o.cause = cause_;
  o.drop_addr = drop_addr_;
  o.stat = stat_;
  return o;
}

void EpRxCore::clock(const EpRxCoreInputs& in) {
  if (!in.rst_n) {
    resq_.clock(false, false, Wide{}, false);
    finq_.clock(false, false, FinEntry{}, false);
    st_ = kIdle;
    res_resv_ = fin_resv_ = false;
    home_ = false;
    home_win_ = home_line_ = home_len_ = 0;
    cause_ = 0;
    drop_addr_ = 0;
    stat_ = EpRxStats{};
    return;
  }
  auto bump = [this](uint32_t& c) { c = (c + 1) & stat_mask_; };
  auto drop = [&](EpRxCause c) {
    cause_ = uint8_t(c);
    drop_addr_ = h_.addr;
    bump(stat_.drops);
  };
  bool res_push = false, fin_push = false;
  FinEntry fe;
  home_ = false;
  home_win_ = home_line_ = home_len_ = 0;
  const State st = st_;
  switch (st) {
    case kIdle:
      if (in.rsp_in_valid) {
        hdr_ = pkt::header_bits(in.rsp_in_flit);
        h_ = pkt::unpack(hdr_);
        st_ = kLook;
      }
      break;
    case kLook: {
      const EpWinHit l = lookup_window(wp_, in.tbl, h_.addr, h_.len);
      hit_ = l.hit;
      win_ = l.win;
      off_ = l.off;
      st_ = kDecode;
      break;
    }
    case kDecode: {
      const Decoded d = decode(in.tbl);
      if (d.cause != EpRxCause::none) {
        drop(d.cause);
        left_ = pkt::wire_flits(h_) - 1;
        st_ = left_ ? kDrop : kIdle;
        break;
      }
      line_ = d.line;
      need_ = d.need;
      left_ = h_.len;
      fsrc_ = d.src;
      fdst_ = d.dst;
      if (is(pkt::Op::result)) {
        if (!res_room()) {  // waits (the DMA credit controller takes results as it can), looked up again
          st_ = kLook;
          break;
        }
        res_resv_ = true;
        addr_ = d.dst;
        first_ = true;
        bump(stat_.results);
        st_ = kData;
      } else {
        addr_ = is(pkt::Op::pull_rsp) ? d.dst : d.merge;
        st_ = kAsk;
      }
      break;
    }
    case kAsk:
      if (in.cnt_ready) st_ = kWait;
      break;
    case kWait:
      if (!in.cnt_rsp_valid) break;
      if (in.cnt_rsp_code == 0) {  // DONE
        first_ = in.cnt_rsp_count == 0;
        whole_ = in.cnt_rsp_whole;
        if (is(pkt::Op::pull_rsp) && whole_) fin_resv_ = true;
        bump(is(pkt::Op::pull_rsp) ? stat_.pull_rsps : stat_.partials);
        st_ = kData;
      } else if (in.cnt_rsp_code == 2) {  // HELD: no room for the line it would complete
        st_ = kHold;
      } else {
        drop(in.cnt_rsp_code == 1 ? EpRxCause::overcount : EpRxCause::counter);
        left_ = h_.len;
        st_ = kDrop;
      }
      break;
    case kHold:
      if (fin_room()) st_ = kAsk;
      break;
    case kData:
      if (!in.rsp_in_valid || !in.mw_ready) break;
      addr_ = (addr_ + p_.flit_bytes()) & low_mask(48);
      if (--left_ != 0) break;
      st_ = kIdle;
      if (is(pkt::Op::result)) {
        res_push = true;
        res_resv_ = false;
      } else if (is(pkt::Op::pull_rsp) && whole_) {
        fin_push = true;
        fe = FinEntry{fsrc_, fdst_, hdr_};
        fin_resv_ = false;
        st_ = kClear;  // the line's count back to 0 for the next pull
      } else if (is(pkt::Op::partial) && whole_) {
        home_ = true;
        home_win_ = win_;
        home_line_ = line_;
        home_len_ = uint32_t(h_.len & low_mask(p_.len_w()));
      }
      break;
    case kClear:
      if (in.cnt_ready) st_ = kIdle;
      break;
    case kDrop:
      if (in.rsp_in_valid && --left_ == 0) st_ = kIdle;
      break;
  }
  resq_.clock(true, res_push, hdr_, resq_.valid() && in.res_ready);
  finq_.clock(true, fin_push, fe, finq_.valid() && in.fin_ready);
}

}  // namespace t3
