// DMA trigger table co-simulation tests: directed cases and constrained-random
// phases. Every output of the C++ model is compared with the Verilated RTL in
// every cycle (the binary fails at the end if any cycle mismatched), and the
// transaction-level scoreboard checks the outputs, the register port's
// answers included. The table and the configuration go in through the
// registers, as the driver writes them (dma_trigger_driver.h).
// --engine systemc|direct.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <memory>
#include <random>
#include <vector>

#include "apb_access.h"
#include "cosim_config.h"
#include "dma_trigger_driver.h"
#include "dma_trigger_scoreboard.h"
#include "dma_trigger_stimulus.h"
#include "reg_traffic.h"
#include "t3/dma_trigger_regs.h"
#include "test_cosim.h"

namespace t3::tb {
namespace {

Cosim<DmaTriggerBlock>& the_cosim() { return shared_cosim<DmaTriggerBlock>(); }
const DmaTriggerParams& params() { return the_cosim().params(); }
uint64_t ones(unsigned w) { return w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1; }
uint32_t default_burst() { return std::min(6u, params().max_burst_log2); }

struct Desc {
  uint64_t src, dst;
  uint32_t gpu, bytes, wg, wf;
  bool op, last;
};

// Drives the co-simulation with a scoreboard attached; every cycle checks
// model == RTL and the RTL's outputs (the register port's answers included)
// against the scoreboard.
class Bench : public ApbAccess<Bench> {
  friend class ApbAccess<Bench>;

 public:
  Bench() : c_(the_cosim()) { restart(); }

  Cosim<DmaTriggerBlock>& cosim() { return c_; }
  DmaTriggerInputs& in() { return c_.in(); }
  const DmaTriggerOutputs& out() const { return c_.out(); }
  DmaTriggerScoreboard& sb() { return *sb_; }
  ApbMaster& apb() { return apb_; }
  const std::vector<Desc>& descs() const { return descs_; }

  // One cycle with the data pins as they are: the register port's next
  // phase, the compare, the scoreboard.
  void cycle() {
    apb_.drive(c_.in().apb, c_.in().rst_n);
    const DmaTriggerInputs in = c_.in();
    EXPECT_TRUE(c_.cycle()) << c_.first_mismatch();
    if (auto err = sb_->observe(in, c_.out()))
      ADD_FAILURE() << "cycle " << c_.cycles() - 1 << ": " << *err;
    if (c_.out().desc_valid && in.desc_ready) {
      const DmaTriggerOutputs& o = c_.out();
      descs_.push_back({o.desc_src, o.desc_dst, o.desc_gpu, o.desc_bytes, o.desc_wg, o.desc_wf,
                        o.desc_op, o.desc_last});
    }
    if (auto d = apb_.after(in.apb, c_.out().apb)) apb_completed(*d);
  }
  void cycles(unsigned n) {
    for (unsigned i = 0; i < n; ++i) cycle();
  }
  // Until every queued register transfer is done.
  void flush() {
    for (unsigned n = 0; n < 10000 && !apb_.idle(); ++n) cycle();
    EXPECT_TRUE(apb_.idle());
  }

  // A cycle of the bench's inputs as they are, for a register access (apb_access.h).
  void apb_idle_cycle() { cycle(); }
  // Whether the last transfer done was refused.
  bool last_err() const { return last_apb().err; }
  DmaStatus status() { return DmaStatus::of(read_reg(T3_DMA_TRIGGER_A_STATUS)); }

  // CTRL and BURST as the driver writes them (BURST is refused while busy).
  void set_enable(bool on) {
    EXPECT_TRUE(write_reg(T3_DMA_TRIGGER_A_CTRL, on ? T3_DMA_TRIGGER_R_CTRL_ENABLE_MASK : 0));
  }
  bool set_burst(uint32_t log2) { return write_reg(T3_DMA_TRIGGER_A_BURST, log2); }
  void clear_errors() {
    tb::clear_errors(apb_, sb_->enabled());
    flush();
  }

  // Polls STATUS until TBL_READY, as the driver does; the last STATUS.
  DmaStatus wait_ready(unsigned limit = 1000) {
    DmaStatus st = status();
    for (unsigned n = 0; n < limit && !st.tbl_ready; ++n) st = status();
    EXPECT_TRUE(st.tbl_ready) << "the table write never finished";
    return st;
  }

  // Writes an entry as the driver does and returns the verdict: the cause,
  // or none. Errors are cleared first so that the verdict shows.
  DmaWriteFault write(unsigned idx, const DmaEntry& f) {
    clear_errors();
    wait_ready();
    program_entry(apb_, idx, f);
    flush();
    const DmaStatus st = wait_ready();
    return st.tbl_err ? DmaWriteFault(st.cause) : DmaWriteFault::none;
  }

