// ep_rspq's constrained-random traffic and the neighbours it needs:
// - the home and the request receiver, each reserving packets (a random
//   header, 1..MAX_LEN data slots, now and then none, now and then more than
//   MAX_LEN where LEN_W holds such a length), each held until taken, at
//   rates set per phase (one side alone, both at once, the home hogging);
// - the reads each engine makes into the slots it was granted: the memory
//   (testbench/common/tagged_memory.h) answers them in any order after
//   1..4 or 1..40 cycles, and sends a stray answer (a tag no slot awaits)
//   now and then;
// - the response stream's reader stalling, in phases; resets now and then.
// The co-simulation test and the benchmark drive the block with it.
#pragma once

#include <cstdint>
#include <random>

#include "ep_rspq/ep_rspq.h"
#include "stim_base.h"
#include "tagged_memory.h"

namespace t3::tb {

class EpRspqStimulus : public StimBase {
 public:
  EpRspqStimulus(const EpRspqParams& p, uint64_t seed) : StimBase(seed), p_(p), mem_(p.flit_w, seed ^ 0x125) {}

  void drive(EpRspqInputs& in) {
    bool ended;
    in.rst_n = reset_cycle(ended);
    if (ended) {
      mem_.clear();
      in.hrq_valid = in.prq_valid = false;
    }
    if (taken_h_) in.hrq_valid = false;
    if (taken_p_) in.prq_valid = false;
    if (phase_due()) new_phase();
    if (!in.hrq_valid && u() < h_rate_) reserve(in.hrq_valid, in.hrq_hdr, in.hrq_len);
    if (!in.prq_valid && u() < p_rate_) reserve(in.prq_valid, in.prq_hdr, in.prq_len);
    in.rsp_out_ready = u() < out_rate_;
    mem_.drive(in);
    mem_.stray(in, p_.slot_w(), 0.01);  // ignored, counted
    apb_.drive(in.apb, in.rst_n);
  }

  // The reads an engine makes into the slots it was granted (each data
  // flit's address in the engine's area: the answer is a function of it).
  void after(const EpRspqInputs& in, const EpRspqOutputs& out) {
    taken_h_ = in.rst_n && in.hrq_valid && out.hrq_ready;
    taken_p_ = in.rst_n && in.prq_valid && out.prq_ready;
    if (taken_h_) granted(in.hrq_len, out.hrq_slot);
    if (taken_p_) granted(in.prq_len, out.prq_slot);
    mem_.tick();
    apb_.after(in.apb, out.apb);
  }

 private:
  void reserve(bool& valid, Wide& hdr, uint32_t& len) {
    valid = true;
    hdr = mem_data(rng_(), p_.flit_w);
    const unsigned longest = unsigned(low_mask(p_.len_w()));
    if (longest > p_.max_len && u() < 0.01) len = uint32_t(p_.max_len + 1 + pick(longest - p_.max_len));
    else if (u() < 0.03) len = 0;
    else len = uint32_t(1 + pick(p_.max_len));
  }
  void granted(uint32_t len, unsigned slot) {
    len &= uint32_t(low_mask(p_.len_w()));
    if (len > p_.max_len) return;  // refused
    const uint64_t base = rng_() & low_mask(40);
    for (unsigned i = 0; i < len; ++i) mem_.read(base + i * (p_.flit_w / 8), uint8_t((slot + i) % p_.slots));
  }

  void new_phase() {
    phase_left_ = 300 + pick(4000);
    const double r = u();
    h_rate_ = 0.05 + 0.5 * u();
    p_rate_ = 0.05 + 0.5 * u();
    if (r < 0.25) h_rate_ = 0;          // pulls alone
    else if (r < 0.4) p_rate_ = 0;      // the home alone
    else if (r < 0.5) h_rate_ = 1.0;    // the home hogging: the pulls wait
    out_rate_ = u() < 0.2 ? 0.05 : 0.4 + 0.6 * u();
    mem_.set_max_delay(u() < 0.5 ? 4 : 40);
  }

  EpRspqParams p_;
  TaggedMemory mem_;
  double h_rate_ = 0.3, p_rate_ = 0.3, out_rate_ = 0.7;
  bool taken_h_ = false, taken_p_ = false;
};

}  // namespace t3::tb
