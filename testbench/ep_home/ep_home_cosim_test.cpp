// ep_home co-simulation tests: a line from ep_rx sent (its RESULT and slots
// reserved, the merge area read into them, the answers taken last first and
// copied to dst in order, the counter cleared, the header handed on); a
// full queue's overflow found by the sweep, which skips the line being
// merged; a stray answer ignored, counted and raised; then
// constrained-random traffic. Every output of the C++ model is compared with
// the Verilated RTL in every cycle (the binary fails at the end if any cycle
// mismatched), and the scoreboard checks the RTL's outputs. --engine systemc
// (default) or direct.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <vector>

#include "common/packet.h"
#include "cosim_config.h"
#include "directed_bench.h"
#include "ep_home_scoreboard.h"
#include "ep_home_stimulus.h"
#include "random_run.h"
#include "reg_traffic.h"
#include "t3/ep_home_regs.h"
#include "test_cosim.h"

namespace t3::tb {
namespace {

Cosim<EpHomeBlock>& the_cosim() { return shared_cosim<EpHomeBlock>(); }
const EpHomeParams& params() { return the_cosim().params(); }

struct Read {
  uint64_t addr;
  uint8_t tag;
};

// The co-simulation with the scoreboard attached. Reads are collected; the
// test answers them (answer()) in the order it likes. The counter port is
// answered in the cycle after the grant with count/len.
class Bench : public DirectedBench<Bench, EpHomeBlock, EpHomeScoreboard> {
 public:
  Bench() : DirectedBench(the_cosim()) {
    in().cnt_ready = in().rq_ready = in().mr_ready = in().mw_ready = in().res_ready = true;
    in().node = 7;
  }

  void window(unsigned i, const EpWin& w) { pack_window(in().tbl, i, w); }
  // ep_rx's pulse in the next cycle.
  void pulse(uint32_t line, uint32_t len) {
    in().home = true;
    in().home_line = line;
    in().home_len = len;
    cycle();
    in().home = false;
    in().home_line = in().home_len = 0;
  }
  // The answer to reads[i] in the next cycle.
  void answer(const Read& r) {
    in().md_valid = true;
    in().md_tag = r.tag;
    in().md_data = mem_data(r.addr, params().flit_w);
    cycle();
    in().md_valid = false;
    in().md_tag = 0;
    in().md_data = Wide{};
  }

  void before() {
    if (auto_answer && answered_ < reads.size()) {
      in().md_valid = true;
      in().md_tag = reads[answered_].tag;
      in().md_data = mem_data(reads[answered_].addr, params().flit_w);
      ++answered_;
    }
  }
  void after(const EpHomeInputs& i, const EpHomeOutputs& o) {
    if (o.rq_valid && i.rq_ready) reserved.push_back(o);
    if (o.mr_valid && i.mr_ready) reads.push_back({o.mr_addr, o.mr_tag});
    if (o.mw_valid && i.mw_ready) writes.push_back(o);
    if (o.cnt_valid && i.cnt_ready) asks.push_back(o);
    if (o.res_valid && i.res_ready) results.push_back(o.res_hdr);
    if (auto_answer) {
      in().md_valid = false;
      in().md_tag = 0;
      in().md_data = Wide{};
    }
    in().cnt_rsp_valid = o.cnt_valid && i.cnt_ready;
    in().cnt_rsp_count = answer_count;
    in().cnt_rsp_len = answer_len;
  }

  uint8_t answer_count = 0;
  uint32_t answer_len = 1;
  bool auto_answer = false;  // every read answered, in order, from the cycle after it
  std::vector<EpHomeOutputs> reserved, writes, asks;
  std::vector<Read> reads;
  std::vector<Wide> results;

