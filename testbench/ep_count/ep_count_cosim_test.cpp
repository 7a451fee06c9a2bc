// ep_count co-simulation tests: the clearing after a reset and the grant's
// priority, adds on one line in consecutive cycles (each answer sees the
// one before: the forwarding), refusals with their interrupts and LAST,
// then constrained-random traffic. Every output of the C++ model is
// compared with the Verilated RTL in every cycle (the binary fails at the
// end if any cycle mismatched), and the scoreboard checks the RTL's outputs,
// the register port's answers and the interrupt included. Run on either
// engine: --engine systemc (default) or --engine direct.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <vector>

#include "cosim_config.h"
#include "directed_bench.h"
#include "ep_count/ep_count_request.h"
#include "ep_count_scoreboard.h"
#include "ep_count_stimulus.h"
#include "random_run.h"
#include "reg_traffic.h"
#include "t3/ep_count_regs.h"
#include "test_cosim.h"

namespace t3::tb {
namespace {

Cosim<EpCountBlock>& the_cosim() { return shared_cosim<EpCountBlock>(); }
const EpCountParams& params() { return the_cosim().params(); }

struct Answer {
  unsigned port;
  EpCountCode code;
  uint32_t count, len;
  bool whole;
};

// The co-simulation with the scoreboard attached; register accesses go
// through the APB port. A granted request is withdrawn; answers are kept.
class Bench : public DirectedBench<Bench, EpCountBlock, EpCountScoreboard> {
 public:
  Bench() : DirectedBench(the_cosim()) {}

  void after(const EpCountInputs&, const EpCountOutputs& o) {
    if (o.rsp_valid)
      answers.push_back({unsigned(__builtin_ctz(o.rsp_valid)), EpCountCode(o.rsp_code), o.rsp_count, o.rsp_len, o.rsp_whole});
    if (o.req_ready) grants.push_back(unsigned(__builtin_ctz(o.req_ready)));
    in().req_valid &= ~o.req_ready;
  }
  void wait_clear() {
    for (uint64_t n = 0; out().clearing; ++n) {
      ASSERT_LE(n, uint64_t(params().count_depth)) << "still clearing after COUNT_DEPTH cycles";
      cycle();
    }
  }
  void ask(unsigned port, const EpCountRequest& r) { ep_count_put(params(), in(), port, r); }
  // Asks on port 0 and runs until the answer.
  Answer one(const EpCountRequest& r) {
    ask(0, r);
    const size_t had = answers.size();
    for (int n = 0; n < 4 && answers.size() == had; ++n) cycle();
    EXPECT_EQ(answers.size(), had + 1) << "no answer two cycles after the request";
    return answers.empty() ? Answer{} : answers.back();
  }

