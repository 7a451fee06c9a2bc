// ep_rspq co-simulation tests: the home before a pull, a packet leaving in
// slot order whatever order its answers come in, a RESULT's last flit
// waiting for its release, room for 1 + len, strays, overlong reservations
// and releases with no RESULT held, then constrained-random traffic. Every output
// of the C++ model is compared with the Verilated RTL in every cycle (the
// binary fails at the end if any cycle mismatched), and the scoreboard
// checks the RTL's outputs. --engine systemc (default) or direct.
#include <gtest/gtest.h>

#include <cstdio>
#include <vector>

#include "cosim_config.h"
#include "directed_bench.h"
#include "ep_rspq_scoreboard.h"
#include "ep_rspq_stimulus.h"
#include "random_run.h"
#include "reg_traffic.h"
#include "t3/ep_rspq_regs.h"
#include "tagged_memory.h"
#include "test_cosim.h"

namespace t3::tb {
namespace {

Cosim<EpRspqBlock>& the_cosim() { return shared_cosim<EpRspqBlock>(); }
const EpRspqParams& params() { return the_cosim().params(); }

// The flits sent kept; a reservation offered stays until taken.
class Bench : public DirectedBench<Bench, EpRspqBlock, EpRspqScoreboard> {
 public:
  Bench() : DirectedBench(the_cosim()) {}

  void after(const EpRspqInputs& i, const EpRspqOutputs& o) {
    if (o.rsp_out_valid && i.rsp_out_ready) sent.push_back(o.rsp_out_flit);
    if (i.hrq_valid && o.hrq_ready) {
      home_slot = o.hrq_slot;
      in().hrq_valid = false;
    }
    if (i.prq_valid && o.prq_ready) {
      pull_slot = o.prq_slot;
      in().prq_valid = false;
    }
    in().hmd_valid = in().pmd_valid = false;
    in().hrel = false;
  }
  // An answer to slot `slot` (modulo SLOTS), or to tag `slot` as it is
  // when raw, on the home's port (else the pull's), in the next cycle.
  void put(bool home, unsigned slot, const Wide& d, bool raw = false) {
    (home ? in().hmd_valid : in().pmd_valid) = true;
    (home ? in().hmd_tag : in().pmd_tag) = uint8_t(raw ? slot : slot % params().slots);
    (home ? in().hmd_data : in().pmd_data) = d;
  }
  void answer(bool home, unsigned slot, const Wide& d, bool raw = false) {
    put(home, slot, d, raw);
    cycle();
  }
  void release() {
    in().hrel = true;
    cycle();
  }

