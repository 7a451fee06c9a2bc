#include "ep_det_scoreboard.h"

#include "common/bits.h"
#include "common/hex.h"
#include "t3/ep_det_regs.h"
#include "tagged_memory.h"

namespace t3::tb {

void EpDetScoreboard::reset() {
  ph_ = kIdle;
  reads_.clear();
  answered_.clear();
  rn_ = un_ = 0;
  lines_ = flits_ = strays_ = 0;
}

std::optional<std::string> EpDetScoreboard::observe(const EpDetInputs& in, const EpDetOutputs& out) {
  std::ostringstream& err = complaints_.fresh();
  const uint64_t fb = p_.flit_w / 8;
  // The read an answer's tag is for: the outstanding one in that ring place.
  std::optional<size_t> ans;
  if (in.md_valid)
    for (size_t n = un_; n < rn_; ++n)
      if (n % p_.buf == in.md_tag && !answered_[n]) ans = n;
  const bool stray = in.md_valid && !ans;

  // ---- the register port and the interrupt, on the state before the edge
  const uint64_t sm = low_mask(p_.stat_w);
  auto ro = [&](unsigned r) -> std::optional<uint32_t> {
    switch (EpDetReg(r)) {
      case EpDetReg::status: return uint32_t(ph_ == kIdle);
      case EpDetReg::stat_lines: return uint32_t(lines_ & sm);
      case EpDetReg::stat_flits: return uint32_t(flits_ & sm);
      case EpDetReg::stat_strays: return uint32_t(strays_ & sm);
      case EpDetReg::param: return p_.flit_w | p_.max_len << 16 | p_.windows << 24;
      case EpDetReg::param_q: return p_.buf | p_.stat_w << 8 | p_.count_depth << 15;
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
  want("det_ready_o", out.det_ready, ph_ == kIdle);
  const bool rd = ph_ == kRun && rn_ < reads_.size() && rn_ - un_ < p_.buf;
  want("mr_valid_o", out.mr_valid, rd);
  want("mr_addr_o", out.mr_addr, rd ? reads_[rn_] : 0);
  want("mr_tag_o", out.mr_tag, rd ? rn_ % p_.buf : 0);
  const bool wr = ph_ == kRun && un_ < rn_ && answered_[un_];
  want("mw_valid_o", out.mw_valid, wr);
  want("mw_addr_o", out.mw_addr, wr ? (merge_ + (un_ % len_) * fb) & low_mask(48) : 0);
  want_wide("mw_data_o", out.mw_data, wr ? mem_data(reads_[un_], p_.flit_w) : Wide{});
  want("mw_add_o", out.mw_add, wr && un_ >= len_);
  want("mw_dtype_o", out.mw_dtype, wr ? dtype_ : 0);
  const bool done = ph_ == kDone;
  want("hq_valid_o", out.hq_valid, done);
  want("hq_win_o", out.hq_win, done ? win_ : 0);
  want("hq_line_o", out.hq_line, done ? line_ : 0);
  want("hq_len_o", out.hq_len, done ? len_ : 0);
  want("idle_o", out.idle, ph_ == kIdle);

  // ---- the edge
  if (!in.rst_n) {
    reset();
    regs_.reset();
    if (err.tellp() == 0) return std::nullopt;
    return err.str();
  }
  if (stray) {
    ++strays_;
    ++n_.strays;
  }
  if (ans) answered_[*ans] = true;
  switch (ph_) {
    case kIdle:
      if (!in.det_valid) break;
      win_ = in.det_win;
      line_ = in.det_line;
      len_ = in.det_len & low_mask(p_.len_w());
      ph_ = kStart;
      break;
    case kStart: {
      // Every contributor's stage in rank order, each the line's flits.
      const EpWin w = unpack_window(in.tbl, win_);
      const uint64_t off = uint64_t(uint32_t(line_ - w.count_base)) * fb;
      dtype_ = w.dtype;
      merge_ = (w.merge + off) & low_mask(48);
      reads_.clear();
      for (unsigned k = 0; k < w.expected; ++k)
        for (unsigned i = 0; i < len_; ++i) reads_.push_back((w.stage + uint64_t(k) * w.bytes + off + i * fb) & low_mask(48));
      answered_.assign(reads_.size(), false);
      rn_ = un_ = 0;
      ph_ = reads_.empty() ? kDone : kRun;
      n_.empty += reads_.empty();
      break;
    }
    case kRun:
      if (rd && in.mr_ready) ++rn_;
      if (rd && rn_ - un_ == p_.buf) ++n_.ring_full;
      if (wr && in.mw_ready) {
        ++flits_;
        ++n_.flits;
        n_.adds += un_ >= len_;
        if (++un_ == reads_.size()) ph_ = kDone;
      }
      break;
    case kDone:
      if (!in.hq_ready) break;
      ++lines_;
      ++n_.lines;
      ph_ = kIdle;
      break;
  }
  regs_.set_event(unsigned(EpDetReg::intr_state), stray ? T3_EP_DET_R_INTR_STATE_STRAY_MASK : 0);
  regs_.edge();
  if (err.tellp() == 0) return std::nullopt;
  return err.str();
}

}  // namespace t3::tb