  std::vector<Answer> answers;
  std::vector<unsigned> grants;
};

TEST(EpCountCosim, ClearsForCountDepthCyclesThenGrantsTheLowestPortFirst) {
  Bench b;
  const EpCountParams& p = params();
  for (unsigned i = 0; i < p.ports; ++i) b.ask(i, EpCountRequest{EpCountOp::read, i % p.count_depth, 0, 1, 0, true});
  uint64_t cycles = 0;
  if (p.count_depth > 16) {  // a register read takes cycles: the clearing must outlast it
    EXPECT_EQ(b.read_reg(T3_EP_COUNT_A_STATUS), T3_EP_COUNT_R_STATUS_CLEARING_MASK);
    EXPECT_TRUE(b.grants.empty()) << "granted while clearing";
  }
  // The first cycle not clearing grants port 0, then one port a cycle.
  for (;;) {
    b.cycle();
    if (!b.out().clearing) break;
    ASSERT_TRUE(b.grants.empty()) << "granted while clearing";
    ASSERT_LT(++cycles, p.count_depth + 2u) << "still clearing";
  }
  for (unsigned n = 1; n < p.ports + 1; ++n) b.cycle();
  ASSERT_EQ(b.grants.size(), p.ports);
  for (unsigned i = 0; i < p.ports; ++i) EXPECT_EQ(b.grants[i], i) << "grant " << i;
  EXPECT_EQ(b.read_reg(T3_EP_COUNT_A_STATUS), 0u);
  EXPECT_EQ(b.read_reg(T3_EP_COUNT_A_PARAM_DEPTH), p.count_depth);
}

// Three adds of one line granted in three cycles running: the second and
// third are read while the one before is written (the array gives the old
// word; the answer stage forwards the new).
TEST(EpCountCosim, AddsInConsecutiveCyclesSeeEachOther) {
  Bench b;
  b.wait_clear();
  const EpCountParams& p = params();
  const uint32_t line = p.count_depth - 1, len = p.max_len;
  b.ask(0, EpCountRequest{EpCountOp::add, line, 1, 5, len, true});
  for (int n = 0; n < 3; ++n) {
    b.cycle();
    b.ask(0, EpCountRequest{EpCountOp::add, line, 1, 5, len, true});  // asked again at once
  }
  ep_count_withdraw(b.in(), 0);
  b.cycle();
  ASSERT_EQ(b.answers.size(), 3u);
  for (uint32_t i = 0; i < 3; ++i) {
    EXPECT_EQ(b.answers[i].count, i) << "add " << i;
    EXPECT_EQ(b.answers[i].code, EpCountCode::done);
    EXPECT_EQ(b.answers[i].len, i ? len : 0u);
  }
  const Answer r = b.one(EpCountRequest{EpCountOp::read, line, 0, 3, 0, true});
  EXPECT_EQ(r.count, 3u);
  EXPECT_TRUE(r.whole) << "3 is the read's limit";
  EXPECT_EQ(b.sb().same_line(), 2u);
}

TEST(EpCountCosim, RefusalsRaiseTheirInterruptsAndShowInLast) {
  Bench b;
  b.wait_clear();
  const EpCountParams& p = params();
  ASSERT_TRUE(b.write_reg(T3_EP_COUNT_A_INTR_ENABLE, 3));
  EXPECT_EQ(b.one(EpCountRequest{EpCountOp::add, 0, 1, 2, 1, true}).code, EpCountCode::done);
  const Answer held = b.one(EpCountRequest{EpCountOp::add, 0, 1, 2, 1, false});
  EXPECT_EQ(held.code, EpCountCode::held) << "whole, and the asker has no room";
  EXPECT_FALSE(b.out().intr) << "HELD is no error";
  const Answer whole = b.one(EpCountRequest{EpCountOp::add, 0, 1, 2, 1, true});
  EXPECT_EQ(whole.code, EpCountCode::done);
  EXPECT_TRUE(whole.whole);
  EXPECT_EQ(b.one(EpCountRequest{EpCountOp::add, 0, 1, 2, 1, true}).code, EpCountCode::over);
  b.cycle();
  EXPECT_TRUE(b.out().intr);
  EXPECT_EQ(b.read_reg(T3_EP_COUNT_A_LAST), 1u << T3_EP_COUNT_R_LAST_CODE_SHIFT);
  EXPECT_EQ(b.read_reg(T3_EP_COUNT_A_INTR_STATE), T3_EP_COUNT_R_INTR_STATE_OVER_MASK);
  EXPECT_EQ(b.one(EpCountRequest{EpCountOp::add, 0, 0, 2, 1, true}).code, EpCountCode::bad) << "an add of 0";
  const Answer clr = b.one(EpCountRequest{EpCountOp::clear, 0, 0, 0, 0, true});
  EXPECT_EQ(clr.count, 2u);
  EXPECT_EQ(clr.len, 1u);
  EXPECT_EQ(b.one(EpCountRequest{EpCountOp::read, 0, 0, 0, 0, true}).count, 0u);
  EXPECT_EQ(b.read_reg(T3_EP_COUNT_A_STAT_OVER), 1u);
  EXPECT_EQ(b.read_reg(T3_EP_COUNT_A_STAT_HELD), 1u);
  EXPECT_EQ(b.read_reg(T3_EP_COUNT_A_STAT_BAD), 1u);
  EXPECT_EQ(b.read_reg(T3_EP_COUNT_A_STAT_OPS), 7u & low_mask(p.stat_w));
  EXPECT_EQ(b.read_reg(T3_EP_COUNT_A_INTR_STATE), T3_EP_COUNT_R_INTR_STATE_OVER_MASK | T3_EP_COUNT_R_INTR_STATE_BAD_MASK);
  EXPECT_EQ(b.read_reg(T3_EP_COUNT_A_LAST), 3u << T3_EP_COUNT_R_LAST_CODE_SHIFT);
}

TEST(EpCountCosim, ConstrainedRandom) {
  RandomRun<EpCountBlock, EpCountScoreboard, EpCountStimulus, EpCountRegMap> r(the_cosim(), 0.02);
  r.run();
  auto a = [&](EpCountCode k) { return (unsigned long long)r.sb.answers(k); };
  std::printf("random: %llu cycles (seed %llu): answers %llu DONE, %llu OVER, %llu HELD, %llu BAD; %llu whole; "
              "%llu grants of the line written in that cycle; %llu resets; %llu register reads, %llu writes\n",
              (unsigned long long)r.cycles, (unsigned long long)r.opt.seed, a(EpCountCode::done), a(EpCountCode::over),
              a(EpCountCode::held), a(EpCountCode::bad), (unsigned long long)r.sb.wholes(),
              (unsigned long long)r.sb.same_line(), (unsigned long long)r.sb.resets(),
              (unsigned long long)r.sb.regs().counts().reads, (unsigned long long)r.sb.regs().counts().writes);
  for (EpCountCode k : {EpCountCode::done, EpCountCode::over, EpCountCode::held, EpCountCode::bad})
    EXPECT_GT(r.sb.answers(k), 0u) << "no answer " << name(k);
  EXPECT_GT(r.sb.wholes(), 0u);
  EXPECT_GT(r.sb.same_line(), r.cycles / 1000) << "too few requests met the write before them";
  EXPECT_GT(r.sb.answers(EpCountCode::done), r.cycles / 10) << "the traffic made too few answers to mean anything";
}

}  // namespace
}  // namespace t3::tb
