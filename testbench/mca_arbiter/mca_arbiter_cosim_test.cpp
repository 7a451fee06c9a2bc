// MCA arbiter co-simulation tests: directed cases and constrained-random
// traffic. Every output of the C++ model is compared with the Verilated RTL
// in every cycle (reset cycles included; the binary fails at the end if any
// cycle mismatched), and the transaction-level scoreboard checks the outputs
// against T3 §4.5's rules. Run on either engine: --engine systemc (default)
// or --engine direct.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "cosim_config.h"
#include "mca_arbiter_scoreboard.h"
#include "mca_arbiter_stimulus.h"
#include "test_cosim.h"

namespace t3::tb {
namespace {

Cosim<McaArbiterBlock>& the_cosim() { return shared_cosim<McaArbiterBlock>(); }
const McaArbiterParams& params() { return the_cosim().params(); }

uint64_t bits(unsigned w) { return w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1; }
uint32_t occ_max() { return uint32_t(bits(params().occ_w)); }

// Three distinct thresholds that fit the occupancy pins: the paper's 5, 10
// and 30 (T3 §6.1.3) when they fit, else spread over the range.
std::array<uint32_t, 3> levels() {
  const uint32_t m = occ_max();
  if (m >= 30) return {5, 10, 30};
  return {std::max<uint32_t>(1, m / 4), std::max<uint32_t>(1, m / 2), std::max<uint32_t>(1, m - 1)};
}
// Auto-mode bounds (descending) that leave room for an average below each.
std::array<uint32_t, 3> bounds() {
  const uint32_t m = occ_max();
  if (m >= 30) return {20, 10, 3};
  return {m - 1, std::max<uint32_t>(1, m / 2), 1};
}

McaArbiterConfig config(McaPolicy policy, unsigned sel = kMcaUnlimited, uint32_t starve = 0) {
  McaArbiterConfig c;
  c.policy = uint32_t(policy);
  c.thr_auto = false;
  c.thr_sel = sel;
  const auto l = levels(), b = bounds();
  for (int i = 0; i < 3; ++i) {
    c.level[i] = l[i];
    c.bound[i] = b[i];
  }
  c.learn_log2 = 2;
  c.starve_limit = starve;
  return c;
}

// Drives the co-simulation with a scoreboard attached; every cycle checks
// model == RTL and the RTL's outputs against the scoreboard.
class Bench {
 public:
  explicit Bench(const McaArbiterConfig& cfg) : c_(the_cosim()) {
    // Whatever the last test left: reset unobserved, then a fresh scoreboard.
    c_.in() = McaArbiterInputs{};
    c_.in().cfg = cfg;
    EXPECT_TRUE(c_.reset(2)) << c_.first_mismatch();
    sb_ = std::make_unique<McaScoreboard>(c_.params());
    c_.in().out_ready = true;
  }

  Cosim<McaArbiterBlock>& cosim() { return c_; }
  McaArbiterInputs& in() { return c_.in(); }
  McaScoreboard& sb() { return *sb_; }
  const McaArbiterOutputs& out() const { return c_.out(); }

  // One cycle with in() as it is.
  const McaArbiterOutputs& cycle() {
    const McaArbiterInputs in = c_.in();
    EXPECT_TRUE(c_.cycle()) << c_.first_mismatch();
    if (auto err = sb_->observe(in, c_.out()))
      ADD_FAILURE() << "cycle " << c_.cycles() - 1 << ": " << *err;
    return c_.out();
  }

  // Presents the streams asked for (a stream keeps its request until it is
  // accepted, then takes the next payload) and returns who was granted:
  // 'c' compute, 'm' communication, '-' neither.
  char step(bool cmp, bool com, uint32_t occ = 0) {
    McaArbiterInputs& in = c_.in();
    in.cmp_valid = cmp;
    in.cmp_data = cmp_next_;
    in.com_valid = com;
    in.com_data = com_next_;
    in.occupancy = occ;
    const McaArbiterOutputs& o = cycle();
    in.learn = false;
    if (cmp && o.cmp_ready) cmp_next_ = (cmp_next_ * 0x9E3779B97F4A7C15ull) + 1;
    if (com && o.com_ready) com_next_ = (com_next_ * 0xD1B54A32D192ED03ull) + 7;
    return o.cmp_ready ? 'c' : o.com_ready ? 'm' : '-';
  }
  char both(uint32_t occ = 0) { return step(true, true, occ); }
  void idle(unsigned n) {
    for (unsigned i = 0; i < n; ++i) step(false, false);
  }

