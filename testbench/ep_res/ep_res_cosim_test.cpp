// ep_res co-simulation tests: a RESULT given the counter whose request
// covers it, the engines' order, a range ended by its completion; then
// constrained-random traffic. Every output of the C++ model is compared
// with the Verilated RTL in every cycle (the binary fails at the end if any
// cycle mismatched), and the scoreboard checks the RTL's outputs.
// --engine systemc (default) or direct.
#include <gtest/gtest.h>

#include <cstdio>

#include "common/packet.h"
#include "cosim_config.h"
#include "directed_bench.h"
#include "ep_res_scoreboard.h"
#include "ep_res_stimulus.h"
#include "random_run.h"
#include "reg_traffic.h"
#include "t3/ep_res_regs.h"
#include "test_cosim.h"

namespace t3::tb {
namespace {

Cosim<EpResBlock>& the_cosim() { return shared_cosim<EpResBlock>(); }
const EpResParams& params() { return the_cosim().params(); }

class Bench : public DirectedBench<Bench, EpResBlock, EpResScoreboard> {
 public:
  Bench() : DirectedBench(the_cosim()) { in().desc_ready = in().res_ready = true; }
  void after(const EpResInputs&, const EpResOutputs& o) {
    if (o.res_valid && in().res_ready) sent.push_back(pkt::unpack(o.res_hdr));
    if (o.rx_ready) in().rx_valid = false;
    if (o.home_ready) in().home_valid = false;
    if (o.fin_ready) in().fin_valid = false;
    in().desc_valid = in().cpl_wr = false;
  }
  // Counter c sent a packet of len flits at addr.
  void descriptor(unsigned c, uint64_t addr, unsigned len) {
    pkt::Header d;
    d.op = uint8_t(pkt::Op::push);
    d.ctr = uint8_t(c);
    d.len = uint8_t(len);
    d.addr = addr;
    in().desc_valid = true;
    in().desc_hdr = pkt::pack(d);
    cycle();
  }
  static Wide header(pkt::Op op, uint64_t addr, uint8_t ctr) {
    pkt::Header h;
    h.op = uint8_t(op);
    h.len = 1;
    h.ctr = ctr;
    h.addr = addr;
    return pkt::pack(h);
  }
  std::vector<pkt::Header> sent;
};

TEST(EpResCosim, AResultGetsTheCounterWhoseRequestCoversIt) {
  Bench b;
  const unsigned fb = params().flit_w / 8, last = params().ctrs - 1;
  b.descriptor(last, 0x10000, 4);
  b.descriptor(last, 0x10000 + 4 * fb, 4);  // the range grows: 8 flits
  b.in().rx_valid = true;
  b.in().rx_hdr = Bench::header(pkt::Op::result, 0x10000 + 7 * fb, 0x55);
  b.cycle();
  b.in().home_valid = true;
  b.in().home_hdr = Bench::header(pkt::Op::result, 0x10000 + 8 * fb, 0x55);  // just past it
  b.cycle();
  b.in().fin_valid = true;
  b.in().fin_hdr = Bench::header(pkt::Op::pull_rsp, 0x10000, 3);  // carries its own
  b.cycle();
  ASSERT_EQ(b.sent.size(), 3u);
  EXPECT_EQ(b.sent[0].ctr, last);
  EXPECT_EQ(b.sent[1].ctr, 0xFF) << "no range holds it";
  EXPECT_EQ(b.sent[2].ctr, 3u);
  EXPECT_EQ(b.read_reg(T3_EP_RES_A_STAT_UNMATCHED), 1u);
  EXPECT_EQ(b.read_reg(last < 32 ? T3_EP_RES_A_LIVE_LO : T3_EP_RES_A_LIVE_HI), 1u << (last % 32));
}

TEST(EpResCosim, TheResponseReceiverGoesFirstAndACompletionEndsARange) {
  Bench b;
  b.descriptor(0, 0x2000, 2);
  b.in().rx_valid = b.in().home_valid = b.in().fin_valid = true;
  b.in().rx_hdr = Bench::header(pkt::Op::result, 0x2000, 0);
  b.in().home_hdr = Bench::header(pkt::Op::result, 0x2000, 0);
  b.in().fin_hdr = Bench::header(pkt::Op::pull_rsp, 0x2000, 7);
  b.in().res_ready = false;
  b.cycle();
  EXPECT_FALSE(b.out().rx_ready || b.out().home_ready || b.out().fin_ready) << "nothing while res_ready is low";
  b.in().res_ready = true;
  b.cycle();
  EXPECT_TRUE(b.out().rx_ready);
  b.in().cpl_wr = true;  // counter 0's request completes (OK) with the home's RESULT still waiting
  b.in().cpl_status = 0;
  b.in().cpl_ctr = 0;
  b.cycle();
  EXPECT_TRUE(b.out().home_ready);
  b.cycle();
  EXPECT_TRUE(b.out().fin_ready);
  ASSERT_EQ(b.sent.size(), 3u);
  EXPECT_EQ(b.sent[0].ctr, 0u);
  EXPECT_EQ(b.sent[1].ctr, 0u) << "matched in its cycle, before the completion's edge";
  EXPECT_EQ(b.read_reg(T3_EP_RES_A_LIVE_LO), 0u);
}

TEST(EpResCosim, ConstrainedRandom) {
  RandomRun<EpResBlock, EpResScoreboard, EpResStimulus, EpResRegMap> r(the_cosim(), 0.005);
  r.run();
  const auto& n = r.sb.counts();
  std::printf("random: %llu cycles (seed %llu), %llu + %llu + %llu headers (rx, home, final), %llu RESULTs "
              "matched, %llu unmatched, %llu in two ranges, %llu waits, %llu descriptors joined a range, %llu "
              "ranges ended\n",
              (unsigned long long)r.cycles, (unsigned long long)r.opt.seed, (unsigned long long)n.from[0],
              (unsigned long long)n.from[1], (unsigned long long)n.from[2], (unsigned long long)n.matched,
              (unsigned long long)n.unmatched, (unsigned long long)n.not_lowest, (unsigned long long)n.waits,
              (unsigned long long)n.joined, (unsigned long long)n.ended);
  if (r.cycles >= 100000) {
    for (unsigned s = 0; s < 3; ++s) EXPECT_GT(n.from[s], r.cycles / 100) << "source " << s;
    EXPECT_GT(n.matched, r.cycles / 100);
    EXPECT_GT(n.unmatched, r.cycles / 1000);
    EXPECT_GT(n.waits, r.cycles / 100);
    EXPECT_GT(n.joined, r.cycles / 100);
    EXPECT_GT(n.ended, r.cycles / 1000);
    if (params().ctrs > 1) {
      EXPECT_GT(n.not_lowest, r.cycles / 1000);
    }
  }
}

}  // namespace
}  // namespace t3::tb
