// Unit tests of the MCA arbiter core cycle model (no SystemC, no RTL), and
// of the register reset values it starts from in the block.
#include <gtest/gtest.h>

#include <iterator>
#include <stdexcept>
#include <string>

#include "mca_arbiter/mca_arbiter.h"
#include "mca_arbiter/mca_arbiter_core.h"
#include "mca_arbiter/mca_arbiter_regs.h"

namespace t3 {
namespace {

McaArbiterConfig fixed(McaPolicy policy, unsigned sel = kMcaUnlimited, uint32_t starve = 0) {
  McaArbiterConfig c;
  c.policy = uint32_t(policy);
  c.thr_auto = false;
  c.thr_sel = sel;
  c.starve_limit = starve;
  c.learn_log2 = 2;
  return c;
}

// An arbiter with its inputs, stepped one clock at a time.
struct Harness {
  explicit Harness(const McaArbiterConfig& cfg, const McaArbiterParams& p = McaArbiterParams{})
      : a(p) {
    in.cfg = cfg;
    in.rst_n = false;
    a.clock(in);
    in.rst_n = true;
    in.out_ready = true;
  }
  // Presents the requests given (nullptr: none) for one cycle; returns the
  // outputs seen in that cycle.
  McaArbiterCoreOutputs step(const uint64_t* cmp, const uint64_t* com, uint32_t occ = 0) {
    in.cmp_valid = cmp != nullptr;
    in.cmp_data = cmp ? *cmp : 0;
    in.com_valid = com != nullptr;
    in.com_data = com ? *com : 0;
    in.occupancy = occ;
    const McaArbiterCoreOutputs o = a.eval(in);
    a.clock(in);
    return o;
  }
  // Both streams valid for one cycle: 'c', 'm' or '-' for who got the grant.
  char both(uint32_t occ = 0) {
    const uint64_t c = 0xC, m = 0xD;
    const McaArbiterCoreOutputs o = step(&c, &m, occ);
    return o.cmp_ready ? 'c' : o.com_ready ? 'm' : '-';
  }
  char only_com(uint32_t occ) {
    const uint64_t m = 0xD;
    const McaArbiterCoreOutputs o = step(nullptr, &m, occ);
    return o.com_ready ? 'm' : '-';
  }
  McaArbiterCoreOutputs peek() const { return a.eval(in); }

