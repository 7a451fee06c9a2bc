#include "ep_res_scoreboard.h"

#include <algorithm>

#include "common/bits.h"
#include "common/hex.h"
#include "common/packet.h"
#include "t3/ep_res_regs.h"

namespace t3::tb {

void EpResScoreboard::reset() {
  for (auto& s : spans_) s.clear();
  regs_.reset();
  stat_[0] = stat_[1] = 0;
}

std::optional<std::string> EpResScoreboard::observe(const EpResInputs& in, const EpResOutputs& out) {
  std::ostringstream& err = complaints_.fresh();
  const uint64_t m = low_mask(p_.stat_w);
  uint64_t live = 0;
  for (unsigned c = 0; c < p_.ctrs; ++c) live |= uint64_t(!spans_[c].empty()) << c;

  auto ro = [&](unsigned r) -> std::optional<uint32_t> {
    switch (EpResReg(r)) {
      case EpResReg::live_lo: return uint32_t(live);
      case EpResReg::live_hi: return uint32_t(live >> 32);
      case EpResReg::stat_results: return uint32_t(stat_[0] & m);
      case EpResReg::stat_unmatched: return uint32_t(stat_[1] & m);
      case EpResReg::param: return p_.flit_w | p_.ctrs << 16 | p_.stat_w << 24;
      default: return 0;
    }
  };
  regs_.observe(in.apb, out.apb, false, ro, err);
  if (out.intr != regs_.intr()) err << "intr_o = " << out.intr << ", expected " << regs_.intr() << "; ";

  // ---- the merge
  const int src = in.rx_valid ? 0 : in.home_valid ? 1 : in.fin_valid ? 2 : -1;
  want_pin(err, "res_valid_o", out.res_valid, src >= 0);
  want_pin(err, "rx_ready_o", out.rx_ready, src == 0 && in.res_ready);
  want_pin(err, "home_ready_o", out.home_ready, src == 1 && in.res_ready);
  want_pin(err, "fin_ready_o", out.fin_ready, src == 2 && in.res_ready);
  Wide want;
  bool unmatched = false;
  if (src >= 0) {
    pkt::Header h = pkt::unpack(src == 0 ? in.rx_hdr : src == 1 ? in.home_hdr : in.fin_hdr);
    if (src < 2) {
      std::vector<unsigned> hit;  // the live counters whose hull holds the address
      for (unsigned c = 0; c < p_.ctrs; ++c) {
        if (spans_[c].empty()) continue;
        uint64_t lo = ~uint64_t{0}, hi = 0;
        for (const auto& s : spans_[c]) lo = std::min(lo, s.first), hi = std::max(hi, s.second);
        if (h.addr >= lo && h.addr < hi) hit.push_back(c);
      }
      h.ctr = hit.empty() ? 0xFF : uint8_t(hit.front());
      unmatched = hit.empty();
      if (in.res_ready) {
        if (hit.size() > 1) ++n_.not_lowest;
        ++(hit.empty() ? n_.unmatched : n_.matched);
      }
    }
    Wide w = src == 0 ? in.rx_hdr : src == 1 ? in.home_hdr : in.fin_hdr;
    w.truncate(p_.flit_w);
    w.set_bits(pkt::kCtrLsb, 8, h.ctr);  // the other fields as they came (bits past the header's too)
    want = w;
  }
  if (out.res_hdr != want)
    err << "res_hdr_o = " << hex(out.res_hdr, p_.flit_w) << ", expected " << hex(want, p_.flit_w) << "; ";

  // ---- the edge
  if (!in.rst_n) {
    reset();
    return complaints_.result();
  }
  if (src >= 0 && in.res_ready) {
    ++n_.from[src];
    ++stat_[0];
  }
  n_.waits += unsigned(in.home_valid && src != 1) + unsigned(in.fin_valid && src != 2);
  if (unmatched && in.res_ready) {
    ++stat_[1];
    regs_.set_event(unsigned(EpResReg::intr_state), T3_EP_RES_R_INTR_STATE_UNMATCHED_MASK);
  }
  const unsigned cc = in.cpl_ctr & unsigned(low_mask(p_.ctr_w()));
  if (in.cpl_wr && in.cpl_status <= 1 && cc < p_.ctrs) {
    if (!spans_[cc].empty()) ++n_.ended;
    spans_[cc].clear();
  }
  if (in.desc_valid && in.desc_ready) {
    const pkt::Header d = pkt::unpack(in.desc_hdr);
    if (d.ctr < p_.ctrs) {
      if (!spans_[d.ctr].empty()) ++n_.joined;
      spans_[d.ctr].push_back({d.addr, d.addr + uint64_t(d.len) * p_.flit_bytes()});
    }
  }
  regs_.edge();
  return complaints_.result();
}

}  // namespace t3::tb
