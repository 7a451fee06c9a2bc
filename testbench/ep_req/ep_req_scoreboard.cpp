#include "ep_req_scoreboard.h"

#include "common/bits.h"
#include "common/hex.h"
#include "ep_window_ref.h"
#include "t3/ep_req_regs.h"

namespace t3::tb {

// docs/blocks/ep_req.md, "Behaviour": the checks in their order.
EpReqScoreboard::Verdict EpReqScoreboard::judge(const EpWinTable& tbl) const {
  Verdict v;
  const pkt::Header& h = h_;
  const uint64_t fb = p_.flit_w / 8;
  const bool pull = h.op == uint8_t(pkt::Op::pull), push = h.op == uint8_t(pkt::Op::push),
             write = h.op == uint8_t(pkt::Op::write);
  const std::optional<EpWinFound> f = ref_find_window(tbl, p_.windows, unsigned(fb), h.addr, h.len);
  const EpWin w = f ? f->win : EpWin{};
  bool contributor = false;
  unsigned rank = 0;  // the contributors below src
  for (unsigned s = 0; s < 32; ++s) {
    const bool in = w.contrib_mask >> s & 1;
    if (s == h.src) contributor = in;
    if (s < h.src) rank += in;
  }
  const uint64_t line = f ? w.count_base + f->off / fb : 0;
  if (pkt::check(h, p_.max_len, p_.flit_w) != pkt::Malformed::none) v.cause = 1;
  else if (!pull && !push && !write) v.cause = 3;
  else if (!f) v.cause = 2;
  else if (write != (w.copy != 0)) v.cause = 3;  // WRITEs to copy windows only, and only WRITEs
  else if (!write && h.dtype != w.dtype) v.cause = 6;
  else if (push && !w.det) v.cause = 3;
  else if (push && !contributor) v.cause = 7;
  else if (push && h.count != 1) v.cause = 5;
  else if (push && line >= p_.count_depth) v.cause = 8;  // counters past the array
  if (!f) return v;
  v.win = f->index;
  v.line = uint32_t(line % (uint64_t(1) << p_.line_w()));
  v.expected = w.expected;
  v.dtype = w.dtype;
  v.add = write && w.copy == 1;
  const uint64_t base = write ? w.dst : push ? w.stage + uint64_t(rank) * w.bytes : w.src;
  v.addr = (base + f->off) & low_mask(48);
  return v;
}

// The PULL_RSP, its fields placed by hand from docs/packet.md's table.
Wide EpReqScoreboard::pull_rsp(uint8_t node) const {
  Wide r;
  r.w[0] = uint64_t(pkt::Op::pull_rsp) | uint64_t(h_.dtype) << 6 | uint64_t(h_.len) << 8 |
           uint64_t(node) << 16 | uint64_t(h_.src) << 24 | uint64_t(1) << 32 | uint64_t(h_.ctr) << 40 |
           (h_.addr & 0xFFFF) << 48;
  r.w[1] = h_.addr >> 16;
  return r;
}

void EpReqScoreboard::reset() {
  ph_ = kHeader;
  resv_ = false;
  detq_.clear();
  cause_ = 0;
  drop_addr_ = 0;
  pulls_ = pushes_ = writes_ = drops_ = 0;
}

std::optional<std::string> EpReqScoreboard::observe(const EpReqInputs& in, const EpReqOutputs& out) {
  std::ostringstream& err = complaints_.fresh();
  const bool push = h_.op == uint8_t(pkt::Op::push), write = h_.op == uint8_t(pkt::Op::write);
  const uint64_t fb = p_.flit_w / 8;
  const bool det_room = detq_.size() + resv_ < p_.detq;
  const bool idle = ph_ == kHeader && detq_.empty();

  // ---- the register port and the interrupt, on the state before the edge
  const uint64_t sm = low_mask(p_.stat_w);
  auto ro = [&](unsigned r) -> std::optional<uint32_t> {
    switch (EpReqReg(r)) {
      case EpReqReg::status: return cause_ | uint32_t(idle) << 8;
      case EpReqReg::drop_addr_lo: return uint32_t(drop_addr_);
      case EpReqReg::drop_addr_hi: return uint32_t(drop_addr_ >> 32);
      case EpReqReg::stat_pulls: return uint32_t(pulls_ & sm);
      case EpReqReg::stat_pushes: return uint32_t(pushes_ & sm);
      case EpReqReg::stat_writes: return uint32_t(writes_ & sm);
      case EpReqReg::stat_drops: return uint32_t(drops_ & sm);
      case EpReqReg::param: return p_.flit_w | p_.max_len << 16 | p_.windows << 24;
      case EpReqReg::param_q: return p_.slots | p_.detq << 8 | p_.stat_w << 16;
      case EpReqReg::param_c: return p_.count_depth;
      default: return 0;
    }
  };
  regs_.observe(in.apb, out.apb, false, ro, err);
  if (out.intr != regs_.intr()) err << "intr_o = " << out.intr << ", expected " << regs_.intr() << "; ";

  // ---- the outputs
  auto want = [&](const char* pin, uint64_t got, uint64_t exp) {
    if (got != exp) err << pin << " = 0x" << std::hex << got << ", expected 0x" << exp << std::dec << "; ";
  };
  auto want_wide = [&](const char* pin, const Wide& got, const Wide& exp) {
    if (!(got == exp)) err << pin << " = " << hex(got, p_.flit_w) << ", expected " << hex(exp, p_.flit_w) << "; ";
  };
  const unsigned len = h_.len & low_mask(p_.len_w());
  want("req_in_ready_o", out.req_in_ready, ph_ == kHeader || ph_ == kDrop || (ph_ == kData && in.mw_ready));
  const bool ask = ph_ == kCount;
  want("cnt_valid_o", out.cnt_valid, ask);
  want("cnt_op_o", out.cnt_op, ask ? 1 : 0);
  want("cnt_line_o", out.cnt_line, ask ? v_.line : 0);
  want("cnt_n_o", out.cnt_n, ask ? h_.count : 0);
  want("cnt_limit_o", out.cnt_limit, ask ? v_.expected : 0);
  want("cnt_len_o", out.cnt_len, ask ? len : 0);
  want("cnt_whole_ok_o", out.cnt_whole_ok, ask && det_room);
  const bool data = ph_ == kData;
  want("mw_valid_o", out.mw_valid, data && in.req_in_valid);
  if (out.mw_valid) {
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
  const bool rq = ph_ == kReserve;
  want("rq_valid_o", out.rq_valid, rq);
  want_wide("rq_hdr_o", out.rq_hdr, rq ? pull_rsp(in.node) : Wide{});
  want("rq_len_o", out.rq_len, rq ? len : 0);
  const bool rd = ph_ == kRead;
  want("mr_valid_o", out.mr_valid, rd);
  want("mr_addr_o", out.mr_addr, rd ? (v_.addr + done_ * fb) & low_mask(48) : 0);
  want("mr_tag_o", out.mr_tag, rd ? tag_ : 0);
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
  bool dropped = false;
  auto drop = [&](unsigned cause) {
    cause_ = cause;
    drop_addr_ = h_.addr;
    ++drops_;
    ++n_.drops[cause];
    dropped = true;
  };
  const bool det_pop = out.det_valid && in.det_ready;
  std::optional<Staged> det_push;
  switch (ph_) {
    case kHeader:
      if (in.req_in_valid) {
        h_ = pkt::unpack(pkt::header_bits(in.req_in_flit));
        ph_ = kLook;
      }
      break;
    case kLook:  // a cycle to find the window, a cycle to check its record
      ph_ = kDecode;
      break;
    case kDecode:
      v_ = judge(in.tbl);
      done_ = 0;
      if (v_.cause) {
        drop(v_.cause);
        left_ = pkt::wire_flits(h_) - 1;
        ph_ = left_ ? kDrop : kHeader;
      } else if (push) {
        ph_ = kCount;
      } else if (write) {
        ++writes_;
        ph_ = kData;
      } else {
        ph_ = kReserve;
      }
      break;
    case kCount:
      if (in.cnt_ready) ph_ = kAnswer;
      break;
    case kAnswer:
      if (!in.cnt_rsp_valid) {
        err << "the testbench gave no counter answer in the cycle after the grant; ";
      } else if (in.cnt_rsp_code == 0) {
        whole_ = in.cnt_rsp_whole;
        resv_ = whole_;
        ++pushes_;
        ph_ = kData;
      } else if (in.cnt_rsp_code == 2) {
        ++n_.holds;
        ph_ = kHold;
      } else {
        drop(in.cnt_rsp_code == 1 ? 5 : 8);
        left_ = h_.len;
        ph_ = kDrop;
      }
      break;
    case kHold:
      if (det_room) ph_ = kCount;
      break;
    case kData:
      if (!in.req_in_valid || !in.mw_ready) break;
      if (write) ++n_.writes;
      n_.adds += v_.add;
      if (++done_ < h_.len) break;
      ph_ = kHeader;
      if (push) {
        ++n_.pushes;
        if (whole_) {
          det_push = Staged{v_.win, v_.line, len};
          resv_ = false;
          ++n_.staged;
        }
      }
      break;
    case kReserve:
      if (!in.rq_ready) break;
      if (in.rq_slot >= p_.slots) err << "the testbench gave slot " << in.rq_slot << " of " << p_.slots << "; ";
      tag_ = in.rq_slot;
      ++pulls_;
      ++n_.pulls;
      ph_ = kRead;
      break;
    case kRead:
      if (!in.mr_ready) break;
      ++n_.reads;
      if (++tag_ == p_.slots) {
        tag_ = 0;  // the slots are a ring
        ++n_.wraps;
      }
      if (++done_ == h_.len) ph_ = kHeader;
      break;
    case kDrop:
      if (in.req_in_valid && --left_ == 0) ph_ = kHeader;
      break;
  }
  if (det_pop) detq_.pop_front();
  if (det_push) detq_.push_back(*det_push);
  if (detq_.size() > p_.detq) err << "the staged queue past its depth; ";
  regs_.set_event(unsigned(EpReqReg::intr_state), dropped ? T3_EP_REQ_R_INTR_STATE_DROP_MASK : 0);
  regs_.edge();
  if (err.tellp() == 0) return std::nullopt;
  return err.str();
}

}  // namespace t3::tb
