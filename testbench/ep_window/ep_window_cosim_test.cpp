// ep_window co-simulation tests: directed cases for a window's way through
// the registers and for every cause of a refusal, then constrained-random
// commands and lookups. Every output of the C++ model is compared with the
// Verilated RTL in every cycle (the binary fails at the end if any cycle
// mismatched), and the scoreboard checks the RTL's outputs, the register
// port's answers and the interrupt included. --engine systemc (default) or
// --engine direct.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>

#include "cosim_config.h"
#include "directed_bench.h"
#include "ep_window/ep_window_writes.h"
#include "ep_window_scoreboard.h"
#include "ep_window_stimulus.h"
#include "random_run.h"
#include "reg_traffic.h"
#include "t3/ep_window_regs.h"
#include "test_cosim.h"

namespace t3::tb {
namespace {

Cosim<EpWindowBlock>& the_cosim() { return shared_cosim<EpWindowBlock>(); }
const EpWindowParams& params() { return the_cosim().params(); }

class Bench : public DirectedBench<Bench, EpWindowBlock, EpWindowScoreboard> {
 public:
  Bench() : DirectedBench(the_cosim()) {}

  // Stages w and writes it at idx; returns STATUS.
  uint32_t write_window(unsigned idx, EpWin w) {
    w.valid = true;
    for (const EpWinWrite& a : ep_window_writes(idx, w)) EXPECT_TRUE(write_reg(a.offset, a.data)) << a.offset;
    return read_reg(T3_EP_WINDOW_A_STATUS);
  }
};

// A window every configuration accepts: 4 flits at 0x1000_0000, buffers in
// the first quarter of memory, counters from 0.
EpWin good() {
  const EpWindowParams& p = params();
  EpWin w;
  w.bytes = 2 * p.flit_bytes();
  w.net_base = 0x10000000;
  w.src = 0;
  w.dst = 2 * w.bytes;
  w.merge = 4 * w.bytes;
  w.expected = 2;
  w.dtype = 2;
  return w;
}

TEST(EpWindowCosim, AWindowWrittenReadBackAndLookedUp) {
  Bench b;
  const EpWin w = good();
  EXPECT_EQ(b.write_window(0, w), 0u);
  EXPECT_EQ(b.read_reg(T3_EP_WINDOW_A_WIN_VALID), 1u);
  EXPECT_EQ(b.read_reg(T3_EP_WINDOW_A_WIN_RD_NET_LO), 0x10000000u);
  EXPECT_EQ(b.read_reg(T3_EP_WINDOW_A_WIN_RD_BYTES), w.bytes);
  EXPECT_EQ(b.read_reg(T3_EP_WINDOW_A_WIN_RD_CTRL), 2u | 2u << 8 | 1u << 16);
  b.in().la_addr = w.net_base + params().flit_bytes();
  b.in().la_len = 1;
  b.in().lb_addr = w.net_base + params().flit_bytes();
  b.in().lb_len = 2;  // one flit past the end
  b.in().lc_ctr = 1;
  b.cycle();
  EXPECT_TRUE(b.out().la_hit);
  EXPECT_EQ(b.out().la_win, 0);
  EXPECT_FALSE(b.out().lb_hit);
  EXPECT_TRUE(b.out().lc_hit);
  EXPECT_EQ(unpack_window(b.out().tbl, 0).src, w.src);
  // Cleared: gone from the lookups and the valid bits.
  EXPECT_TRUE(b.write_reg(T3_EP_WINDOW_A_WIN_CMD, T3_EP_WINDOW_R_WIN_CMD_CLEAR_MASK));
  b.cycle();  // the pulse's cycle: still there
  EXPECT_TRUE(b.out().la_hit);
  b.cycle();  // cleared at its end
  EXPECT_TRUE(b.out().la_hit);
  b.cycle();
  EXPECT_FALSE(b.out().la_hit);
  EXPECT_EQ(b.read_reg(T3_EP_WINDOW_A_WIN_VALID), 0u);
}

TEST(EpWindowCosim, EveryCauseRefusesAndChangesNothing) {
  Bench b;
  const EpWindowParams& p = params();
  const uint32_t fb = p.flit_bytes(), mb = p.mem_bytes;
  ASSERT_TRUE(b.write_reg(T3_EP_WINDOW_A_INTR_ENABLE, 1));
  EpWin w0 = good();
  if (p.windows > 1) {
    ASSERT_EQ(b.write_window(1, w0), 0u);
  }
  struct Case {
    unsigned cause;
    void (*edit)(EpWin&, uint32_t fb, uint32_t mb);
  };
  const Case cases[] = {
      {2, [](EpWin& w, uint32_t fb, uint32_t) { w.bytes = fb + 1; }},
      {3, [](EpWin& w, uint32_t, uint32_t) { w.net_base = (uint64_t{1} << 48) - w.bytes / 2; }},
      {4, [](EpWin& w, uint32_t, uint32_t mb) { w.src = mb - w.bytes / 2; }},
      {5, [](EpWin& w, uint32_t, uint32_t) { w.dst = 1; }},
      {6, [](EpWin& w, uint32_t fb, uint32_t mb) { w.merge = mb + fb; }},
      {7, [](EpWin& w, uint32_t, uint32_t) { w.count_base = 0x1FFFFF; }},
      {8, [](EpWin& w, uint32_t, uint32_t) { w.expected = 1; }},
      {9, [](EpWin& w, uint32_t, uint32_t) { w.dtype = 3; }},
      {10, [](EpWin& w, uint32_t, uint32_t) { w.home = true; w.merge = w.src; }},
      {11, [](EpWin& w, uint32_t, uint32_t) { w.copy = 3; }},
      {12, [](EpWin& w, uint32_t, uint32_t) { w.copy = 1; w.home = true; }},
      {13, [](EpWin& w, uint32_t, uint32_t) { w.det = true; }},
      {14, [](EpWin& w, uint32_t, uint32_t) { w.det = w.home = true; w.contrib_mask = 7; }},
      {15, [](EpWin& w, uint32_t, uint32_t mb) { w.det = w.home = true; w.contrib_mask = 3; w.stage = mb - w.bytes; }},
      {16, [](EpWin& w, uint32_t, uint32_t) { w.det = w.home = true; w.contrib_mask = 3; w.stage = w.dst; }},
  };
  for (const Case& c : cases) {
    EpWin w = good();
    c.edit(w, fb, mb);
    ASSERT_TRUE(b.write_reg(T3_EP_WINDOW_A_INTR_STATE, 1));
    EXPECT_EQ(b.write_window(0, w) & 0x1F, c.cause) << name(EpWinCause(c.cause));
    b.cycle();  // the REFUSED event came with STATUS: INTR_STATE from the next cycle
    EXPECT_TRUE(b.out().intr) << name(EpWinCause(c.cause));
    EXPECT_EQ(b.read_reg(T3_EP_WINDOW_A_WIN_VALID), p.windows > 1 ? 2u : 0u);
  }
  if (p.windows < 16) {  // WIN_IDX has four bits: 16 windows leave no index to refuse
    EXPECT_EQ(b.write_window(p.windows, good()) & 0x1F, 1u) << "index";
  }
  if (p.windows > 1) {
    EXPECT_EQ(b.write_window(0, w0), 17u | 1u << 8) << "net_overlap, with window 1";
    EpWin w = good();
    w.net_base = 0x20000000;
    w.count_base = 1;
    EXPECT_EQ(b.write_window(0, w), 18u | 1u << 8) << "count_overlap, with window 1";
    w.copy = 1;  // a copy window counts nothing
    EXPECT_EQ(b.write_window(0, w), 0u);
    w0.bytes *= 2;  // rewriting window 1 in place: its own range is no overlap
    EXPECT_EQ(b.write_window(1, w0), 0u);
  }
}

TEST(EpWindowCosim, ConstrainedRandom) {
  RandomRun<EpWindowBlock, EpWindowScoreboard, EpWindowStimulus, EpWindowRegMap> r(the_cosim(), 0.01);
  r.run();
  std::printf("random: %llu cycles (seed %llu), %llu commands: %llu written, %llu cleared; refused:",
              (unsigned long long)r.cycles, (unsigned long long)r.opt.seed, (unsigned long long)r.stim.commands(),
              (unsigned long long)r.sb.written(), (unsigned long long)r.sb.cleared());
  for (unsigned k = 1; k < kEpWinCauses; ++k)
    std::printf(" %s %llu", name(EpWinCause(k)), (unsigned long long)r.sb.refused(k));
  std::printf("; %llu address hits, %llu counter hits, %llu register reads, %llu writes\n",
              (unsigned long long)r.sb.hits(), (unsigned long long)r.sb.counter_hits(),
              (unsigned long long)r.sb.regs().counts().reads, (unsigned long long)r.sb.regs().counts().writes);
  if (r.cycles >= 100000) {
    EXPECT_GT(r.sb.written(), r.cycles / 2000) << "too few windows written to mean anything";
    EXPECT_GT(r.sb.hits(), r.cycles / 20);
    EXPECT_GT(r.sb.counter_hits(), r.cycles / 50);
    // Every cause the configuration can give (an index past 15 cannot be
    // written; one window overlaps no other; BUSY needs two pulses in two
    // cycles running, which APB cannot make: EpWindowCore.*Busy).
    for (unsigned k = 1; k < kEpWinCauses; ++k) {
      const bool possible = !(k == 1 && params().windows == 16) && !(k >= 17 && params().windows == 1) &&
                            k != unsigned(EpWinCause::busy);
      if (possible) {
        EXPECT_GT(r.sb.refused(k), 0u) << "no command refused for " << name(EpWinCause(k));
      }
    }
  }
}

}  // namespace
}  // namespace t3::tb