  // Entry idx through TBL_IDX and TBL_RD_*, and its pending tiles.
  DmaEntry read_entry(unsigned idx, uint32_t* pending = nullptr) {
    EXPECT_TRUE(write_reg(T3_DMA_TRIGGER_A_TBL_IDX, idx));
    std::array<uint32_t, kTblRdRegs> words{};
    for (unsigned k = 0; k < kTblRdRegs; ++k) words[k] = read_reg(tbl_rd_addr(k));
    return entry_of(words, pending);
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
    for (unsigned n = 0; n < limit && (out().busy || !apb_.idle() || n < 2); ++n) cycle();
    const auto err = sb_->check_drained();
    EXPECT_FALSE(err.has_value()) << *err;
  }

  // Reset (whatever is in flight), then the configuration through the
  // registers: triggers taken, bursts of up to 64 bytes.
  void restart() {
    c_.in() = DmaTriggerInputs{};
    c_.in().desc_ready = true;
    apb_.clear();
    EXPECT_TRUE(c_.reset()) << c_.first_mismatch();
    sb_ = std::make_unique<DmaTriggerScoreboard>(params());
    descs_.clear();
    program_config(apb_, true, default_burst());
    flush();
  }

 private:
  Cosim<DmaTriggerBlock>& c_;
  std::unique_ptr<DmaTriggerScoreboard> sb_;
  std::vector<Desc> descs_;
  ApbMaster apb_;
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

// Whether the region() shape fits the build's parameters (both builds'
// do: the directed tests assert it rather than skip).
bool fits(const DmaEntry& f) {
  const DmaTriggerParams& p = params();
  return f.m <= ones(p.dim_w) && f.n <= ones(p.dim_w) && f.tiles_per_block <= p.slots &&
         f.src_base + f.region_bytes() <= ones(p.addr_w);
}

void expect_same(const DmaEntry& got, const DmaEntry& want) {
  EXPECT_EQ(got.valid, want.valid);
  EXPECT_EQ(got.src_base, want.src_base);
  EXPECT_EQ(got.dst_base, want.dst_base);
  EXPECT_EQ(got.dst_gpu, want.dst_gpu);
  EXPECT_EQ(got.op, want.op);
  EXPECT_EQ(got.tiles_per_block, want.tiles_per_block);
  EXPECT_EQ(got.m, want.m);
  EXPECT_EQ(got.n, want.n);
  EXPECT_EQ(got.elem_log2, want.elem_log2);
  EXPECT_EQ(got.tile_rows, want.tile_rows);
  EXPECT_EQ(got.tile_cols, want.tile_cols);
}

TEST(DmaTriggerCosim, OneTileBecomesItsBursts) {
  Bench b;
  const DmaEntry f = region(0x1000);
  ASSERT_TRUE(fits(f)) << "the region does not fit these parameters";
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
  ASSERT_TRUE(fits(f));
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
  ASSERT_GE(params().max_burst_log2, 3u);
  Bench b;
  ASSERT_TRUE(b.set_burst(3));  // 8-byte bursts
  DmaEntry f = region(0x3000);
  f.tile_rows = 9;  // 18-byte segments: 4 bursts, the first one short
  f.m = 63;
  ASSERT_TRUE(fits(f));
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
  ASSERT_TRUE(fits(f));
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
  // The same through the registers: STATUS.MISS and the capture.
  EXPECT_TRUE(b.status().miss);
  const uint32_t id = b.read_reg(T3_DMA_TRIGGER_A_MISS_ID);
  EXPECT_EQ((id & T3_DMA_TRIGGER_R_MISS_ID_WG_MASK) >> T3_DMA_TRIGGER_R_MISS_ID_WG_SHIFT, 1u);
  EXPECT_EQ((id & T3_DMA_TRIGGER_R_MISS_ID_WF_MASK) >> T3_DMA_TRIGGER_R_MISS_ID_WF_SHIFT, 1u);
  EXPECT_EQ(b.read_reg(T3_DMA_TRIGGER_A_MISS_ADDR_LO), 0x4000u - 2);
  EXPECT_EQ(b.read_reg(T3_DMA_TRIGGER_A_MISS_ADDR_HI), 0u);
  EXPECT_EQ(b.read_reg(T3_DMA_TRIGGER_A_STAT_MISS), 3u);
  b.clear_errors();  // CTRL.ERR_CLEAR: its pulse is the next cycle, the clear at its edge
  b.cycles(2);
  EXPECT_FALSE(b.out().miss);
  EXPECT_EQ(b.out().miss_addr, 0u);
  EXPECT_FALSE(b.status().miss);
  EXPECT_EQ(b.read_reg(T3_DMA_TRIGGER_A_MISS_ADDR_LO), 0u);
}

// Each cause of a refused write alone (read from STATUS.TBL_ERR_CAUSE), and
// the accepted write right next to it; a refused write leaves the entry as
// it was.
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
  const unsigned at = 1 % p.entries;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    const DmaEntry before = b.read_entry(at);
    EXPECT_EQ(b.write(at, c.f), c.want);
    EXPECT_EQ(c.f.fault(p), c.want) << "the model's rule";
    EXPECT_EQ(c.f.check(p).has_value(), c.want != DmaWriteFault::none) << c.f.check(p).value_or("");
    if (c.want != DmaWriteFault::none) expect_same(b.read_entry(at), before);
  }
  // An index above the table (every build has one: ENTRIES <= 64 = 2^6 is
  // what TBL_IDX holds; this one is below 64 in both builds).
  ASSERT_LT(p.entries, 1u << kDmaIdxBits);
  EXPECT_EQ(b.write(p.entries, good), DmaWriteFault::index);
  // Disabling an entry: no field is checked.
  DmaEntry off = good;
  off.valid = false;
  off.tiles_per_block = 0;
  EXPECT_EQ(b.write(0, off), DmaWriteFault::none);
  EXPECT_FALSE(b.read_entry(0).valid);
}

TEST(DmaTriggerCosim, AWriteToABusyEntryIsRefused) {
  Bench b;
  DmaEntry f = region(0x1000, 1);
  ASSERT_TRUE(fits(f));
  ASSERT_EQ(b.write(0, f), DmaWriteFault::none);
  b.in().desc_ready = false;  // the DMA engine stalls: tiles stay in the entry
  const unsigned tiles = std::min(params().slots, 4u);
  for (unsigned t = 0; t < tiles; ++t) b.trigger(t, 0, 0x1000 + t * 4 * 128);
  ASSERT_GT(b.sb().descs_left(0), params().desc_depth) << "the queue would hold them all";
  DmaEntry g = f;
  g.dst_base = 0x90000;
  EXPECT_EQ(b.write(0, g), DmaWriteFault::entry_busy);
  EXPECT_EQ(b.read_entry(0).dst_base, 0x80000u) << "a refused write leaves the entry as it was";
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
  ASSERT_TRUE(fits(f));
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

// Every field of every entry written through the staging registers reads
// back through TBL_RD_*; an entry's pending tiles too (TBL_RD_CTRL.PENDING).
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
    f.op = DmaOp(rng() % 3);
    ASSERT_EQ(b.write(e, f), DmaWriteFault::none) << "entry " << e;
    SCOPED_TRACE("entry " + std::to_string(e));
    uint32_t pending = 99;
    expect_same(b.read_entry(e, &pending), f);
    EXPECT_EQ(pending, 0u);
  }
  // Tiles of a block not yet whole stay in their entry: PENDING counts them.
  ASSERT_GE(p.slots, 2u);
  DmaEntry f = region(0x1000, p.slots);
  ASSERT_TRUE(fits(f));
  ASSERT_EQ(b.write(0, f), DmaWriteFault::none);
  for (unsigned t = 0; t + 1 < p.slots; ++t) b.trigger(t, 0, 0x1000 + t * 16);
  uint32_t pending = 0;
  expect_same(b.read_entry(0, &pending), f);
  EXPECT_EQ(pending, p.slots - 1);
  EXPECT_GT(b.sb().counts().pending_reads, 0u);
}

