// ep_rspq's constrained-random traffic and the neighbours it needs:
// - the home and the request receiver, each reserving packets (a random
//   header, 1..MAX_LEN data slots, now and then none), each held until
//   taken, at rates set per phase (one side alone, both at once, the home
//   hogging); now and then a reservation of more than MAX_LEN data slots
//   (where LEN_W holds one), never granted, withdrawn after a while;
// - the reads each engine makes into the slots it was granted, each
//   engine's answered on its own port by its own memory
//   (testbench/common/tagged_memory.h), in any order after 1..4 or 1..40
//   cycles, with stray answers (a tag no read of that memory waits on)
//   now and then;
// - the home's releases (its counter cleared), one per RESULT in order,
//   1..60 cycles after its grant, and now and then one with no RESULT held;
// - the response stream's reader stalling, in phases; resets now and then.
// The co-simulation test and the benchmark drive the block with it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <random>

#include "ep_rspq/ep_rspq.h"
#include "stim_base.h"
#include "tagged_memory.h"

namespace t3::tb {

class EpRspqStimulus : public StimBase {
 public:
  EpRspqStimulus(const EpRspqParams& p, uint64_t seed)
      : StimBase(seed), p_(p), mem_{{p.flit_w, seed ^ 0x125}, {p.flit_w, seed ^ 0x126}} {}

  void drive(EpRspqInputs& in) {
    bool ended;
    in.rst_n = reset_cycle(ended);
    if (ended) {
      mem_[0].clear();
      mem_[1].clear();
      rel_due_.clear();
      in.hrq_valid = in.prq_valid = false;
      over_left_[0] = over_left_[1] = 0;
    }
    if (taken_[0]) in.hrq_valid = false;
    if (taken_[1]) in.prq_valid = false;
    if (phase_due()) new_phase();
    port(in.hrq_valid, in.hrq_hdr, in.hrq_len, h_rate_, 0);
    port(in.prq_valid, in.prq_hdr, in.prq_len, p_rate_, 1);
    in.rsp_out_ready = u() < out_rate_;
    answer(in.rst_n, 0, in.hmd_valid, in.hmd_tag, in.hmd_data);
    answer(in.rst_n, 1, in.pmd_valid, in.pmd_tag, in.pmd_data);
    in.hrel = false;
    if (in.rst_n && !rel_due_.empty() && rel_due_.front() <= now_) {
      in.hrel = true;
      rel_due_.pop_front();
    } else if (in.rst_n && rel_due_.empty() && u() < 2e-4) {
      in.hrel = true;  // no RESULT held: BAD
    }
    apb_.drive(in.apb, in.rst_n);
  }

  // The reads an engine makes into the slots it was granted (each data
  // flit's address in the engine's area: the answer is a function of it),
  // and the home's release to come.
  void after(const EpRspqInputs& in, const EpRspqOutputs& out) {
    taken_[0] = in.rst_n && in.hrq_valid && out.hrq_ready;
    taken_[1] = in.rst_n && in.prq_valid && out.prq_ready;
    if (taken_[0]) {
      granted(0, in.hrq_len, out.hrq_slot);
      // After the unreleased ones, in order: the release comes after the
      // line's reads are back and its counter's CLEAR is granted.
      rel_due_.push_back(std::max<uint64_t>(rel_due_.empty() ? 0 : rel_due_.back() + 1, now_ + 1 + pick(60)));
    }
    if (taken_[1]) granted(1, in.prq_len, out.prq_slot);
    mem_[0].tick();
    mem_[1].tick();
    ++now_;
    apb_.after(in.apb, out.apb);
  }

 private:
  void port(bool& valid, Wide& hdr, uint32_t& len, double rate, unsigned k) {
    if (valid && over_left_[k] && --over_left_[k] == 0) valid = false;  // an overlong one withdrawn
    if (valid || u() >= rate) return;
    valid = true;
    hdr = mem_data(rng_(), p_.flit_w);
    const unsigned longest = unsigned(low_mask(p_.len_w()));
    if (longest > p_.max_len && u() < 0.005) {
      len = uint32_t(p_.max_len + 1 + pick(longest - p_.max_len));
      over_left_[k] = unsigned(1 + pick(20));
    } else {
      len = u() < zero_rate_ ? 0 : uint32_t(1 + pick(p_.max_len));
    }
  }
  void answer(bool rst_n, unsigned k, bool& valid, uint8_t& tag, Wide& data) {
    valid = rst_n && mem_[k].answer(tag, data);
    if (valid) return;
    tag = 0;
    data = Wide{};
    if (rst_n && u() < 0.005) valid = mem_[k].stray(p_.slot_w(), tag, data);  // a tag no read of this memory waits on
  }
  void granted(unsigned k, uint32_t len, unsigned slot) {
    const uint64_t base = rng_() & low_mask(40);
    len &= uint32_t(low_mask(p_.len_w()));
    for (unsigned i = 0; i < len; ++i) mem_[k].read(base + i * (p_.flit_w / 8), uint8_t((slot + i) % p_.slots));
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
    // Headers without data (len 0) now and then in numbers: where every
    // packet is one flit and a header (MAX_LEN 1), a header alone is the only
    // pull that fits where the home's packet does not.
    zero_rate_ = u() < 0.25 ? 0.3 : 0.03;
    const unsigned d = u() < 0.5 ? 4 : 40;
    mem_[0].set_max_delay(d);
    mem_[1].set_max_delay(d);
  }

  EpRspqParams p_;
  TaggedMemory mem_[2];  // the home's reads, the pull's
  double h_rate_ = 0.3, p_rate_ = 0.3, out_rate_ = 0.7, zero_rate_ = 0.03;
  bool taken_[2] = {};
  unsigned over_left_[2] = {};
  std::deque<uint64_t> rel_due_;
  uint64_t now_ = 0;
};

}  // namespace t3::tb
