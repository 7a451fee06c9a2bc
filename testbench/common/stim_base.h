// What every block's constrained-random stimulus shares: one random stream
// from the test's seed, a reset now and then (rst_n low for two cycles, the
// first two of the run included; the register port's master cleared as it
// ends), phases of random rates, and the APB master the register traffic
// (reg_traffic.h) queues on.
//
//   class FooStimulus : public StimBase {
//     void drive(FooInputs& in) {
//       bool ended;
//       in.rst_n = reset_cycle(ended);
//       if (ended) <drop what the reset took away>;
//       if (phase_due()) new_phase();   // which sets phase_left_
//       ...
//       apb_.drive(in.apb, in.rst_n);
//     }
//   };
#pragma once

#include <cstdint>
#include <random>

#include "apb_master.h"

namespace t3::tb {

class StimBase {
 public:
  ApbMaster& apb() { return apb_; }

 protected:
  // reset_rate: the chance per cycle out of reset that a reset begins.
  explicit StimBase(uint64_t seed, double reset_rate = 2e-5) : rng_(seed), reset_rate_(reset_rate) {}

  double u() { return std::uniform_real_distribution<double>(0, 1)(rng_); }
  uint64_t pick(uint64_t n) { return n ? rng_() % n : 0; }

  // This cycle's rst_n; ended is true in the last cycle of a reset.
  bool reset_cycle(bool& ended) {
    if (reset_left_ == 0 && u() < reset_rate_) reset_left_ = 2;
    const bool rst_n = reset_left_ == 0;
    ended = reset_left_ > 0 && --reset_left_ == 0;
    if (ended) apb_.clear();
    return rst_n;
  }
  bool reset_cycle() {
    bool ended;
    return reset_cycle(ended);
  }
  // True once every phase_left_ cycles: time for new rates.
  bool phase_due() { return --phase_left_ == 0; }

  std::mt19937_64 rng_;
  ApbMaster apb_;
  uint64_t phase_left_ = 1;

 private:
  double reset_rate_;
  unsigned reset_left_ = 2;
};

}  // namespace t3::tb
