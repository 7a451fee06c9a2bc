// DMA trigger table co-simulation tests: directed cases and constrained-random
// phases. Every output of the C++ model is compared with the Verilated RTL in
// every cycle (the binary fails at the end if any cycle mismatched), and the
// transaction-level scoreboard checks the outputs. --engine systemc|direct.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <random>
#include <vector>

#include "cosim_config.h"
#include "dma_trigger_scoreboard.h"
#include "dma_trigger_stimulus.h"
#include "test_cosim.h"

namespace t3::tb {
namespace {

Cosim<DmaTriggerBlock>& the_cosim() { return shared_cosim<DmaTriggerBlock>(); }
const DmaTriggerParams& params() { return the_cosim().params(); }
uint64_t ones(unsigned w) { return w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1; }

struct Desc {
  uint64_t src, dst;
  uint32_t gpu, bytes, wg, wf;
  bool op, last;
};

// Drives the co-simulation with a scoreboard attached; every cycle checks
// model == RTL and the RTL's outputs against the scoreboard.
class Bench {
 public:
  Bench() : c_(the_cosim()) { restart(); }

  Cosim<DmaTriggerBlock>& cosim() { return c_; }
  DmaTriggerInputs& in() { return c_.in(); }
  const DmaTriggerOutputs& out() const { return c_.out(); }
  DmaTriggerScoreboard& sb() { return *sb_; }
  const std::vector<Desc>& descs() const { return descs_; }

  void cycle() {
    const DmaTriggerInputs in = c_.in();
    EXPECT_TRUE(c_.cycle()) << c_.first_mismatch();
    if (auto err = sb_->observe(in, c_.out()))
      ADD_FAILURE() << "cycle " << c_.cycles() - 1 << ": " << *err;
    if (c_.out().desc_valid && in.desc_ready) {
      const DmaTriggerOutputs& o = c_.out();
      descs_.push_back({o.desc_src, o.desc_dst, o.desc_gpu, o.desc_bytes, o.desc_wg, o.desc_wf,
                        o.desc_op, o.desc_last});
    }
    c_.in().tbl_we = false;
    c_.in().err_clear = false;
  }
  void cycles(unsigned n) {
    for (unsigned i = 0; i < n; ++i) cycle();
  }

  void restart() {
    c_.in() = DmaTriggerInputs{};
    c_.in().cfg_enable = true;
    c_.in().cfg_burst_log2 = std::min(6u, params().max_burst_log2);
    c_.in().desc_ready = true;
    EXPECT_TRUE(c_.reset()) << c_.first_mismatch();
    sb_ = std::make_unique<DmaTriggerScoreboard>(params());
    descs_.clear();
  }

  // Writes an entry through the port and waits for the verdict: the cause,
  // or none. Errors are cleared first so that the verdict shows.
  DmaWriteFault write(unsigned idx, const DmaEntry& f) {
    in().err_clear = true;
    cycle();
    unsigned n = 0;
    while (!out().tbl_ready && n++ < 1000) cycle();
    in().tbl_we = true;
    in().tbl_idx = idx;
    in().tbl = f;
    cycle();  // taken
    // out() shows each cycle before its edge: busy until the commit has shown.
    n = 0;
    do cycle();
    while (!out().tbl_ready && n++ < 1000);
    return out().tbl_err ? DmaWriteFault(out().tbl_err_cause) : DmaWriteFault::none;
  }

  // Presents a trigger until taken; returns the cycles it waited (or limit).
  unsigned trigger(uint32_t wg, uint32_t wf, uint64_t addr, unsigned limit = 2000) {
    in().trig_valid = true;
    in().trig_wg_id = wg;
    in().trig_wf_id = wf;
    in().trig_addr = addr;
    unsigned n = 0;
    for (; n < limit; ++n) {
      cycle();
      if (out().trig_ready) break;  // taken in the cycle just run
    }
    in().trig_valid = false;
    return n;
  }

  // Runs until nothing is in flight.
  void drain(unsigned limit = 100000) {
    for (unsigned n = 0; n < limit && (out().busy || n < 2); ++n) cycle();
    const auto err = sb_->check_drained();
    EXPECT_FALSE(err.has_value()) << *err;
  }

