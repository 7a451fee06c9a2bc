// @name@ co-simulation tests (stamped by scripts/new_block.py): a directed
// case and constrained-random traffic. Every output of the C++ model is
// compared with the Verilated RTL in every cycle (the binary fails at the
// end if any cycle mismatched), and the scoreboard checks the RTL's outputs,
// the register port's answers and the interrupt included. Run on either
// engine: --engine systemc (default) or --engine direct.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>

#include "@name@_scoreboard.h"
#include "@name@_stimulus.h"
#include "apb_access.h"
#include "cosim_config.h"
#include "reg_traffic.h"
#include "t3/@name@_regs.h"
#include "test_cosim.h"

namespace t3::tb {
namespace {

Cosim<@Camel@Block>& the_cosim() { return shared_cosim<@Camel@Block>(); }
const @Camel@Params& params() { return the_cosim().params(); }

// The co-simulation with the scoreboard attached; register accesses go
// through the APB port.
class Bench : public ApbAccess<Bench> {
  friend class ApbAccess<Bench>;

 public:
  Bench() : c_(the_cosim()), sb_(params()) {
    c_.in() = @Camel@Inputs{};
    EXPECT_TRUE(c_.reset(2)) << c_.first_mismatch();
    c_.in().rst_n = true;
  }
  @Camel@Inputs& in() { return c_.in(); }
  const @Camel@Outputs& out() const { return c_.out(); }
  @Camel@Scoreboard& sb() { return sb_; }
  ApbMaster& apb() { return apb_; }

  void cycle() {
    apb_.drive(c_.in().apb, c_.in().rst_n);
    const @Camel@Inputs in = c_.in();
    EXPECT_TRUE(c_.cycle()) << c_.first_mismatch();
    if (auto err = sb_.observe(in, c_.out())) ADD_FAILURE() << "cycle " << c_.cycles() - 1 << ": " << *err;
    if (auto d = apb_.after(in.apb, c_.out().apb)) apb_completed(*d);
  }
  void apb_idle_cycle() { cycle(); }

 private:
  Cosim<@Camel@Block>& c_;
  @Camel@Scoreboard sb_;
  ApbMaster apb_;
};

TEST(@Camel@Cosim, AWordPassesInOneCycleOnceEnabled) {
  Bench b;
  b.in().in_valid = true;
  b.in().in_data = 0x5A;
  b.cycle();
  EXPECT_FALSE(b.out().in_ready) << "taken while CTRL.ENABLE is 0";
  ASSERT_TRUE(b.write_reg(T3_@NAME@_A_CTRL, T3_@NAME@_R_CTRL_ENABLE_MASK));
  b.cycle();
  EXPECT_TRUE(b.out().in_ready);
  b.in().in_valid = false;
  b.cycle();
  EXPECT_TRUE(b.out().out_valid);
  EXPECT_EQ(b.out().out_data, 0x5Au & low_mask(params().data_w));
  EXPECT_EQ(b.read_reg(T3_@NAME@_A_STAT_COUNT), 1u);
  EXPECT_EQ(b.read_reg(T3_@NAME@_A_PARAM), params().data_w | params().stat_w << 8);
}

TEST(@Camel@Cosim, ConstrainedRandom) {
  const RunOptions& opt = test_options();
  const uint64_t cycles = opt.cycles ? opt.cycles : T3_RANDOM_CYCLES;
  std::mt19937_64 rng(opt.seed);
  Cosim<@Camel@Block>& c = the_cosim();
  // The shared DUT holds the last test's state until a reset edge: reset it
  // (compared, as every cycle) before the scoreboard attaches.
  c.in() = @Camel@Inputs{};
  EXPECT_TRUE(c.reset(2)) << c.first_mismatch();
  @Camel@Scoreboard sb(params());
  @Camel@Stimulus stim(params(), rng());
  RegTraffic<@Camel@RegMap> regs(rng(), 0.02);
  for (uint64_t n = 0; n < cycles && !testing::Test::HasFailure(); ++n) {
    stim.drive(c.in());
    regs.maybe_queue(stim.apb(), sb.regs());
    const @Camel@Inputs in = c.in();
    EXPECT_TRUE(c.cycle()) << c.first_mismatch();
    if (auto err = sb.observe(in, c.out())) ADD_FAILURE() << "cycle " << n << ": " << *err;
    stim.after(in, c.out());
  }
  std::printf("random: %llu cycles (seed %llu), %llu words taken, %llu left, %llu counter wraps, "
              "%llu register reads, %llu writes\n",
              (unsigned long long)cycles, (unsigned long long)opt.seed, (unsigned long long)sb.taken(),
              (unsigned long long)sb.left(), (unsigned long long)sb.wraps(),
              (unsigned long long)sb.regs().counts().reads, (unsigned long long)sb.regs().counts().writes);
  EXPECT_EQ(c.failures(), 0u) << c.first_failure();
  EXPECT_GT(sb.taken(), cycles / 10) << "the traffic moved too few words to mean anything";
}

}  // namespace
}  // namespace t3::tb
