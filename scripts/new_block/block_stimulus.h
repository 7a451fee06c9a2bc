// @name@'s constrained-random traffic (stamped by scripts/new_block.py):
// random valid and ready with random data, CTRL.ENABLE switched through the
// register port now and then, a reset now and then. The co-simulation test
// and the benchmark (testbench/common/bench.h) drive the block with it.
#pragma once

#include <cstdint>
#include <random>

#include "@name@/@name@.h"
#include "apb_master.h"
#include "t3/@name@_regs.h"

namespace t3::tb {

class @Camel@Stimulus {
 public:
  @Camel@Stimulus(const @Camel@Params& p, uint64_t seed) : p_(p), rng_(seed) {}

  // Sets every input of this cycle, rst_n and the register port included.
  void drive(@Camel@Inputs& in) {
    if (reset_left_ == 0 && u() < 1e-4) reset_left_ = 2;
    in.rst_n = reset_left_ == 0;
    if (reset_left_ > 0 && --reset_left_ == 0) apb_.clear();
    if (apb_.idle() && (!enabled_ || u() < 1e-3)) {
      enabled_ = !enabled_ || u() < 0.7;
      apb_.write(T3_@NAME@_A_CTRL, enabled_ ? T3_@NAME@_R_CTRL_ENABLE_MASK : 0);
    }
    if (!in.in_valid || taken_) {  // a word offered stays until taken
      in.in_valid = u() < 0.7;
      in.in_data = rng_();
    }
    in.out_ready = u() < 0.6;
    apb_.drive(in.apb, in.rst_n);
  }
  // After the cycle: what the block answered.
  void after(const @Camel@Inputs& in, const @Camel@Outputs& out) {
    taken_ = in.in_valid && out.in_ready;
    apb_.after(in.apb, out.apb);
  }

  ApbMaster& apb() { return apb_; }

 private:
  double u() { return std::uniform_real_distribution<double>(0, 1)(rng_); }

  @Camel@Params p_;
  std::mt19937_64 rng_;
  ApbMaster apb_;
  unsigned reset_left_ = 2;
  bool enabled_ = false, taken_ = false;
};

}  // namespace t3::tb
