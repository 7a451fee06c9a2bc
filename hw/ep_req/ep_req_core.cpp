#include "ep_req/ep_req_core.h"

#include "common/bits.h"

namespace t3 {

void EpReqParams::validate() const { validate_param_ranges(*this, "ep_req"); }

EpWindowParams EpReqParams::ep_window() const {
  EpWindowParams w;
  w.flit_w = flit_w;
  w.windows = windows;
  return w;
}

const char* name(EpReqCause c) {
  switch (c) {
    case EpReqCause::none: return "none";
    case EpReqCause::malformed: return "MALFORMED";
    case EpReqCause::no_window: return "NO_WINDOW";
    case EpReqCause::wrong_op: return "WRONG_OP";
    case EpReqCause::overcount: return "OVERCOUNT";
    case EpReqCause::wrong_dtype: return "WRONG_DTYPE";
    case EpReqCause::wrong_src: return "WRONG_SRC";
    case EpReqCause::counter: return "COUNTER";
  }
  return "?";
}

EpReqCore::EpReqCore(const EpReqParams& p)
    : p_((p.validate(), p)),
      wp_(p.ep_window()),
      line_w_(p.line_w()),
      len_w_(p.len_w()),
      slot_w_(p.slot_w()),
      stat_mask_(uint32_t(low_mask(p.stat_w))),
      detq_(p.detq) {}

// The checks in the endpoint's order (docs/blocks/ep_req.md, "Behaviour"),
// on the window the lookup found (its record as the table holds it now).
EpReqCore::Decoded EpReqCore::decode(const EpWinTable& tbl) const {
  Decoded d;
  const pkt::Header& h = h_;
  const EpWin win = unpack_window(tbl, win_);
  const bool pull = is(pkt::Op::pull), push = is(pkt::Op::push), write = is(pkt::Op::write);
  const uint64_t line = win.count_base + off_ / p_.flit_bytes();
  const bool contributor = h.src < 32 && (win.contrib_mask >> h.src & 1);
  if (pkt::check(h, p_.max_len, p_.flit_w) != pkt::Malformed::none) d.cause = EpReqCause::malformed;
  else if (!pull && !push && !write) d.cause = EpReqCause::wrong_op;
  else if (!hit_) d.cause = EpReqCause::no_window;
  else if (write ? win.copy == EpWin::kCopyNone : win.copy != EpWin::kCopyNone) d.cause = EpReqCause::wrong_op;
  else if (!write && h.dtype != win.dtype) d.cause = EpReqCause::wrong_dtype;
  else if (push && !win.det) d.cause = EpReqCause::wrong_op;
  else if (push && !contributor) d.cause = EpReqCause::wrong_src;
  else if (push && h.count != 1) d.cause = EpReqCause::overcount;
  // The line's counter, whole: a window whose counters run past the array
  // is refused, not wrapped onto another window's lines.
  else if (push && line >= p_.count_depth) d.cause = EpReqCause::counter;
  d.line = uint32_t(line & low_mask(line_w_));
  d.expected = win.expected;
  d.dtype = win.dtype;
  d.add = write && win.copy == EpWin::kCopyAdd;
  // A deterministic home keeps each contributor's line apart, in the stage
  // of its rank among the contributors (docs/blocks/innet_endpoint.md).
  const unsigned rank = h.src < 32 ? unsigned(__builtin_popcount(win.contrib_mask & ((1u << h.src) - 1))) : 0;
  const uint64_t base = write ? win.dst : push ? win.stage + uint64_t(rank) * win.bytes : win.src;
  d.addr = (base + off_) & low_mask(48);
  return d;
}

// The answer to the PULL in h_: this GPU's data for the line, to the
// requester, echoing its counter (docs/blocks/dma_credit.md).
Wide EpReqCore::pull_rsp(uint8_t node) const {
  pkt::Header r;
  r.op = uint8_t(pkt::Op::pull_rsp);
  r.dtype = h_.dtype;
  r.len = h_.len;
  r.src = node;
  r.dst = h_.src;
  r.count = 1;  // the answering GPU's own contribution
  r.ctr = h_.ctr;
  r.addr = h_.addr;
  return pkt::pack(r);
}

EpReqCoreOutputs EpReqCore::eval(const EpReqCoreInputs& in) const {
  EpReqCoreOutputs o;
  switch (st_) {
    case kIdle: o.req_in_ready = true; break;
    case kDecode: o.drop = decode(in.tbl).cause != EpReqCause::none; break;
    case kAsk:
      o.cnt_valid = true;
      o.cnt_op = 1;  // ADD
      o.cnt_line = line_;
      o.cnt_n = h_.count;
      o.cnt_limit = expected_;
      o.cnt_len = uint8_t(h_.len & low_mask(len_w_));
      o.cnt_whole_ok = det_room();
      break;
    case kWait: o.drop = in.cnt_rsp_valid && (in.cnt_rsp_code == 1 || in.cnt_rsp_code == 3); break;
    case kData:
      o.req_in_ready = in.mw_ready;
      o.mw_valid = in.req_in_valid;
      o.mw_addr = addr_;
      o.mw_data = in.req_in_flit;
      o.mw_add = add_;
      o.mw_dtype = dtype_;
      o.cp_rx = is(pkt::Op::write) && in.req_in_valid && in.mw_ready;
      o.cp_win = o.cp_rx ? win_ : 0;
      break;
    case kReserve:
      o.rq_valid = true;
      o.rq_hdr = pull_rsp(in.node);
      o.rq_len = uint32_t(h_.len & low_mask(len_w_));
      break;
    case kRead:
      o.mr_valid = true;
      o.mr_addr = addr_;
      o.mr_tag = tag_;
      break;
    case kDrop: o.req_in_ready = true; break;
    case kLook:
    case kHold: break;
  }
  o.det_valid = detq_.valid();
  if (o.det_valid) {
    o.det_win = detq_.rdata().win;
    o.det_line = detq_.rdata().line;
    o.det_len = detq_.rdata().len;
  }
  o.idle = st_ == kIdle && !detq_.valid();
  o.cause = cause_;
  o.drop_addr = drop_addr_;
  o.stat = stat_;
  return o;
}

void EpReqCore::clock(const EpReqCoreInputs& in) {
  if (!in.rst_n) {
    detq_.clock(false, false, DetEntry{}, false);
    st_ = kIdle;
    det_resv_ = false;
    cause_ = 0;
    drop_addr_ = 0;
    stat_ = EpReqStats{};
    return;
  }
  auto bump = [this](uint32_t& c) { c = (c + 1) & stat_mask_; };
  auto drop = [&](EpReqCause c) {
    cause_ = uint8_t(c);
    drop_addr_ = h_.addr;
    bump(stat_.drops);
  };
  bool det_push = false;
  switch (st_) {
    case kIdle:
      if (in.req_in_valid) {
        h_ = pkt::unpack(pkt::header_bits(in.req_in_flit));
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
      if (d.cause != EpReqCause::none) {
        drop(d.cause);
        left_ = pkt::wire_flits(h_) - 1;
        st_ = left_ ? kDrop : kIdle;
        break;
      }
      line_ = d.line;
      expected_ = d.expected;
      dtype_ = d.dtype;
      add_ = d.add;
      addr_ = d.addr;
      left_ = h_.len;
      if (is(pkt::Op::pull)) {
        st_ = kReserve;
      } else if (is(pkt::Op::push)) {
        st_ = kAsk;
      } else {
        bump(stat_.writes);
        st_ = kData;
      }
      break;
    }
    case kAsk:
      if (in.cnt_ready) st_ = kWait;
      break;
    case kWait:
      if (!in.cnt_rsp_valid) break;
      if (in.cnt_rsp_code == 0) {  // DONE
        whole_ = in.cnt_rsp_whole;
        if (whole_) det_resv_ = true;
        bump(stat_.pushes);
        st_ = kData;
      } else if (in.cnt_rsp_code == 2) {  // HELD: no room for the line it would make whole
        st_ = kHold;
      } else {
        drop(in.cnt_rsp_code == 1 ? EpReqCause::overcount : EpReqCause::counter);
        left_ = h_.len;
        st_ = kDrop;
      }
      break;
    case kHold:
      if (det_room()) st_ = kAsk;
      break;
    case kData:
      if (!in.req_in_valid || !in.mw_ready) break;
      addr_ = (addr_ + p_.flit_bytes()) & low_mask(48);
      if (--left_ != 0) break;
      st_ = kIdle;
      if (is(pkt::Op::push) && whole_) {
        det_push = true;
        det_resv_ = false;
      }
      break;
    case kReserve:
      if (!in.rq_ready) break;
      tag_ = uint32_t(in.rq_slot & low_mask(slot_w_));
      bump(stat_.pulls);
      st_ = kRead;
      break;
    case kRead:
      if (!in.mr_ready) break;
      addr_ = (addr_ + p_.flit_bytes()) & low_mask(48);
      tag_ = tag_ == p_.slots - 1 ? 0 : uint32_t((tag_ + 1) & low_mask(slot_w_));
      if (--left_ == 0) st_ = kIdle;
      break;
    case kDrop:
      if (in.req_in_valid && --left_ == 0) st_ = kIdle;
      break;
  }
  const DetEntry e{win_, line_, uint32_t(h_.len & low_mask(len_w_))};
  detq_.clock(true, det_push, e, detq_.valid() && in.det_ready);
}

}  // namespace t3
