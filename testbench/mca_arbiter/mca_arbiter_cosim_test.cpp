// MCA arbiter co-simulation tests: directed cases and constrained-random
// traffic. Every output of the C++ model is compared with the Verilated RTL
// in every cycle (reset cycles included; the binary fails at the end if any
// cycle mismatched), and the transaction-level scoreboard checks the outputs
// (the register port's answers and the interrupt line included) against
// T3 §4.5's rules and the register map. The arbiter is programmed through its
// registers, as the driver writes them. Run on either engine: --engine
// systemc (default) or --engine direct.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "apb_access.h"
#include "cosim_config.h"
#include "mca_arbiter_scoreboard.h"
#include "mca_arbiter_stimulus.h"
#include "reg_traffic.h"
#include "t3/mca_arbiter_regs.h"
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

// A bench whose registers are left at their reset values.
struct AtReset {};

// Drives the co-simulation with a scoreboard attached; every cycle checks
// model == RTL and the RTL's outputs (the register port's answers included)
// against the scoreboard. The configuration goes in through the registers,
// as the driver writes it.
class Bench : public ApbAccess<Bench> {
  friend class ApbAccess<Bench>;

 public:
  // Reset (unobserved: whatever the last test left), a fresh scoreboard,
  // then cfg programmed through the registers.
  explicit Bench(const McaArbiterConfig& cfg) : Bench(AtReset{}) {
    EXPECT_TRUE(reprogram(cfg)) << "a configuration write was refused";
  }
  explicit Bench(AtReset) : c_(the_cosim()) {
    c_.in() = McaArbiterInputs{};
    EXPECT_TRUE(c_.reset(2)) << c_.first_mismatch();
    sb_ = std::make_unique<McaScoreboard>(c_.params());
    c_.in().out_ready = true;
  }

  Cosim<McaArbiterBlock>& cosim() { return c_; }
  McaArbiterInputs& in() { return c_.in(); }
  McaScoreboard& sb() { return *sb_; }
  const McaArbiterOutputs& out() const { return c_.out(); }
  ApbMaster& apb() { return apb_; }
  // The register port is driven elsewhere (the random stimulus), or by this
  // bench's own master again.
  void apb_elsewhere(bool elsewhere) {
    own_apb_ = !elsewhere;
    if (own_apb_) c_.in().apb = ApbRequest{};
  }

