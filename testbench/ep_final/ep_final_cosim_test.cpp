// ep_final co-simulation tests: a line whose reads are answered last first
// (the adds still go in flit order), a stray answer, then constrained-random
// traffic. Every output of the C++ model is compared with the Verilated RTL
// in every cycle (the binary fails at the end if any cycle mismatched), and
// the scoreboard checks the RTL's outputs. --engine systemc (default) or
// direct.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <vector>

#include "common/packet.h"
#include "cosim_config.h"
#include "directed_bench.h"
#include "ep_final_scoreboard.h"
#include "ep_final_stimulus.h"
#include "random_run.h"
#include "reg_traffic.h"
#include "t3/ep_final_regs.h"
#include "tagged_memory.h"
#include "test_cosim.h"

namespace t3::tb {
namespace {

Cosim<EpFinalBlock>& the_cosim() { return shared_cosim<EpFinalBlock>(); }
const EpFinalParams& params() { return the_cosim().params(); }

class Bench : public DirectedBench<Bench, EpFinalBlock, EpFinalScoreboard> {
 public:
  Bench() : DirectedBench(the_cosim()) {}

  void after(const EpFinalInputs& i, const EpFinalOutputs& o) {
    if (o.mr_valid && i.mr_ready) reads.push_back({o.mr_addr, o.mr_tag});
    if (o.mw_valid && i.mw_ready) adds.push_back({o.mw_addr, 0});
    if (o.res_valid && i.res_ready) results.push_back(o.res_hdr);
    if (o.fin_ready) in().fin_valid = false;
    in().md_valid = false;
  }
  void answer(size_t r) {
    in().md_valid = true;
    in().md_tag = reads.at(r).tag;
    in().md_data = mem_data(reads.at(r).addr, params().flit_w);
    cycle();
  }

  struct Access {
    uint64_t addr;
    uint8_t tag;
  };
  std::vector<Access> reads, adds;
  std::vector<Wide> results;
};

pkt::Header a_line(unsigned len) {
  pkt::Header h;
  h.op = uint8_t(pkt::Op::pull_rsp);
  h.len = uint8_t(len);
  h.dtype = 1;
  h.count = 2;
  h.ctr = 7;
  h.addr = 0x8000;
  return h;
}

TEST(EpFinalCosim, AnswersLastFirstAreAddedInFlitOrder) {
  Bench b;
  const unsigned len = params().max_len;
  const uint64_t fb = params().flit_bytes();
  b.in().fin_valid = true;
  b.in().fin_src = 0x1000;
  b.in().fin_dst = 0x2000;
  b.in().fin_hdr = pkt::pack(a_line(len));
  b.in().mr_ready = b.in().mw_ready = b.in().res_ready = true;
  for (unsigned n = 0; n < len + 2; ++n) b.cycle();
  ASSERT_EQ(b.reads.size(), len);
  for (unsigned i = 0; i < len; ++i) {
    EXPECT_EQ(b.reads[i].addr, 0x1000 + i * fb);
    EXPECT_EQ(b.reads[i].tag, i);
  }
  for (size_t r = len; r-- > 0;) b.answer(r);
  for (unsigned n = 0; n < len + 2; ++n) b.cycle();
  ASSERT_EQ(b.adds.size(), len);
  for (unsigned i = 0; i < len; ++i) EXPECT_EQ(b.adds[i].addr, 0x2000 + i * fb) << "add " << i;
  ASSERT_EQ(b.results.size(), 1u);
  EXPECT_EQ(pkt::unpack(b.results[0]), a_line(len));
  EXPECT_TRUE(b.out().idle);
  EXPECT_EQ(b.read_reg(T3_EP_FINAL_A_STAT_LINES), 1u);
  EXPECT_EQ(b.read_reg(T3_EP_FINAL_A_STAT_FLITS), len & low_mask(params().stat_w));
}

TEST(EpFinalCosim, AStrayAnswerIsCountedAndRaised) {
  Bench b;
  ASSERT_TRUE(b.write_reg(T3_EP_FINAL_A_INTR_ENABLE, T3_EP_FINAL_R_INTR_STATE_STRAY_MASK));
  b.in().md_valid = true;  // no line: no read waits on it
  b.in().md_tag = 0;
  b.cycle();
  b.cycle();
  EXPECT_TRUE(b.out().intr);
  EXPECT_EQ(b.read_reg(T3_EP_FINAL_A_STAT_STRAY), 1u);
}

TEST(EpFinalCosim, ConstrainedRandom) {
  RandomRun<EpFinalBlock, EpFinalScoreboard, EpFinalStimulus, EpFinalRegMap> r(the_cosim(), 0.02);
  r.run();
  std::printf("random: %llu cycles (seed %llu): %llu lines, %llu answers before an earlier flit's, %llu stray "
              "answers; %llu register reads, %llu writes\n",
              (unsigned long long)r.cycles, (unsigned long long)r.opt.seed, (unsigned long long)r.sb.lines(),
              (unsigned long long)r.sb.out_of_order(), (unsigned long long)r.sb.strays(),
              (unsigned long long)r.sb.regs().counts().reads, (unsigned long long)r.sb.regs().counts().writes);
  EXPECT_GT(r.sb.lines(), r.cycles / 100);
  EXPECT_GT(r.sb.strays(), 0u);
  if (params().max_len > 1) {
    EXPECT_GT(r.sb.out_of_order(), 0u) << "no answer came before an earlier flit's";
  }
}

}  // namespace
}  // namespace t3::tb
