#include "ep_rx_scoreboard.h"

#include "common/bits.h"
#include "common/hex.h"
#include "ep_window_ref.h"
#include "t3/ep_rx_regs.h"

namespace t3::tb {

// docs/blocks/ep_rx.md, "Behaviour": the checks in their order.
EpRxScoreboard::Verdict EpRxScoreboard::judge(const EpWinTable& tbl, bool res_room) const {
  Verdict v;
  const pkt::Header& h = front_.h();
  const uint64_t fb = p_.flit_w / 8;
  const bool result = h.op == uint8_t(pkt::Op::result), pull = h.op == uint8_t(pkt::Op::pull_rsp),
             partial = h.op == uint8_t(pkt::Op::partial);
  // The window found at the lookup, its record as the table holds it now.
  const std::optional<EpWinFound>& f = found_;
  const EpWin w = f ? unpack_window(tbl, f->index) : EpWin{};
  unsigned& c = v.j.cause;
  if (pkt::check(h, p_.max_len, p_.flit_w) != pkt::Malformed::none) c = 1;
  else if (!result && !pull && !partial) c = 3;
  else if (!f) c = 2;
  else if (w.copy != 0) c = 3;
  else if (h.dtype != w.dtype) c = 6;
  else if (partial && !w.home) c = 4;
  else if (!result && h.count == 0) c = 5;
  if (!f) return v;
  const uint64_t off = f->off;
  const uint64_t line = w.count_base + off / fb;
  if (!c && !result && line >= p_.count_depth) c = 8;  // counters past the array
  v.j.count = !result;
  v.j.wait = result && !res_room;
  v.j.line = uint32_t(line % (uint64_t(1) << p_.line_w()));
  v.j.limit = pull ? uint8_t(w.expected - 1) : w.expected;
  v.win = f->index;
  v.dst = (w.dst + off) & low_mask(48);
  v.merge = (w.merge + off) & low_mask(48);
  v.src = (w.src + off) & low_mask(48);
  return v;
}

void EpRxScoreboard::reset() {
  front_.reset();
  res_resv_ = fin_resv_ = false;
  resq_.clear();
  finq_.clear();
  home_.reset();
  results_ = pull_rsps_ = partials_ = 0;
}

std::optional<std::string> EpRxScoreboard::observe(const EpRxInputs& in, const EpRxOutputs& out) {
  std::ostringstream& err = complaints_.fresh();
  const pkt::Header& h = front_.h();
  const bool result = h.op == uint8_t(pkt::Op::result), pull = h.op == uint8_t(pkt::Op::pull_rsp),
             partial = h.op == uint8_t(pkt::Op::partial), merges = !result;
  const uint64_t fb = p_.flit_w / 8;
  const bool res_room = resq_.size() + res_resv_ < p_.resq, fin_room = finq_.size() + fin_resv_ < p_.finq;
  const bool data = front_.body() && body_ == kData, clear = front_.body() && body_ == kClear;
  const bool idle = front_.phase() == EpFrontRef::kHeader && resq_.empty() && finq_.empty() && !home_;

  // ---- the register port and the interrupt, on the state before the edge
  const uint64_t sm = low_mask(p_.stat_w);
  auto ro = [&](unsigned r) -> std::optional<uint32_t> {
    switch (EpRxReg(r)) {
      case EpRxReg::status: return front_.cause() | uint32_t(idle) << 8;
      case EpRxReg::drop_addr_lo: return uint32_t(front_.drop_addr());
      case EpRxReg::drop_addr_hi: return uint32_t(front_.drop_addr() >> 32);
      case EpRxReg::stat_results: return uint32_t(results_ & sm);
      case EpRxReg::stat_pull_rsps: return uint32_t(pull_rsps_ & sm);
      case EpRxReg::stat_partials: return uint32_t(partials_ & sm);
      case EpRxReg::stat_drops: return front_.stat_drops();
      case EpRxReg::param: return p_.flit_w | p_.max_len << 16 | p_.windows << 24;
      case EpRxReg::param_q: return p_.resq | p_.finq << 5 | p_.stat_w << 10 | (p_.count_depth & 0xFFFF) << 16;
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
  want("rsp_in_ready_o", out.rsp_in_ready, front_.in_ready(data && in.mw_ready));
  front_.want_cnt(err, out, partial || fin_room, clear, v_.j.line);
  want("mw_valid_o", out.mw_valid, data && in.rsp_in_valid);
  if (data && in.rsp_in_valid) {
    want("mw_addr_o", out.mw_addr, ((result || pull ? v_.dst : v_.merge) + done_ * fb) & low_mask(48));
    want_wide("mw_data_o", out.mw_data, in.rsp_in_flit);
    want("mw_add_o", out.mw_add, merges && !first_);
    want("mw_dtype_o", out.mw_dtype, h.dtype);
  } else if (!data && (out.mw_addr || out.mw_add || out.mw_dtype || !(out.mw_data == Wide{}))) {
    err << "the write port's fields are not 0 out of a packet's data; ";
  }
  want("res_valid_o", out.res_valid, !resq_.empty());
  want_wide("res_hdr_o", out.res_hdr, resq_.empty() ? Wide{} : resq_.front());
  want("fin_valid_o", out.fin_valid, !finq_.empty());
  want("fin_src_o", out.fin_src, finq_.empty() ? 0 : finq_.front().src);
  want("fin_dst_o", out.fin_dst, finq_.empty() ? 0 : finq_.front().dst);
  want_wide("fin_hdr_o", out.fin_hdr, finq_.empty() ? Wide{} : finq_.front().hdr);
  want("home_o", out.home, bool(home_));
  want("home_win_o", out.home_win, home_ ? home_->win : 0);
  want("home_line_o", out.home_line, home_ ? home_->line : 0);
  want("home_len_o", out.home_len, home_ ? home_->len : 0);
  const bool merging = merges && (front_.counting() || data);
  want("merging_o", out.merging, merging);
  want("merge_line_o", out.merge_line, merging ? v_.j.line : 0);
  want("idle_o", out.idle, idle);

  // ---- the edge
  if (!in.rst_n) {
    reset();
    regs_.reset();
    if (err.tellp() == 0) return std::nullopt;
    return err.str();
  }
  const bool res_pop = !resq_.empty() && in.res_ready, fin_pop = !finq_.empty() && in.fin_ready;
  std::optional<Wide> res_push;
  std::optional<Fin> fin_push;
  home_.reset();
  const bool flit = data && in.rsp_in_valid && in.mw_ready, last = flit && done_ + 1 == h.len;
  // A pulled line whole goes on to clear its counter.
  const bool body_done = (last && !(pull && whole_)) || (clear && in.cnt_ready);
  const EpFrontRef::Event ev =
      front_.edge(err, in.rsp_in_valid, in.rsp_in_flit, in.cnt_ready, in.cnt_rsp_valid, in.cnt_rsp_code,
                  partial || fin_room, body_done,
                  [&] {
                    found_ = ref_find_window(in.tbl, p_.windows, unsigned(fb), h.addr, h.len);
                    look_tbl_ = in.tbl;
                  },
                  [&] {
                    n_.moved += !(in.tbl == look_tbl_);
                    v_ = judge(in.tbl, res_room);
                    return v_.j;
                  });
  switch (ev) {
    case EpFrontRef::kTaken:
      done_ = 0;
      body_ = kData;
      if (result) {
        res_resv_ = true;
        first_ = true;
        ++results_;
      }
      break;
    case EpFrontRef::kCounted:
      first_ = in.cnt_rsp_count == 0;
      whole_ = in.cnt_rsp_whole;
      if (pull && whole_) fin_resv_ = true;
      ++(pull ? pull_rsps_ : partials_);
      break;
    case EpFrontRef::kDropped: ++n_.drops[front_.cause()]; break;
    case EpFrontRef::kWaited: ++n_.waits; break;
    case EpFrontRef::kHeld: ++n_.holds; break;
    case EpFrontRef::kNothing: break;
  }
  if (flit) {
    ++n_.writes;
    n_.adds += merges && !first_;
    ++done_;
  }
  if (last) {
    if (result) {
      res_push = front_.hdr();
      res_resv_ = false;
      ++n_.results;
    } else if (pull && whole_) {
      fin_push = Fin{v_.src, v_.dst, front_.hdr()};
      fin_resv_ = false;
      ++n_.pulled;
      body_ = kClear;
    } else if (partial && whole_) {
      home_ = Home{v_.win, v_.j.line, front_.len()};
      ++n_.homes;
    } else {
      ++n_.merged;
    }
  }
  if (res_pop) resq_.pop_front();
  if (fin_pop) finq_.pop_front();
  if (res_push) resq_.push_back(*res_push);
  if (fin_push) finq_.push_back(*fin_push);
  if (resq_.size() > p_.resq || finq_.size() > p_.finq) err << "a queue past its depth; ";
  regs_.set_event(unsigned(EpRxReg::intr_state), ev == EpFrontRef::kDropped ? T3_EP_RX_R_INTR_STATE_DROP_MASK : 0);
  regs_.edge();
  if (err.tellp() == 0) return std::nullopt;
  return err.str();
}

}  // namespace t3::tb
