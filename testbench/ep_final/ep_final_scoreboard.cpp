#include "ep_final_scoreboard.h"

#include "common/bits.h"
#include "common/hex.h"
#include "common/packet.h"
#include "t3/ep_final_regs.h"
#include "tagged_memory.h"

namespace t3::tb {

std::optional<std::string> EpFinalScoreboard::observe(const EpFinalInputs& in, const EpFinalOutputs& out) {
  std::ostringstream& err = complaints_.fresh();
  const uint64_t fb = p_.flit_w / 8, sm = low_mask(p_.stat_w);
  auto ro = [&](unsigned r) -> std::optional<uint32_t> {
    switch (EpFinalReg(r)) {
      case EpFinalReg::status: return uint32_t(!busy_);
      case EpFinalReg::stat_lines: return uint32_t(lines_ & sm);
      case EpFinalReg::stat_flits: return uint32_t(flits_ & sm);
      case EpFinalReg::stat_stray: return uint32_t(strays_ & sm);
      case EpFinalReg::param: return p_.flit_w | p_.max_len << 16 | p_.stat_w << 24;
      default: return 0;
    }
  };
  regs_.observe(in.apb, out.apb, false, ro, err);
  if (out.intr != regs_.intr()) err << "intr_o = " << out.intr << ", expected " << regs_.intr() << "; ";

  auto want = [&](const char* pin, uint64_t got, uint64_t exp) { want_pin(err, pin, got, exp); };
  const bool was_busy = busy_;
  want("fin_ready_o", out.fin_ready, !busy_);
  want("idle_o", out.idle, !busy_);
  const bool rd = busy_ && read_ < len_;
  want("mr_valid_o", out.mr_valid, rd);
  want("mr_addr_o", out.mr_addr, rd ? (src_ + read_ * fb) & low_mask(48) : 0);
  want("mr_tag_o", out.mr_tag, rd ? read_ : 0);
  const bool add = busy_ && added_ < len_ && (in_ >> added_ & 1);
  want("mw_valid_o", out.mw_valid, add);
  const uint64_t at = (dst_ + added_ * fb) & low_mask(48);
  want("mw_addr_o", out.mw_addr, add ? at : 0);
  want("mw_add_o", out.mw_add, add);
  want("mw_dtype_o", out.mw_dtype, add ? dtype_ : 0);
  const Wide data = add ? mem_data((src_ + added_ * fb) & low_mask(48), p_.flit_w) : Wide{};
  if (!(out.mw_data == data)) err << "mw_data_o = " << hex(out.mw_data, p_.flit_w) << ", expected " << hex(data, p_.flit_w) << "; ";
  const bool done = busy_ && added_ == len_;
  want("res_valid_o", out.res_valid, done);
  if (!(out.res_hdr == (done ? hdr_ : Wide{}))) err << "res_hdr_o is not the line's header; ";
  const bool stray = in.md_valid && !(in.md_tag < len_ && (waiting_ >> in.md_tag & 1));

  if (!in.rst_n) {
    busy_ = false;
    waiting_ = in_ = 0;
    len_ = read_ = added_ = 0;
    lines_ = flits_ = strays_ = 0;
    regs_.reset();
  } else {
    if (stray) {
      ++strays_;
      ++strays_total_;
    } else if (in.md_valid) {
      if (!(in.md_data == mem_data((src_ + in.md_tag * fb) & low_mask(48), p_.flit_w)))
        err << "the testbench answered flit " << unsigned(in.md_tag) << " with another address's data; ";
      out_of_order_ += (in_ | (1u << in.md_tag)) != (2u << in.md_tag) - 1;
      in_ |= 1u << in.md_tag;
      waiting_ &= ~(1u << in.md_tag);
    }
    if (rd && in.mr_ready) waiting_ |= 1u << read_++;
    if (add && in.mw_ready) {
      ++added_;
      ++flits_;
    }
    if (done && in.res_ready) {
      busy_ = false;
      ++lines_;
      ++lines_total_;
    }
    if (!was_busy && in.fin_valid) {
      busy_ = true;
      src_ = in.fin_src & low_mask(48);
      dst_ = in.fin_dst & low_mask(48);
      hdr_ = pkt::header_bits(in.fin_hdr);
      const pkt::Header h = pkt::unpack(hdr_);
      len_ = h.len < p_.max_len ? h.len : p_.max_len;
      dtype_ = h.dtype;
      read_ = added_ = 0;
      waiting_ = in_ = 0;
    }
    regs_.set_event(unsigned(EpFinalReg::intr_state), stray ? T3_EP_FINAL_R_INTR_STATE_STRAY_MASK : 0);
    regs_.edge();
  }
  if (err.tellp() == 0) return std::nullopt;
  return err.str();
}

}  // namespace t3::tb
