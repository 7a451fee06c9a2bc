// ep_res's constrained-random traffic and the neighbours it needs:
// - the DMA credit controller's descriptors (a counter, 0..CTRS-1 and now
//   and then past CTRS; an address mostly in the counter's own area, one of
//   eight; 0..16 flits, now and then up to 255) as the transmit engine
//   takes them, and its completions (any status and counter);
// - the three engines' headers, each held until taken: ep_rx's and
//   ep_home's RESULTs at addresses in the eight areas or a ninth no
//   descriptor uses, ep_final's PULL_RSPs; the DMA credit controller's res_ready at
//   random, in phases; resets now and then.
// The co-simulation test and the benchmark drive the block with it.
#pragma once

#include <cstdint>
#include <random>

#include "common/packet.h"
#include "ep_res/ep_res.h"
#include "stim_base.h"
#include "tagged_memory.h"

namespace t3::tb {

class EpResStimulus : public StimBase {
 public:
  EpResStimulus(const EpResParams& p, uint64_t seed) : StimBase(seed), p_(p) {}

  void drive(EpResInputs& in) {
    bool ended;
    in.rst_n = reset_cycle(ended);
    if (ended) in.rx_valid = in.home_valid = in.fin_valid = false;
    if (taken_[0]) in.rx_valid = false;
    if (taken_[1]) in.home_valid = false;
    if (taken_[2]) in.fin_valid = false;
    if (phase_due()) new_phase();
    in.desc_valid = u() < desc_rate_;
    in.desc_ready = u() < 0.7;
    if (in.desc_valid) {
      pkt::Header d;
      d.op = uint8_t(u() < 0.7 ? pkt::Op::push : pkt::Op::pull);
      d.ctr = uint8_t(u() < 0.03 ? rng_() : pick(p_.ctrs));
      d.len = uint8_t(u() < 0.05 ? rng_() : pick(17));
      d.addr = addr(u() < 0.95 ? d.ctr % 8 : pick(8));  // a counter's packets in its own area, mostly
      in.desc_hdr = pkt::pack(d);
      if (p_.flit_w > 128) in.desc_hdr.set_bits(200, 32, uint32_t(rng_()));  // bits past the header's
    }
    in.cpl_wr = u() < cpl_rate_;
    in.cpl_status = uint8_t(in.cpl_wr ? pick(8) : 0);
    in.cpl_ctr = uint32_t(in.cpl_wr ? pick(uint64_t{1} << p_.ctr_w()) : 0);
    if (!in.rx_valid && u() < src_rate_) header(in.rx_valid, in.rx_hdr, pkt::Op::result);
    if (!in.home_valid && u() < src_rate_) header(in.home_valid, in.home_hdr, pkt::Op::result);
    if (!in.fin_valid && u() < src_rate_) header(in.fin_valid, in.fin_hdr, pkt::Op::pull_rsp);
    in.res_ready = u() < ready_rate_;
    apb_.drive(in.apb, in.rst_n);
  }

  void after(const EpResInputs& in, const EpResOutputs& out) {
    taken_[0] = in.rst_n && in.rx_valid && out.rx_ready;
    taken_[1] = in.rst_n && in.home_valid && out.home_ready;
    taken_[2] = in.rst_n && in.fin_valid && out.fin_ready;
    apb_.after(in.apb, out.apb);
  }

 private:
  // An address in area a (of 64 KiB, 4 GiB apart), now and then anywhere.
  uint64_t addr(uint64_t a) {
    if (u() < 0.02) return rng_() & low_mask(48);
    return (a << 32 | pick(4096) * 16) & low_mask(48);
  }
  void header(bool& valid, Wide& hdr, pkt::Op op) {
    pkt::Header h;
    h.op = uint8_t(op);
    h.len = uint8_t(1 + pick(4));
    h.ctr = uint8_t(rng_());
    h.count = uint8_t(rng_());
    h.addr = addr(pick(9));  // area 8: no descriptor's
    valid = true;
    hdr = pkt::pack(h);
  }
  void new_phase() {
    phase_left_ = 300 + pick(4000);
    desc_rate_ = 0.05 + 0.5 * u();
    cpl_rate_ = u() < 0.3 ? 0.002 : 0.02 + 0.1 * u();
    src_rate_ = 0.05 + 0.5 * u();
    ready_rate_ = u() < 0.2 ? 0.1 : 0.5 + 0.5 * u();
  }

  EpResParams p_;
  bool taken_[3] = {};
  double desc_rate_ = 0.2, cpl_rate_ = 0.02, src_rate_ = 0.2, ready_rate_ = 0.7;
};

}  // namespace t3::tb
