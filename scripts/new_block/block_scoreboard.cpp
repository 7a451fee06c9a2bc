#include "@name@_scoreboard.h"

#include "common/bits.h"
#include "t3/@name@_regs.h"

namespace t3::tb {

std::optional<std::string> @Camel@Scoreboard::observe(const @Camel@Inputs& in,
                                                       const @Camel@Outputs& out) {
  std::ostringstream& err = complaints_.fresh();
  const unsigned ctrl = unsigned(@Camel@Reg::ctrl);
  const bool enable = regs_.field(ctrl, "enable") != 0;
  const bool full = !held_.empty();
  const uint64_t max = low_mask(p_.stat_w);

  // ---- the register port and the interrupt, on the state before the edge
  auto ro = [&](unsigned r) -> std::optional<uint32_t> {
    switch (@Camel@Reg(r)) {
      case @Camel@Reg::status: return uint32_t(full);
      case @Camel@Reg::stat_count: return uint32_t(count_ & max);
      case @Camel@Reg::param: return p_.data_w | p_.stat_w << 8;
      default: return 0;
    }
  };
  regs_.observe(in.apb, out.apb, full, ro, err);
  if (out.intr != regs_.intr()) err << "intr_o = " << out.intr << ", expected " << regs_.intr() << "; ";

  // ---- the stream: one word held at most; a word leaving frees the stage
  const bool want_ready = enable && (!full || in.out_ready);
  if (out.in_ready != want_ready) err << "in_ready_o = " << out.in_ready << ", expected " << want_ready << "; ";
  if (out.out_valid != full) err << "out_valid_o = " << out.out_valid << ", expected " << full << "; ";
  if (full && out.out_data != held_.front())
    err << "out_data_o = 0x" << std::hex << out.out_data << ", expected 0x" << held_.front() << std::dec << "; ";
  check_counter(err, "stat_count_o", out.stat_count, count_, p_.stat_w);

  // ---- the edge
  if (!in.rst_n) {
    held_.clear();
    count_ = 0;
    regs_.reset();
  } else {
    if (full && in.out_ready) {
      held_.pop_front();
      ++left_;
    }
    if (in.in_valid && want_ready) {
      held_.push_back(in.in_data & low_mask(p_.data_w));
      const bool wrap = (count_ & max) == max;
      wraps_ += wrap;
      regs_.set_event(unsigned(@Camel@Reg::intr_state),
                      uint32_t(wrap) << T3_@NAME@_R_INTR_STATE_WRAP_SHIFT);
      ++count_;
      ++taken_;
    }
    regs_.edge();
  }
  if (err.tellp() == 0) return std::nullopt;
  return err.str();
}

}  // namespace t3::tb
