// ep_det co-simulation tests: a line of three contributors added in rank
// order whatever order the memory answers in (the first stored, the others
// added, each flit's data the stage's), the ring never holding more than
// BUF reads; a stray answer ignored, counted and raised; then
// constrained-random traffic. Every output of the C++ model is compared with
// the Verilated RTL in every cycle (the binary fails at the end if any cycle
// mismatched), and the scoreboard checks the RTL's outputs. --engine systemc
// (default) or direct.
#include <gtest/gtest.h>

#include <cstdio>
#include <optional>
#include <random>
#include <vector>

#include "cosim_config.h"
#include "directed_bench.h"
#include "ep_det_scoreboard.h"
#include "ep_det_stimulus.h"
#include "random_run.h"
#include "reg_traffic.h"
#include "t3/ep_det_regs.h"
#include "test_cosim.h"

namespace t3::tb {
namespace {

Cosim<EpDetBlock>& the_cosim() { return shared_cosim<EpDetBlock>(); }
const EpDetParams& params() { return the_cosim().params(); }

// The co-simulation with the scoreboard attached; the memory answers every
// read after `delay` cycles, newest first among those due (out of order).
class Bench : public DirectedBench<Bench, EpDetBlock, EpDetScoreboard> {
 public:
  Bench() : DirectedBench(the_cosim()) { in().mr_ready = in().mw_ready = in().hq_ready = true; }

  void before() {
    in().md_valid = false;
    in().md_tag = 0;
    in().md_data = Wide{};
    for (size_t k = pending_.size(); k-- > 0;)
      if (pending_[k].due <= c_.cycles()) {
        in().md_valid = true;
        in().md_tag = pending_[k].tag;
        in().md_data = mem_data(pending_[k].addr, params().flit_w);
        pending_.erase(pending_.begin() + long(k));
        break;
      }
    if (!in().md_valid && stray) {
      in().md_valid = true;
      in().md_tag = *stray;
      in().md_data = mem_data(0, params().flit_w);
      stray.reset();
    }
  }
  void after(const EpDetInputs& i, const EpDetOutputs& o) {
    if (o.mr_valid && i.mr_ready) {
      reads.push_back(o.mr_addr);
      pending_.push_back({c_.cycles() + delay, o.mr_addr, o.mr_tag});
      max_out = std::max<size_t>(max_out, pending_.size());
    }
    if (o.mw_valid && i.mw_ready) writes.push_back(o);
    if (o.hq_valid && i.hq_ready) lines.push_back(o);
    if (i.det_valid && o.det_ready) in().det_valid = false;
  }

  uint64_t delay = 6;
  std::optional<uint8_t> stray;  // an answer with this tag in the next cycle
  std::vector<uint64_t> reads;
  std::vector<EpDetOutputs> writes, lines;
  size_t max_out = 0;

 private:
  struct Pending {
    uint64_t due, addr;
    uint8_t tag;
  };
  std::vector<Pending> pending_;
};

EpWin a_window() {
  EpWin w;
  w.valid = w.home = w.det = true;
  w.dtype = 1;
  w.expected = 3;
  w.count_base = 1;
  w.net_base = 0x10000;
  w.bytes = 2 * params().flit_bytes();
  w.merge = 0x3000;
  w.stage = 0x100000;
  return w;
}

TEST(EpDetCosim, ALineIsAddedInRankOrderWhateverOrderTheAnswersCome) {
  Bench b;
  const EpWin w = a_window();
  pack_window(b.in().tbl, 0, w);
  const unsigned len = std::min(2u, params().max_len);
  const uint64_t fb = params().flit_bytes();
  b.in().det_valid = true;
  b.in().det_line = 1;  // flit 0 of the window
  b.in().det_len = len;
  b.run(20 + 3 * len * 8);
  ASSERT_EQ(b.reads.size(), 3u * len);
  for (unsigned k = 0; k < 3; ++k)
    for (unsigned i = 0; i < len; ++i)
      EXPECT_EQ(b.reads[k * len + i], 0x100000 + k * w.bytes + i * fb) << "contributor " << k << ", flit " << i;
  EXPECT_LE(b.max_out, params().buf) << "no more than BUF reads outstanding";
  ASSERT_EQ(b.writes.size(), 3u * len);
  for (unsigned n = 0; n < 3 * len; ++n) {
    EXPECT_EQ(b.writes[n].mw_addr, 0x3000 + (n % len) * fb);
    EXPECT_EQ(b.writes[n].mw_add, n >= len) << "the first contributor stored, the others added";
    EXPECT_EQ(b.writes[n].mw_dtype, 1u);
    EXPECT_EQ(b.writes[n].mw_data, mem_data(b.reads[n], params().flit_w)) << "write " << n << ": read " << n << "'s data";
  }
  ASSERT_EQ(b.lines.size(), 1u);
  EXPECT_EQ(b.lines[0].hq_line, 1u);
  EXPECT_EQ(b.lines[0].hq_len, len);
  EXPECT_TRUE(b.out().idle);
  EXPECT_EQ(b.read_reg(T3_EP_DET_A_STAT_FLITS), 3u * len);
  EXPECT_EQ(b.read_reg(T3_EP_DET_A_STAT_LINES), 1u);
}

TEST(EpDetCosim, AStrayAnswerIsIgnoredCountedAndRaised) {
  Bench b;
  ASSERT_TRUE(b.write_reg(T3_EP_DET_A_INTR_ENABLE, T3_EP_DET_R_INTR_STATE_STRAY_MASK));
  b.stray = 1;  // nothing read
  b.cycle();
  EXPECT_FALSE(b.out().intr) << "raised at the edge";
  b.cycle();
  EXPECT_TRUE(b.out().intr);
  EXPECT_EQ(b.read_reg(T3_EP_DET_A_STAT_STRAYS), 1u);
  EXPECT_TRUE(b.out().idle);
}

TEST(EpDetCosim, ConstrainedRandom) {
  RandomRun<EpDetBlock, EpDetScoreboard, EpDetStimulus, EpDetRegMap> r(the_cosim(), 0.02);
  r.run();
  const EpDetScoreboard::Counts& k = r.sb.counts();
  auto u = [](uint64_t v) { return (unsigned long long)v; };
  std::printf("random: %llu cycles (seed %llu): %llu lines added (%llu with no contributor), %llu flits written "
              "(%llu added), %llu cycles with the ring full, %llu strays\n",
              u(r.cycles), u(r.opt.seed), u(k.lines), u(k.empty), u(k.flits), u(k.adds), u(k.ring_full), u(k.strays));
  EXPECT_GT(k.lines, r.cycles / 1000);
  EXPECT_GT(k.empty, 0u);
  EXPECT_GT(k.adds, 0u);
  EXPECT_GT(k.ring_full, 0u);
  EXPECT_GT(k.strays, 0u);
}

}  // namespace
}  // namespace t3::tb
