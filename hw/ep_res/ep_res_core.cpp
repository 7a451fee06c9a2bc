#include "ep_res/ep_res_core.h"

#include <algorithm>

#include "common/bits.h"
#include "common/packet.h"

namespace t3 {

void EpResParams::validate() const { validate_param_ranges(*this, "ep_res"); }

EpResCore::EpResCore(const EpResParams& p) : p_((p.validate(), p)), r_(p.ctrs) {}

uint8_t EpResCore::counter_of(uint64_t a) const {
  for (unsigned c = 0; c < p_.ctrs; ++c)
    if (r_[c].live && a >= r_[c].lo && a < r_[c].hi) return uint8_t(c);
  return 0xFF;  // past CTRS: the DMA credit controller counts a stray
}

EpResCoreOutputs EpResCore::eval(const EpResCoreInputs& in) const {
  EpResCoreOutputs o;
  // The engines in the model's order: the response receiver frees the
  // network's responses, the home a region's next round, the final add a
  // pulled line.
  const Wide* pick = in.rx_valid ? &in.rx_hdr : in.home_valid ? &in.home_hdr : in.fin_valid ? &in.fin_hdr : nullptr;
  o.res_valid = pick != nullptr;
  o.rx_ready = in.rx_valid && in.res_ready;
  o.home_ready = !in.rx_valid && in.home_valid && in.res_ready;
  o.fin_ready = !in.rx_valid && !in.home_valid && in.fin_valid && in.res_ready;
  if (pick) {
    o.res_hdr = *pick;
    o.res_hdr.truncate(p_.flit_w);
    if (pick != &in.fin_hdr) {
      const uint8_t c = counter_of(o.res_hdr.bits(pkt::kAddrLsb, 48));
      o.res_hdr.set_bits(pkt::kCtrLsb, 8, c);
      o.unmatched = c == 0xFF && in.res_ready;
    }
  }
  for (unsigned c = 0; c < p_.ctrs; ++c) o.live |= uint64_t(r_[c].live) << c;
  const uint64_t m = low_mask(p_.stat_w);
  o.stat.results = uint32_t(results_ & m);
  o.stat.unmatched = uint32_t(unmatched_ & m);
  return o;
}

void EpResCore::clock(const EpResCoreInputs& in) {
  if (!in.rst_n) {
    for (Range& r : r_) r = Range{};
    results_ = unmatched_ = 0;
    return;
  }
  const EpResCoreOutputs o = eval(in);
  if (o.res_valid && in.res_ready) ++results_;
  if (o.unmatched) ++unmatched_;
  // A completion ends its range; a descriptor in the same cycle begins the
  // counter's next one (the model's order: docs/blocks/ep_res.md).
  const uint32_t cm = uint32_t(low_mask(p_.ctr_w()));
  if (in.cpl_wr && in.cpl_status <= 1 && (in.cpl_ctr & cm) < p_.ctrs) r_[in.cpl_ctr & cm].live = false;
  if (in.desc_valid && in.desc_ready) {
    const unsigned c = unsigned(in.desc_hdr.bits(pkt::kCtrLsb, 8));
    if (c < p_.ctrs) {
      const uint64_t lo = in.desc_hdr.bits(pkt::kAddrLsb, 48);
      const uint64_t hi = lo + in.desc_hdr.bits(pkt::kLenLsb, 8) * p_.flit_bytes();
      Range& r = r_[c];
      if (!r.live) r = Range{true, lo, hi};
      r.lo = std::min(r.lo, lo);
      r.hi = std::max(r.hi, hi);
    }
  }
}

}  // namespace t3
