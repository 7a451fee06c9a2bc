#include "ep_home_scoreboard.h"

#include <algorithm>

#include "common/bits.h"
#include "common/hex.h"
#include "t3/ep_home_regs.h"
#include "tagged_memory.h"

namespace t3::tb {

int EpHomeScoreboard::awaited(const EpHomeInputs& in) const {
  if (ph_ != kRead && ph_ != kDrain) return -1;
  if (in.md_tag >= p_.slots) return -1;
  const uint32_t i = (in.md_tag + p_.slots - first_) % p_.slots;
  return i < issued_ && i < p_.max_len && !answered_[i] ? int(i) : -1;
}

bool EpHomeScoreboard::copy_due() const {
  return (ph_ == kRead || ph_ == kDrain) && copy_ && copied_ < l_.len && copied_ < p_.max_len &&
         answered_[copied_];
}

void EpHomeScoreboard::reset() {
  ph_ = kIdle;
  homeq_.clear();
  resq_.clear();
  pending_ = 0;
  sweep_at_ = 0;
  barren_ = 0;
  res_resv_ = false;
  results_ = sweeps_ = strays_ = bad_ = lost_ = 0;
}

std::optional<std::string> EpHomeScoreboard::observe(const EpHomeInputs& in, const EpHomeOutputs& out) {
  std::ostringstream& err = complaints_.fresh();
  const uint64_t fb = p_.flit_w / 8;
  const bool idle = ph_ == kIdle && homeq_.empty() && pending_ == 0 && resq_.empty();
  const int a = in.md_valid ? awaited(in) : -1;
  const bool stray = in.md_valid && a < 0;

  // ---- the register port and the interrupt, on the state before the edge
  const uint64_t sm = low_mask(p_.stat_w);
  auto ro = [&](unsigned r) -> std::optional<uint32_t> {
    switch (EpHomeReg(r)) {
      case EpHomeReg::status: return uint32_t(pending_ & 0x1FFFF) | uint32_t(idle) << 24;
      case EpHomeReg::stat_results: return uint32_t(results_ & sm);
      case EpHomeReg::stat_sweeps: return uint32_t(sweeps_ & sm);
      case EpHomeReg::stat_strays: return uint32_t(strays_ & sm);
      case EpHomeReg::stat_bad: return uint32_t(bad_ & sm);
      case EpHomeReg::stat_lost: return uint32_t(lost_ & sm);
      case EpHomeReg::param: return p_.flit_w | p_.max_len << 16 | p_.windows << 24;
      case EpHomeReg::param_q: return p_.slots | p_.home_q << 8 | p_.resq << 16 | p_.stat_w << 24;
      case EpHomeReg::param_c: return p_.count_depth;
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
  const bool room = homeq_.size() < p_.home_q;
  want("hq_ready_o", out.hq_ready, !in.home && room);
  const bool ask = ph_ == kAsk, clear = ph_ == kClear;
  want("cnt_valid_o", out.cnt_valid, ask || clear);
  want("cnt_op_o", out.cnt_op, clear ? 2 : 0);
  want("cnt_line_o", out.cnt_line, ask ? sweep_at_ : clear ? l_.line : 0);
  const bool rq = ph_ == kReserve;
  want("rq_valid_o", out.rq_valid, rq);
  want_wide("rq_hdr_o", out.rq_hdr, rq ? hdr_ : Wide{});
  want("rq_len_o", out.rq_len, rq ? l_.len : 0);
  const bool rd = ph_ == kRead;
  want("mr_valid_o", out.mr_valid, rd);
  want("mr_addr_o", out.mr_addr, rd ? (merge_ + issued_ * fb) & low_mask(48) : 0);
  want("mr_tag_o", out.mr_tag, rd ? (first_ + issued_) % p_.slots : 0);
  const bool cp = copy_due();
  want("mw_valid_o", out.mw_valid, cp);
  want("mw_addr_o", out.mw_addr, cp ? (dst_ + copied_ * fb) & low_mask(48) : 0);
  // The copy is what the memory holds at the line's place in the merge area.
  want_wide("mw_data_o", out.mw_data, cp ? mem_data((merge_ + copied_ * fb) & low_mask(48), p_.flit_w) : Wide{});
  want("res_valid_o", out.res_valid, !resq_.empty());
  want_wide("res_hdr_o", out.res_hdr, resq_.empty() ? Wide{} : resq_.front());
  want("idle_o", out.idle, idle);

  // ---- the edge
  if (!in.rst_n) {
    reset();
    regs_.reset();
    if (err.tellp() == 0) return std::nullopt;
    return err.str();
  }
  // A line whose length is outside 1..MAX_LEN is refused, whichever way it
  // comes (the in-order add's only when taken).
  auto len_ok = [&](uint32_t len) { return len >= 1 && len <= p_.max_len; };
  const bool bad = in.home ? !len_ok(in.home_len) : in.hq_valid && room && !len_ok(in.hq_len);
  std::optional<Line> push;
  bool went_pending = false, lost = false;
  if (bad) {
    ++bad_;
    ++n_.bad;
  } else if (in.home) {
    ++n_.pulses;
    if (pending_ == 0 && room) {
      push = Line{in.home_win, in.home_line, in.home_len};
    } else {
      ++pending_;  // the sweep finds it
      ++n_.to_pending;
      went_pending = true;
    }
  } else if (in.hq_valid && room) {
    push = Line{in.hq_win, in.hq_line, in.hq_len};
    ++n_.det_lines;
  }
  if (stray) {
    ++strays_;
    ++n_.strays;
  }
  const bool copied = cp && in.mw_ready;
  bool pop = false, res_push = false;
  switch (ph_) {
    case kIdle:
      if (!homeq_.empty()) {
        l_ = homeq_.front();
        pop = true;
        ph_ = kStart;
      } else if (pending_) {
        ph_ = kAsk;
      }
      break;
    case kAsk:
      if (in.cnt_ready) ph_ = kAnswer;
      break;
    case kAnswer: {
      if (!in.cnt_rsp_valid) {
        err << "the testbench gave no counter answer in the cycle after the grant; ";
        break;
      }
      // The sweep's lookup: the lowest valid home window, not deterministic,
      // whose counters hold this one.
      int w = -1;
      EpWin x;
      for (unsigned i = 0; i < p_.windows && w < 0; ++i) {
        x = unpack_window(in.tbl, i);
        if (x.valid && x.home && !x.det && sweep_at_ >= x.count_base &&
            uint64_t(sweep_at_) < uint64_t(x.count_base) + x.bytes / fb)
          w = int(i);
      }
      const bool full = w >= 0 && in.cnt_rsp_code == 0 && len_ok(in.cnt_rsp_len) && in.cnt_rsp_count == x.expected;
      const bool whole = full && !(in.merging && in.merge_line == sweep_at_);
      ph_ = kIdle;
      if (whole) {
        l_ = Line{uint32_t(w), sweep_at_, in.cnt_rsp_len};
        --pending_;
        ++sweeps_;
        ++n_.swept;
        ph_ = kStart;
      } else {
        ++n_.missed;
      }
      // A line seen whole (found, or still merging) starts the round again;
      // so does a line gone to pending in this cycle (below). Otherwise a
      // round of COUNT_DEPTH barren reads gives up the pending lines.
      if (full) {
        barren_ = 0;
      } else if (++barren_ >= p_.count_depth && !went_pending) {
        lost = true;
        lost_ += pending_;
        ++n_.given_up;
        pending_ = 0;
        barren_ = 0;
      }
      sweep_at_ = (sweep_at_ + 1) % p_.count_depth;
      break;
    }
    case kStart: {
      if (resq_.size() + res_resv_ >= p_.resq) break;
      const EpWin x = unpack_window(in.tbl, l_.win);
      const uint64_t off = uint64_t(uint32_t(l_.line - x.count_base)) * fb;
      const uint64_t addr = (x.net_base + off) & low_mask(48);
      // The RESULT, its fields placed by hand from docs/packet.md's table.
      hdr_ = Wide{};
      hdr_.w[0] = uint64_t(pkt::Op::result) | uint64_t(x.dtype) << 6 | uint64_t(l_.len) << 8 |
                  uint64_t(in.node) << 16 | uint64_t(x.expected) << 32 | (addr & 0xFFFF) << 48;
      hdr_.w[1] = addr >> 16;
      merge_ = (x.merge + off) & low_mask(48);
      dst_ = (x.dst + off) & low_mask(48);
      copy_ = x.merge != x.dst;
      res_resv_ = true;
      ph_ = kReserve;
      break;
    }
    case kReserve:
      if (!in.rq_ready) break;
      if (in.rq_slot >= p_.slots) err << "the testbench gave slot " << in.rq_slot << " of " << p_.slots << "; ";
      first_ = in.rq_slot;
      issued_ = back_ = copied_ = 0;
      std::fill(answered_.begin(), answered_.end(), false);
      ph_ = kRead;
      break;
    case kRead:
      if (in.mr_ready && ++issued_ == l_.len) ph_ = kDrain;
      break;
    case kDrain:
      if (back_ == l_.len && (!copy_ || copied_ == l_.len)) ph_ = kClear;
      break;
    case kClear:
      if (!in.cnt_ready) break;
      res_push = true;
      res_resv_ = false;
      ++results_;
      ++n_.sent;
      ph_ = kIdle;
      break;
  }
  if (a >= 0) {
    answered_[unsigned(a)] = true;
    ++back_;
  }
  if (copied) {
    ++copied_;
    ++n_.copied;
  }
  if (out.res_valid && in.res_ready) resq_.pop_front();
  if (pop) homeq_.pop_front();
  if (push) homeq_.push_back(*push);
  if (res_push) resq_.push_back(hdr_);
  if (went_pending) barren_ = 0;
  pending_ &= 0x1FFFF;
  n_.max_pending = std::max(n_.max_pending, pending_);
  if (homeq_.size() > p_.home_q || resq_.size() > p_.resq) err << "a queue past its depth; ";
  regs_.set_event(unsigned(EpHomeReg::intr_state), (stray ? T3_EP_HOME_R_INTR_STATE_STRAY_MASK : 0) |
                                                       (bad ? T3_EP_HOME_R_INTR_STATE_BAD_MASK : 0) |
                                                       (lost ? T3_EP_HOME_R_INTR_STATE_LOST_MASK : 0));
  regs_.edge();
  if (err.tellp() == 0) return std::nullopt;
  return err.str();
}

}  // namespace t3::tb