TEST(DmaTriggerCosim, DisabledOrBadBurstHoldsTriggersAndBursts) {
  const DmaTriggerParams& p = params();
  Bench b;
  DmaEntry f = region(0x1000);
  ASSERT_TRUE(fits(f));
  ASSERT_EQ(b.write(0, f), DmaWriteFault::none);
  b.set_enable(false);
  EXPECT_EQ(b.trigger(1, 0, 0x1000, 20), 20u) << "held while disabled";
  b.set_enable(true);
  // Every burst size above MAX_BURST_LOG2 is refused (BURST.LOG2 reaches the
  // core whole), the largest one too.
  for (const uint32_t bad : {p.max_burst_log2 + 1, T3_DMA_TRIGGER_R_BURST_LOG2_MASK}) {
    ASSERT_TRUE(b.set_burst(bad));
    EXPECT_EQ(b.trigger(1, 0, 0x1000, 20), 20u) << "held while the burst size is refused";
    EXPECT_TRUE(b.status().cfg_error) << "BURST.LOG2 = " << bad;
  }
  ASSERT_TRUE(b.set_burst(default_burst()));
  EXPECT_FALSE(b.status().cfg_error);
  b.trigger(1, 0, 0x1000);
  b.drain();
  EXPECT_EQ(b.out().stat_triggers, 1u);
  EXPECT_GE(b.out().stat_stalls, 20u);
}

