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
      len_w_(p.len_w()),
      slot_w_(p.slot_w()),
      stat_mask_(uint32_t(low_mask(p.stat_w))),
      front_(p.ep_window(), p.max_len, p.count_depth, p.stat_w),
      detq_(p.detq) {}

// The request receiver's checks after the front end's first three, in the
// endpoint's order (docs/blocks/ep_req.md, "Behaviour"), on the window the
// lookup found (its record as the table holds it now), and its body.
EpFrontEngine EpReqCore::engine(const EpReqCoreInputs& in) const {
  EpFrontEngine e;
  const bool push = is(pkt::Op::push), write = is(pkt::Op::write);
  if (front_.decoding()) {
    const EpWin win = front_.record(in.tbl);
    const pkt::Header& h = front_.h();
    const bool contributor = h.src < 32 && (win.contrib_mask >> h.src & 1);
    e.takes_op = is(pkt::Op::pull) || push || write;
    if (write ? win.copy == EpWin::kCopyNone : win.copy != EpWin::kCopyNone) e.cause = uint8_t(EpReqCause::wrong_op);
    else if (!write && h.dtype != win.dtype) e.cause = uint8_t(EpReqCause::wrong_dtype);
    else if (push && !win.det) e.cause = uint8_t(EpReqCause::wrong_op);
    else if (push && !contributor) e.cause = uint8_t(EpReqCause::wrong_src);
    else if (push && h.count != 1) e.cause = uint8_t(EpReqCause::overcount);
    e.count = push;
    e.limit = win.expected;
  }
  e.room = det_room();
  e.body_ready = in_body(kData) && in.mw_ready;
  e.body_done = (in_body(kData) && in.req_in_valid && in.mw_ready && left_ == 1) ||
                (in_body(kRead) && in.mr_ready && left_ == 1);
  return e;
}

// The answer to the PULL the front end holds: this GPU's data for the line, to the
// requester, echoing its counter (docs/blocks/dma_credit.md).
Wide EpReqCore::pull_rsp(uint8_t node) const {
  pkt::Header r;
  r.op = uint8_t(pkt::Op::pull_rsp);
  r.dtype = front_.h().dtype;
  r.len = front_.h().len;
  r.src = node;
  r.dst = front_.h().src;
  r.count = 1;  // the answering GPU's own contribution
  r.ctr = front_.h().ctr;
  r.addr = front_.h().addr;
  return pkt::pack(r);
}

EpReqCoreOutputs EpReqCore::eval(const EpReqCoreInputs& in) const {
  EpReqCoreOutputs o;
  const EpFrontOut f = front_.eval(pins(in), engine(in));
  o.req_in_ready = f.in_ready;
  o.drop = f.drop;
  o.cnt_valid = f.cnt_valid;
  o.cnt_op = f.cnt_valid ? 1 : 0;  // ADD
  o.cnt_line = f.cnt_line;
  o.cnt_n = f.cnt_n;
  o.cnt_limit = f.cnt_limit;
  o.cnt_len = f.cnt_len;
  o.cnt_whole_ok = f.cnt_whole_ok;
  if (in_body(kData)) {
    o.mw_valid = in.req_in_valid;
    o.mw_addr = addr_;
    o.mw_data = in.req_in_flit;
    o.mw_add = add_;
    o.mw_dtype = dtype_;
    o.cp_rx = is(pkt::Op::write) && in.req_in_valid && in.mw_ready;
    o.cp_win = o.cp_rx ? front_.win() : 0;
  }
  if (in_body(kReserve)) {
    o.rq_valid = true;
    o.rq_hdr = pull_rsp(in.node);
    o.rq_len = uint32_t(front_.h().len & low_mask(len_w_));
  }
  if (in_body(kRead)) {
    o.mr_valid = true;
    o.mr_addr = addr_;
    o.mr_tag = tag_;
  }
  o.det_valid = detq_.valid();
  if (o.det_valid) {
    o.det_win = detq_.rdata().win;
    o.det_line = detq_.rdata().line;
    o.det_len = detq_.rdata().len;
  }
  o.idle = front_.idle() && !detq_.valid();
  o.cause = front_.cause();
  o.drop_addr = front_.drop_addr();
  o.stat = stat_;
  o.stat.drops = front_.stat_drops();
  return o;
}

void EpReqCore::clock(const EpReqCoreInputs& in) {
  const EpFrontEngine e = engine(in);
  if (!in.rst_n) {
    front_.clock(false, pins(in), e, EpFrontOut{});
    detq_.clock(false, false, DetEntry{}, false);
    det_resv_ = false;
    stat_ = EpReqStats{};
    return;
  }
  auto bump = [this](uint32_t& c) { c = (c + 1) & stat_mask_; };
  const EpFrontOut f = front_.eval(pins(in), e);
  const bool push = is(pkt::Op::push), write = is(pkt::Op::write);
  // The body's step before this edge.
  const bool data = in_body(kData), reserve = in_body(kReserve), read = in_body(kRead);
  bool det_push = false;
  if (f.take) {
    const EpWin win = front_.record(in.tbl);
    const pkt::Header& h = front_.h();
    dtype_ = win.dtype;
    add_ = write && win.copy == EpWin::kCopyAdd;
    // A deterministic home keeps each contributor's line apart, in the stage
    // of its rank among the contributors (docs/blocks/innet_endpoint.md).
    const unsigned rank = h.src < 32 ? unsigned(__builtin_popcount(win.contrib_mask & ((1u << h.src) - 1))) : 0;
    const uint64_t base = write ? win.dst : push ? win.stage + uint64_t(rank) * win.bytes : win.src;
    addr_ = (base + front_.off()) & low_mask(48);
    left_ = h.len;
    body_ = is(pkt::Op::pull) ? kReserve : kData;
    if (write) bump(stat_.writes);
  }
  if (f.counted) {
    whole_ = in.cnt_rsp_whole;
    if (whole_) det_resv_ = true;
    bump(stat_.pushes);
  }
  if (data && in.req_in_valid && in.mw_ready) {
    addr_ = (addr_ + p_.flit_bytes()) & low_mask(48);
    if (--left_ == 0 && push && whole_) {
      det_push = true;
      det_resv_ = false;
    }
  }
  if (reserve && in.rq_ready) {
    tag_ = uint32_t(in.rq_slot & low_mask(slot_w_));
    bump(stat_.pulls);
    body_ = kRead;
  }
  if (read && in.mr_ready) {
    addr_ = (addr_ + p_.flit_bytes()) & low_mask(48);
    tag_ = tag_ == p_.slots - 1 ? 0 : uint32_t((tag_ + 1) & low_mask(slot_w_));
    --left_;
  }
  const DetEntry d{front_.win(), front_.line(), uint32_t(front_.h().len & low_mask(len_w_))};
  detq_.clock(true, det_push, d, detq_.valid() && in.det_ready);
  front_.clock(true, pins(in), e, f);
}

}  // namespace t3