 private:
  Cosim<DmaTriggerBlock>& c_;
  std::unique_ptr<DmaTriggerScoreboard> sb_;
  std::vector<Desc> descs_;
};

// A region of 64 rows x 16 columns of fp16 at `base`, tiles of 8 x 2.
DmaEntry region(uint64_t base, uint32_t k = 1, uint64_t dst = 0x80000, uint32_t gpu = 3) {
  DmaEntry f;
  f.valid = true;
  f.src_base = base;
  f.dst_base = dst;
  f.dst_gpu = gpu & uint32_t(ones(params().gpu_w));
  f.op = DmaOp::update;
  f.tiles_per_block = k;
  f.m = 64;
  f.n = 16;
  f.elem_log2 = 1;
  f.tile_rows = 8;
  f.tile_cols = 2;
  return f;
}

// Fits the region() shape into small parameters.
bool fits(const DmaEntry& f) {
  const DmaTriggerParams& p = params();
  return f.m <= ones(p.dim_w) && f.n <= ones(p.dim_w) && f.tiles_per_block <= p.slots &&
         f.src_base + f.region_bytes() <= ones(p.addr_w);
}

TEST(DmaTriggerCosim, OneTileBecomesItsBursts) {
  Bench b;
  const DmaEntry f = region(0x1000);
  if (!fits(f)) GTEST_SKIP() << "the region does not fit these parameters";
  ASSERT_EQ(b.write(0, f), DmaWriteFault::none);
  // Tile at row 16, column 4: 8 rows x 2 columns of 2 bytes, columns 128 B apart.
  const uint64_t start = 0x1000 + (4 * 64 + 16) * 2;
  b.trigger(5, 1, start);
  b.drain();
  ASSERT_EQ(b.descs().size(), 2u) << "one 16-byte burst per column segment";
  EXPECT_EQ(b.descs()[0].src, start);
  EXPECT_EQ(b.descs()[0].dst, 0x80000 + (start - 0x1000));
  EXPECT_EQ(b.descs()[0].bytes, 16u);
  EXPECT_EQ(b.descs()[1].src, start + 128);
  EXPECT_TRUE(b.descs()[1].last);
  EXPECT_FALSE(b.descs()[0].last);
  EXPECT_EQ(b.descs()[0].wg, 5u);
  EXPECT_EQ(b.descs()[0].wf, 1u);
  EXPECT_TRUE(b.descs()[0].op);
  EXPECT_EQ(b.out().stat_blocks, 1u);
}

TEST(DmaTriggerCosim, ABlockOfSeveralTilesWaitsForItsLastTile) {
  const unsigned k = std::min(3u, params().slots);
  Bench b;
  const DmaEntry f = region(0x2000, k);
  if (!fits(f)) GTEST_SKIP();
  ASSERT_EQ(b.write(1 % params().entries, f), DmaWriteFault::none);
  for (unsigned t = 0; t + 1 < k; ++t) b.trigger(t, 0, 0x2000 + t * 4 * 128);
  b.cycles(30);
  EXPECT_TRUE(b.descs().empty()) << "a block leaves only when all its tiles have triggered";
  EXPECT_EQ(b.out().stat_triggers, k - 1);
  b.trigger(9, 0, 0x2000 + 16 * 2);  // another tile of the region completes the block
  b.drain();
  EXPECT_EQ(b.descs().size(), 2u * k);
  for (size_t i = 0; i < b.descs().size(); ++i) EXPECT_EQ(b.descs()[i].last, i + 1 == b.descs().size());
}

TEST(DmaTriggerCosim, BurstsSplitAtAlignedBoundaries) {
  if (params().max_burst_log2 < 3) GTEST_SKIP();
  Bench b;
  b.in().cfg_burst_log2 = 3;  // 8-byte bursts
  DmaEntry f = region(0x3000);
  f.tile_rows = 9;  // 18-byte segments: 4 bursts, the first one short
  f.m = 63;
  if (!fits(f)) GTEST_SKIP();
  ASSERT_EQ(b.write(0, f), DmaWriteFault::none);
  b.trigger(1, 0, 0x3000 + 2);  // a segment starting 2 bytes into an 8-byte block
  b.drain();
  ASSERT_EQ(b.descs().size(), 6u);
  EXPECT_EQ(b.descs()[0].bytes, 6u);
  EXPECT_EQ(b.descs()[1].bytes, 8u);
  EXPECT_EQ(b.descs()[2].bytes, 4u) << "the segment ends";
  EXPECT_GT(b.sb().counts().split_bursts, 0u);
}

TEST(DmaTriggerCosim, UncoveredTriggersAreTakenCountedAndTheFirstCaptured) {
  Bench b;
  const DmaEntry f = region(0x4000);
  if (!fits(f)) GTEST_SKIP();
  ASSERT_EQ(b.write(0, f), DmaWriteFault::none);
  const uint64_t end = 0x4000 + f.region_bytes();
  const uint64_t last_start = end - (128 + 16);
  b.trigger(1, 1, 0x4000 - 2);       // below
  b.trigger(2, 0, last_start + 2);   // its tile would spill past the end
  b.trigger(3, 0, end);              // at the end
  b.trigger(4, 1, last_start);       // the last tile that fits: covered
  b.drain();
  EXPECT_EQ(b.out().stat_miss, 3u);
  EXPECT_EQ(b.out().stat_triggers, 1u);
  EXPECT_TRUE(b.out().miss);
  EXPECT_EQ(b.out().miss_wg, 1u);
  EXPECT_EQ(b.out().miss_addr, 0x4000u - 2);
  b.in().err_clear = true;
  b.cycles(2);
  EXPECT_FALSE(b.out().miss);
  EXPECT_EQ(b.out().miss_addr, 0u);
}

// Each cause of a refused write alone, and the accepted write right next to
// it; a refused write leaves the entry as it was.
TEST(DmaTriggerCosim, EveryWriteFaultAndItsNeighbour) {
  const DmaTriggerParams& p = params();
  Bench b;
  DmaEntry good = region(0x1000);
  good.m = std::min<uint32_t>(good.m, uint32_t(ones(p.dim_w)));
  good.n = std::min<uint32_t>(good.n, uint32_t(ones(p.dim_w)));
  good.tile_rows = std::min(good.tile_rows, good.m);
  good.tile_cols = std::min(good.tile_cols, good.n);
  good.src_base = 0;
  ASSERT_EQ(b.write(0, good), DmaWriteFault::none);
  struct Case {
    const char* what;
    DmaEntry f;
    DmaWriteFault want;
  };
  std::vector<Case> cases;
  auto add = [&](const char* what, auto edit, DmaWriteFault want) {
    DmaEntry f = good;
    if (edit(f)) cases.push_back({what, f, want});
  };
  add("tiles_per_block 0", [](DmaEntry& f) { f.tiles_per_block = 0; return true; },
      DmaWriteFault::tiles_per_block);
  add("tiles_per_block SLOTS + 1", [&](DmaEntry& f) {
    f.tiles_per_block = p.slots + 1;
    return p.slots + 1 <= ones(p.count_w());
  }, DmaWriteFault::tiles_per_block);
  add("tiles_per_block SLOTS", [&](DmaEntry& f) { f.tiles_per_block = p.slots; return true; },
      DmaWriteFault::none);
  add("m 0", [](DmaEntry& f) { f.m = 0; return true; }, DmaWriteFault::dims_zero);
  add("n 0", [](DmaEntry& f) { f.n = 0; return true; }, DmaWriteFault::dims_zero);
  add("tile_rows 0", [](DmaEntry& f) { f.tile_rows = 0; return true; }, DmaWriteFault::tile_rows);
  add("tile_rows m + 1", [&](DmaEntry& f) {
    f.tile_rows = f.m + 1;
    return f.m < ones(p.dim_w);
  }, DmaWriteFault::tile_rows);
  add("tile_rows m", [](DmaEntry& f) { f.tile_rows = f.m; return true; }, DmaWriteFault::none);
  add("tile_cols 0", [](DmaEntry& f) { f.tile_cols = 0; return true; }, DmaWriteFault::tile_cols);
  add("tile_cols n + 1", [&](DmaEntry& f) {
    f.tile_cols = f.n + 1;
    return f.n < ones(p.dim_w);
  }, DmaWriteFault::tile_cols);
  add("tile_cols n", [](DmaEntry& f) { f.tile_cols = f.n; return true; }, DmaWriteFault::none);
  add("region one byte past the top", [&](DmaEntry& f) {
    f.src_base = ones(p.addr_w) - f.region_bytes() + 2;
    return f.region_bytes() >= 2;
  }, DmaWriteFault::region_overflow);
  add("region ending at the top", [&](DmaEntry& f) {
    f.src_base = ones(p.addr_w) - f.region_bytes() + 1;
    return true;
  }, DmaWriteFault::none);
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    EXPECT_EQ(b.write(1 % p.entries, c.f), c.want);
    EXPECT_EQ(c.f.fault(p), c.want) << "the model's rule";
    EXPECT_EQ(c.f.check(p).has_value(), c.want != DmaWriteFault::none) << c.f.check(p).value_or("");
  }
  if (p.entries < (1u << p.idx_w())) {
    EXPECT_EQ(b.write(p.entries, good), DmaWriteFault::index);
  }
  // Disabling an entry: no field is checked.
  DmaEntry off = good;
  off.valid = false;
  off.tiles_per_block = 0;
  EXPECT_EQ(b.write(0, off), DmaWriteFault::none);
  b.in().tbl_rd_idx = 0;
  b.cycle();
  EXPECT_FALSE(b.out().tbl_rd.valid);
}

TEST(DmaTriggerCosim, AWriteToABusyEntryIsRefused) {
  Bench b;
  DmaEntry f = region(0x1000, 1);
  if (!fits(f)) GTEST_SKIP();
  ASSERT_EQ(b.write(0, f), DmaWriteFault::none);
  b.in().desc_ready = false;  // the DMA engine stalls: tiles stay in the entry
  const unsigned tiles = std::min(params().slots, 4u);
  for (unsigned t = 0; t < tiles; ++t) b.trigger(t, 0, 0x1000 + t * 4 * 128);
  if (b.sb().descs_left(0) <= params().desc_depth) GTEST_SKIP() << "the queue holds them all";
  DmaEntry g = f;
  g.dst_base = 0x90000;
  EXPECT_EQ(b.write(0, g), DmaWriteFault::entry_busy);
  b.in().tbl_rd_idx = 0;
  b.cycle();
  EXPECT_EQ(b.out().tbl_rd.dst_base, 0x80000u) << "a refused write leaves the entry as it was";
  b.in().desc_ready = true;
  b.drain();
  EXPECT_EQ(b.write(0, g), DmaWriteFault::none) << "idle again";
}

// The DMA engine stops: the descriptor queue fills, the generator waits, the
// entry's buffer fills, and only then does the trigger port push back.
TEST(DmaTriggerCosim, AFullQueueBackPressuresTheTriggerPort) {
  const DmaTriggerParams& p = params();
  Bench b;
  DmaEntry f = region(0x1000, 1);
  if (!fits(f)) GTEST_SKIP();
  ASSERT_EQ(b.write(0, f), DmaWriteFault::none);
  b.in().desc_ready = false;
  unsigned taken = 0;
  for (unsigned t = 0; t < p.slots + 8; ++t) {
    if (b.trigger(t, 0, 0x1000 + (t % 32) * 16, 50) < 50) ++taken;
    else break;
  }
  EXPECT_LE(taken, p.slots + p.desc_depth / 2 + 1);
  EXPECT_GE(taken, p.slots);
  EXPECT_GT(b.out().stat_stalls, 0u);
  EXPECT_TRUE(b.out().desc_valid);
  b.in().desc_ready = true;
  b.drain();
  EXPECT_EQ(b.out().stat_triggers, taken);
}

TEST(DmaTriggerCosim, ReadBackOfEveryField) {
  const DmaTriggerParams& p = params();
  Bench b;
  std::mt19937_64 rng(test_options().seed);
  for (unsigned e = 0; e < p.entries; ++e) {
    DmaEntry f;
    f.valid = rng() & 1;
    f.m = 1 + uint32_t(rng() % ones(p.dim_w));
    f.n = 1 + uint32_t(rng() % std::min<uint64_t>(ones(p.dim_w), 8));
    f.elem_log2 = uint32_t(rng() % 4);
    f.tile_rows = 1 + uint32_t(rng() % f.m);
    f.tile_cols = 1 + uint32_t(rng() % f.n);
    f.tiles_per_block = 1 + uint32_t(rng() % p.slots);
    f.src_base = (rng() & ones(p.addr_w)) % (ones(p.addr_w) - f.region_bytes() + 1);
    f.dst_base = rng() & ones(p.addr_w);
    f.dst_gpu = uint32_t(rng() & ones(p.gpu_w));
    f.op = rng() & 1 ? DmaOp::update : DmaOp::store;
    ASSERT_EQ(b.write(e, f), DmaWriteFault::none) << "entry " << e;
    b.in().tbl_rd_idx = e;
    b.cycle();
    const DmaEntry& r = b.out().tbl_rd;
    EXPECT_EQ(r.valid, f.valid);
    EXPECT_EQ(r.src_base, f.src_base);
    EXPECT_EQ(r.dst_base, f.dst_base);
    EXPECT_EQ(r.dst_gpu, f.dst_gpu);
    EXPECT_EQ(r.op, f.op);
    EXPECT_EQ(r.tiles_per_block, f.tiles_per_block);
    EXPECT_EQ(r.m, f.m);
    EXPECT_EQ(r.n, f.n);
    EXPECT_EQ(r.elem_log2, f.elem_log2);
    EXPECT_EQ(r.tile_rows, f.tile_rows);
    EXPECT_EQ(r.tile_cols, f.tile_cols);
  }
}

TEST(DmaTriggerCosim, DisabledOrBadBurstHoldsTriggersAndBursts) {
  const DmaTriggerParams& p = params();
  Bench b;
  DmaEntry f = region(0x1000);
  if (!fits(f)) GTEST_SKIP();
  ASSERT_EQ(b.write(0, f), DmaWriteFault::none);
  b.in().cfg_enable = false;
  EXPECT_EQ(b.trigger(1, 0, 0x1000, 20), 20u) << "held while disabled";
  b.in().cfg_enable = true;
  if (p.max_burst_log2 + 1 <= ones(p.burst_w())) {
    b.in().cfg_burst_log2 = p.max_burst_log2 + 1;
    EXPECT_EQ(b.trigger(1, 0, 0x1000, 20), 20u) << "held while the burst size is refused";
    EXPECT_TRUE(b.out().cfg_error);
    b.in().cfg_burst_log2 = std::min(6u, p.max_burst_log2);
  }
  b.trigger(1, 0, 0x1000);
  b.drain();
  EXPECT_EQ(b.out().stat_triggers, 1u);
  EXPECT_GE(b.out().stat_stalls, 20u);
}

TEST(DmaTriggerCosim, ResetWithBlocksInFlight) {
  Bench b;
  DmaEntry f = region(0x1000);
  if (!fits(f)) GTEST_SKIP();
  ASSERT_EQ(b.write(0, f), DmaWriteFault::none);
  b.in().desc_ready = false;
  for (unsigned t = 0; t < 3; ++t) b.trigger(t, 0, 0x1000 + t * 16, 50);
  EXPECT_TRUE(b.out().busy);
  b.restart();  // everything in flight and the table are gone
  b.cycles(2);
  EXPECT_FALSE(b.out().busy);
  EXPECT_FALSE(b.out().desc_valid);
  b.in().tbl_rd_idx = 0;
  b.cycle();
  EXPECT_FALSE(b.out().tbl_rd.valid);
  EXPECT_EQ(b.out().stat_triggers, 0u);
  b.trigger(1, 0, 0x1000);  // no entry any more: a miss
  b.cycle();
  EXPECT_EQ(b.out().stat_miss, 1u);
}

// Constrained-random phases (dma_trigger_stimulus.h), with resets.
TEST(DmaTriggerCosim, ConstrainedRandom) {
  const RunOptions& opt = test_options();
  const DmaTriggerParams& p = params();
  const uint64_t cycles = opt.cycles ? opt.cycles : T3_RANDOM_CYCLES;
  std::mt19937_64 rng(opt.seed);
  Bench b;
  const uint64_t first = b.cosim().cycles();
  DmaTriggerScoreboard::Counts total;
  uint32_t most_passed_over = 0;  // over every scoreboard of the run
  auto add = [&](const DmaTriggerScoreboard::Counts& c) {
    most_passed_over = std::max(most_passed_over, b.sb().most_passed_over());
    total.triggers += c.triggers;
    total.misses += c.misses;
    total.descs += c.descs;
    total.blocks += c.blocks;
    total.stalls += c.stalls;
    total.writes += c.writes;
    for (int i = 0; i < 8; ++i) total.refused[i] += c.refused[i];
    total.split_bursts += c.split_bursts;
    total.multi_tile_blocks += c.multi_tile_blocks;
  };
  uint64_t phases = 0, resets = 0, top_regions = 0;
  std::vector<bool> entries_used(p.entries, false);
  uint64_t addr_ones = 0, addr_zeros = 0;
  auto stim = std::make_unique<DmaTriggerStimulus>(p, b.sb(), rng());
  stim->new_phase();
  while (b.cosim().cycles() - first < cycles && !testing::Test::HasFailure()) {
    stim->drive(b.in());
    const DmaTriggerInputs in = b.in();
    b.cycle();
    stim->after(in, b.out());
    if (in.trig_valid && b.out().trig_ready) {
      addr_ones |= in.trig_addr;
      addr_zeros |= ~in.trig_addr;
    }
    const bool reset_now = rng() % 200000 == 0;
    if (stim->idle(b.out()) || reset_now) {
      ++phases;
      for (const auto& r : stim->regions()) {
        entries_used[r.entry] = entries_used[r.entry] || r.live;
        top_regions += r.live && r.f.src_base + r.f.region_bytes() - 1 == ones(p.addr_w);
      }
      if (reset_now || rng() % 8 == 0) {
        add(b.sb().counts());
        ++resets;
        b.restart();
        stim = std::make_unique<DmaTriggerStimulus>(p, b.sb(), rng());
      }
      stim->new_phase();
    }
  }
  // Drain the last phase.
  stim->stop();
  for (unsigned n = 0; n < 200000 && !stim->idle(b.out()) && !testing::Test::HasFailure(); ++n) {
    stim->drive(b.in());
    const DmaTriggerInputs in = b.in();
    b.cycle();
    stim->after(in, b.out());
  }
  EXPECT_TRUE(stim->idle(b.out())) << "traffic did not drain: deadlock";
  const auto err = b.sb().check_drained();
  EXPECT_FALSE(err.has_value()) << *err;
  add(b.sb().counts());
  unsigned used = 0;
  for (bool u : entries_used) used += u;
  uint64_t refused = 0;
  for (int i = 1; i < 8; ++i) refused += total.refused[i];
  std::printf("random: %llu cycles, %llu phases, %llu resets, %llu triggers, %llu misses, %llu "
              "blocks (%llu of several tiles), %llu descriptors (%llu shorter than a segment), "
              "%llu stalls, %llu writes (%llu refused: busy %llu), %u of %u entries, %llu regions "
              "ending at the top, a whole block passed over by at most %u others, %llu mismatches\n",
              (unsigned long long)(b.cosim().cycles() - first), (unsigned long long)phases,
              (unsigned long long)resets, (unsigned long long)total.triggers,
              (unsigned long long)total.misses, (unsigned long long)total.blocks,
              (unsigned long long)total.multi_tile_blocks, (unsigned long long)total.descs,
              (unsigned long long)total.split_bursts, (unsigned long long)total.stalls,
              (unsigned long long)total.writes, (unsigned long long)refused,
              (unsigned long long)total.refused[unsigned(DmaWriteFault::entry_busy)], used,
              p.entries, (unsigned long long)top_regions, most_passed_over,
              (unsigned long long)the_cosim().mismatches());
  EXPECT_EQ(the_cosim().mismatches(), 0u) << the_cosim().first_mismatch();
  if (cycles < 1000000) return;  // the coverage below needs the full run
  EXPECT_GT(total.blocks, 1000u);
  EXPECT_GT(total.multi_tile_blocks, 100u);
  EXPECT_GT(total.misses, 100u);
  EXPECT_GT(total.split_bursts, 100u);
  EXPECT_GT(total.stalls, 1000u);
  EXPECT_GT(top_regions, 0u);
  EXPECT_EQ(used, p.entries);
  // Entries competed: a whole block waited while another entry's started.
  if (p.entries > 1) {
    EXPECT_GT(most_passed_over, 0u);
  }
  EXPECT_EQ(addr_ones & ones(p.addr_w), ones(p.addr_w));
  EXPECT_EQ(addr_zeros & ones(p.addr_w), ones(p.addr_w));
  for (DmaWriteFault f : {DmaWriteFault::tiles_per_block, DmaWriteFault::dims_zero,
                          DmaWriteFault::tile_rows, DmaWriteFault::tile_cols,
                          DmaWriteFault::region_overflow, DmaWriteFault::entry_busy})
    EXPECT_GT(total.refused[unsigned(f)], 0u) << dma_write_fault_name(f);
}

}  // namespace
}  // namespace t3::tb