TEST(DmaTriggerCosim, ResetWithBlocksInFlight) {
  Bench b;
  DmaEntry f = region(0x1000);
  ASSERT_TRUE(fits(f));
  ASSERT_EQ(b.write(0, f), DmaWriteFault::none);
  b.in().desc_ready = false;
  for (unsigned t = 0; t < 3; ++t) b.trigger(t, 0, 0x1000 + t * 16, 50);
  EXPECT_TRUE(b.out().busy);
  b.restart();  // everything in flight and the table are gone
  b.cycles(2);
  EXPECT_FALSE(b.out().busy);
  EXPECT_FALSE(b.out().desc_valid);
  EXPECT_FALSE(b.read_entry(0).valid);
  EXPECT_EQ(b.out().stat_triggers, 0u);
  EXPECT_EQ(b.read_reg(T3_DMA_TRIGGER_A_STAT_TRIGGERS), 0u);
  b.trigger(1, 0, 0x1000);  // no entry any more: a miss
  b.cycle();
  EXPECT_EQ(b.out().stat_miss, 1u);
}

// A command of TBL_CMD.WRITE while the last write is still in progress is
// refused with cause 8 (port_busy), up to the cycle that write commits in;
// one cycle later it is taken. The write in progress is not disturbed.
TEST(DmaTriggerCosim, AWriteWhileTheLastIsInProgressIsRefused) {
  const DmaTriggerParams& p = params();
  const unsigned w = p.write_cycles();
  ASSERT_GE(w, 4u);
  ASSERT_GE(p.entries, 2u);
  const DmaEntry f = region(0x1000);
  ASSERT_TRUE(fits(f));
  // The first command's access phase is the last cycle of program_entry;
  // its pulse is the next cycle, and the write runs (TBL_READY low) in the
  // w cycles after it, the last its commit cycle. After `gap` idle cycles,
  // TBL_IDX = 1 (2 cycles) and a second command (2 cycles) pulse gap + 5
  // cycles after that access phase: inside the write while gap <= w - 4.
  for (const unsigned gap : {0u, w - 4, w - 3}) {
    SCOPED_TRACE("gap " + std::to_string(gap));
    Bench b;
    b.clear_errors();
    program_entry(b.apb(), 0, f);
    b.flush();
    b.cycles(gap);
    b.apb().write(T3_DMA_TRIGGER_A_TBL_IDX, 1);
    command_write(b.apb());
    b.flush();
    const DmaStatus st = b.wait_ready();
    const bool refused = gap <= w - 4;
    EXPECT_EQ(st.tbl_err, refused);
    EXPECT_EQ(st.cause, refused ? unsigned(DmaWriteFault::port_busy) : 0u);
    // The first write committed either way; the second only when taken.
    expect_same(b.read_entry(0), f);
    expect_same(b.read_entry(1), refused ? DmaEntry{} : f);
    EXPECT_EQ(b.sb().counts().refused[unsigned(DmaWriteFault::port_busy)], refused ? 1u : 0u);
    // The refusal raises the TBL_ERROR interrupt like any other.
    EXPECT_EQ(b.read_reg(T3_DMA_TRIGGER_A_INTR_STATE) & T3_DMA_TRIGGER_R_INTR_STATE_TBL_ERROR_MASK,
              refused ? T3_DMA_TRIGGER_R_INTR_STATE_TBL_ERROR_MASK : 0u);
  }
}