  // Reset observed by the scoreboard, and a new configuration from then on.
  void restart(const McaArbiterConfig& cfg, unsigned cycles = 2) {
    c_.in().cfg = cfg;
    c_.in().rst_n = false;
    for (unsigned i = 0; i < cycles; ++i) cycle();
    c_.in().rst_n = true;
  }

  void expect_drained() {
    c_.in().out_ready = true;
    idle(3);
    const auto err = sb_->check_drained();
    EXPECT_FALSE(err.has_value()) << *err;
  }

 private:
  Cosim<McaArbiterBlock>& c_;
  std::unique_ptr<McaScoreboard> sb_;
  uint64_t cmp_next_ = 0x0123456789abcdefull, com_next_ = 0xfedcba9876543210ull;
};

TEST(McaArbiterCosim, RoundRobinAlternatesAndFallsBack) {
  Bench b(config(McaPolicy::round_robin, 0));
  std::string got;
  for (int i = 0; i < 6; ++i) got += b.both(occ_max());
  EXPECT_EQ(got, "cmcmcm") << "no threshold in round robin";
  EXPECT_EQ(b.step(true, false), 'c') << "communication's turn, nothing there: compute";
  EXPECT_EQ(b.both(), 'm');
  EXPECT_EQ(b.step(false, true), 'm') << "compute's turn, nothing there: communication";
  EXPECT_EQ(b.both(), 'c');
  EXPECT_EQ(b.step(false, false), '-');
  b.expect_drained();
}

TEST(McaArbiterCosim, ComputeFirstIgnoresThresholdAndStarvation) {
  Bench b(config(McaPolicy::compute_first, 0, 1));
  for (int i = 0; i < 50; ++i) ASSERT_EQ(b.both(occ_max()), 'c');
  EXPECT_EQ(b.step(false, true, occ_max()), 'm');
  b.expect_drained();
  EXPECT_EQ(b.out().stat_starved, 0u);
  EXPECT_EQ(b.out().stat_wait_com, 50u & bits(params().stat_w));
}

TEST(McaArbiterCosim, McaComputeFirstThenCommunicationBelowTheThreshold) {
  Bench b(config(McaPolicy::mca, 1));
  const uint32_t thr = levels()[1];
  EXPECT_EQ(b.both(0), 'c');
  EXPECT_EQ(b.both(thr), 'c');
  EXPECT_EQ(b.step(false, true, thr), '-') << "at the threshold: held back";
  EXPECT_EQ(b.step(false, true, thr - 1), 'm');
  EXPECT_EQ(b.step(true, false, occ_max()), 'c') << "compute is never held back";
  b.expect_drained();
}

TEST(McaArbiterCosim, TakeAndReplaceAtOneRequestPerCycle) {
  Bench b(config(McaPolicy::round_robin));
  for (int i = 0; i < 40; ++i) {
    ASSERT_NE(b.both(), '-') << "cycle " << i;
    if (i > 0) {
      ASSERT_TRUE(b.out().out_valid);
    }
  }
  b.expect_drained();
  EXPECT_EQ(b.sb().left(kCmp) + b.sb().left(kCom), 40u);
}

TEST(McaArbiterCosim, BackPressureHoldsTheSlotStable) {
  Bench b(config(McaPolicy::mca));
  EXPECT_EQ(b.both(), 'c');
  b.in().out_ready = false;
  EXPECT_EQ(b.both(), '-');
  const uint64_t held = b.out().out_data;
  for (int i = 0; i < 12; ++i) {
    EXPECT_EQ(b.both(), '-') << "no grant into a full slot";
    EXPECT_TRUE(b.out().out_valid);
    EXPECT_FALSE(b.out().out_src);
    EXPECT_EQ(b.out().out_data, held) << "held while out_ready_i is low";
  }
  EXPECT_EQ(b.sb().left(kCmp), 0u);
  b.in().out_ready = true;
  EXPECT_EQ(b.both(), 'c') << "taken and replaced in the same cycle";
  b.expect_drained();
}

// For each finite level: communication passes at occupancy threshold - 1 and
// is held at the threshold and above; no limit lets it pass at the top.
TEST(McaArbiterCosim, EachThresholdLevelCrossing) {
  for (unsigned sel = 0; sel < 3; ++sel) {
    SCOPED_TRACE(sel);
    Bench b(config(McaPolicy::mca, sel));
    const uint32_t thr = levels()[sel];
    EXPECT_EQ(b.out().thr_sel, sel);
    EXPECT_EQ(b.out().thr, thr);
    // The queue fills one entry per cycle and then drains: the crossing both ways.
    std::string up, down;
    for (uint32_t occ = 0; occ <= occ_max(); ++occ) up += b.step(false, true, occ);
    for (uint32_t occ = occ_max() + 1; occ-- > 0;) down += b.step(false, true, occ);
    std::string want_up(occ_max() + 1, '-'), want_down(occ_max() + 1, '-');
    for (uint32_t occ = 0; occ < thr; ++occ) {
      want_up[occ] = 'm';
      want_down[occ_max() - occ] = 'm';
    }
    EXPECT_EQ(up, want_up);
    EXPECT_EQ(down, want_down);
    b.expect_drained();
  }
  Bench b(config(McaPolicy::mca, kMcaUnlimited));
  EXPECT_EQ(b.out().thr, occ_max()) << "all ones when unlimited";
  for (uint32_t occ = 0; occ <= occ_max(); ++occ) EXPECT_EQ(b.step(false, true, occ), 'm');
  b.expect_drained();
}

// A window of occupancies whose average maps to each level in turn (the
// producer running alone, communication idle), then the level in force.
TEST(McaArbiterCosim, AutoLearningPicksEachLevel) {
  McaArbiterConfig c = config(McaPolicy::mca, 1);
  c.thr_auto = true;
  c.learn_log2 = 2;
  Bench b(c);
  const auto bd = bounds();
  const uint32_t avgs[] = {occ_max(), bd[0], bd[0] - 1, bd[1], bd[1] - 1, bd[2], bd[2] - 1};
  const unsigned want[] = {0, 0, 1, 1, 2, 2, kMcaUnlimited};
  EXPECT_EQ(b.out().thr_sel, 1u) << "cfg_thr_sel_i until a window completes";
  for (size_t k = 0; k < std::size(avgs); ++k) {
    SCOPED_TRACE(k);
    b.in().learn = true;
    b.step(true, false, 0);
    EXPECT_FALSE(b.out().learn_busy);
    // Occupancies avg - 1, avg + 1, avg, avg (when in range): their mean is avg.
    const uint32_t a = avgs[k];
    const uint32_t lo = a > 0 && a < occ_max() ? a - 1 : a, hi = a > 0 && a < occ_max() ? a + 1 : a;
    for (uint32_t occ : {lo, hi, a, a}) {
      b.step(true, false, occ);
      EXPECT_TRUE(b.out().learn_busy);
    }
    b.step(true, false, 0);
    EXPECT_FALSE(b.out().learn_busy);
    EXPECT_EQ(b.out().learn_avg, a);
    EXPECT_EQ(b.out().thr_sel, want[k]);
    EXPECT_EQ(b.out().thr, want[k] == kMcaUnlimited ? occ_max() : levels()[want[k]]);
  }
  b.expect_drained();
}

TEST(McaArbiterCosim, LearnPulsesIgnoredWhileAWindowRunsOrTheConfigurationIsRefused) {
  McaArbiterConfig c = config(McaPolicy::mca, 0);
  c.thr_auto = true;
  c.learn_log2 = 3;
  Bench b(c);
  b.in().learn = true;
  b.step(false, false, 2);
  for (int i = 0; i < 8; ++i) {
    b.in().learn = i % 2 == 0;
    b.step(false, false, 2);
    EXPECT_TRUE(b.out().learn_busy);
  }
  b.step(false, false, 0);
  EXPECT_FALSE(b.out().learn_busy) << "pulses inside the window start nothing";
  EXPECT_GT(b.sb().coverage().ignored_pulses, 0u);
  McaArbiterConfig bad = c;
  bad.policy = 3;
  b.in().cfg = bad;
  b.in().learn = true;
  b.step(false, false, 2);
  b.step(false, false, 2);
  EXPECT_FALSE(b.out().learn_busy) << "a refused configuration starts no window";
  b.expect_drained();
}

TEST(McaArbiterCosim, StarvationLimitZeroOneAndLarger) {
  const uint32_t cnt_max = uint32_t(bits(params().cnt_w));
  {
    Bench b(config(McaPolicy::mca, kMcaUnlimited, 0));
    for (int i = 0; i < 300; ++i) ASSERT_EQ(b.both(), 'c') << "limit 0: never forced";
    b.expect_drained();
  }
  {
    Bench b(config(McaPolicy::mca, 0, 1));
    std::string got;
    for (int i = 0; i < 8; ++i) got += b.both(occ_max());
    EXPECT_EQ(got, "cmcmcmcm") << "limit 1: one waited cycle, even above the threshold";
    b.expect_drained();
  }
  for (uint32_t limit : {std::min<uint32_t>(5, cnt_max), cnt_max}) {
    SCOPED_TRACE(limit);
    Bench b(config(McaPolicy::mca, 0, limit));
    for (int round = 0; round < 3; ++round) {
      for (uint32_t i = 0; i < limit; ++i) ASSERT_EQ(b.both(occ_max()), 'c');
      EXPECT_EQ(b.both(occ_max()), 'm');
    }
    EXPECT_EQ(b.out().stat_starved, 2u);  // the third is counted from the next cycle
    b.idle(1);
    EXPECT_EQ(b.out().stat_starved, 3u & bits(params().stat_w));
    b.expect_drained();
  }
}

TEST(McaArbiterCosim, DrainPutsCommunicationFirstUnderEveryPolicy) {
  for (auto pol : {McaPolicy::round_robin, McaPolicy::compute_first, McaPolicy::mca}) {
    SCOPED_TRACE(int(pol));
    Bench b(config(pol, 0, 3));
    // Communication first waits (compute ahead of it, or round robin's
    // turn), reaching the starvation limit under MCA; the drain then lets it
    // in, and those grants are the drain's, not starvation's.
    for (int i = 0; i < 3; ++i) b.step(true, true, occ_max());
    b.in().drain = true;
    for (int i = 0; i < 10; ++i) EXPECT_EQ(b.both(occ_max()), 'm');
    EXPECT_EQ(b.step(true, false, occ_max()), 'c');
    b.in().drain = false;
    EXPECT_EQ(b.out().stat_starved, 0u) << "drain wins before starvation";
    b.expect_drained();
  }
}

// Each cause of cfg_error_o alone, next to a valid configuration that
// differs in that one field; a refused configuration runs round robin.
TEST(McaArbiterCosim, EveryConfigurationFaultAndItsNeighbour) {
  const McaArbiterParams& p = params();
  struct Case {
    const char* what;
    McaArbiterConfig cfg;
    bool error;
  };
  std::vector<Case> cases;
  auto add = [&](const char* what, auto edit, bool error) {
    McaArbiterConfig c = config(McaPolicy::mca, 0, 0);
    edit(c);
    cases.push_back({what, c, error});
  };
  add("policy 3", [](McaArbiterConfig& c) { c.policy = 3; }, true);
  add("policy 2", [](McaArbiterConfig& c) { c.policy = 2; }, false);
  add("level0 0", [](McaArbiterConfig& c) { c.level[0] = 0; }, true);
  add("level1 0", [](McaArbiterConfig& c) { c.level[1] = 0; }, true);
  add("level2 0", [](McaArbiterConfig& c) { c.level[2] = 0; }, true);
  add("levels 1", [](McaArbiterConfig& c) { c.level[0] = c.level[1] = c.level[2] = 1; }, false);
  add("auto, bound0 < bound1", [](McaArbiterConfig& c) {
    c.thr_auto = true;
    c.bound[0] = c.bound[1] - 1;
  }, true);
  add("auto, bound1 < bound2", [](McaArbiterConfig& c) {
    c.thr_auto = true;
    c.bound[2] = c.bound[1] + 1;
  }, true);
  add("auto, bound0 == bound1 == bound2", [](McaArbiterConfig& c) {
    c.thr_auto = true;
    c.bound[0] = c.bound[2] = c.bound[1];
  }, false);
  add("fixed, bounds ascending", [](McaArbiterConfig& c) {
    c.bound[0] = 0;
    c.bound[2] = 1;
  }, false);
  const uint32_t log2_max = uint32_t(bits(p.log2_w()));
  if (log2_max > p.learn_w)
    add("learn_log2 LEARN_W + 1", [&](McaArbiterConfig& c) { c.learn_log2 = p.learn_w + 1; }, true);
  add("learn_log2 LEARN_W", [&](McaArbiterConfig& c) { c.learn_log2 = p.learn_w; }, false);
  for (const Case& k : cases) {
    SCOPED_TRACE(k.what);
    Bench b(k.cfg);
    EXPECT_EQ(b.out().cfg_error, k.error);
    EXPECT_EQ(k.cfg.check(p).has_value(), k.error) << k.cfg.check(p).value_or("");
    std::string got;
    for (int i = 0; i < 4; ++i) got += b.both(occ_max());
    EXPECT_EQ(got, k.error ? "cmcm" : "cccc") << "round robin when refused, MCA otherwise";
    if (k.error) {
      EXPECT_EQ(b.out().thr_sel, kMcaUnlimited);
      EXPECT_EQ(b.out().thr, occ_max());
    }
    b.expect_drained();
  }
}

// Reset with a request in the output register: dropped when the queue is not
// ready in the reset cycle, taken when it is; nothing is granted during reset.
TEST(McaArbiterCosim, ResetWithARequestInTheOutputRegister) {
  for (bool ready_in_reset : {false, true}) {
    SCOPED_TRACE(ready_in_reset);
    McaArbiterConfig c = config(McaPolicy::mca, 0, 2);
    c.thr_auto = true;
    c.learn_log2 = 0;
    Bench b(c);
    b.in().learn = true;
    EXPECT_EQ(b.both(occ_max()), 'c');
    b.in().out_ready = false;
    b.step(true, true, occ_max());
    b.step(true, true, occ_max());
    EXPECT_TRUE(b.out().out_valid);
    EXPECT_EQ(b.out().learn_avg, occ_max());
    b.in().out_ready = ready_in_reset;
    b.in().cmp_valid = b.in().com_valid = true;
    b.restart(c, 1);
    EXPECT_FALSE(b.out().cmp_ready || b.out().com_ready);
    EXPECT_TRUE(b.out().out_valid) << "the register shows its request until the edge";
    b.in().out_ready = true;
    b.idle(1);
    EXPECT_FALSE(b.out().out_valid);
    EXPECT_EQ(b.out().learn_avg, 0u);
    EXPECT_EQ(b.out().thr_sel, 0u);
    EXPECT_EQ(b.out().stat_grants_cmp + b.out().stat_grants_com + b.out().stat_wait_cmp +
                  b.out().stat_wait_com + b.out().stat_starved, 0u);
    EXPECT_EQ(b.sb().lost(), ready_in_reset ? 0u : 1u);
    EXPECT_EQ(b.sb().coverage().left[kCmp], ready_in_reset ? 1u : 0u);
    EXPECT_EQ(b.both(), 'c') << "compute's turn and no wait carried over";
    b.expect_drained();
  }
}

// The cycle table of docs/blocks/mca_arbiter.md (McaArbiter.AShortRunAsDocumented)
// on both models: MCA, threshold 5, starvation limit 3.
TEST(McaArbiterCosim, TheDocumentedRun) {
  if (occ_max() < 6) GTEST_SKIP() << "needs occupancy 6 on the pins";
  McaArbiterConfig c = config(McaPolicy::mca, 0, 3);
  c.level[0] = 5;
  Bench b(c);
  const int cmp[] = {0, 1, -1, 2, 2, 2, -1, 3, 3, -1, -1};
  const int com[] = {0, 0, 0, 0, 1, 1, 1, 2, -1, -1, -1};
  const uint32_t occ[] = {4, 4, 5, 5, 6, 6, 4, 6, 6, 6, 6};
  const bool ready[] = {1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1};
  const char* want = "cc-m-cmmc--";
  std::string got;
  for (int i = 0; i < 11; ++i) {
    McaArbiterInputs& in = b.in();
    in.cmp_valid = cmp[i] >= 0;
    in.cmp_data = 0xC0 + std::max(cmp[i], 0);
    in.com_valid = com[i] >= 0;
    in.com_data = 0xD0 + std::max(com[i], 0);
    in.occupancy = occ[i];
    in.out_ready = ready[i];
    in.drain = i == 7;
    const McaArbiterOutputs& o = b.cycle();
    got += o.cmp_ready ? 'c' : o.com_ready ? 'm' : '-';
  }
  EXPECT_EQ(got, want);
  b.in().drain = false;
  b.expect_drained();
}

// Constrained-random traffic (mca_arbiter_stimulus.h): phases with random
// configurations, bursty communication, a DRAM queue model, learn pulses,
// drains, refused configurations and resets in the middle of traffic.
TEST(McaArbiterCosim, ConstrainedRandom) {
  const RunOptions& opt = test_options();
  const McaArbiterParams& p = params();
  const uint64_t cycles = opt.cycles ? opt.cycles : T3_RANDOM_CYCLES;
  Bench b(config(McaPolicy::mca));
  const uint64_t first = b.cosim().cycles();
  McaStimulus stim(p, opt.seed);
  uint32_t max_occ = 0;
  auto run_cycle = [&] {
    stim.drive(b.in());
    max_occ = std::max(max_occ, b.in().occupancy);
    b.cycle();
    stim.after(b.in(), b.out());
  };
  for (uint64_t i = 0; i < cycles && !HasFailure(); ++i) run_cycle();
  stim.stop();
  for (unsigned i = 0; i < 200000 && !stim.idle() && !HasFailure(); ++i) run_cycle();
  EXPECT_TRUE(stim.idle()) << "traffic did not drain: deadlock";
  b.expect_drained();

  const McaCoverage& cv = b.sb().coverage();
  auto u = [](uint64_t v) { return static_cast<unsigned long long>(v); };
  std::printf("random: %llu cycles, %llu phases, %llu resets (%llu with a request in the output "
              "register), %llu refused phases; grants RR/CF/MCA %llu/%llu/%llu, fall-back %llu; "
              "MCA cycles at levels 0/1/2/none %llu/%llu/%llu/%llu, held back at 0/1/2 "
              "%llu/%llu/%llu, let in at high occupancy without limit %llu; windows %llu, "
              "learned levels %llu/%llu/%llu/%llu, pulses ignored %llu; starvation grants %llu "
              "(limit 1: %llu, >= 8: %llu); drain grants over compute %llu; refused cycles by "
              "cause %llu/%llu/%llu/%llu; back-pressure %llu, take-and-replace %llu; left "
              "%llu/%llu, lost in reset %llu; max occupancy %u; %llu model/RTL mismatches\n",
              u(b.cosim().cycles() - first), u(stim.phases()), u(stim.resets()),
              u(cv.resets_with_slot_full), u(stim.bad_phases()), u(cv.grants_by_policy[0]),
              u(cv.grants_by_policy[1]), u(cv.grants_by_policy[2]), u(cv.fallback_grants),
              u(cv.cycles_at_level[0]), u(cv.cycles_at_level[1]), u(cv.cycles_at_level[2]),
              u(cv.cycles_at_level[3]), u(cv.blocked_at_level[0]), u(cv.blocked_at_level[1]),
              u(cv.blocked_at_level[2]), u(cv.unlimited_high_grants), u(cv.windows),
              u(cv.learned_level[0]), u(cv.learned_level[1]), u(cv.learned_level[2]),
              u(cv.learned_level[3]), u(cv.ignored_pulses), u(cv.starved_grants),
              u(cv.starved_grants_limit1), u(cv.starved_grants_limit_big),
              u(cv.drain_grants_over_compute), u(cv.refused[0]), u(cv.refused[1]),
              u(cv.refused[2]), u(cv.refused[3]), u(cv.back_pressure), u(cv.take_and_replace),
              u(cv.left[0]), u(cv.left[1]), u(cv.lost_in_reset), max_occ,
              u(the_cosim().mismatches()));
  EXPECT_EQ(the_cosim().mismatches(), 0u) << the_cosim().first_mismatch();
  EXPECT_GE(b.cosim().cycles() - first, cycles);
  // Every request accepted over the run left once, or was in the register at a reset.
  EXPECT_EQ(cv.accepted[kCmp] + cv.accepted[kCom], cv.left[kCmp] + cv.left[kCom] + cv.lost_in_reset);
  if (cycles < 1000000) return;  // the coverage below needs the full run
  for (unsigned k = 0; k < 3; ++k) {
    EXPECT_GT(cv.grants_by_policy[k], 0u) << "policy " << k;
    EXPECT_GT(cv.blocked_at_level[k], 0u) << "level " << k;
  }
  for (unsigned k = 0; k < 4; ++k) {
    EXPECT_GT(cv.cycles_at_level[k], 0u) << "level " << k;
    EXPECT_GT(cv.learned_level[k], 0u) << "learned level " << k;
    EXPECT_GT(cv.refused[k], 0u) << "refusal cause " << k;
  }
  EXPECT_GT(cv.unlimited_high_grants, 0u);
  EXPECT_GT(cv.ignored_pulses, 0u);
  EXPECT_GT(cv.starved_grants_limit1, 0u);
  EXPECT_GT(cv.starved_grants_limit_big, 0u);
  EXPECT_GT(cv.drain_grants_over_compute, 0u);
  EXPECT_GT(cv.fallback_grants, 0u);
  EXPECT_GT(cv.resets_with_slot_full, 0u);
  EXPECT_GT(cv.back_pressure, 0u);
  EXPECT_GT(cv.take_and_replace, 0u);
  EXPECT_EQ(max_occ, occ_max());
}

}  // namespace
}  // namespace t3::tb
