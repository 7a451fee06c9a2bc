// ep_count's constrained-random traffic: every port asks for reads, adds and
// clears, held until granted, mostly on a few hot lines (so that a request
// meets the write of the one answered before it) and now and then anywhere,
// past the array included; limits small enough that adds are refused and
// held; now and then a bad request; phases of light and saturated ports;
// resets now and then (each clears the array for COUNT_DEPTH cycles). The
// co-simulation test and the benchmark (testbench/common/bench.h) drive the
// block with it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>

#include "common/bits.h"
#include "ep_count/ep_count.h"
#include "ep_count/ep_count_request.h"
#include "stim_base.h"

namespace t3::tb {

class EpCountStimulus : public StimBase {
 public:
  EpCountStimulus(const EpCountParams& p, uint64_t seed)
      : StimBase(seed, std::min(1e-4, 1.0 / (50.0 * p.count_depth))), p_(p) {
    new_phase();
  }

  // Sets every input of this cycle, rst_n and the register port included.
  void drive(EpCountInputs& in) {
    in.rst_n = reset_cycle();
    if (phase_due()) new_phase();
    for (unsigned i = 0; i < p_.ports; ++i) {
      const bool waiting = in.req_valid >> i & 1 && !(granted_ >> i & 1);
      if (waiting) continue;  // a request stays, as it was, until granted
      request(in, i);
      if (u() >= rate_) ep_count_withdraw(in, i);
    }
    apb_.drive(in.apb, in.rst_n);
  }
  // After the cycle: what the block answered.
  void after(const EpCountInputs& in, const EpCountOutputs& out) {
    granted_ = in.rst_n ? out.req_ready : ~0u;  // a reset drops what was asked
    apb_.after(in.apb, out.apb);
  }

 private:
  void new_phase() {
    phase_left_ = 200 + pick(3000);
    rate_ = u() < 0.3 ? 1.0 : 0.1 + 0.6 * u();
    for (auto& h : hot_) h = uint32_t(pick(p_.count_depth));
  }

  void request(EpCountInputs& in, unsigned i) {
    const uint64_t cmax = low_mask(p_.cnt_w);
    EpCountRequest r;
    const unsigned k = unsigned(pick(100));
    r.op = EpCountOp(k < 55 ? 1 : k < 75 ? 0 : k < 92 ? 2 : u() < 0.5 ? 3 : pick(3));  // op 3: bad
    // Mostly the hot lines; else any number the port carries (past
    // COUNT_DEPTH when it is no power of two).
    r.line = uint32_t(u() < 0.85 ? hot_[pick(4)] : pick(uint64_t(1) << p_.line_w()));
    r.n = uint32_t(u() < 0.02 ? 0 : 1 + pick(std::min<uint64_t>(3, cmax)));
    r.limit = uint32_t(u() < 0.1 ? cmax : 1 + pick(std::min<uint64_t>(6, cmax)));
    r.len = uint32_t(u() < 0.03 ? pick(uint64_t(1) << p_.len_w()) : 1 + pick(p_.max_len));
    r.whole_ok = u() < 0.8;
    ep_count_put(p_, in, i, r);
  }

  EpCountParams p_;
  uint32_t granted_ = ~0u;
  double rate_ = 0.5;
  uint32_t hot_[4] = {};
};

}  // namespace t3::tb