// TBL_IDX's 6 bits reach the core: a write at or above ENTRIES is refused
// (cause 1), in a table whose size is a power of two as in one whose size is
// not, and the index is not wrapped onto the live entry it would alias; the
// read-back there is all zeros.
TEST(DmaTriggerCosim, AnIndexAboveTheTableIsRefused) {
  const DmaTriggerParams& p = params();
  ASSERT_LT(p.entries, 1u << kDmaIdxBits);
  Bench b;
  std::vector<DmaEntry> live(p.entries);
  for (unsigned e = 0; e < p.entries; ++e) {
    live[e] = region(0x1000 + 0x1000 * e, 1, 0x80000 + e, e);
    ASSERT_TRUE(fits(live[e]));
    ASSERT_EQ(b.write(e, live[e]), DmaWriteFault::none);
  }
  unsigned pow2 = 1;
  while (pow2 < p.entries) pow2 *= 2;
  std::vector<unsigned> above = {p.entries, pow2, 2 * pow2 - 1, (1u << kDmaIdxBits) - 1};
  if (p.entries + 1 < (1u << kDmaIdxBits)) above.push_back(p.entries + 1);
  DmaEntry other = region(0x40000, 1, 0x123, 0);
  ASSERT_TRUE(fits(other));
  for (const unsigned idx : above) {
    if (idx < p.entries || idx >= (1u << kDmaIdxBits)) continue;
    SCOPED_TRACE("index " + std::to_string(idx));
    EXPECT_EQ(b.write(idx, other), DmaWriteFault::index);
    uint32_t pending = 99;
    expect_same(b.read_entry(idx, &pending), DmaEntry{});
    EXPECT_EQ(pending, 0u);
    // The entries a narrower index would have reached are as they were.
    expect_same(b.read_entry(idx % p.entries), live[idx % p.entries]);
    const unsigned alias = idx & (pow2 - 1);
    if (alias < p.entries) expect_same(b.read_entry(alias), live[alias]);
  }
  EXPECT_GE(b.sb().counts().refused[unsigned(DmaWriteFault::index)], 3u);
}

// BURST is locked while the table is busy (a block in flight, or a table
// write in progress): the write is refused (pslverr) and BURST keeps its
// value; CTRL is not locked. Idle again, BURST takes a write.
TEST(DmaTriggerCosim, BurstLockedWhileBusy) {
  const DmaTriggerParams& p = params();
  Bench b;
  const DmaEntry f = region(0x1000);
  ASSERT_TRUE(fits(f));
  ASSERT_EQ(b.write(0, f), DmaWriteFault::none);
  const uint32_t burst = b.read_reg(T3_DMA_TRIGGER_A_BURST);
  EXPECT_EQ(burst, default_burst());
  // A tile waits in the queue: busy.
  b.in().desc_ready = false;
  b.trigger(1, 0, 0x1000);
  b.cycles(2);
  ASSERT_TRUE(b.out().busy);
  EXPECT_TRUE(b.status().busy);
  EXPECT_FALSE(b.set_burst(3));
  EXPECT_EQ(b.read_reg(T3_DMA_TRIGGER_A_BURST), burst);
  const uint64_t refused = b.sb().regs().counts().busy_errors;
  EXPECT_EQ(refused, 1u);
  b.set_enable(true);  // CTRL is not locked
  b.in().desc_ready = true;
  b.drain();
  ASSERT_FALSE(b.out().busy);
  // A table write in progress is busy too.
  program_entry(b.apb(), 1 % p.entries, f);
  b.apb().write(T3_DMA_TRIGGER_A_BURST, 3);
  b.flush();
  EXPECT_TRUE(b.last_err()) << "BURST written while the table write runs";
  EXPECT_EQ(b.read_reg(T3_DMA_TRIGGER_A_BURST), burst);
  b.wait_ready();
  b.cycles(1);
  EXPECT_TRUE(b.set_burst(3));
  EXPECT_EQ(b.read_reg(T3_DMA_TRIGGER_A_BURST), 3u);
  EXPECT_EQ(b.sb().regs().counts().busy_errors, 2u);
}