  // One cycle with in() as it is (the register port's next phase, when the
  // bench drives it).
  const McaArbiterOutputs& cycle() {
    if (own_apb_) apb_.drive(c_.in().apb, c_.in().rst_n);
    const McaArbiterInputs in = c_.in();
    EXPECT_TRUE(c_.cycle()) << c_.first_mismatch();
    if (auto err = sb_->observe(in, c_.out()))
      ADD_FAILURE() << "cycle " << c_.cycles() - 1 << ": " << *err;
    if (own_apb_) {
      if (auto d = apb_.after(in.apb, c_.out().apb)) {
        apb_completed(*d);
        refused_ += d->err;
      }
    }
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

  // Nothing presented, for a register access (apb_access.h).
  void apb_idle_cycle() { step(false, false); }

  // cfg programmed without a reset, nothing presented meanwhile; whether
  // every write was taken (the bounds and the window are refused while a
  // learning window runs).
  bool reprogram(const McaArbiterConfig& cfg) {
    const uint64_t before = refused_;
    program(apb_, cfg);
    while (!apb_.idle()) step(false, false);
    return refused_ == before;
  }

  // Reset observed by the scoreboard (the registers back at their reset
  // values; in() as it is otherwise).
  void restart(unsigned cycles = 2) {
    apb_.clear();
    c_.in().apb = ApbRequest{};
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
  ApbMaster apb_;
  uint64_t refused_ = 0;
  bool own_apb_ = true;
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
  EXPECT_EQ(b.out().thr_sel, 1u) << "CTRL.THR_SEL until a window completes";
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
  // Policy 3 written at run time: refused from the write's edge on.
  McaArbiterConfig bad = c;
  bad.policy = 3;
  EXPECT_TRUE(b.write_reg(T3_MCA_ARBITER_A_CTRL, ctrl_word(bad)));
  EXPECT_TRUE(b.sb().refused());
  b.in().learn = true;
  b.step(false, false, 2);
  b.step(false, false, 2);
  EXPECT_FALSE(b.out().learn_busy) << "a refused configuration starts no window";
  EXPECT_EQ(b.read_reg(T3_MCA_ARBITER_A_STATUS) & (T3_MCA_ARBITER_R_STATUS_CFG_ERROR_MASK |
                                              T3_MCA_ARBITER_R_STATUS_LEARN_BUSY_MASK),
            T3_MCA_ARBITER_R_STATUS_CFG_ERROR_MASK);
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

// Each cause of STATUS.CFG_ERROR alone, next to a valid configuration that
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
    EXPECT_EQ(b.sb().refused(), k.error);
    EXPECT_EQ((b.read_reg(T3_MCA_ARBITER_A_STATUS) & T3_MCA_ARBITER_R_STATUS_CFG_ERROR_MASK) != 0,
              k.error);
    EXPECT_EQ(k.cfg.check(p).has_value(), k.error) << k.cfg.check(p).value_or("");
    std::string got;
    for (int i = 0; i < 4; ++i) got += b.both(occ_max());
    EXPECT_EQ(got, k.error ? "cmcm" : "cccc") << "round robin when refused, MCA otherwise";
    if (k.error) {
      EXPECT_EQ(b.out().thr_sel, kMcaUnlimited);
      EXPECT_EQ(b.out().thr, occ_max());
    }
    // The interrupt: what the programming left cleared, then pending again
    // (a level) only while the fault lasts; on the line once enabled.
    EXPECT_TRUE(b.write_reg(T3_MCA_ARBITER_A_INTR_STATE, T3_MCA_ARBITER_R_INTR_STATE_CFG_ERROR_MASK));
    EXPECT_TRUE(b.write_reg(T3_MCA_ARBITER_A_INTR_ENABLE, T3_MCA_ARBITER_R_INTR_ENABLE_CFG_ERROR_MASK));
    b.idle(1);
    EXPECT_EQ(b.out().intr, k.error);
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
    b.restart(1);
    EXPECT_FALSE(b.out().cmp_ready || b.out().com_ready);
    EXPECT_TRUE(b.out().out_valid) << "the register shows its request until the edge";
    b.in().out_ready = true;
    b.idle(1);
    EXPECT_FALSE(b.out().out_valid);
    EXPECT_EQ(b.out().learn_avg, 0u);
    EXPECT_EQ(b.out().thr_sel, kMcaUnlimited) << "CTRL at its reset value: THR_SEL 3, nothing learned";
    EXPECT_EQ(b.out().stat_grants_cmp + b.out().stat_grants_com + b.out().stat_wait_cmp +
                  b.out().stat_wait_com + b.out().stat_starved, 0u);
    EXPECT_EQ(b.sb().lost(), ready_in_reset ? 0u : 1u);
    EXPECT_EQ(b.sb().coverage().left[kCmp], ready_in_reset ? 1u : 0u);
    // Programmed again after the reset, as the driver does.
    EXPECT_TRUE(b.reprogram(c));
    b.idle(1);
    EXPECT_EQ(b.out().thr_sel, 0u) << "CTRL.THR_SEL: nothing learned since the reset";
    EXPECT_EQ(b.both(), 'c') << "compute's turn and no wait carried over";
    b.expect_drained();
  }
}

// The cycle table of docs/blocks/mca_arbiter.md (McaArbiter.AShortRunAsDocumented)
// on both models: MCA, threshold 5, starvation limit 3.
TEST(McaArbiterCosim, TheDocumentedRun) {
  ASSERT_GE(occ_max(), 6u) << "the run needs occupancy 6 on the pins";
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

// The auto bounds and the window are locked while a learning window runs:
// writes to them are refused (pslverr_o) and change nothing, the other
// registers are taken; once the window has ended the same writes are taken,
// and the new bounds map the learned average at once.
TEST(McaArbiterCosim, BoundsAndWindowLockedWhileLearning) {
  const McaArbiterParams& p = params();
  McaArbiterConfig c = config(McaPolicy::mca, 1);
  c.thr_auto = true;
  c.learn_log2 = std::min<uint32_t>(p.learn_w, 4);
  Bench b(c);
  const auto l = levels(), bd = bounds();
  b.in().learn = true;
  b.step(false, false, occ_max());
  // Seven accesses, their access phases in the window's cycles 2..14: the
  // occupancy is 0 meanwhile, so the window learns an average of 0.
  ASSERT_GE(uint64_t{1} << c.learn_log2, 14u);
  EXPECT_FALSE(b.write_reg(T3_MCA_ARBITER_A_AUTO_BOUND0, 2)) << "locked while learning";
  EXPECT_FALSE(b.write_reg(T3_MCA_ARBITER_A_AUTO_BOUND1, 1));
  EXPECT_FALSE(b.write_reg(T3_MCA_ARBITER_A_AUTO_BOUND2, 0));
  EXPECT_FALSE(b.write_reg(T3_MCA_ARBITER_A_LEARN, 0));
  EXPECT_EQ(b.read_reg(T3_MCA_ARBITER_A_STATUS) & T3_MCA_ARBITER_R_STATUS_LEARN_BUSY_MASK,
            T3_MCA_ARBITER_R_STATUS_LEARN_BUSY_MASK);
  EXPECT_TRUE(b.write_reg(T3_MCA_ARBITER_A_THR_LEVEL2, l[2])) << "the levels are not locked";
  EXPECT_TRUE(b.write_reg(T3_MCA_ARBITER_A_STARVE_LIMIT, 0)) << "nor the starvation limit";
  EXPECT_TRUE(b.out().learn_busy);
  EXPECT_EQ(b.read_reg(T3_MCA_ARBITER_A_AUTO_BOUND0), bd[0]) << "a refused write changes nothing";
  EXPECT_EQ(b.read_reg(T3_MCA_ARBITER_A_AUTO_BOUND2), bd[2]);
  EXPECT_EQ(b.read_reg(T3_MCA_ARBITER_A_LEARN), c.learn_log2);
  unsigned left = 0;
  while (b.out().learn_busy && left++ < 100) b.idle(1);
  ASSERT_FALSE(b.out().learn_busy);
  EXPECT_EQ(b.out().learn_avg, 0u);
  EXPECT_EQ(b.out().thr_sel, kMcaUnlimited) << "average 0 is below every bound";
  // Taken now; lowered from the last bound up, so that no write leaves them
  // crossed on the way.
  EXPECT_TRUE(b.write_reg(T3_MCA_ARBITER_A_AUTO_BOUND2, 0));
  EXPECT_TRUE(b.write_reg(T3_MCA_ARBITER_A_AUTO_BOUND1, 1));
  EXPECT_TRUE(b.write_reg(T3_MCA_ARBITER_A_AUTO_BOUND0, 2));
  EXPECT_TRUE(b.write_reg(T3_MCA_ARBITER_A_LEARN, 0));
  EXPECT_EQ(b.read_reg(T3_MCA_ARBITER_A_AUTO_BOUND2), 0u);
  EXPECT_EQ(b.read_reg(T3_MCA_ARBITER_A_LEARN), 0u);
  EXPECT_EQ(b.out().thr_sel, 2u) << "average 0 >= the new bound 0: level 2";
  EXPECT_EQ(b.out().thr, l[2]);
  // The new window: one cycle.
  b.in().learn = true;
  b.step(false, false, occ_max());
  b.step(false, false, occ_max());
  EXPECT_TRUE(b.out().learn_busy);
  b.idle(1);
  EXPECT_FALSE(b.out().learn_busy);
  EXPECT_EQ(b.out().learn_avg, occ_max());
  EXPECT_EQ(b.out().thr_sel, 0u);
  b.expect_drained();
}

// Firmware changes policy and threshold between traffic phases without a
// reset: each phase runs its own rule from the edge of the write on; what
// was learned and counted carries over.
TEST(McaArbiterCosim, PolicyAndThresholdChangedBetweenPhasesWithoutReset) {
  const auto l = levels();
  Bench b(config(McaPolicy::mca, 0));
  std::string all;
  // MCA, fixed level 0; a window measures the producer meanwhile (fixed
  // mode does not use it).
  b.in().learn = true;
  for (int i = 0; i < 5; ++i) all += b.step(true, false, occ_max());
  EXPECT_EQ(b.out().learn_avg, 0u);
  EXPECT_TRUE(b.out().learn_busy) << "the window's last cycle";
  std::string got;
  got += b.step(false, true, l[0]);
  got += b.step(false, true, l[0] - 1);
  EXPECT_EQ(got, "-m");
  EXPECT_EQ(b.out().learn_avg, occ_max());
  EXPECT_EQ(b.out().thr_sel, 0u);
  all += got;
  // Round robin: compute's turn (communication went last), no threshold.
  EXPECT_TRUE(b.reprogram(config(McaPolicy::round_robin, 0)));
  got.clear();
  for (int i = 0; i < 4; ++i) got += b.both(occ_max());
  EXPECT_EQ(got, "cmcm");
  all += got;
  // Compute first.
  EXPECT_TRUE(b.reprogram(config(McaPolicy::compute_first, 0)));
  got.clear();
  for (int i = 0; i < 4; ++i) got += b.both(occ_max());
  got += b.step(false, true, occ_max());
  EXPECT_EQ(got, "ccccm");
  all += got;
  // MCA at level 2, then THR_LEVEL2 raised by one write while communication
  // waits at the old threshold: held back up to the edge that ends the
  // write's access phase, let in from the next cycle.
  EXPECT_TRUE(b.reprogram(config(McaPolicy::mca, 2)));
  got.clear();
  got += b.step(false, true, l[2]);
  got += b.step(false, true, l[2] - 1);
  EXPECT_EQ(got, "-m");
  all += got;
  ASSERT_LT(l[2], occ_max());
  b.apb().write(T3_MCA_ARBITER_A_THR_LEVEL2, l[2] + 1);
  got.clear();
  for (int i = 0; i < 3; ++i) got += b.step(false, true, l[2]);
  EXPECT_EQ(got, "--m") << "setup, access, then the new threshold";
  EXPECT_EQ(b.out().thr, l[2] + 1);
  all += got;
  // Auto mode: the average learned in the first phase picks level 0 at once.
  McaArbiterConfig a = config(McaPolicy::mca, 2);
  a.thr_auto = true;
  EXPECT_TRUE(b.reprogram(a));
  b.idle(1);
  EXPECT_EQ(b.out().thr_sel, 0u);
  EXPECT_EQ(b.out().thr, l[0]);
  got = b.step(false, true, l[0]);
  EXPECT_EQ(got, "-");
  all += got;
  // Nothing was reset: the counters ran on through every phase.
  b.idle(1);
  EXPECT_EQ(b.out().stat_grants_cmp,
            uint64_t(std::count(all.begin(), all.end(), 'c')) & bits(params().stat_w));
  EXPECT_EQ(b.out().stat_grants_com,
            uint64_t(std::count(all.begin(), all.end(), 'm')) & bits(params().stat_w));
  b.expect_drained();
}

// What the driver finds after reset (the documented defaults of
// McaArbiterConfig), what it writes reads back (reserved bits 0), the
// PARAM_* registers describe the build; read-only, unmapped, unaligned and
// partial accesses are refused and change nothing.
TEST(McaArbiterCosim, RegistersReadBackAndParametersMatchTheBuild) {
  const McaArbiterParams& p = params();
  Bench b{AtReset{}};
  struct Rw {
    uint32_t addr, reset, mask;
  };
  const Rw rw[] = {
      {T3_MCA_ARBITER_A_INTR_ENABLE, T3_MCA_ARBITER_R_INTR_ENABLE_RESET,
       T3_MCA_ARBITER_R_INTR_ENABLE_CFG_ERROR_MASK | T3_MCA_ARBITER_R_INTR_ENABLE_STARVED_MASK},
      {T3_MCA_ARBITER_A_CTRL, T3_MCA_ARBITER_R_CTRL_RESET,
       T3_MCA_ARBITER_R_CTRL_POLICY_MASK | T3_MCA_ARBITER_R_CTRL_THR_AUTO_MASK |
           T3_MCA_ARBITER_R_CTRL_THR_SEL_MASK},
      {T3_MCA_ARBITER_A_THR_LEVEL0, T3_MCA_ARBITER_R_THR_LEVEL0_RESET, T3_MCA_ARBITER_R_THR_LEVEL0_OCC_MASK},
      {T3_MCA_ARBITER_A_THR_LEVEL1, T3_MCA_ARBITER_R_THR_LEVEL1_RESET, T3_MCA_ARBITER_R_THR_LEVEL1_OCC_MASK},
      {T3_MCA_ARBITER_A_THR_LEVEL2, T3_MCA_ARBITER_R_THR_LEVEL2_RESET, T3_MCA_ARBITER_R_THR_LEVEL2_OCC_MASK},
      {T3_MCA_ARBITER_A_AUTO_BOUND0, T3_MCA_ARBITER_R_AUTO_BOUND0_RESET, T3_MCA_ARBITER_R_AUTO_BOUND0_OCC_MASK},
      {T3_MCA_ARBITER_A_AUTO_BOUND1, T3_MCA_ARBITER_R_AUTO_BOUND1_RESET, T3_MCA_ARBITER_R_AUTO_BOUND1_OCC_MASK},
      {T3_MCA_ARBITER_A_AUTO_BOUND2, T3_MCA_ARBITER_R_AUTO_BOUND2_RESET, T3_MCA_ARBITER_R_AUTO_BOUND2_OCC_MASK},
      {T3_MCA_ARBITER_A_LEARN, T3_MCA_ARBITER_R_LEARN_RESET, T3_MCA_ARBITER_R_LEARN_LOG2_MASK},
      {T3_MCA_ARBITER_A_STARVE_LIMIT, T3_MCA_ARBITER_R_STARVE_LIMIT_RESET,
       T3_MCA_ARBITER_R_STARVE_LIMIT_CYCLES_MASK},
  };
  for (const Rw& r : rw) EXPECT_EQ(b.read_reg(r.addr), r.reset) << std::hex << r.addr;
  // The scoreboard's own reading of the reset values: McaArbiterConfig's
  // defaults, T3-MCA with the learned threshold.
  const McaArbiterConfig& c = b.sb().config();
  const McaArbiterConfig d;
  EXPECT_EQ(c.policy, d.policy);
  EXPECT_EQ(c.thr_auto, d.thr_auto);
  EXPECT_EQ(c.thr_sel, d.thr_sel);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(c.level[i], d.level[i]);
    EXPECT_EQ(c.bound[i], d.bound[i]);
  }
  EXPECT_EQ(c.learn_log2, d.learn_log2);
  EXPECT_EQ(c.starve_limit, d.starve_limit);
  EXPECT_EQ(b.read_reg(T3_MCA_ARBITER_A_INTR_STATE) & T3_MCA_ARBITER_R_INTR_STATE_STARVED_MASK, 0u);
  EXPECT_EQ(b.read_reg(T3_MCA_ARBITER_A_INTR_TEST), 0u) << "W1P reads 0";

  // The build.
  const uint32_t w = b.read_reg(T3_MCA_ARBITER_A_PARAM_WIDTHS);
  auto field = [](uint32_t v, uint32_t mask, uint32_t shift) { return (v & mask) >> shift; };
  EXPECT_EQ(field(w, T3_MCA_ARBITER_R_PARAM_WIDTHS_DATA_W_MASK, T3_MCA_ARBITER_R_PARAM_WIDTHS_DATA_W_SHIFT), p.data_w);
  EXPECT_EQ(field(w, T3_MCA_ARBITER_R_PARAM_WIDTHS_OCC_W_MASK, T3_MCA_ARBITER_R_PARAM_WIDTHS_OCC_W_SHIFT), p.occ_w);
  EXPECT_EQ(field(w, T3_MCA_ARBITER_R_PARAM_WIDTHS_CNT_W_MASK, T3_MCA_ARBITER_R_PARAM_WIDTHS_CNT_W_SHIFT), p.cnt_w);
  EXPECT_EQ(field(w, T3_MCA_ARBITER_R_PARAM_WIDTHS_LEARN_W_MASK, T3_MCA_ARBITER_R_PARAM_WIDTHS_LEARN_W_SHIFT), p.learn_w);
  EXPECT_EQ(b.read_reg(T3_MCA_ARBITER_A_PARAM_STAT), p.stat_w);

  // Every RW register: all ones read back as its fields (reserved bits 0),
  // then a value of its own read back whole (also above the build's widths).
  for (const Rw& r : rw) {
    SCOPED_TRACE(r.addr);
    EXPECT_TRUE(b.write_reg(r.addr, ~0u));
    EXPECT_EQ(b.read_reg(r.addr), r.mask);
  }
  uint32_t k = 0;
  for (const Rw& r : rw) {
    const uint32_t v = (0x9E3779B9u * ++k) & r.mask;
    EXPECT_TRUE(b.write_reg(r.addr, v));
    EXPECT_EQ(b.read_reg(r.addr), v) << std::hex << r.addr;
  }

  // Refused accesses change nothing.
  const uint32_t limit = b.read_reg(T3_MCA_ARBITER_A_STARVE_LIMIT);
  EXPECT_FALSE(b.write_reg(T3_MCA_ARBITER_A_STATUS, 1)) << "read-only";
  EXPECT_FALSE(b.write_reg(T3_MCA_ARBITER_A_PARAM_WIDTHS, 0)) << "read-only";
  EXPECT_FALSE(b.write_reg(T3_MCA_ARBITER_A_STAT_STARVED, 0)) << "read-only";
  EXPECT_TRUE(b.access({false, T3_MCA_ARBITER_A_PARAM_STAT + 4, 0, 0}).err) << "no register";
  EXPECT_TRUE(b.access({true, 0xFFC, 1, 0xF}).err) << "no register";
  EXPECT_TRUE(b.access({true, T3_MCA_ARBITER_A_STARVE_LIMIT, 7, 0x3}).err) << "partial write";
  EXPECT_TRUE(b.access({false, T3_MCA_ARBITER_A_STARVE_LIMIT + 2, 0, 0}).err) << "unaligned";
  EXPECT_EQ(b.read_reg(T3_MCA_ARBITER_A_STARVE_LIMIT), limit);
  EXPECT_EQ(b.sb().regs().counts().read_only_errors, 3u);
  EXPECT_EQ(b.sb().regs().counts().address_errors, 3u);
  EXPECT_EQ(b.sb().regs().counts().strobe_errors, 1u);
}

// Interrupts: INTR_TEST sets a pending bit two edges after its write; the
// line follows INTR_ENABLE; a W1C write clears. STARVED is set by a grant
// the starvation limit decides, not by an ordinary communication grant nor
// by a drain's; CFG_ERROR is a level, set again after a clear while the
// fault lasts.
TEST(McaArbiterCosim, InterruptsSetClearAndTest) {
  const uint32_t both_bits =
      T3_MCA_ARBITER_R_INTR_STATE_CFG_ERROR_MASK | T3_MCA_ARBITER_R_INTR_STATE_STARVED_MASK;
  const McaArbiterConfig good = config(McaPolicy::mca, 0, 3);
  Bench b(good);
  // Whatever the programming left pending (at the small build the reset
  // values are refused: their fields cut to 3 bits cross), cleared.
  EXPECT_TRUE(b.write_reg(T3_MCA_ARBITER_A_INTR_STATE, both_bits));
  EXPECT_EQ(b.read_reg(T3_MCA_ARBITER_A_INTR_STATE), 0u);

  EXPECT_TRUE(b.write_reg(T3_MCA_ARBITER_A_INTR_TEST, T3_MCA_ARBITER_R_INTR_TEST_STARVED_MASK));
  b.idle(1);
  EXPECT_EQ(b.read_reg(T3_MCA_ARBITER_A_INTR_STATE), T3_MCA_ARBITER_R_INTR_STATE_STARVED_MASK);
  EXPECT_FALSE(b.out().intr) << "not enabled";
  EXPECT_TRUE(b.write_reg(T3_MCA_ARBITER_A_INTR_ENABLE, both_bits));
  EXPECT_FALSE(b.out().intr) << "the enable takes effect at the write's edge";
  b.idle(1);
  EXPECT_TRUE(b.out().intr);
  EXPECT_TRUE(b.write_reg(T3_MCA_ARBITER_A_INTR_STATE, T3_MCA_ARBITER_R_INTR_STATE_STARVED_MASK));
  b.idle(1);
  EXPECT_FALSE(b.out().intr);

  // An ordinary communication grant, then a drain's grant of a stream that
  // has waited the limit: neither is starvation.
  EXPECT_EQ(b.step(false, true, 0), 'm');
  for (int i = 0; i < 3; ++i) EXPECT_EQ(b.both(occ_max()), 'c');
  b.in().drain = true;
  EXPECT_EQ(b.both(occ_max()), 'm');
  b.in().drain = false;
  b.idle(1);
  EXPECT_FALSE(b.out().intr);
  EXPECT_EQ(b.read_reg(T3_MCA_ARBITER_A_INTR_STATE), 0u);
  // Three cycles waited: the limit lets communication in, and STARVED is
  // pending from that grant's edge.
  for (int i = 0; i < 3; ++i) EXPECT_EQ(b.both(occ_max()), 'c');
  EXPECT_EQ(b.both(occ_max()), 'm');
  EXPECT_FALSE(b.out().intr);
  b.idle(1);
  EXPECT_TRUE(b.out().intr);
  EXPECT_EQ(b.out().stat_starved, 1u);
  EXPECT_EQ(b.read_reg(T3_MCA_ARBITER_A_INTR_STATE), T3_MCA_ARBITER_R_INTR_STATE_STARVED_MASK);
  EXPECT_TRUE(b.write_reg(T3_MCA_ARBITER_A_INTR_STATE, T3_MCA_ARBITER_R_INTR_STATE_STARVED_MASK));
  b.idle(1);
  EXPECT_FALSE(b.out().intr);

  // Policy 3: refused, CFG_ERROR pending, and again after a clear while the
  // fault lasts; cleared for good once the configuration is fixed.
  McaArbiterConfig bad = good;
  bad.policy = 3;
  EXPECT_TRUE(b.write_reg(T3_MCA_ARBITER_A_CTRL, ctrl_word(bad)));
  b.idle(2);
  EXPECT_TRUE(b.out().intr);
  EXPECT_EQ(b.read_reg(T3_MCA_ARBITER_A_STATUS) & T3_MCA_ARBITER_R_STATUS_CFG_ERROR_MASK,
            T3_MCA_ARBITER_R_STATUS_CFG_ERROR_MASK);
  EXPECT_TRUE(b.write_reg(T3_MCA_ARBITER_A_INTR_STATE, T3_MCA_ARBITER_R_INTR_STATE_CFG_ERROR_MASK));
  b.idle(1);
  EXPECT_TRUE(b.out().intr) << "the fault still holds: set again";
  EXPECT_EQ(b.read_reg(T3_MCA_ARBITER_A_INTR_STATE), T3_MCA_ARBITER_R_INTR_STATE_CFG_ERROR_MASK);
  EXPECT_TRUE(b.write_reg(T3_MCA_ARBITER_A_CTRL, ctrl_word(good)));
  EXPECT_TRUE(b.write_reg(T3_MCA_ARBITER_A_INTR_STATE, T3_MCA_ARBITER_R_INTR_STATE_CFG_ERROR_MASK));
  b.idle(1);
  EXPECT_FALSE(b.out().intr);
  EXPECT_EQ(b.read_reg(T3_MCA_ARBITER_A_INTR_STATE), 0u);

  // INTR_ENABLE gates the line, not the pending bit.
  EXPECT_TRUE(b.write_reg(T3_MCA_ARBITER_A_INTR_TEST, T3_MCA_ARBITER_R_INTR_TEST_CFG_ERROR_MASK));
  b.idle(1);
  EXPECT_TRUE(b.write_reg(T3_MCA_ARBITER_A_INTR_ENABLE, T3_MCA_ARBITER_R_INTR_ENABLE_STARVED_MASK));
  b.idle(1);
  EXPECT_FALSE(b.out().intr);
  EXPECT_EQ(b.read_reg(T3_MCA_ARBITER_A_INTR_STATE), T3_MCA_ARBITER_R_INTR_STATE_CFG_ERROR_MASK);
  b.expect_drained();
}

// Fields wider than the build's widths are cut to the core's widths (the
// register keeps the whole field, PARAM_WIDTHS tells firmware the widths):
// a level, the window's log2 and the starvation limit, each with bits above.
TEST(McaArbiterCosim, FieldsWiderThanTheBuildAreCut) {
  const McaArbiterParams& p = params();
  const auto l = levels();
  Bench b(config(McaPolicy::mca, 0, 0));
  ASSERT_LT(p.occ_w, 16u) << "the level field is 16 bits";
  const uint32_t wide = l[0] | 1u << p.occ_w;
  EXPECT_TRUE(b.write_reg(T3_MCA_ARBITER_A_THR_LEVEL0, wide));
  EXPECT_EQ(b.read_reg(T3_MCA_ARBITER_A_THR_LEVEL0), wide);
  EXPECT_EQ(b.out().thr, l[0]);
  std::string got;
  got += b.step(false, true, l[0]);
  got += b.step(false, true, l[0] - 1);
  EXPECT_EQ(got, "-m");
  // A level whose low bits are 0 is a level of 0: refused.
  EXPECT_TRUE(b.write_reg(T3_MCA_ARBITER_A_THR_LEVEL1, 1u << p.occ_w));
  EXPECT_EQ(b.read_reg(T3_MCA_ARBITER_A_STATUS) & T3_MCA_ARBITER_R_STATUS_CFG_ERROR_MASK,
            T3_MCA_ARBITER_R_STATUS_CFG_ERROR_MASK);
  EXPECT_EQ(b.out().thr_sel, kMcaUnlimited);
  EXPECT_TRUE(b.write_reg(T3_MCA_ARBITER_A_THR_LEVEL1, l[1]));
  EXPECT_EQ(b.read_reg(T3_MCA_ARBITER_A_STATUS) & T3_MCA_ARBITER_R_STATUS_CFG_ERROR_MASK, 0u);
  // LEARN.LOG2 above its pin (clog2(LEARN_W + 1) bits): 2^log2_w + 1 is a
  // window of 2 cycles, not a refused one.
  ASSERT_LT(p.log2_w(), 5u) << "the log2 field is 5 bits";
  EXPECT_TRUE(b.write_reg(T3_MCA_ARBITER_A_LEARN, (1u << p.log2_w()) | 1));
  EXPECT_FALSE(b.sb().refused());
  b.in().learn = true;
  b.step(false, false, 0);
  b.step(false, false, 0);
  EXPECT_TRUE(b.out().learn_busy);
  b.step(false, false, 0);
  EXPECT_TRUE(b.out().learn_busy);
  b.step(false, false, 0);
  EXPECT_FALSE(b.out().learn_busy) << "two cycles";
  // STARVE_LIMIT above CNT_W: a limit of 1.
  ASSERT_LT(p.cnt_w, 32u);
  EXPECT_TRUE(b.write_reg(T3_MCA_ARBITER_A_STARVE_LIMIT, (1u << p.cnt_w) | 1));
  got.clear();
  for (int i = 0; i < 4; ++i) got += b.both(occ_max());
  EXPECT_EQ(got, "cmcm") << "limit 1: one waited cycle";
  b.expect_drained();
}

// Constrained-random traffic (mca_arbiter_stimulus.h): phases with random
// configurations, each programmed through the register port (after a reset
// in the middle of traffic, or without one while the traffic runs), bursty
// communication, a DRAM queue model, learn pulses, drains, refused
// configurations. Random register traffic runs throughout (reg_traffic.h):
// reads, refused writes, interrupt enables, clears and tests, the
// configuration rewritten as it is (refused while a window runs).
TEST(McaArbiterCosim, ConstrainedRandom) {
  const RunOptions& opt = test_options();
  const McaArbiterParams& p = params();
  const uint64_t cycles = opt.cycles ? opt.cycles : T3_RANDOM_CYCLES;
  Bench b{AtReset{}};
  b.apb_elsewhere(true);
  const uint64_t first = b.cosim().cycles();
  McaStimulus stim(p, opt.seed);
  RegTraffic<McaArbiterRegMap> regs(opt.seed ^ 0x5bd1e995u, 0.05);
  bool reg_traffic = true;
  uint32_t max_occ = 0;
  auto run_cycle = [&] {
    if (reg_traffic) regs.maybe_queue(stim.apb(), b.sb().regs());
    stim.drive(b.in());
    max_occ = std::max(max_occ, b.in().occupancy);
    b.cycle();
    stim.after(b.in(), b.out());
  };
  for (uint64_t i = 0; i < cycles && !HasFailure(); ++i) {
    run_cycle();
    // The second half steers towards a threshold level that has not held
    // communication back yet (a phase at a time; the check below stays).
    if (i >= cycles / 2 && i % 20000 == 0)
      for (unsigned k = 0; k < 3; ++k)
        if (b.sb().coverage().blocked_at_level[k] == 0) {
          stim.aim_at_level(k);
          break;
        }
  }
  stim.stop();
  reg_traffic = false;
  for (unsigned i = 0; i < 200000 && !stim.idle() && !HasFailure(); ++i) run_cycle();
  EXPECT_TRUE(stim.idle()) << "traffic did not drain: deadlock";
  b.apb_elsewhere(false);
  b.expect_drained();

  const McaCoverage& cv = b.sb().coverage();
  const RegAccessCounts& rc = b.sb().regs().counts();
  auto u = [](uint64_t v) { return static_cast<unsigned long long>(v); };
  std::printf("random: %llu cycles, %llu phases, %llu resets (%llu with a request in the output "
              "register), %llu reprogrammed without reset, %llu refused phases, %llu aimed at "
              "a level; grants RR/CF/MCA "
              "%llu/%llu/%llu, fall-back %llu; "
              "MCA cycles at levels 0/1/2/none %llu/%llu/%llu/%llu, held back at 0/1/2 "
              "%llu/%llu/%llu, let in at high occupancy without limit %llu; windows %llu, "
              "learned levels %llu/%llu/%llu/%llu, pulses ignored %llu; starvation grants %llu "
              "(limit 1: %llu, >= 8: %llu); drain grants over compute %llu; refused cycles by "
              "cause %llu/%llu/%llu/%llu; back-pressure %llu, take-and-replace %llu; left "
              "%llu/%llu, lost in reset %llu; max occupancy %u; %llu model/RTL mismatches\n",
              u(b.cosim().cycles() - first), u(stim.phases()), u(stim.resets()),
              u(cv.resets_with_slot_full), u(stim.reprograms()), u(stim.bad_phases()),
              u(stim.aimed_phases()),
              u(cv.grants_by_policy[0]), u(cv.grants_by_policy[1]), u(cv.grants_by_policy[2]),
              u(cv.fallback_grants), u(cv.cycles_at_level[0]), u(cv.cycles_at_level[1]),
              u(cv.cycles_at_level[2]), u(cv.cycles_at_level[3]), u(cv.blocked_at_level[0]),
              u(cv.blocked_at_level[1]), u(cv.blocked_at_level[2]), u(cv.unlimited_high_grants),
              u(cv.windows), u(cv.learned_level[0]), u(cv.learned_level[1]),
              u(cv.learned_level[2]), u(cv.learned_level[3]), u(cv.ignored_pulses),
              u(cv.starved_grants), u(cv.starved_grants_limit1), u(cv.starved_grants_limit_big),
              u(cv.drain_grants_over_compute), u(cv.refused[0]), u(cv.refused[1]),
              u(cv.refused[2]), u(cv.refused[3]), u(cv.back_pressure), u(cv.take_and_replace),
              u(cv.left[0]), u(cv.left[1]), u(cv.lost_in_reset), max_occ,
              u(the_cosim().mismatches()));
  std::printf("registers: %llu reads, %llu writes; refused: %llu address, %llu strobe, %llu "
              "read-only, %llu busy; %llu configuration writes written again after a busy "
              "refusal; %llu phases with bits above the widths; %llu cycles with the interrupt "
              "up\n",
              u(rc.reads), u(rc.writes), u(rc.address_errors), u(rc.strobe_errors),
              u(rc.read_only_errors), u(rc.busy_errors), u(stim.retried_writes()),
              u(stim.junk_phases()), u(rc.intr_cycles));
  EXPECT_EQ(the_cosim().failures(), 0u) << the_cosim().first_failure();
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
  // Reprogrammed both ways; the registers exercised: reads, every kind of
  // refusal, the interrupt line.
  EXPECT_GT(stim.resets(), 1u);
  EXPECT_GT(stim.reprograms(), 0u);
  EXPECT_GT(stim.junk_phases(), 0u);
  EXPECT_GT(stim.retried_writes(), 0u);
  EXPECT_GT(rc.reads, 1000u);
  EXPECT_GT(rc.address_errors, 0u);
  EXPECT_GT(rc.strobe_errors, 0u);
  EXPECT_GT(rc.read_only_errors, 0u);
  EXPECT_GT(rc.busy_errors, 0u);
  EXPECT_GT(rc.intr_cycles, 0u);
}

}  // namespace
}  // namespace t3::tb
