// ep_tx co-simulation tests: a PUSH whose reads are answered in reverse
// order, a PULL, a copy of several packets, then constrained-random traffic.
// Every output of the C++ model is compared with the Verilated RTL in every
// cycle (the binary fails at the end if any cycle mismatched), and the
// scoreboard checks the RTL's outputs. --engine systemc (default) or direct.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <vector>

#include "common/packet.h"
#include "cosim_config.h"
#include "directed_bench.h"
#include "ep_tx_scoreboard.h"
#include "ep_tx_stimulus.h"
#include "random_run.h"
#include "reg_traffic.h"
#include "t3/ep_tx_regs.h"
#include "tagged_memory.h"
#include "test_cosim.h"

namespace t3::tb {
namespace {

Cosim<EpTxBlock>& the_cosim() { return shared_cosim<EpTxBlock>(); }
const EpTxParams& params() { return the_cosim().params(); }

class Bench : public DirectedBench<Bench, EpTxBlock, EpTxScoreboard> {
 public:
  Bench() : DirectedBench(the_cosim()) {}

  // The reads granted are recorded, the output flits taken kept.
  void after(const EpTxInputs& i, const EpTxOutputs& o) {
    if (o.mr_valid && i.mr_ready) reads.push_back({o.mr_addr, o.mr_tag});
    if (o.req_out_valid && i.req_out_ready) sent.push_back(pkt::unpack(o.req_out_flit));
    if (o.req_out_valid && i.req_out_ready) sent_flits.push_back(o.req_out_flit);
    if (o.pkt_ready) in().pkt_valid = false;
    if (o.cp_done) in().cp_valid = false;
    in().md_valid = false;
  }
  void answer(size_t read) {
    in().md_valid = true;
    in().md_tag = reads.at(read).tag;
    in().md_data = mem_data(reads.at(read).addr, params().flit_w);
    cycle();
  }