  std::vector<Wide> sent;
  unsigned home_slot = ~0u, pull_slot = ~0u;
};

Wide flit(uint64_t n) { return mem_data(n, params().flit_w); }

TEST(EpRspqCosim, TheHomeIsGrantedBeforeAPull) {
  Bench b;
  b.in().hrq_valid = b.in().prq_valid = true;
  b.in().hrq_hdr = flit(1);
  b.in().hrq_len = 1;
  b.in().prq_hdr = flit(2);
  b.in().prq_len = 0;
  b.cycle();
  EXPECT_TRUE(b.out().hrq_ready);
  EXPECT_FALSE(b.out().prq_ready) << "the pull waits while the home asks";
  b.in().rsp_out_ready = true;
  b.answer(true, b.home_slot, flit(3));
  b.release();  // the RESULT's counter cleared: its last flit may leave
  for (unsigned n = 0; n < 8 && b.in().prq_valid; ++n) b.cycle();  // granted once there is room
  EXPECT_FALSE(b.in().prq_valid) << "the pull was never granted";
  b.run(4);
  ASSERT_EQ(b.sent.size(), 3u);
  EXPECT_EQ(b.sent[0], flit(1));
  EXPECT_EQ(b.sent[1], flit(3));
  EXPECT_EQ(b.sent[2], flit(2));
  EXPECT_EQ(b.read_reg(T3_EP_RSPQ_A_STAT_RESULTS), 1u);
  EXPECT_EQ(b.read_reg(T3_EP_RSPQ_A_STAT_PULL_RSPS), 1u);
  EXPECT_EQ(b.read_reg(T3_EP_RSPQ_A_STAT_FLITS), 3u);
}

TEST(EpRspqCosim, APacketLeavesInSlotOrderWhateverOrderItsAnswersCome) {
  Bench b;
  const unsigned len = params().max_len;
  b.in().prq_valid = true;
  b.in().prq_hdr = flit(10);
  b.in().prq_len = len;
  b.in().rsp_out_ready = true;
  b.cycle();
  b.run(2);
  ASSERT_EQ(b.sent.size(), 1u) << "the header leaves, its data wait";
  for (unsigned i = len; i-- > 0;) b.answer(false, b.pull_slot + i, flit(20 + i));  // the last first
  b.run(len + 2);
  ASSERT_EQ(b.sent.size(), 1u + len);
  for (unsigned i = 0; i < len; ++i) EXPECT_EQ(b.sent[1 + i], flit(20 + i)) << "data flit " << i;
  EXPECT_TRUE(b.out().idle);
}

TEST(EpRspqCosim, AReservationWaitsForRoomForItsWholePacket) {
  Bench b;
  const unsigned slots = params().slots, len = params().max_len;
  // Packets of MAX_LEN data flits until no other fits; nothing leaves.
  unsigned queued = 0;
  while (slots - queued >= 1 + len) {
    b.in().hrq_valid = true;
    b.in().hrq_hdr = flit(queued);
    b.in().hrq_len = len;
    b.cycle();
    ASSERT_TRUE(b.out().hrq_ready);
    queued += 1 + len;
  }
  b.in().prq_valid = true;
  b.in().prq_hdr = flit(99);
  b.in().prq_len = slots - queued;  // one slot more than is free (at most MAX_LEN)
  b.run(3);
  EXPECT_FALSE(b.out().prq_ready);
  b.in().rsp_out_ready = true;  // the first header leaves: room
  b.cycle();
  b.cycle();
  EXPECT_TRUE(b.out().prq_ready);
}

TEST(EpRspqCosim, AResultsLastFlitWaitsForItsRelease) {
  Bench b;
  const unsigned len = params().max_len;
  b.in().hrq_valid = true;
  b.in().hrq_hdr = flit(1);
  b.in().hrq_len = len;
  b.in().rsp_out_ready = true;
  b.cycle();
  b.release();  // before the data are back: kept until the last flit is
  for (unsigned i = 0; i < len; ++i) b.answer(true, b.home_slot + i, flit(40 + i));
  b.run(len + 2);
  ASSERT_EQ(b.sent.size(), 1u + len) << "released before it was there: it leaves when it is";
  b.in().hrq_valid = true;  // a second RESULT, not released
  b.in().hrq_hdr = flit(2);
  b.cycle();
  for (unsigned i = 0; i < len; ++i) b.answer(true, b.home_slot + i, flit(50 + i));
  b.run(len + 4);
  ASSERT_EQ(b.sent.size(), 2u + 2 * len - 1) << "all but its last flit";
  EXPECT_FALSE(b.out().rsp_out_valid);
  EXPECT_FALSE(b.out().idle);
  b.release();
  b.cycle();
  ASSERT_EQ(b.sent.size(), 2u + 2 * len);
  EXPECT_EQ(b.sent.back(), flit(50 + len - 1));
  b.cycle();
  EXPECT_TRUE(b.out().idle);
}

TEST(EpRspqCosim, StraysOverlongReservationsAndReleasesWithNoResultAreCounted) {
  Bench b;
  const unsigned len = params().max_len, slots = params().slots;
  ASSERT_TRUE(b.write_reg(T3_EP_RSPQ_A_INTR_ENABLE, 3));
  b.in().prq_valid = true;
  b.in().prq_hdr = flit(1);
  b.in().prq_len = len;
  b.cycle();
  unsigned strays = 1;
  b.answer(false, b.pull_slot + slots - 1, flit(66));  // the header's slot: awaits nothing
  if ((1u << params().slot_w()) > slots) {
    b.answer(true, slots, flit(67), true);  // a tag past the last slot
    ++strays;
  }
  b.put(true, b.pull_slot, flit(40));  // both ports answer one slot: the home's port fills it
  b.put(false, b.pull_slot, flit(68));
  b.cycle();
  ++strays;
  for (unsigned i = 1; i < len; ++i) b.answer(false, b.pull_slot + i, flit(40 + i));
  b.answer(false, b.pull_slot, flit(69));  // a second answer: its slot is filled
  ++strays;
  unsigned bad = 1;
  b.release();  // no RESULT held
  if ((1u << params().len_w()) - 1 > len) {
    b.in().hrq_valid = true;  // more than MAX_LEN data slots: never granted, counted once
    b.in().hrq_hdr = flit(2);
    b.in().hrq_len = len + 1;
    b.run(3);
    EXPECT_FALSE(b.out().hrq_ready);
    b.in().hrq_valid = false;
    ++bad;
  }
  b.in().rsp_out_ready = true;
  b.run(len + 3);
  ASSERT_EQ(b.sent.size(), 1u + len);
  for (unsigned i = 0; i < len; ++i) EXPECT_EQ(b.sent[1 + i], flit(40 + i)) << "data flit " << i;
  EXPECT_TRUE(b.out().intr);
  EXPECT_EQ(b.read_reg(T3_EP_RSPQ_A_STAT_STRAYS), strays);
  EXPECT_EQ(b.read_reg(T3_EP_RSPQ_A_STAT_BAD), bad);
}

TEST(EpRspqCosim, ConstrainedRandom) {
  RandomRun<EpRspqBlock, EpRspqScoreboard, EpRspqStimulus, EpRspqRegMap> r(the_cosim(), 0.005);
  r.run();
  const auto& n = r.sb.counts();
  std::printf("random: %llu cycles (seed %llu), %llu RESULTs, %llu PULL_RSPs, %llu flits out, %llu overlong, "
              "%llu releases with no RESULT, %llu strays; %llu answers out of order, %llu cycles with two, "
              "%llu bubbles, %llu cycles a last flit waited for its release, %llu the home waited while the "
              "pull would fit, %llu for room; queue up to %llu flits\n",
              (unsigned long long)r.cycles, (unsigned long long)r.opt.seed, (unsigned long long)n.results,
              (unsigned long long)n.pull_rsps, (unsigned long long)n.flits, (unsigned long long)n.bad,
              (unsigned long long)n.rel_strays, (unsigned long long)n.strays, (unsigned long long)n.out_of_order,
              (unsigned long long)n.two_answers, (unsigned long long)n.bubbles, (unsigned long long)n.held_waits,
              (unsigned long long)n.home_blocks, (unsigned long long)n.full_waits, (unsigned long long)n.max_queued);
  if (r.cycles >= 100000) {
    EXPECT_GT(n.flits, r.cycles / 20) << "the traffic moved too few flits to mean anything";
    EXPECT_GT(n.results, r.cycles / 100);
    EXPECT_GT(n.pull_rsps, r.cycles / 100);
    EXPECT_GT(n.strays, r.cycles / 1000);
    EXPECT_GT(n.home_blocks, r.cycles / 100000);
    EXPECT_GT(n.held_waits, r.cycles / 1000);
    if (params().slots >= 4) {  // two packets with data in the queue at once
      EXPECT_GT(n.two_answers, r.cycles / 5000);
    }
    EXPECT_GT(n.rel_strays, r.cycles / 100000);
    EXPECT_GT(n.full_waits, r.cycles / 100);
    EXPECT_GT(n.bubbles, r.cycles / 1000);
    if (params().max_len > 1) {
      EXPECT_GT(n.out_of_order, r.cycles / 1000);
    }
    if ((1u << params().len_w()) - 1 > params().max_len) {
      EXPECT_GT(n.bad, r.cycles / 100000);
    }
    EXPECT_EQ(n.max_queued, params().slots) << "the queue never filled";
  }
}

}  // namespace
}  // namespace t3::tb