// Interrupts: INTR_TEST sets a pending bit; the line follows INTR_ENABLE;
// both are levels of the captured errors: a W1C clear of INTR_STATE is set
// again while STATUS.TBL_ERR (or MISS) lasts, and stays clear once
// CTRL.ERR_CLEAR has cleared the capture.
TEST(DmaTriggerCosim, InterruptsSetClearAndTest) {
  Bench b;
  const uint32_t kErr = T3_DMA_TRIGGER_R_INTR_STATE_TBL_ERROR_MASK;
  const uint32_t kMiss = T3_DMA_TRIGGER_R_INTR_STATE_MISS_MASK;
  EXPECT_TRUE(b.write_reg(T3_DMA_TRIGGER_A_INTR_TEST, kMiss));
  b.cycles(1);
  EXPECT_EQ(b.read_reg(T3_DMA_TRIGGER_A_INTR_STATE), kMiss);
  EXPECT_EQ(b.read_reg(T3_DMA_TRIGGER_A_INTR_TEST), 0u) << "W1P reads 0";
  EXPECT_FALSE(b.out().intr);
  EXPECT_TRUE(b.write_reg(T3_DMA_TRIGGER_A_INTR_ENABLE, kErr | kMiss));
  EXPECT_FALSE(b.out().intr) << "the enable takes effect at the write's edge";
  b.cycles(1);
  EXPECT_TRUE(b.out().intr);
  EXPECT_TRUE(b.write_reg(T3_DMA_TRIGGER_A_INTR_STATE, kMiss));
  b.cycles(1);
  EXPECT_FALSE(b.out().intr);

  // A refused write: TBL_ERROR, again after a clear while the capture lasts.
  DmaEntry bad = region(0x1000);
  bad.tiles_per_block = 0;
  EXPECT_EQ(b.write(0, bad), DmaWriteFault::tiles_per_block);
  b.cycles(1);  // INTR_STATE is set at the edge after the capture shows
  EXPECT_TRUE(b.out().intr);
  EXPECT_EQ(b.read_reg(T3_DMA_TRIGGER_A_INTR_STATE), kErr);
  EXPECT_TRUE(b.write_reg(T3_DMA_TRIGGER_A_INTR_STATE, kErr));
  b.cycles(1);
  EXPECT_TRUE(b.out().intr) << "STATUS.TBL_ERR still holds: set again";
  EXPECT_EQ(b.read_reg(T3_DMA_TRIGGER_A_INTR_STATE), kErr);
  b.clear_errors();
  EXPECT_TRUE(b.write_reg(T3_DMA_TRIGGER_A_INTR_STATE, kErr));
  b.cycles(1);
  EXPECT_FALSE(b.out().intr);
  EXPECT_EQ(b.read_reg(T3_DMA_TRIGGER_A_INTR_STATE), 0u);

  // An uncovered trigger: MISS, the same way; masked, it does not reach the line.
  EXPECT_TRUE(b.write_reg(T3_DMA_TRIGGER_A_INTR_ENABLE, kErr));
  b.trigger(7, 0, 0x10);
  b.cycles(2);
  EXPECT_EQ(b.read_reg(T3_DMA_TRIGGER_A_INTR_STATE), kMiss);
  EXPECT_FALSE(b.out().intr);
  EXPECT_TRUE(b.write_reg(T3_DMA_TRIGGER_A_INTR_ENABLE, kMiss));
  b.cycles(1);
  EXPECT_TRUE(b.out().intr);
  EXPECT_TRUE(b.write_reg(T3_DMA_TRIGGER_A_INTR_STATE, kMiss));
  b.cycles(1);
  EXPECT_TRUE(b.out().intr) << "STATUS.MISS still holds: set again";
  b.clear_errors();
  EXPECT_TRUE(b.write_reg(T3_DMA_TRIGGER_A_INTR_STATE, kMiss));
  b.cycles(1);
  EXPECT_FALSE(b.out().intr);
  EXPECT_FALSE(b.status().miss);
}

