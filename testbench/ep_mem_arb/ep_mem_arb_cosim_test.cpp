// ep_mem_arb co-simulation tests: the first MEM_OPS ports that ask granted
// in port order; answers routed by tag, a clash and a stray counted; then
// constrained-random traffic. Every output of the C++ model is compared
// with the Verilated RTL in every cycle (the binary fails at the end if any
// cycle mismatched), and the scoreboard checks the RTL's outputs.
// --engine systemc (default) or direct.
#include <gtest/gtest.h>

#include <cstdio>

#include "cosim_config.h"
#include "directed_bench.h"
#include "ep_mem_arb_scoreboard.h"
#include "ep_mem_arb_stimulus.h"
#include "random_run.h"
#include "reg_traffic.h"
#include "t3/ep_mem_arb_regs.h"
#include "test_cosim.h"

namespace t3::tb {
namespace {

Cosim<EpMemArbBlock>& the_cosim() { return shared_cosim<EpMemArbBlock>(); }
const EpMemArbParams& params() { return the_cosim().params(); }

class Bench : public DirectedBench<Bench, EpMemArbBlock, EpMemArbScoreboard> {
 public:
  Bench() : DirectedBench(the_cosim()) {}
  // Port i asks to read address 0x100 x i with tag i.
  void ask(unsigned i) {
    in().rq_valid |= 1u << i;
    in().rq_addr.set_bits(48 * i, 48, 0x100 * i);
    in().rq_tag.set_bits(params().tag_w * i, params().tag_w, i & low_mask(params().tag_w));
  }
  // An answer on lane k for port `port`, tag `tag`.
  void answer(unsigned k, unsigned port, unsigned tag) {
    const unsigned lw = params().ltag_w(), tw = params().tag_w;
    in().ans_valid |= 1u << k;
    in().ans_tag.set_bits(lw * k, lw, uint64_t{port} << tw | tag);
    in().ans_data.set_bits(params().flit_w * k, 64, 0xA000 + k);
  }
};

TEST(EpMemArbCosim, TheFirstPortsThatAskAreGrantedInPortOrder) {
  Bench b;
  const unsigned ports = params().ports, ops = params().mem_ops;
  for (unsigned i = 0; i < ports; ++i) b.ask(i);
  b.cycle();
  for (unsigned k = 0; k < ops; ++k) {
    EXPECT_TRUE(b.out().mem_valid >> k & 1) << "lane " << k;
    EXPECT_EQ(b.out().mem_tag.bits(params().ltag_w() * k, params().ltag_w()) >> params().tag_w, k) << "lane " << k;
    EXPECT_EQ(b.out().mem_addr.bits(48 * k, 48), 0x100u * k) << "lane " << k;
  }
  EXPECT_EQ(b.out().rq_ready, (1u << ops) - 1);
  b.in().rq_valid &= ~b.out().rq_ready;  // the rest ask again
  b.cycle();
  EXPECT_EQ(b.out().mem_tag.bits(0, params().ltag_w()) >> params().tag_w, ops) << "lane 0: the next port";
  b.in().rq_valid = 0;
  b.cycle();
  EXPECT_EQ(b.read_reg(T3_EP_MEM_ARB_A_STAT_READS), std::min(ports, 2 * ops));
  EXPECT_EQ(b.read_reg(T3_EP_MEM_ARB_A_STAT_WAITS), (ports - ops) + (ports > 2 * ops ? ports - 2 * ops : 0));
}

TEST(EpMemArbCosim, AnswersGoToThePortTheirTagNamesAndLostOnesAreCounted) {
  Bench b;
  ASSERT_TRUE(b.write_reg(T3_EP_MEM_ARB_A_INTR_ENABLE, 1));
  const unsigned ops = params().mem_ops, last = params().ports - 1;
  b.answer(0, last, 1);
  b.cycle();
  EXPECT_EQ(b.out().md_valid, 1u << last);
  EXPECT_EQ(b.out().md_tag.bits(params().tag_w * last, params().tag_w), 1u);
  EXPECT_EQ(b.out().md_data.bits(params().flit_w * last, 64), 0xA000u);
  b.in().ans_valid = 0;
  unsigned lost = 0;
  if (ops > 1) {
    b.answer(0, 0, 0);
    b.answer(1, 0, 1);  // the same port a second time: a clash, lane 0's answer goes
    b.cycle();
    EXPECT_EQ(b.out().md_valid, 1u);
    EXPECT_EQ(b.out().md_data.bits(0, 64), 0xA000u);
    ++lost;
    b.in().ans_valid = 0;
  }
  if ((1u << params().port_w()) > params().ports) {
    b.answer(0, params().ports, 0);  // no such port: a stray
    b.cycle();
    EXPECT_EQ(b.out().md_valid, 0u);
    ++lost;
    b.in().ans_valid = 0;
  }
  b.cycle();
  EXPECT_EQ(b.out().intr, lost > 0);
  EXPECT_EQ(b.read_reg(T3_EP_MEM_ARB_A_STAT_CLASHES) + b.read_reg(T3_EP_MEM_ARB_A_STAT_STRAYS), lost);
}

TEST(EpMemArbCosim, ConstrainedRandom) {
  RandomRun<EpMemArbBlock, EpMemArbScoreboard, EpMemArbStimulus, EpMemArbRegMap> r(the_cosim(), 0.005);
  r.run();
  const auto& n = r.sb.counts();
  std::printf("random: %llu cycles (seed %llu), %llu reads, %llu writes, %llu adds, %llu waits, %llu cycles every "
              "lane granted, %llu grants of the last port, %llu answers, %llu clashes, %llu strays\n",
              (unsigned long long)r.cycles, (unsigned long long)r.opt.seed, (unsigned long long)n.reads,
              (unsigned long long)n.writes, (unsigned long long)n.adds, (unsigned long long)n.waits,
              (unsigned long long)n.full_cycles, (unsigned long long)n.last_port_granted,
              (unsigned long long)n.answers, (unsigned long long)n.clashes, (unsigned long long)n.strays);
  if (r.cycles >= 100000) {
    EXPECT_GT(n.reads, r.cycles / 20);
    EXPECT_GT(n.writes, r.cycles / 100);
    EXPECT_GT(n.adds, r.cycles / 100);
    EXPECT_GT(n.waits, r.cycles / 100);
    EXPECT_GT(n.full_cycles, r.cycles / 100);
    EXPECT_GT(n.last_port_granted, r.cycles / 1000);
    EXPECT_GT(n.answers, n.reads / 2);
    if (params().mem_ops > 1) {
      EXPECT_GT(n.clashes, r.cycles / 10000);
    }
    if ((1u << params().port_w()) > params().ports) {
      EXPECT_GT(n.strays, r.cycles / 10000);
    }
  }
}

}  // namespace
}  // namespace t3::tb
