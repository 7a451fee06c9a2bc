#include "ep_req_scoreboard.h"

#include "common/bits.h"
#include "common/hex.h"
#include "ep_window_ref.h"
#include "t3/ep_req_regs.h"

namespace t3::tb {

// docs/blocks/ep_req.md, "Behaviour": the checks in their order.
EpReqScoreboard::Verdict EpReqScoreboard::judge(const EpWinTable& tbl) const {
  Verdict v;
  const pkt::Header& h = front_.h();
  const uint64_t fb = p_.flit_w / 8;
  const bool pull = h.op == uint8_t(pkt::Op::pull), push = h.op == uint8_t(pkt::Op::push),
             write = h.op == uint8_t(pkt::Op::write);
  // The window found at the lookup, its record as the table holds it now.
  const std::optional<EpWinFound>& f = found_;
  const EpWin w = f ? unpack_window(tbl, f->index) : EpWin{};
  bool contributor = false;
  unsigned rank = 0;  // the contributors below src
  for (unsigned s = 0; s < 32; ++s) {
    const bool in = w.contrib_mask >> s & 1;
    if (s == h.src) contributor = in;
    if (s < h.src) rank += in;
  }
  const uint64_t line = f ? w.count_base + f->off / fb : 0;
  unsigned& c = v.j.cause;
  if (pkt::check(h, p_.max_len, p_.flit_w) != pkt::Malformed::none) c = 1;
  else if (!pull && !push && !write) c = 3;
  else if (!f) c = 2;
  else if (write != (w.copy != 0)) c = 3;  // WRITEs to copy windows only, and only WRITEs
  else if (!write && h.dtype != w.dtype) c = 6;
  else if (push && !w.det) c = 3;
  else if (push && !contributor) c = 7;
  else if (push && h.count != 1) c = 5;
  else if (push && line >= p_.count_depth) c = 8;  // counters past the array
  if (!f) return v;
  v.j.count = push;
  v.j.line = uint32_t(line % (uint64_t(1) << p_.line_w()));
  v.j.limit = w.expected;
  v.win = f->index;
  v.dtype = w.dtype;
  v.add = write && w.copy == 1;
  const uint64_t base = write ? w.dst : push ? w.stage + uint64_t(rank) * w.bytes : w.src;
  v.addr = (base + f->off) & low_mask(48);
  return v;
}

// The PULL_RSP, its fields placed by hand from docs/packet.md's table.
Wide EpReqScoreboard::pull_rsp(uint8_t node) const {
  Wide r;
  const pkt::Header& h = front_.h();
  r.w[0] = uint64_t(pkt::Op::pull_rsp) | uint64_t(h.dtype) << 6 | uint64_t(h.len) << 8 | uint64_t(node) << 16 |
           uint64_t(h.src) << 24 | uint64_t(1) << 32 | uint64_t(h.ctr) << 40 | (h.addr & 0xFFFF) << 48;
  r.w[1] = h.addr >> 16;
  return r;
}

void EpReqScoreboard::reset() {
  front_.reset();
  resv_ = false;
  detq_.clear();
  pulls_ = pushes_ = writes_ = 0;
}

std::optional<std::string> EpReqScoreboard::observe(const EpReqInputs& in, const EpReqOutputs& out) {
  std::ostringstream& err = complaints_.fresh();
  const pkt::Header& h = front_.h();
  const bool push = h.op == uint8_t(pkt::Op::push), write = h.op == uint8_t(pkt::Op::write);
  const uint64_t fb = p_.flit_w / 8;
  const bool det_room = detq_.size() + resv_ < p_.detq;
  const bool data = front_.body() && body_ == kData, reserve = front_.body() && body_ == kReserve,
             read = front_.body() && body_ == kRead;
  const bool idle = front_.phase() == EpFrontRef::kHeader && detq_.empty();

  // ---- the register port and the interrupt, on the state before the edge
  const uint64_t sm = low_mask(p_.stat_w);
  auto ro = [&](unsigned r) -> std::optional<uint32_t> {
    switch (EpReqReg(r)) {
      case EpReqReg::status: return front_.cause() | uint32_t(idle) << 8;
      case EpReqReg::drop_addr_lo: return uint32_t(front_.drop_addr());
      case EpReqReg::drop_addr_hi: return uint32_t(front_.drop_addr() >> 32);
      case EpReqReg::stat_pulls: return uint32_t(pulls_ & sm);
      case EpReqReg::stat_pushes: return uint32_t(pushes_ & sm);
      case EpReqReg::stat_writes: return uint32_t(writes_ & sm);
      case EpReqReg::stat_drops: return front_.stat_drops();
      case EpReqReg::param: return p_.flit_w | p_.max_len << 16 | p_.windows << 24;
      case EpReqReg::param_q: return p_.slots | p_.detq << 8 | p_.stat_w << 16;
      case EpReqReg::param_c: return p_.count_depth;
      default: return 0;
    }
  };
  regs_.observe(in.apb, out.apb, false, ro, err);
  if (out.intr != regs_.intr()) err << "intr_o = " << out.intr << ", expected " << regs_.intr() << "; ";

  // ---- the outputs
  auto want = [&](const char* pin, uint64_t got, uint64_t exp) { want_pin(err, pin, got, exp); };
  auto want_wide = [&](const char* pin, const Wide& got, const Wide& exp) {
    if (!(got == exp)) err << pin << " = " << hex(got, p_.flit_w) << ", expected " << hex(exp, p_.flit_w) << "; ";
  };
  const unsigned len = front_.len();
  want("req_in_ready_o", out.req_in_ready, front_.in_ready(data && in.mw_ready));
  front_.want_cnt(err, out, det_room);
  want("mw_valid_o", out.mw_valid, data && in.req_in_valid);
  if (data && in.req_in_valid) {
    want("mw_addr_o", out.mw_addr, (v_.addr + done_ * fb) & low_mask(48));
    want_wide("mw_data_o", out.mw_data, in.req_in_flit);
    want("mw_add_o", out.mw_add, v_.add);
    want("mw_dtype_o", out.mw_dtype, v_.dtype);
  } else if (!data && (out.mw_addr || out.mw_add || out.mw_dtype || !(out.mw_data == Wide{}))) {
    err << "the write port's fields are not 0 out of a packet's data; ";
  }
  const bool cp = data && write && in.req_in_valid && in.mw_ready;
  want("cp_rx_o", out.cp_rx, cp);
  want("cp_win_o", out.cp_win, cp ? v_.win : 0);
  want("rq_valid_o", out.rq_valid, reserve);
  want_wide("rq_hdr_o", out.rq_hdr, reserve ? pull_rsp(in.node) : Wide{});
  want("rq_len_o", out.rq_len, reserve ? len : 0);
  want("mr_valid_o", out.mr_valid, read);
  want("mr_addr_o", out.mr_addr, read ? (v_.addr + done_ * fb) & low_mask(48) : 0);
  want("mr_tag_o", out.mr_tag, read ? tag_ : 0);
  want("det_valid_o", out.det_valid, !detq_.empty());
  want("det_win_o", out.det_win, detq_.empty() ? 0 : detq_.front().win);
  want("det_line_o", out.det_line, detq_.empty() ? 0 : detq_.front().line);
  want("det_len_o", out.det_len, detq_.empty() ? 0 : detq_.front().len);
  want("idle_o", out.idle, idle);

  // ---- the edge
  if (!in.rst_n) {
    reset();
    regs_.reset();
    if (err.tellp() == 0) return std::nullopt;
    return err.str();
  }
  const bool det_pop = !detq_.empty() && in.det_ready;
  std::optional<Staged> det_push;
  const bool flit = data && in.req_in_valid && in.mw_ready, last = flit && done_ + 1 == h.len;
  const bool last_read = read && in.mr_ready && done_ + 1 == h.len;
  const EpFrontRef::Event ev =
      front_.edge(err, in.req_in_valid, in.req_in_flit, in.cnt_ready, in.cnt_rsp_valid, in.cnt_rsp_code, det_room,
                  last || last_read,
                  [&] {
                    found_ = ref_find_window(in.tbl, p_.windows, unsigned(fb), h.addr, h.len);
                    look_tbl_ = in.tbl;
                  },
                  [&] {
                    n_.moved += !(in.tbl == look_tbl_);
                    v_ = judge(in.tbl);
                    return v_.j;
                  });
  switch (ev) {
    case EpFrontRef::kTaken:
      done_ = 0;
      body_ = h.op == uint8_t(pkt::Op::pull) ? kReserve : kData;
      writes_ += write;
      break;
    case EpFrontRef::kCounted:
      whole_ = in.cnt_rsp_whole;
      resv_ = whole_;
      ++pushes_;
      break;
    case EpFrontRef::kDropped: ++n_.drops[front_.cause()]; break;
    case EpFrontRef::kHeld: ++n_.holds; break;
    case EpFrontRef::kWaited:
      err << "a request waited at its decode (ep_req takes or refuses every header); ";
      break;
    case EpFrontRef::kNothing: break;
  }
  if (flit) {
    if (write) ++n_.writes;
    n_.adds += v_.add;
    ++done_;
  }
  if (last && push) {
    ++n_.pushes;
    if (whole_) {
      det_push = Staged{v_.win, v_.j.line, len};
      resv_ = false;
      ++n_.staged;
    }
  }
  if (reserve && in.rq_ready) {
    if (in.rq_slot >= p_.slots) err << "the testbench gave slot " << in.rq_slot << " of " << p_.slots << "; ";
    tag_ = in.rq_slot;
    ++pulls_;
    ++n_.pulls;
    body_ = kRead;
  }
  if (read && in.mr_ready) {
    ++n_.reads;
    if (++tag_ == p_.slots) {
      tag_ = 0;  // the slots are a ring
      ++n_.wraps;
    }
    ++done_;
  }
  if (det_pop) detq_.pop_front();
  if (det_push) detq_.push_back(*det_push);
  if (detq_.size() > p_.detq) err << "the staged queue past its depth; ";
  regs_.set_event(unsigned(EpReqReg::intr_state), ev == EpFrontRef::kDropped ? T3_EP_REQ_R_INTR_STATE_DROP_MASK : 0);
  regs_.edge();
  if (err.tellp() == 0) return std::nullopt;
  return err.str();
}

}  // namespace t3::tb