// What the driver wrote reads back; PARAM_* describe the build; read-only,
// unmapped, partial and unaligned accesses are refused and change nothing.
TEST(DmaTriggerCosim, ConfigurationReadsBackAndParametersMatchTheBuild) {
  const DmaTriggerParams& p = params();
  Bench b;
  EXPECT_EQ(b.read_reg(T3_DMA_TRIGGER_A_CTRL), T3_DMA_TRIGGER_R_CTRL_ENABLE_MASK);
  EXPECT_EQ(b.read_reg(T3_DMA_TRIGGER_A_BURST), default_burst());
  const uint32_t table = b.read_reg(T3_DMA_TRIGGER_A_PARAM_TABLE);
  EXPECT_EQ((table & T3_DMA_TRIGGER_R_PARAM_TABLE_ENTRIES_MASK) >> T3_DMA_TRIGGER_R_PARAM_TABLE_ENTRIES_SHIFT,
            p.entries);
  EXPECT_EQ((table & T3_DMA_TRIGGER_R_PARAM_TABLE_SLOTS_MASK) >> T3_DMA_TRIGGER_R_PARAM_TABLE_SLOTS_SHIFT,
            p.slots);
  const uint32_t widths = b.read_reg(T3_DMA_TRIGGER_A_PARAM_WIDTHS);
  EXPECT_EQ((widths & T3_DMA_TRIGGER_R_PARAM_WIDTHS_DIM_W_MASK) >> T3_DMA_TRIGGER_R_PARAM_WIDTHS_DIM_W_SHIFT,
            p.dim_w);
  EXPECT_EQ((widths & T3_DMA_TRIGGER_R_PARAM_WIDTHS_ADDR_W_MASK) >> T3_DMA_TRIGGER_R_PARAM_WIDTHS_ADDR_W_SHIFT,
            p.addr_w);
  const uint32_t ids = b.read_reg(T3_DMA_TRIGGER_A_PARAM_IDS);
  EXPECT_EQ((ids & T3_DMA_TRIGGER_R_PARAM_IDS_WG_ID_W_MASK) >> T3_DMA_TRIGGER_R_PARAM_IDS_WG_ID_W_SHIFT,
            p.wg_id_w);
  const DmaStatus st = b.status();
  EXPECT_TRUE(st.tbl_ready);
  EXPECT_FALSE(st.busy || st.tbl_err || st.miss || st.cfg_error);
  EXPECT_FALSE(b.write_reg(T3_DMA_TRIGGER_A_STATUS, 0));          // read-only
  EXPECT_FALSE(b.write_reg(T3_DMA_TRIGGER_A_TBL_RD_SRC_LO, 5));   // read-only
  EXPECT_TRUE(b.access({false, 0xFFC, 0, 0}).err);                 // no register there
  EXPECT_TRUE(b.access({true, T3_DMA_TRIGGER_A_TBL_M, 7, 0x3}).err);  // partial write
  EXPECT_TRUE(b.access({false, T3_DMA_TRIGGER_A_TBL_M + 1, 0, 0}).err);  // unaligned
  EXPECT_EQ(b.read_reg(T3_DMA_TRIGGER_A_TBL_M), 0u);
  // The staging registers read back what was written, as wide as the
  // register (the core takes DIM_W bits at the command).
  EXPECT_TRUE(b.write_reg(T3_DMA_TRIGGER_A_TBL_M, 0xABCDEF));
  EXPECT_EQ(b.read_reg(T3_DMA_TRIGGER_A_TBL_M), 0xABCDEFu);
  EXPECT_EQ(b.sb().regs().counts().address_errors, 2u);
  EXPECT_EQ(b.sb().regs().counts().strobe_errors, 1u);
  EXPECT_EQ(b.sb().regs().counts().read_only_errors, 2u);
}