  McaArbiterCore a;
  McaArbiterCoreInputs in;
};

std::string message(const McaArbiterParams& p) {
  try {
    p.validate();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no error";
}

TEST(McaArbiterParams, DefaultsAndDerivedWidths) {
  McaArbiterParams p;
  EXPECT_NO_THROW(p.validate());
  EXPECT_EQ(p.occ_w, 6u);  // thresholds of T3 §6.1.3 (5, 10, 30) fit
  EXPECT_EQ(p.log2_w(), 4u);  // log2 0..12
  p.learn_w = 0;
  EXPECT_EQ(p.log2_w(), 1u) << "a pin has at least one bit";
  p.learn_w = 1;
  EXPECT_EQ(p.log2_w(), 1u);
  p.learn_w = 24;
  EXPECT_EQ(p.log2_w(), 5u);
}

TEST(McaArbiterParams, BadValuesNameTheParameterAndRange) {
  McaArbiterParams p;
  p.data_w = 65;
  EXPECT_NE(message(p).find("data_w (DATA_W) = 65 is out of range; allowed: 1..64"),
            std::string::npos) << message(p);
  p = McaArbiterParams{};
  p.occ_w = 0;
  EXPECT_NE(message(p).find("occ_w (OCC_W) = 0 is out of range; allowed: 1..16"), std::string::npos);
  p = McaArbiterParams{};
  p.learn_w = 25;
  EXPECT_NE(message(p).find("learn_w (LEARN_W) = 25 is out of range; allowed: 0..24"),
            std::string::npos);
  EXPECT_THROW(McaArbiterCore{p}, std::invalid_argument);
  p = McaArbiterParams{};
  p.cnt_w = 33;
  EXPECT_NE(message(p).find("cnt_w (CNT_W) = 33"), std::string::npos);
  p = McaArbiterParams{};
  p.stat_w = 0;
  EXPECT_NE(message(p).find("stat_w (STAT_W) = 0"), std::string::npos);
}

TEST(McaArbiterParams, TheListIsTheOneSource) {
  const auto& table = McaArbiterParams::table();
  ASSERT_EQ(table.size(), 5u);
  EXPECT_STREQ(table[0].rtl_name, "DATA_W");
  EXPECT_STREQ(table[4].rtl_name, "STAT_W");
  const auto p = params_from_string<McaArbiterParams>("DATA_W=8,OCC_W=3,LEARN_W=0");
  EXPECT_EQ(p.data_w, 8u);
  EXPECT_EQ(p.learn_w, 0u);
  EXPECT_EQ(params_to_string(p), "DATA_W=8,OCC_W=3,CNT_W=16,LEARN_W=0,STAT_W=32");
}

// The hardware's rule (cfg_error_o) has one definition, fault(); check()
// reports the same causes by name.
TEST(McaArbiterConfig, FaultIsTheOneRuleAndCheckNamesEachCause) {
  const McaArbiterParams p;  // OCC_W 6, LEARN_W 12 (log2 pin of 4 bits)
  struct Case {
    const char* what;
    McaArbiterConfig cfg;
    McaFault fault;
    const char* message;
  };
  auto with = [](auto edit) {
    McaArbiterConfig c;
    edit(c);
    return c;
  };
  const Case cases[] = {
      {"defaults", McaArbiterConfig{}, McaFault::none, nullptr},
      {"policy 3", with([](auto& c) { c.policy = 3; }), McaFault::policy_reserved,
       "policy = 3 is out of range; allowed: 0 (round robin)"},
      {"policy 2", with([](auto& c) { c.policy = 2; }), McaFault::none, nullptr},
      {"level0 0", with([](auto& c) { c.level[0] = 0; }), McaFault::level_zero,
       "level[0] = 0 is out of range; allowed: 1..63"},
      {"level2 0", with([](auto& c) { c.level[2] = 0; }), McaFault::level_zero, "level[2] = 0"},
      {"level2 1", with([](auto& c) { c.level[2] = 1; }), McaFault::none, nullptr},
      {"auto, bound0 < bound1",
       with([](auto& c) { c.bound[0] = 9; c.bound[1] = 10; }), McaFault::bounds_not_descending,
       "bounds 9, 10, 3 are not descending"},
      {"auto, bound1 < bound2",
       with([](auto& c) { c.bound[1] = 2; }), McaFault::bounds_not_descending, "not descending"},
      {"auto, bounds equal", with([](auto& c) { c.bound[0] = c.bound[1] = c.bound[2] = 7; }),
       McaFault::none, nullptr},
      {"fixed, bounds not descending",
       with([](auto& c) { c.thr_auto = false; c.bound[0] = 0; c.bound[2] = 63; }), McaFault::none,
       nullptr},
      {"learn_log2 13", with([](auto& c) { c.learn_log2 = 13; }), McaFault::learn_log2_too_big,
       "learn_log2 = 13 is out of range; allowed: 0..12 (LEARN_W = 12)"},
      {"learn_log2 12", with([](auto& c) { c.learn_log2 = 12; }), McaFault::none, nullptr},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    EXPECT_EQ(c.cfg.fault(p), c.fault);
    const auto msg = c.cfg.check(p);
    EXPECT_EQ(msg.has_value(), c.message != nullptr) << msg.value_or("");
    if (msg && c.message) {
      EXPECT_NE(msg->find(c.message), std::string::npos) << *msg;
    }
  }
  // Fields wider than their pins: the hardware sees their low bits (a level
  // of 64 is a level of 0 on a 6-bit pin); the driver-side check names them.
  McaArbiterConfig wide;
  wide.level[1] = 64;
  EXPECT_EQ(wide.fault(p), McaFault::level_zero);
  EXPECT_NE(wide.check(p)->find("level[1] = 64 is out of range; allowed: 1..63 (OCC_W = 6)"),
            std::string::npos) << *wide.check(p);
  wide = McaArbiterConfig{};
  wide.starve_limit = 70000;
  EXPECT_NE(wide.check(p)->find("starve_limit = 70000 is out of range; allowed: 0..65535"),
            std::string::npos);
}

// The cycle table "A short run" in docs/blocks/mca_arbiter.md, cycle by cycle:
// MCA, threshold level 0 = 5 in force, starvation limit 3.
TEST(McaArbiter, AShortRunAsDocumented) {
  Harness h(fixed(McaPolicy::mca, 0, 3));
  struct Row {
    int cmp, com;  // the request's number (C<n> = 0xC<n>, D<n> = 0xD<n>), -1: none
    uint32_t occ;
    bool drain, out_ready;
    bool want_cmp_ready, want_com_ready, want_starved;
    int out;  // request in the output register in this cycle (0xC<n> / 0xD<n>), -1: empty
  };
  const Row rows[] = {
      {0, 0, 4, false, true, true, false, false, -1},       // 0: compute first
      {1, 0, 4, false, true, true, false, false, 0xC0},     // 1: C0 leaves, C1 replaces it
      {-1, 0, 5, false, true, false, false, false, 0xC1},   // 2: occupancy 5 = threshold: D0 waits
      {2, 0, 5, false, true, false, true, true, -1},        // 3: D0 waited 3 cycles: starvation wins
      {2, 1, 6, false, false, false, false, false, 0xD0},   // 4: queue full: the slot holds
      {2, 1, 6, false, true, true, false, false, 0xD0},     // 5: D0 leaves, C2 replaces it
      {-1, 1, 4, false, true, false, true, false, 0xC2},    // 6: 4 < 5: communication goes
      {3, 2, 6, true, true, false, true, false, 0xD1},      // 7: drain: communication first
      {3, -1, 6, false, true, true, false, false, 0xD2},    // 8
      {-1, -1, 6, false, true, false, false, false, 0xC3},  // 9
      {-1, -1, 6, false, true, false, false, false, -1},    // 10
  };
  for (int c = 0; c < int(std::size(rows)); ++c) {
    const Row& r = rows[c];
    h.in.cmp_valid = r.cmp >= 0;
    h.in.cmp_data = r.cmp >= 0 ? 0xC0 + r.cmp : 0;
    h.in.com_valid = r.com >= 0;
    h.in.com_data = r.com >= 0 ? 0xD0 + r.com : 0;
    h.in.occupancy = r.occ;
    h.in.drain = r.drain;
    h.in.out_ready = r.out_ready;
    const McaArbiterCoreOutputs o = h.a.eval(h.in);
    EXPECT_EQ(o.cmp_ready, r.want_cmp_ready) << "cycle " << c;
    EXPECT_EQ(o.com_ready, r.want_com_ready) << "cycle " << c;
    EXPECT_EQ(o.starved, r.want_starved) << "cycle " << c;
    EXPECT_EQ(o.out_valid, r.out >= 0) << "cycle " << c;
    if (r.out >= 0) {
      EXPECT_EQ(o.out_data, uint64_t(r.out)) << "cycle " << c;
      EXPECT_EQ(o.out_src, (r.out >> 4) == 0xD) << "cycle " << c;
    }
    EXPECT_EQ(o.thr_sel, 0u);
    EXPECT_EQ(o.thr, 5u);
    h.a.clock(h.in);
  }
  const McaArbiterCoreOutputs o = h.peek();
  EXPECT_EQ(o.stat_grants_cmp, 4u);
  EXPECT_EQ(o.stat_grants_com, 3u);
  EXPECT_EQ(o.stat_wait_cmp, 3u);  // C2 in cycles 3 and 4, C3 in cycle 7
  EXPECT_EQ(o.stat_wait_com, 5u);  // D0 in cycles 0-2, D1 in cycles 4-5
  EXPECT_EQ(o.stat_starved, 1u);
}

TEST(McaArbiter, RoundRobinAlternatesAndFallsBack) {
  Harness h(fixed(McaPolicy::round_robin));
  EXPECT_EQ(h.both(), 'c');  // compute's turn after reset
  EXPECT_EQ(h.both(), 'm');
  EXPECT_EQ(h.both(), 'c');
  EXPECT_EQ(h.only_com(63), 'm') << "no threshold in round robin; fall-back on compute's turn";
  EXPECT_EQ(h.both(), 'c') << "communication went last: compute's turn";
  const uint64_t c = 1;
  EXPECT_TRUE(h.step(&c, nullptr).cmp_ready) << "falls back to compute on communication's turn";
  EXPECT_EQ(h.both(), 'm');
}

TEST(McaArbiter, ComputeFirstHasNoThresholdAndNoStarvationLimit) {
  Harness h(fixed(McaPolicy::compute_first, 0, 1));  // level 0 and limit 1 must not matter
  for (int i = 0; i < 10; ++i) EXPECT_EQ(h.both(63), 'c');
  EXPECT_EQ(h.peek().stat_starved, 0u);
  EXPECT_EQ(h.only_com(63), 'm');
}

TEST(McaArbiter, EachThresholdLevelBlocksAtItsValue) {
  for (unsigned sel = 0; sel < 3; ++sel) {
    SCOPED_TRACE(sel);
    Harness h(fixed(McaPolicy::mca, sel));
    const uint32_t thr = McaArbiterConfig{}.level[sel];
    EXPECT_EQ(h.peek().thr_sel, sel);
    EXPECT_EQ(h.peek().thr, thr);
    EXPECT_EQ(h.only_com(thr - 1), 'm');
    EXPECT_EQ(h.only_com(thr), '-');
    EXPECT_EQ(h.only_com(63), '-');
    EXPECT_EQ(h.both(0), 'c') << "compute first, whatever the occupancy";
  }
  Harness h(fixed(McaPolicy::mca, kMcaUnlimited));
  EXPECT_EQ(h.peek().thr, 63u);
  EXPECT_EQ(h.only_com(63), 'm') << "no limit even at the largest occupancy";
}

TEST(McaArbiter, StarvationLimitZeroOneAndLarger) {
  {
    Harness h(fixed(McaPolicy::mca, kMcaUnlimited, 0));
    for (int i = 0; i < 1000; ++i) ASSERT_EQ(h.both(), 'c') << "limit 0 disables it";
  }
  {
    Harness h(fixed(McaPolicy::mca, kMcaUnlimited, 1));
    EXPECT_EQ(h.both(), 'c');
    EXPECT_EQ(h.both(), 'm');  // waited 1 cycle
    EXPECT_EQ(h.both(), 'c');
    EXPECT_EQ(h.both(), 'm');
    EXPECT_EQ(h.peek().stat_starved, 2u);
  }
  {
    Harness h(fixed(McaPolicy::mca, 0, 7));
    for (int round = 0; round < 3; ++round) {
      for (int i = 0; i < 7; ++i) EXPECT_EQ(h.both(), 'c');
      EXPECT_EQ(h.both(63), 'm') << "above the threshold too";
    }
    EXPECT_EQ(h.peek().stat_starved, 3u);
    // Waiting counts valid cycles only; an idle communication stream does not starve.
    for (int i = 0; i < 5; ++i) EXPECT_EQ(h.both(), 'c');
    const uint64_t c = 1;
    for (int i = 0; i < 20; ++i) h.step(&c, nullptr);
    EXPECT_EQ(h.both(), 'c');
    EXPECT_EQ(h.both(), 'c');
    EXPECT_EQ(h.both(), 'm');  // 7th waited cycle
  }
  {
    // CNT_W 2: the counter saturates at 3 and the largest limit still works.
    McaArbiterParams p;
    p.cnt_w = 2;
    Harness h(fixed(McaPolicy::mca, kMcaUnlimited, 3), p);
    for (int i = 0; i < 3; ++i) EXPECT_EQ(h.both(), 'c');
    EXPECT_EQ(h.both(), 'm');
    h.in.cfg.starve_limit = 0;
    for (int i = 0; i < 10; ++i) EXPECT_EQ(h.both(), 'c');  // the counter sits at 3
    h.in.cfg.starve_limit = 3;
    EXPECT_EQ(h.both(), 'm');
  }
}

TEST(McaArbiter, DrainPutsCommunicationFirstUnderEveryPolicy) {
  for (auto pol : {McaPolicy::round_robin, McaPolicy::compute_first, McaPolicy::mca}) {
    SCOPED_TRACE(int(pol));
    Harness h(fixed(pol, 0));
    h.in.drain = true;
    for (int i = 0; i < 4; ++i) EXPECT_EQ(h.both(63), 'm') << "no threshold while draining";
    EXPECT_EQ(h.peek().stat_starved, 0u);
    const uint64_t c = 1;
    EXPECT_TRUE(h.step(&c, nullptr).cmp_ready) << "compute still goes when nothing to drain";
  }
  McaArbiterConfig bad = fixed(McaPolicy::mca);
  bad.policy = 3;
  Harness h(bad);
  h.in.drain = true;
  EXPECT_EQ(h.both(), 'm') << "and in the round-robin fall-back";
}

TEST(McaArbiter, RefusedConfigurationRunsRoundRobin) {
  McaArbiterConfig c = fixed(McaPolicy::mca, 0, 1);
  c.level[1] = 0;
  Harness h(c);
  EXPECT_TRUE(h.peek().cfg_error);
  EXPECT_EQ(h.peek().thr_sel, kMcaUnlimited);
  EXPECT_EQ(h.peek().thr, 63u);
  EXPECT_EQ(h.both(63), 'c');
  EXPECT_EQ(h.both(63), 'm');
  EXPECT_EQ(h.both(63), 'c');
  EXPECT_EQ(h.peek().stat_starved, 0u);
  h.in.cfg.level[1] = 10;
  EXPECT_FALSE(h.peek().cfg_error);
  // MCA again, limit 1: communication waited in the last round-robin cycle.
  EXPECT_EQ(h.both(63), 'm');
  EXPECT_EQ(h.both(63), 'c');
  EXPECT_EQ(h.both(63), 'm');
  EXPECT_EQ(h.peek().stat_starved, 2u);
}

TEST(McaArbiter, TakeAndReplaceAndBackPressure) {
  Harness h(fixed(McaPolicy::compute_first));
  for (uint64_t i = 0; i < 5; ++i) {
    const McaArbiterCoreOutputs o = h.step(&i, nullptr);
    EXPECT_TRUE(o.cmp_ready) << "one request per cycle";
    EXPECT_EQ(o.out_valid, i > 0);
    if (i > 0) {
      EXPECT_EQ(o.out_data, i - 1);
    }
  }
  h.in.out_ready = false;
  const uint64_t c = 99, m = 77;
  for (int i = 0; i < 4; ++i) {
    const McaArbiterCoreOutputs o = h.step(&c, &m);
    EXPECT_FALSE(o.cmp_ready || o.com_ready);
    EXPECT_TRUE(o.out_valid);
    EXPECT_EQ(o.out_data, 4u) << "held while out_ready is low";
  }
  h.in.out_ready = true;
  EXPECT_TRUE(h.step(&c, &m).cmp_ready);
  EXPECT_EQ(h.peek().out_data, 99u);
  EXPECT_EQ(h.peek().stat_wait_cmp, 4u);
  EXPECT_EQ(h.peek().stat_wait_com, 5u);
}

// Window timing: learn_busy_o is high in exactly the 2^log2 cycles after the
// pulse, whose occupancy is summed; the average appears in the cycle after.
TEST(McaArbiter, LearningWindowTimingAndAverage) {
  McaArbiterConfig c = fixed(McaPolicy::mca, 1);
  c.thr_auto = true;
  c.learn_log2 = 2;
  Harness h(c);
  h.in.learn = true;
  EXPECT_FALSE(h.step(nullptr, nullptr, 60).learn_busy);  // the pulse's cycle is not summed
  h.in.learn = false;
  const uint32_t occ[] = {20, 21, 22, 24};  // sum 87, average 21 (floor)
  for (uint32_t o : occ) {
    h.in.learn = o == 22;  // a pulse inside a window is ignored
    const McaArbiterCoreOutputs out = h.step(nullptr, nullptr, o);
    EXPECT_TRUE(out.learn_busy);
    EXPECT_EQ(out.thr_sel, 1u) << "cfg_thr_sel_i until a window completes";
  }
  h.in.learn = false;
  const McaArbiterCoreOutputs o = h.step(nullptr, nullptr, 0);
  EXPECT_FALSE(o.learn_busy);
  EXPECT_EQ(o.learn_avg, 21u);
  EXPECT_EQ(o.thr_sel, 0u) << "21 >= bound0 20: memory-intensive, the smallest threshold";
  EXPECT_EQ(o.thr, 5u);
  EXPECT_FALSE(h.peek().learn_busy) << "the pulse in the window did not start another";
  h.in.cfg.thr_auto = false;
  EXPECT_EQ(h.peek().thr_sel, 1u) << "fixed mode ignores what was learned";
}

TEST(McaArbiter, AutoLearningPicksEachLevel) {
  // Default bounds 20, 10, 3: averages 20 -> 0, 19 -> 1, 10 -> 1, 9 -> 2, 3 -> 2, 2 -> 3.
  const struct {
    uint32_t occ;
    unsigned level;
  } cases[] = {{63, 0}, {20, 0}, {19, 1}, {10, 1}, {9, 2}, {3, 2}, {2, kMcaUnlimited}, {0, kMcaUnlimited}};
  McaArbiterConfig c = fixed(McaPolicy::mca, 0);
  c.thr_auto = true;
  c.learn_log2 = 0;  // a window of one cycle
  Harness h(c);
  for (const auto& k : cases) {
    SCOPED_TRACE(k.occ);
    h.in.learn = true;
    h.step(nullptr, nullptr, 0);
    h.in.learn = false;
    EXPECT_TRUE(h.step(nullptr, nullptr, k.occ).learn_busy);
    const McaArbiterCoreOutputs o = h.peek();
    EXPECT_EQ(o.learn_avg, k.occ);
    EXPECT_EQ(o.thr_sel, k.level);
    EXPECT_EQ(o.thr, k.level == kMcaUnlimited ? 63u : c.level[k.level]);
  }
  // The mapping is programmable: the same average under other bounds.
  h.in.cfg.bound[0] = h.in.cfg.bound[1] = h.in.cfg.bound[2] = 1;
  EXPECT_EQ(h.peek().thr_sel, kMcaUnlimited) << "average 0 < bound2 1";
  h.in.cfg.bound[2] = 0;
  EXPECT_EQ(h.peek().thr_sel, 2u);
}

TEST(McaArbiter, LearningIgnoresPulsesOfARefusedConfigurationAndLatchesItsLength) {
  McaArbiterConfig c = fixed(McaPolicy::mca, 0);
  c.thr_auto = true;
  c.learn_log2 = 13;  // > LEARN_W 12: refused
  Harness h(c);
  h.in.learn = true;
  h.step(nullptr, nullptr, 30);
  h.in.learn = false;
  EXPECT_FALSE(h.peek().learn_busy);
  h.in.cfg.learn_log2 = 1;
  h.in.learn = true;
  h.step(nullptr, nullptr, 30);
  h.in.learn = false;
  h.in.cfg.learn_log2 = 3;  // changed mid-window: the window keeps its 2 cycles
  EXPECT_TRUE(h.step(nullptr, nullptr, 30).learn_busy);
  EXPECT_TRUE(h.step(nullptr, nullptr, 32).learn_busy);
  EXPECT_FALSE(h.peek().learn_busy);
  EXPECT_EQ(h.peek().learn_avg, 31u);
}

TEST(McaArbiter, LearningWindowOfTheLargestLength) {
  McaArbiterParams p;
  p.learn_w = 3;
  McaArbiterConfig c = fixed(McaPolicy::mca, 0);
  c.learn_log2 = 3;
  Harness h(c, p);
  h.in.learn = true;
  h.step(nullptr, nullptr, 0);
  h.in.learn = false;
  for (int i = 0; i < 8; ++i) EXPECT_TRUE(h.step(nullptr, nullptr, 63).learn_busy);
  EXPECT_FALSE(h.peek().learn_busy);
  EXPECT_EQ(h.peek().learn_avg, 63u) << "the sum of 8 x 63 fits, the average is exact";
}

TEST(McaArbiter, InputsAreTruncatedToTheirPortWidths) {
  McaArbiterParams p;
  p.data_w = 8;
  p.occ_w = 3;
  McaArbiterConfig c = fixed(McaPolicy::mca, 0);
  c.level[0] = 4 + 8;  // 4 on a 3-bit pin
  c.level[1] = 2;
  c.level[2] = 6;
  Harness h(c, p);
  EXPECT_FALSE(h.peek().cfg_error);
  EXPECT_EQ(h.peek().thr, 4u);
  EXPECT_EQ(h.only_com(3 + 8), 'm') << "occupancy 3 on a 3-bit pin";
  const uint64_t big = 0x1234;
  h.step(&big, nullptr);
  EXPECT_EQ(h.peek().out_data, 0x34u);
}

TEST(McaArbiter, StatusCountersWrapAtStatW) {
  McaArbiterParams p;
  p.stat_w = 2;
  Harness h(fixed(McaPolicy::compute_first), p);
  for (int i = 0; i < 5; ++i) h.both();
  EXPECT_EQ(h.peek().stat_grants_cmp, 1u);
  EXPECT_EQ(h.peek().stat_wait_com, 1u);
}

TEST(McaArbiter, ResetEmptiesTheSlotAndGrantsNothingWhileHeld) {
  McaArbiterConfig c = fixed(McaPolicy::mca, 2);
  c.thr_auto = true;
  c.learn_log2 = 0;
  Harness h(c);
  h.in.out_ready = false;
  h.in.learn = true;
  const uint64_t x = 5;
  h.step(&x, &x, 40);
  h.step(&x, &x, 40);  // learned 40: level 0
  EXPECT_TRUE(h.peek().out_valid);
  EXPECT_EQ(h.peek().thr_sel, 0u);
  h.in.rst_n = false;
  h.in.out_ready = true;
  const McaArbiterCoreOutputs during = h.step(&x, &x, 0);
  EXPECT_FALSE(during.cmp_ready || during.com_ready) << "no grant while reset is held";
  EXPECT_TRUE(during.out_valid) << "registers change at the edge";
  h.in.rst_n = true;
  const McaArbiterCoreOutputs o = h.peek();
  EXPECT_FALSE(o.out_valid);
  EXPECT_FALSE(o.learn_busy);
  EXPECT_EQ(o.learn_avg, 0u);
  EXPECT_EQ(o.thr_sel, 2u) << "cfg_thr_sel_i again: nothing learned since reset";
  EXPECT_EQ(o.stat_grants_cmp + o.stat_grants_com + o.stat_wait_cmp + o.stat_wait_com, 0u);
}

// starved_o: high in exactly the cycles whose grant the starvation rule
// decided (the cycles stat_starved_o counts, the STARVED interrupt's events):
// not for an ordinary communication grant, not for a drain grant of a
// starved stream, not under compute first, not while reset is held.
TEST(McaArbiter, StarvedOutputMarksEachStarvationGrant) {
  Harness h(fixed(McaPolicy::mca, 0, 2));
  const uint64_t c = 0xC, m = 0xD;
  uint32_t starved_cycles = 0;
  auto cycle = [&](const uint64_t* cmp, const uint64_t* com, uint32_t occ) {
    const McaArbiterCoreOutputs o = h.step(cmp, com, occ);
    starved_cycles += o.starved;
    return o;
  };
  EXPECT_FALSE(cycle(nullptr, &m, 0).starved) << "under the threshold: not starvation";
  EXPECT_FALSE(cycle(&c, &m, 63).starved);
  EXPECT_FALSE(cycle(&c, &m, 63).starved);  // waited 2
  McaArbiterCoreOutputs o = cycle(&c, &m, 63);
  EXPECT_TRUE(o.com_ready && o.starved) << "the limit decides";
  EXPECT_FALSE(cycle(&c, &m, 63).starved);
  EXPECT_FALSE(cycle(&c, &m, 63).starved);  // waited 2 again
  h.in.drain = true;
  o = cycle(&c, &m, 63);
  EXPECT_TRUE(o.com_ready);
  EXPECT_FALSE(o.starved) << "the drain's grant, though the limit was reached too";
  h.in.drain = false;
  // Back-pressure: the limit is reached but the slot is busy; the grant
  // comes, and is marked, in the cycle the slot frees.
  cycle(&c, &m, 63);
  cycle(&c, &m, 63);
  h.in.out_ready = false;
  EXPECT_FALSE(cycle(&c, &m, 63).starved) << "no grant into a busy slot";
  h.in.out_ready = true;
  EXPECT_TRUE(cycle(&c, &m, 63).starved);
  EXPECT_EQ(h.peek().stat_starved, starved_cycles);
  EXPECT_EQ(starved_cycles, 2u);
  // While reset is held nothing is granted, so nothing is starved.
  cycle(&c, &m, 63);
  cycle(&c, &m, 63);
  h.in.rst_n = false;
  EXPECT_FALSE(cycle(&c, &m, 63).starved);
  h.in.rst_n = true;
  // Compute first has no starvation rule, whatever the limit.
  Harness cf(fixed(McaPolicy::compute_first, 0, 1));
  for (int i = 0; i < 5; ++i) {
    const McaArbiterCoreOutputs co = cf.step(&c, &m, 63);
    EXPECT_TRUE(co.cmp_ready);
    EXPECT_FALSE(co.starved);
  }
}

// step() is eval() then clock() on one decision: the same outputs and the
// same next state as the two calls, over a mix of policies and events.
TEST(McaArbiter, StepIsEvalThenClock) {
  McaArbiterCore a{McaArbiterParams{}}, b{McaArbiterParams{}};
  McaArbiterCoreInputs in;
  in.cfg = fixed(McaPolicy::mca, 1, 3);
  uint64_t x = 0x9E3779B97F4A7C15ull;
  for (int i = 0; i < 2000; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    in.rst_n = i > 0 && (x & 0x3ff) != 1;
    in.cmp_valid = x & 2;
    in.com_valid = x & 4;
    in.out_ready = (x & 0x18) != 0;
    in.drain = (x & 0x7e0) == 0x20;
    in.learn = (x & 0x1f800) == 0x800;
    in.occupancy = uint32_t(x >> 20) & 63;
    in.cmp_data = x >> 1;
    in.com_data = x >> 2;
    if (i % 500 == 250) in.cfg.policy = (in.cfg.policy + 1) % 4;
    if (i % 500 == 400) in.cfg.thr_auto = !in.cfg.thr_auto;
    const McaArbiterCoreOutputs want = a.eval(in);
    a.clock(in);
    const McaArbiterCoreOutputs got = b.step(in);
    ASSERT_EQ(got.cmp_ready, want.cmp_ready) << i;
    ASSERT_EQ(got.com_ready, want.com_ready) << i;
    ASSERT_EQ(got.starved, want.starved) << i;
    ASSERT_EQ(got.cfg_error, want.cfg_error) << i;
    ASSERT_EQ(got.thr_sel, want.thr_sel) << i;
    ASSERT_EQ(got.out_data, want.out_data) << i;
    const McaArbiterCoreOutputs na = a.eval(in), nb = b.eval(in);
    ASSERT_EQ(na.stat_grants_cmp + na.stat_grants_com + na.stat_starved + na.learn_avg,
              nb.stat_grants_cmp + nb.stat_grants_com + nb.stat_starved + nb.learn_avg) << i;
    ASSERT_EQ(na.learn_busy, nb.learn_busy) << i;
  }
}

// The registers reset to McaArbiterConfig's documented defaults
// (hw/mca_arbiter/mca_arbiter.yaml), so a block out of reset runs T3-MCA
// with the learned threshold, no limit until a window completes.
TEST(McaArbiterBlock, RegisterResetValuesAreTheConfigurationDefaults) {
  RegFile rf(McaArbiterRegMap::kInfo, McaArbiterRegMap::kCount);
  McaArbiterCoreInputs ci;
  McaArbiterGlue::configure(McaArbiterParams{}, McaArbiterRegs::reg2hw(rf), ci);
  const McaArbiterConfig got = ci.cfg;
  const McaArbiterConfig want;
  EXPECT_EQ(got.policy, want.policy);
  EXPECT_EQ(got.thr_auto, want.thr_auto);
  EXPECT_EQ(got.thr_sel, want.thr_sel);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(got.level[i], want.level[i]) << i;
    EXPECT_EQ(got.bound[i], want.bound[i]) << i;
  }
  EXPECT_EQ(got.learn_log2, want.learn_log2);
  EXPECT_EQ(got.starve_limit, want.starve_limit);
  EXPECT_EQ(got.fault(McaArbiterParams{}), McaFault::none);

  // The block out of reset, read through its register port: STATUS shows
  // no error and no limit in force; a grant goes as T3-MCA gives it.
  McaArbiter blk{McaArbiterParams{}};
  McaArbiterInputs in;
  in.rst_n = false;
  blk.clock(in);
  in.rst_n = true;
  in.apb.psel = in.apb.penable = true;
  in.apb.paddr = McaArbiterRegMap::kInfo[unsigned(McaArbiterReg::status)].offset;
  const McaArbiterOutputs o = blk.eval(in);
  EXPECT_FALSE(o.apb.pslverr);
  EXPECT_EQ(o.apb.prdata, 3u << 4 | 63u << 16) << "THR_SEL 3, THR all ones at OCC_W 6";
  EXPECT_EQ(o.thr_sel, kMcaUnlimited);
  in.apb = ApbRequest{};
  in.cmp_valid = in.com_valid = true;
  in.out_ready = true;
  in.occupancy = 63;
  EXPECT_TRUE(blk.eval(in).cmp_ready) << "compute first";
}

}  // namespace
}  // namespace t3
