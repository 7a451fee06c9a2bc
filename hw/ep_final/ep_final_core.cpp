#include "ep_final/ep_final_core.h"

#include "common/bits.h"
#include "common/packet.h"

namespace t3 {

void EpFinalParams::validate() const { validate_param_ranges(*this, "ep_final"); }

EpFinalCore::EpFinalCore(const EpFinalParams& p) : p_((p.validate(), p)), stat_mask_(uint32_t(low_mask(p.stat_w))) {}

bool EpFinalCore::stray(const EpFinalCoreInputs& in) const {
  return in.md_valid && !(in.md_tag < len_ && (pending_ >> in.md_tag & 1));
}

EpFinalCoreOutputs EpFinalCore::eval(const EpFinalCoreInputs& in) const {
  EpFinalCoreOutputs o;
  const uint64_t fb = p_.flit_bytes();
  o.fin_ready = !busy_;
  if (busy_ && issued_ < len_) {
    o.mr_valid = true;
    o.mr_addr = (src_ + issued_ * fb) & low_mask(48);
    o.mr_tag = uint8_t(issued_);
  }
  if (busy_ && added_ < len_ && (got_ >> added_ & 1)) {
    o.mw_valid = true;
    o.mw_addr = (dst_ + added_ * fb) & low_mask(48);
    o.mw_data = buf_[added_];
    o.mw_add = true;
    o.mw_dtype = dtype_;
  }
  if (busy_ && added_ == len_) {
    o.res_valid = true;
    o.res_hdr = hdr_;
  }
  o.idle = !busy_;
  o.stray = stray(in);
  o.stat = stat_;
  return o;
}

void EpFinalCore::clock(const EpFinalCoreInputs& in) {
  if (!in.rst_n) {
    busy_ = false;
    pending_ = got_ = 0;
    issued_ = added_ = len_ = 0;
    stat_ = EpFinalStats{};
    return;
  }
  const EpFinalCoreOutputs o = eval(in);
  auto bump = [this](uint32_t& c) { c = (c + 1) & stat_mask_; };
  if (o.stray) {
    bump(stat_.stray);
  } else if (in.md_valid) {
    buf_[in.md_tag] = in.md_data;
    got_ |= 1u << in.md_tag;
    pending_ &= ~(1u << in.md_tag);
  }
  if (o.mr_valid && in.mr_ready) {
    pending_ |= 1u << issued_;
    ++issued_;
  }
  if (o.mw_valid && in.mw_ready) {
    ++added_;
    bump(stat_.flits);
  }
  if (o.res_valid && in.res_ready) {
    busy_ = false;
    bump(stat_.lines);
  }
  if (o.fin_ready && in.fin_valid) {
    busy_ = true;
    src_ = in.fin_src & low_mask(48);
    dst_ = in.fin_dst & low_mask(48);
    hdr_ = pkt::header_bits(in.fin_hdr);
    const pkt::Header h = pkt::unpack(hdr_);
    // ep_rx hands on checked headers (1..MAX_LEN flits); a longer one is
    // cut to MAX_LEN, as ep_tx cuts a descriptor's.
    len_ = h.len > p_.max_len ? p_.max_len : h.len;
    dtype_ = h.dtype;
    issued_ = added_ = 0;
    pending_ = got_ = 0;
  }
}

}  // namespace t3