 private:
  size_t answered_ = 0;
};

EpWin a_window() {
  EpWin w;
  w.valid = w.home = true;
  w.dtype = 2;
  w.expected = 3;
  w.count_base = 1;
  w.net_base = 0x10000;
  w.bytes = 2 * params().flit_bytes();
  w.src = 0x1000;
  w.dst = 0x2000;
  w.merge = 0x3000;
  return w;
}

// The home queue filled (its first line held: the response queue not
// ready) by lines for counter 1, then n lines for counter 2 gone to
// pending.
void overflow(Bench& b, unsigned n) {
  b.window(0, a_window());
  b.in().rq_ready = false;
  b.pulse(1, 1);
  for (unsigned k = 0; k < params().home_q; ++k) b.pulse(1, 1);
  for (unsigned k = 0; k < n; ++k) b.pulse(2, 1);
}

TEST(EpHomeCosim, ALineIsSentAsAResultAndCopiedToDst) {
  Bench b;
  b.window(0, a_window());
  const unsigned len = std::min(3u, params().max_len);
  const uint64_t fb = params().flit_bytes();
  b.in().rq_slot = params().slots - 1;  // the tags wrap after the first
  b.pulse(2, len);                      // line 2: flit 1 of the window
  b.run(4 + len);
  ASSERT_EQ(b.reserved.size(), 1u);
  const pkt::Header r = pkt::unpack(b.reserved[0].rq_hdr);
  EXPECT_EQ(r.op, uint8_t(pkt::Op::result));
  EXPECT_EQ(r.src, 7u) << "this GPU";
  EXPECT_EQ(r.count, 3u) << "every contribution";
  EXPECT_EQ(r.dtype, 2u);
  EXPECT_EQ(r.len, len);
  EXPECT_EQ(r.addr, 0x10000 + fb);
  ASSERT_EQ(b.reads.size(), len);
  for (unsigned i = 0; i < len; ++i) {
    EXPECT_EQ(b.reads[i].addr, 0x3000 + (1 + i) * fb) << "merge + offset";
    EXPECT_EQ(b.reads[i].tag, (params().slots - 1 + i) % params().slots);
  }
  EXPECT_TRUE(b.writes.empty()) << "the copy waits for the first flit's answer";
  for (unsigned i = len; i-- > 0;) b.answer(b.reads[i]);  // last first
  b.run(4 + len);
  ASSERT_EQ(b.writes.size(), len);
  for (unsigned i = 0; i < len; ++i) {
    EXPECT_EQ(b.writes[i].mw_addr, 0x2000 + (1 + i) * fb) << "dst + offset, in order";
    EXPECT_EQ(b.writes[i].mw_data, mem_data(0x3000 + (1 + i) * fb, params().flit_w));
  }
  ASSERT_EQ(b.asks.size(), 1u);
  EXPECT_EQ(b.asks[0].cnt_op, 2u) << "CLEAR";
  EXPECT_EQ(b.asks[0].cnt_line, 2u);
  ASSERT_EQ(b.results.size(), 1u);
  EXPECT_EQ(b.results[0], b.reserved[0].rq_hdr);
  EXPECT_TRUE(b.out().idle);
  EXPECT_EQ(b.read_reg(T3_EP_HOME_A_STAT_RESULTS), 1u);
}

TEST(EpHomeCosim, AFullQueueOverflowsToTheSweepWhichSkipsTheLineBeingMerged) {
  Bench b;
  overflow(b, 1);  // the queue full: line 2 pending
  b.run(2);
  EXPECT_EQ(b.read_reg(T3_EP_HOME_A_STATUS) & T3_EP_HOME_R_STATUS_PENDING_MASK, 1u);
  b.in().rq_ready = true;
  b.answer_count = 3;  // every counter whole
  b.answer_len = 1;
  b.in().merging = true;  // ep_rx merging line 1 the whole time: the sweep skips it
  b.in().merge_line = 1;
  b.auto_answer = true;
  b.run(30 * (params().home_q + 2));
  ASSERT_EQ(b.reads.size(), params().home_q + 2) << "the queued lines, then the one the sweep found";
  EXPECT_EQ(b.reads.back().addr, 0x3000 + params().flit_bytes()) << "line 2, found by the sweep";
  unsigned sweep_reads = 0;
  for (const EpHomeOutputs& a : b.asks) sweep_reads += a.cnt_op == 0;
  EXPECT_EQ(sweep_reads, 3u) << "line 0 in no window, line 1 being merged: skipped; line 2 found";
  EXPECT_EQ(b.read_reg(T3_EP_HOME_A_STAT_SWEEPS), 1u);
  EXPECT_EQ(b.read_reg(T3_EP_HOME_A_STATUS) & T3_EP_HOME_R_STATUS_PENDING_MASK, 0u);
}

// Lines gone to pending whose counters no longer hold them whole (their
// window rewritten, their count cleared): the sweep reads every counter
// once with nothing found and gives them up, counted and raised, and the
// home is idle again. A line coming in meanwhile, or one seen whole but
// still merging, starts the round again.
TEST(EpHomeCosim, ARoundOfTheSweepWithNothingFoundGivesThePendingLinesUp) {
  Bench b;
  overflow(b, 2);
  EXPECT_EQ(b.read_reg(T3_EP_HOME_A_STATUS) & T3_EP_HOME_R_STATUS_PENDING_MASK, 2u);
  EXPECT_TRUE(b.write_reg(T3_EP_HOME_A_INTR_ENABLE, T3_EP_HOME_R_INTR_STATE_LOST_MASK));
  b.answer_count = 0;  // no counter whole any more
  b.answer_len = 1;
  b.in().rq_ready = true;
  b.auto_answer = true;
  // The queued lines sent, then the sweep: a round of COUNT_DEPTH reads,
  // three cycles each at most.
  b.run(30 * (params().home_q + 2) + 3 * params().count_depth + 10);
  EXPECT_EQ(b.read_reg(T3_EP_HOME_A_STATUS) & T3_EP_HOME_R_STATUS_PENDING_MASK, 0u);
  EXPECT_EQ(b.read_reg(T3_EP_HOME_A_STAT_LOST), 2u) << "both pending lines given up";
  EXPECT_EQ(b.read_reg(T3_EP_HOME_A_STAT_SWEEPS), 0u);
  EXPECT_TRUE(b.out().intr);
  EXPECT_TRUE(b.out().idle) << "the queued lines sent, nothing pending";
  unsigned sweep_reads = 0;
  for (const EpHomeOutputs& a : b.asks) sweep_reads += a.cnt_op == 0;
  EXPECT_EQ(sweep_reads, params().count_depth) << "one round";
}

// A line going to pending in the cycle of a round's last barren answer
// starts the round again: nothing is given up then, and the next round
// gives up all three lines (none of them whole in the counters).
TEST(EpHomeCosim, ALineComingAtTheRoundsLastAnswerStartsTheRoundAgain) {
  Bench b;
  overflow(b, 2);
  b.answer_count = 0;
  b.answer_len = 1;
  b.in().rq_ready = true;
  b.auto_answer = true;
  auto sweep_reads = [&] {
    unsigned n = 0;
    for (const EpHomeOutputs& a : b.asks) n += a.cnt_op == 0;
    return n;
  };
  const unsigned depth = params().count_depth;
  for (unsigned i = 0; i < 30 * (params().home_q + 2) + 4 * depth && sweep_reads() < depth; ++i) b.cycle();
  ASSERT_EQ(sweep_reads(), depth);
  b.pulse(2, 1);  // the round's last answer comes in this cycle
  EXPECT_EQ(b.read_reg(T3_EP_HOME_A_STAT_LOST), 0u);
  EXPECT_EQ(b.read_reg(T3_EP_HOME_A_STATUS) & T3_EP_HOME_R_STATUS_PENDING_MASK, 3u);
  b.run(3 * depth + 20);
  EXPECT_EQ(b.read_reg(T3_EP_HOME_A_STAT_LOST), 3u);
  EXPECT_EQ(b.read_reg(T3_EP_HOME_A_STATUS) & T3_EP_HOME_R_STATUS_PENDING_MASK, 0u);
  EXPECT_TRUE(b.out().idle);
}

TEST(EpHomeCosim, AStrayAnswerIsIgnoredCountedAndRaised) {
  Bench b;
  b.window(0, a_window());
  ASSERT_TRUE(b.write_reg(T3_EP_HOME_A_INTR_ENABLE, T3_EP_HOME_R_INTR_STATE_STRAY_MASK));
  b.answer(Read{0x3000, 0});  // nothing read
  EXPECT_FALSE(b.out().intr) << "raised at the edge";
  b.cycle();
  EXPECT_TRUE(b.out().intr);
  EXPECT_EQ(b.read_reg(T3_EP_HOME_A_STAT_STRAYS), 1u);
  EXPECT_TRUE(b.out().idle);
}

TEST(EpHomeCosim, ConstrainedRandom) {
  RandomRun<EpHomeBlock, EpHomeScoreboard, EpHomeStimulus, EpHomeRegMap> r(the_cosim(), 0.02);
  r.run();
  const EpHomeScoreboard::Counts& k = r.sb.counts();
  auto u = [](uint64_t v) { return (unsigned long long)v; };
  std::printf("random: %llu cycles (seed %llu): %llu pulses (%llu to pending, at most %llu pending), %llu "
              "deterministic lines, %llu found by the sweep (%llu counters passed), %llu RESULTs sent, %llu "
              "flits copied, %llu strays, %llu lines refused for their length, %llu rounds of the sweep gave "
              "up\n",
              u(r.cycles), u(r.opt.seed), u(k.pulses), u(k.to_pending), u(k.max_pending), u(k.det_lines), u(k.swept),
              u(k.missed), u(k.sent), u(k.copied), u(k.strays), u(k.bad), u(k.given_up));
  EXPECT_GT(k.sent, r.cycles / 500);
  EXPECT_GT(k.to_pending, 0u);
  EXPECT_GT(k.swept, 0u);
  EXPECT_GT(k.missed, 0u);
  EXPECT_GT(k.det_lines, 0u);
  EXPECT_GT(k.copied, 0u);
  EXPECT_GT(k.strays, 0u);
  EXPECT_GT(k.bad, 0u);
}

}  // namespace
}  // namespace t3::tb
