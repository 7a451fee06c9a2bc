// The constrained-random run of a block's co-simulation test, for the
// blocks whose test machinery has the common shape: a stimulus
// (Stimulus(params, seed), drive(in), after(in, out), apb()), an
// independent scoreboard (Scoreboard(params), observe(in, out) -> error,
// regs()) and register traffic on the APB port (reg_traffic.h).
//
//   RandomRun<EpRxBlock, EpRxScoreboard, EpRxStimulus, EpRxRegMap> r(the_cosim(), 0.02);
//   r.run();   // then assert on r.sb.counts(), r.cycles
//
// The shared DUT holds the last test's state until a reset edge: it is reset
// (compared, as every cycle) before the scoreboard attaches. The run stops at
// the first failure, so that the first report is the one to read.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <random>

#include "cosim.h"
#include "reg_traffic.h"
#include "run_options.h"
#include "sc_test_env.h"

namespace t3::tb {

template <class Block, class Scoreboard, class Stimulus, class RegMap>
class RandomRun {
 public:
  // reg_rate: the chance per idle-bus cycle of a register transfer.
  RandomRun(Cosim<Block>& c, double reg_rate)
      : opt(test_options()),
        cycles(opt.cycles ? opt.cycles : T3_RANDOM_CYCLES),
        rng_(opt.seed),
        c_((c.in() = typename Block::Inputs{}, c)),
        reset_ok_(c.reset(2)),
        sb(c.params()),
        stim(c.params(), rng_()),
        regs(rng_(), reg_rate) {}

  // Every cycle of the run: stimulus, register traffic, the compared cycle,
  // the scoreboard's check, the stimulus's view of the answer; then no
  // cycle of the co-simulation may have mismatched (this run's or an
  // earlier test's).
  void run() {
    EXPECT_TRUE(reset_ok_) << c_.first_mismatch();
    for (uint64_t n = 0; n < cycles && !testing::Test::HasFailure(); ++n) {
      stim.drive(c_.in());
      regs.maybe_queue(stim.apb(), sb.regs());
      const typename Block::Inputs in = c_.in();
      EXPECT_TRUE(c_.cycle()) << c_.first_mismatch();
      if (auto err = sb.observe(in, c_.out())) ADD_FAILURE() << "cycle " << n << ": " << *err;
      stim.after(in, c_.out());
    }
    EXPECT_EQ(c_.failures(), 0u) << c_.first_failure();
  }

  const RunOptions& opt;
  const uint64_t cycles;  // --cycles, else the build's T3_RANDOM_CYCLES

 private:
  std::mt19937_64 rng_;
  Cosim<Block>& c_;
  bool reset_ok_;

 public:
  Scoreboard sb;
  Stimulus stim;
  RegTraffic<RegMap> regs;
};

}  // namespace t3::tb