// Constrained-random phases (dma_trigger_stimulus.h), programmed through the
// register port, with resets; random register traffic runs throughout
// (reg_traffic.h): reads of every register, refused writes (unmapped,
// partial, read-only, BURST while busy), interrupt enables, clears and tests.
TEST(DmaTriggerCosim, ConstrainedRandom) {
  const RunOptions& opt = test_options();
  const DmaTriggerParams& p = params();
  const uint64_t cycles = opt.cycles ? opt.cycles : T3_RANDOM_CYCLES;
  std::mt19937_64 rng(opt.seed);
  Bench b;
  const uint64_t first = b.cosim().cycles();
  DmaTriggerScoreboard::Counts total;
  RegAccessCounts regs_total;
  uint32_t most_passed_over = 0;  // over every scoreboard of the run
  auto add = [&](const DmaTriggerScoreboard& sb) {
    const DmaTriggerScoreboard::Counts& c = sb.counts();
    most_passed_over = std::max(most_passed_over, sb.most_passed_over());
    total.triggers += c.triggers;
    total.misses += c.misses;
    total.descs += c.descs;
    total.blocks += c.blocks;
    total.stalls += c.stalls;
    total.writes += c.writes;
    for (int i = 0; i < 10; ++i) total.refused[i] += c.refused[i];
    total.none_triggers += c.none_triggers;
    total.split_bursts += c.split_bursts;
    total.multi_tile_blocks += c.multi_tile_blocks;
    total.pending_reads += c.pending_reads;
    regs_total += sb.regs().counts();
  };
  uint64_t phases = 0, resets = 0, top_regions = 0;
  std::vector<bool> entries_used(p.entries, false);
  uint64_t addr_ones = 0, addr_zeros = 0;
  auto stim = std::make_unique<DmaTriggerStimulus>(p, b.sb(), b.apb(), rng());
  auto regs = std::make_unique<RegTraffic<DmaTriggerRegMap>>(rng(), 0.05);
  stim->new_phase();
  auto run_cycle = [&](bool traffic) {
    stim->drive(b.in());
    if (traffic) regs->maybe_queue(b.apb(), b.sb().regs());
    const DmaTriggerInputs in = b.in();
    b.cycle();
    stim->after(in, b.out());
    if (in.trig_valid && b.out().trig_ready) {
      addr_ones |= in.trig_addr;
      addr_zeros |= ~in.trig_addr;
    }
  };
  while (b.cosim().cycles() - first < cycles && !testing::Test::HasFailure()) {
    run_cycle(true);
    const bool reset_now = rng() % 200000 == 0;
    if (stim->idle(b.out()) || reset_now) {
      ++phases;
      for (const auto& r : stim->regions()) {
        entries_used[r.entry] = entries_used[r.entry] || r.live;
        top_regions += r.live && r.f.src_base + r.f.region_bytes() - 1 == ones(p.addr_w);
      }
      if (reset_now || rng() % 8 == 0) {
        add(b.sb());
        ++resets;
        b.restart();
        stim = std::make_unique<DmaTriggerStimulus>(p, b.sb(), b.apb(), rng());
      }
      stim->new_phase();
    }
  }
  // Drain the last phase (no register traffic: the bus goes idle).
  stim->stop();
  for (unsigned n = 0; n < 200000 && !stim->idle(b.out()) && !testing::Test::HasFailure(); ++n)
    run_cycle(false);
  EXPECT_TRUE(stim->idle(b.out())) << "traffic did not drain: deadlock:" << stim->pending(b.out());
  const auto err = b.sb().check_drained();
  EXPECT_FALSE(err.has_value()) << *err;
  add(b.sb());
  unsigned used = 0;
  for (bool u : entries_used) used += u;
  uint64_t refused = 0;
  for (int i = 1; i < 10; ++i) refused += total.refused[i];
  std::printf("random: %llu cycles, %llu phases, %llu resets, %llu triggers, %llu misses, %llu "
              "blocks (%llu of several tiles), %llu descriptors (%llu shorter than a segment), "
              "%llu stalls, %llu writes (%llu refused: index %llu, busy entry %llu, port busy "
              "%llu), %u of %u entries, %llu regions ending at the top, a whole block passed over "
              "by at most %u others, %llu mismatches\n",
              (unsigned long long)(b.cosim().cycles() - first), (unsigned long long)phases,
              (unsigned long long)resets, (unsigned long long)total.triggers,
              (unsigned long long)total.misses, (unsigned long long)total.blocks,
              (unsigned long long)total.multi_tile_blocks, (unsigned long long)total.descs,
              (unsigned long long)total.split_bursts, (unsigned long long)total.stalls,
              (unsigned long long)total.writes, (unsigned long long)refused,
              (unsigned long long)total.refused[unsigned(DmaWriteFault::index)],
              (unsigned long long)total.refused[unsigned(DmaWriteFault::entry_busy)],
              (unsigned long long)total.refused[unsigned(DmaWriteFault::port_busy)], used,
              p.entries, (unsigned long long)top_regions, most_passed_over,
              (unsigned long long)the_cosim().mismatches());
  std::printf("registers: %llu reads (%llu of a pending count), %llu writes; refused: %llu "
              "address, %llu strobe, %llu read-only, %llu busy; %llu cycles with the interrupt "
              "up\n",
              (unsigned long long)regs_total.reads, (unsigned long long)total.pending_reads,
              (unsigned long long)regs_total.writes, (unsigned long long)regs_total.address_errors,
              (unsigned long long)regs_total.strobe_errors,
              (unsigned long long)regs_total.read_only_errors,
              (unsigned long long)regs_total.busy_errors, (unsigned long long)regs_total.intr_cycles);
  EXPECT_EQ(the_cosim().failures(), 0u) << the_cosim().first_failure();
  EXPECT_GE(b.cosim().cycles() - first, cycles);
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
  for (DmaWriteFault f : {DmaWriteFault::index, DmaWriteFault::tiles_per_block,
                          DmaWriteFault::dims_zero, DmaWriteFault::tile_rows,
                          DmaWriteFault::tile_cols, DmaWriteFault::region_overflow,
                          DmaWriteFault::entry_busy, DmaWriteFault::port_busy, DmaWriteFault::op})
    EXPECT_GT(total.refused[unsigned(f)], 0u) << dma_write_fault_name(f);
  EXPECT_GT(total.none_triggers, 100u) << "tiles taken by NONE entries";
  // The register port: reads (a pending count among them), each kind of
  // refusal, the interrupt line up.
  EXPECT_GT(regs_total.reads, 1000u);
  EXPECT_GT(total.pending_reads, 0u);
  EXPECT_GT(regs_total.address_errors, 0u);
  EXPECT_GT(regs_total.strobe_errors, 0u);
  EXPECT_GT(regs_total.read_only_errors, 0u);
  EXPECT_GT(regs_total.busy_errors, 0u);
  EXPECT_GT(regs_total.intr_cycles, 0u);
}

}  // namespace
}  // namespace t3::tb
