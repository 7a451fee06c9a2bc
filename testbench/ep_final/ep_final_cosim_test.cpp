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

#include "apb_access.h"
#include "common/packet.h"
#include "cosim_config.h"
#include "ep_final_scoreboard.h"
#include "ep_final_stimulus.h"
#include "reg_traffic.h"
#include "t3/ep_final_regs.h"
#include "tagged_memory.h"
#include "test_cosim.h"

namespace t3::tb {
namespace {

Cosim<EpFinalBlock>& the_cosim() { return shared_cosim<EpFinalBlock>(); }
const EpFinalParams& params() { return the_cosim().params(); }

class Bench : public ApbAccess<Bench> {
  friend class ApbAccess<Bench>;

 public:
  Bench() : c_(the_cosim()), sb_(params()) {
    c_.in() = EpFinalInputs{};
    EXPECT_TRUE(c_.reset(2)) << c_.first_mismatch();
    c_.in().rst_n = true;
  }
  EpFinalInputs& in() { return c_.in(); }
  const EpFinalOutputs& out() const { return c_.out(); }

  void cycle() {
    apb_.drive(c_.in().apb, c_.in().rst_n);
    const EpFinalInputs i = c_.in();
    EXPECT_TRUE(c_.cycle()) << c_.first_mismatch();
    if (auto err = sb_.observe(i, c_.out())) ADD_FAILURE() << "cycle " << c_.cycles() - 1 << ": " << *err;
    const EpFinalOutputs& o = c_.out();
    if (o.mr_valid && i.mr_ready) reads.push_back({o.mr_addr, o.mr_tag});
    if (o.mw_valid && i.mw_ready) adds.push_back({o.mw_addr, 0});
    if (o.res_valid && i.res_ready) results.push_back(o.res_hdr);
    if (o.fin_ready) c_.in().fin_valid = false;
    c_.in().md_valid = false;
    if (auto d = apb_.after(i.apb, c_.out().apb)) apb_completed(*d);
  }
  void apb_idle_cycle() { cycle(); }
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

 private:
  Cosim<EpFinalBlock>& c_;
  EpFinalScoreboard sb_;
  ApbMaster apb_;
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
  const RunOptions& opt = test_options();
  const uint64_t cycles = opt.cycles ? opt.cycles : T3_RANDOM_CYCLES;
  std::mt19937_64 rng(opt.seed);
  Cosim<EpFinalBlock>& c = the_cosim();
  c.in() = EpFinalInputs{};
  EXPECT_TRUE(c.reset(2)) << c.first_mismatch();
  EpFinalScoreboard sb(params());
  EpFinalStimulus stim(params(), rng());
  RegTraffic<EpFinalRegMap> regs(rng(), 0.02);
  for (uint64_t n = 0; n < cycles && !testing::Test::HasFailure(); ++n) {
    stim.drive(c.in());
    regs.maybe_queue(stim.apb(), sb.regs());
    const EpFinalInputs in = c.in();
    EXPECT_TRUE(c.cycle()) << c.first_mismatch();
    if (auto err = sb.observe(in, c.out())) ADD_FAILURE() << "cycle " << n << ": " << *err;
    stim.after(in, c.out());
  }
  std::printf("random: %llu cycles (seed %llu): %llu lines, %llu answers before an earlier flit's, %llu stray "
              "answers; %llu register reads, %llu writes\n",
              (unsigned long long)cycles, (unsigned long long)opt.seed, (unsigned long long)sb.lines(),
              (unsigned long long)sb.out_of_order(), (unsigned long long)sb.strays(),
              (unsigned long long)sb.regs().counts().reads, (unsigned long long)sb.regs().counts().writes);
  EXPECT_EQ(c.failures(), 0u) << c.first_failure();
  EXPECT_GT(sb.lines(), cycles / 100);
  EXPECT_GT(sb.strays(), 0u);
  if (params().max_len > 1) {
    EXPECT_GT(sb.out_of_order(), 0u) << "no answer came before an earlier flit's";
  }
}

}  // namespace
}  // namespace t3::tb