  struct Read {
    uint64_t addr;
    uint8_t tag;
  };
  std::vector<Read> reads;
  std::vector<pkt::Header> sent;
  std::vector<Wide> sent_flits;
};

Wide header(pkt::Op op, unsigned len) {
  pkt::Header h;
  h.op = uint8_t(op);
  h.len = uint8_t(len);
  h.src = 3;
  h.dst = 9;
  h.ctr = 5;
  h.addr = 0x123450;
  return pkt::pack(h);
}

TEST(EpTxCosim, APushWaitsForItsDataInOrderOfSlotsNotOfAnswers) {
  Bench b;
  const unsigned len = params().max_len, fb = params().flit_w / 8;
  b.in().pkt_valid = true;
  b.in().pkt_hdr = header(pkt::Op::push, len);
  b.in().pkt_local_addr = 0x1000;
  b.in().mr_ready = true;
  b.in().req_out_ready = true;
  b.cycle();  // taken
  b.cycle();
  EXPECT_FALSE(b.out().pkt_ready) << "a packet is being read";
  for (unsigned i = 0; i < len; ++i) b.cycle();
  ASSERT_EQ(b.reads.size(), len);
  for (unsigned i = 0; i < len; ++i) EXPECT_EQ(b.reads[i].addr, 0x1000u + i * fb);
  ASSERT_EQ(b.sent.size(), 1u) << "the header leaves, the data wait";
  EXPECT_EQ(b.sent[0].op, uint8_t(pkt::Op::push));
  for (size_t r = len; r-- > 0;) b.answer(r);  // the last read answered first
  for (unsigned i = 0; i < len + 2; ++i) b.cycle();
  ASSERT_EQ(b.sent_flits.size(), 1u + len);
  for (unsigned i = 0; i < len; ++i)
    EXPECT_EQ(b.sent_flits[1 + i], mem_data(0x1000 + i * fb, params().flit_w)) << "flit " << i;
  EXPECT_TRUE(b.out().idle);
  EXPECT_EQ(b.read_reg(T3_EP_TX_A_STAT_PUSHES), 1u);
  EXPECT_EQ(b.read_reg(T3_EP_TX_A_STAT_FLITS), 1u + len);
}

TEST(EpTxCosim, APullIsItsHeaderAlone) {
  Bench b;
  b.in().pkt_valid = true;
  b.in().pkt_hdr = header(pkt::Op::pull, params().max_len);
  b.in().req_out_ready = true;
  b.cycle();
  b.cycle();
  EXPECT_TRUE(b.reads.empty());
  ASSERT_EQ(b.sent.size(), 1u);
  EXPECT_EQ(b.sent[0].op, uint8_t(pkt::Op::pull));
  EXPECT_EQ(b.read_reg(T3_EP_TX_A_STAT_PULLS), 1u);
}

TEST(EpTxCosim, ACopyLeavesAsWritePacketsFromThisNode) {
  Bench b;
  const unsigned ml = params().max_len, fb = params().flit_w / 8, flits = 2 * ml + 1;
  ASSERT_TRUE(b.write_reg(T3_EP_TX_A_NODE, 7));
  ASSERT_TRUE(b.write_reg(T3_EP_TX_A_INTR_ENABLE, 1));
  b.in().cp_valid = true;
  b.in().cp_local = 0x2000;
  b.in().cp_net = 0xABC000;
  b.in().cp_flits = flits;
  b.in().cp_dst = 4;
  b.in().mr_ready = true;
  b.in().req_out_ready = true;
  size_t answered = 0;  // every read answered the cycle after it is granted
  for (unsigned n = 0; n < 400 && b.sent.size() < 3 + flits; ++n) {
    if (answered < b.reads.size()) b.answer(answered++);
    else b.cycle();
  }
  ASSERT_EQ(b.sent.size(), 3u + flits);
  unsigned at = 0;
  for (unsigned p = 0; p < 3; ++p) {
    const pkt::Header& h = b.sent[at];
    EXPECT_EQ(h.op, uint8_t(pkt::Op::write));
    EXPECT_EQ(h.src, 7);
    EXPECT_EQ(h.dst, 4);
    EXPECT_EQ(h.len, p < 2 ? ml : 1u);
    EXPECT_EQ(h.addr, 0xABC000u + p * ml * fb);
    at += 1 + h.len;
  }
  EXPECT_FALSE(b.in().cp_valid) << "taken with its last packet";
  EXPECT_TRUE(b.out().intr) << "COPY_DONE";
  EXPECT_EQ(b.read_reg(T3_EP_TX_A_STAT_WRITES), 3u);
}

TEST(EpTxCosim, AStrayAnswerWritesNothingAndIsCounted) {
  Bench b;
  const unsigned len = params().max_len, fb = params().flit_w / 8;
  ASSERT_TRUE(b.write_reg(T3_EP_TX_A_INTR_ENABLE, 2));
  b.in().pkt_valid = true;
  b.in().pkt_hdr = header(pkt::Op::push, len);
  b.in().pkt_local_addr = 0x1000;
  b.in().mr_ready = true;
  b.in().req_out_ready = true;
  for (unsigned i = 0; i < len + 2; ++i) b.cycle();
  ASSERT_EQ(b.reads.size(), len);
  // The header's slot (the slot before the first read's) awaits nothing.
  const uint8_t hdr_slot = uint8_t((b.reads[0].tag + 2 * (1 + len) - 1) % (2 * (1 + len)));
  b.in().md_valid = true;
  b.in().md_tag = hdr_slot;
  b.in().md_data = mem_data(0xDEAD000, params().flit_w);
  b.cycle();
  b.cycle();
  EXPECT_TRUE(b.out().intr) << "STRAY, raised at the stray's edge";
  for (size_t r = 0; r < len; ++r) b.answer(r);
  b.in().md_valid = true;  // an answer a second time: its slot is filled
  b.in().md_tag = b.reads[0].tag;
  b.in().md_data = mem_data(0xBEEF000, params().flit_w);
  b.cycle();
  for (unsigned i = 0; i < len + 2; ++i) b.cycle();
  ASSERT_EQ(b.sent_flits.size(), 1u + len);
  for (unsigned i = 0; i < len; ++i)
    EXPECT_EQ(b.sent_flits[1 + i], mem_data(0x1000 + i * fb, params().flit_w)) << "flit " << i;
  EXPECT_EQ(b.read_reg(T3_EP_TX_A_STAT_STRAYS), 2u);
}

TEST(EpTxCosim, ConstrainedRandom) {
  RandomRun<EpTxBlock, EpTxScoreboard, EpTxStimulus, EpTxRegMap> r(the_cosim(), 0.005);
  r.run();
  std::printf("random: %llu cycles (seed %llu), %llu packets (%llu PUSH, %llu PULL, %llu WRITE), %llu copies, "
              "%llu flits out, %llu answers out of order, %llu strays, queue up to %llu flits\n",
              (unsigned long long)r.cycles, (unsigned long long)r.opt.seed, (unsigned long long)r.sb.packets(),
              (unsigned long long)r.sb.pushes(), (unsigned long long)r.sb.pulls(), (unsigned long long)r.sb.writes(),
              (unsigned long long)r.sb.copies(), (unsigned long long)r.sb.flits_out(),
              (unsigned long long)r.sb.out_of_order(), (unsigned long long)r.sb.strays(),
              (unsigned long long)r.sb.max_queued());
  if (r.cycles >= 100000) {
    EXPECT_GT(r.sb.flits_out(), r.cycles / 10) << "the traffic moved too few flits to mean anything";
    EXPECT_GT(r.sb.copies(), r.cycles / 2000);
    EXPECT_GT(r.sb.out_of_order(), r.cycles / 1000);
    EXPECT_GT(r.sb.strays(), r.cycles / 10000);
    EXPECT_EQ(r.sb.max_queued(), 2 * (1 + params().max_len)) << "the queue never filled";
  }
}

}  // namespace
}  // namespace t3::tb
