// Unit tests of the DMA trigger table core's cycle model (no SystemC, no RTL).
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "dma_trigger/dma_trigger_core.h"

namespace t3 {
namespace {

// The documented configuration: small enough that a table write takes 6 cycles.
DmaTriggerParams doc_params() {
  DmaTriggerParams p;
  p.entries = 4;
  p.slots = 2;
  p.desc_depth = 2;
  p.dim_w = 4;
  p.max_burst_log2 = 4;
  return p;
}

// 8 x 4 fp16 at 0x100, tiles of 4 rows x 2 columns: 16-byte columns, 8-byte segments.
DmaEntry doc_entry() {
  DmaEntry f;
  f.valid = true;
  f.src_base = 0x100;
  f.dst_base = 0x900;
  f.dst_gpu = 2;
  f.op = DmaOp::update;
  f.tiles_per_block = 1;
  f.m = 8;
  f.n = 4;
  f.elem_log2 = 1;
  f.tile_rows = 4;
  f.tile_cols = 2;
  return f;
}

struct Harness {
  explicit Harness(const DmaTriggerParams& p) : t(p) {
    in.rst_n = false;
    t.clock(in);
    in.rst_n = true;
    in.cfg_enable = true;
    in.cfg_burst_log2 = 4;
    in.desc_ready = true;
  }
  DmaTriggerCoreOutputs step() {
    const DmaTriggerCoreOutputs o = t.eval(in);
    if (o.desc_valid && in.desc_ready) descs.push_back(o);
    t.clock(in);
    in.tbl_we = false;
    return o;
  }
  DmaWriteFault write(unsigned idx, const DmaEntry& f) {
    in.err_clear = true;
    step();
    in.err_clear = false;
    in.tbl_we = true;
    in.tbl_idx = idx;
    in.tbl = f;
    step();
    while (!t.eval(in).tbl_ready) step();
    const DmaTriggerCoreOutputs o = t.eval(in);
    return o.tbl_err ? DmaWriteFault(o.tbl_err_cause) : DmaWriteFault::none;
  }
  void trigger(uint32_t wg, uint32_t wf, uint64_t addr) {
    in.trig_valid = true;
    in.trig_wg_id = wg;
    in.trig_wf_id = wf;
    in.trig_addr = addr;
    for (int n = 0; n < 1000; ++n)
      if (step().trig_ready) break;
    in.trig_valid = false;
  }
  void run(unsigned n) {
    for (unsigned i = 0; i < n; ++i) step();
  }
  DmaTriggerCore t;
  DmaTriggerCoreInputs in;
  std::vector<DmaTriggerCoreOutputs> descs;
};

TEST(DmaTriggerParams, BadValuesNameTheParameterAndRange) {
  DmaTriggerParams p;
  EXPECT_NO_THROW(p.validate());
  p.desc_depth = 3;
  try {
    p.validate();
    FAIL() << "no error";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("desc_depth (DESC_DEPTH) = 3 is out of range; allowed: "
                                         "a power of two from 1 to 32"),
              std::string::npos)
        << e.what();
  }
  p = DmaTriggerParams{};
  p.dim_w = 25;
  EXPECT_THROW(DmaTriggerCore{p}, std::invalid_argument);
  EXPECT_EQ(DmaTriggerParams{}.write_cycles(), 18u);
  EXPECT_EQ(DmaTriggerParams{}.count_w(), 4u);  // 0..8 tiles
}

// The table's rule (fault) and the driver-side messages (check) name each cause.
TEST(DmaEntry, FaultIsTheOneRuleAndCheckNamesEachField) {
  const DmaTriggerParams p = doc_params();  // SLOTS 2, DIM_W 4, ADDR_W 48
  struct Case {
    void (*edit)(DmaEntry&);
    DmaWriteFault fault;
    const char* message;
  };
  const Case cases[] = {
      {[](DmaEntry&) {}, DmaWriteFault::none, nullptr},
      {[](DmaEntry& f) { f.tiles_per_block = 0; }, DmaWriteFault::tiles_per_block,
       "tiles_per_block = 0 is out of range; allowed: 1..2 (SLOTS)"},
      {[](DmaEntry& f) { f.tiles_per_block = 3; }, DmaWriteFault::tiles_per_block,
       "tiles_per_block = 3"},
      {[](DmaEntry& f) { f.n = 0; }, DmaWriteFault::dims_zero, "m x n = 8 x 0 is empty"},
      {[](DmaEntry& f) { f.tile_rows = 9; }, DmaWriteFault::tile_rows,
       "tile_rows = 9 is out of range; allowed: 1..m = 8"},
      {[](DmaEntry& f) { f.tile_cols = 0; }, DmaWriteFault::tile_cols, "tile_cols = 0"},
      {[](DmaEntry& f) { f.src_base = (uint64_t{1} << 48) - 63; }, DmaWriteFault::region_overflow,
       "passes the top of the address space"},
      {[](DmaEntry& f) { f.src_base = (uint64_t{1} << 48) - 64; }, DmaWriteFault::none, nullptr},
  };
  for (const Case& c : cases) {
    DmaEntry f = doc_entry();
    c.edit(f);
    EXPECT_EQ(f.fault(p), c.fault) << (c.message ? c.message : "valid");
    const auto msg = f.check(p);
    EXPECT_EQ(msg.has_value(), c.message != nullptr) << msg.value_or("");
    if (msg && c.message) {
      EXPECT_NE(msg->find(c.message), std::string::npos) << *msg;
    }
  }
  DmaEntry wide = doc_entry();
  wide.m = 16;  // does not fit DIM_W = 4: the core would take 0
  EXPECT_NE(wide.check(p)->find("m = 16 is out of range; allowed: 0..15 (DIM_W bits)"),
            std::string::npos);
  // The core takes log2(SLOTS + 1) = 2 bits of tiles_per_block: 5 would be
  // taken as 1, so the driver-side check refuses it by its own value.
  DmaEntry wraps = doc_entry();
  wraps.tiles_per_block = 5;
  EXPECT_EQ(wraps.fault(p), DmaWriteFault::none);
  ASSERT_TRUE(wraps.check(p).has_value());
  EXPECT_NE(wraps.check(p)->find("tiles_per_block = 5 is out of range; allowed: 1..2 (SLOTS)"),
            std::string::npos);
}

// The timing table "One tile's life" in docs/blocks/dma_trigger.md, cycle by cycle.
TEST(DmaTriggerCore, OneTilesLifeAsDocumented) {
  Harness h(doc_params());
  struct Row {
    bool we, trig;
    bool tbl_ready, trig_ready, desc_valid;
    uint64_t src;
    bool last;
  };
  // cycle: 0 write taken; 1-6 the write (DIM_W + 2 cycles); 7 the trigger
  // shows (its address compared); 8 it is taken; 9 the block is picked; 10
  // its entry's fields are fetched; 11 its tile is read from the buffer; 12
  // the tile is loaded; 13 first descriptor into the queue; 14-15 out.
  const Row rows[] = {
      {true, false, true, false, false, 0, false},   // 0
      {false, false, false, false, false, 0, false}, // 1
      {false, false, false, false, false, 0, false}, // 2
      {false, false, false, false, false, 0, false}, // 3
      {false, false, false, false, false, 0, false}, // 4
      {false, false, false, false, false, 0, false}, // 5
      {false, false, false, false, false, 0, false}, // 6
      {false, true, true, false, false, 0, false},   // 7
      {false, true, true, true, false, 0, false},    // 8
      {false, false, true, false, false, 0, false},  // 9
      {false, false, true, false, false, 0, false},  // 10
      {false, false, true, false, false, 0, false},  // 11
      {false, false, true, false, false, 0, false},  // 12
      {false, false, true, false, false, 0, false},  // 13
      {false, false, true, false, true, 0x100, false},  // 14
      {false, false, true, false, true, 0x110, true},   // 15
      {false, false, true, false, false, 0, false},  // 16
  };
  h.in.tbl_idx = 0;
  h.in.tbl = doc_entry();
  for (int c = 0; c < 17; ++c) {
    const Row& r = rows[c];
    h.in.tbl_we = r.we;
    h.in.trig_valid = r.trig;
    h.in.trig_wg_id = 5;
    h.in.trig_wf_id = 1;
    h.in.trig_addr = 0x100;
    const DmaTriggerCoreOutputs o = h.step();
    EXPECT_EQ(o.tbl_ready, r.tbl_ready) << "cycle " << c;
    EXPECT_EQ(o.trig_ready, r.trig_ready) << "cycle " << c;
    EXPECT_EQ(o.desc_valid, r.desc_valid) << "cycle " << c;
    if (o.desc_valid) {
      EXPECT_EQ(o.desc_src, r.src) << "cycle " << c;
      EXPECT_EQ(o.desc_dst, r.src + 0x800) << "cycle " << c;
      EXPECT_EQ(o.desc_bytes, 8u);
      EXPECT_EQ(o.desc_gpu, 2u);
      EXPECT_TRUE(o.desc_op);
      EXPECT_EQ(o.desc_wg, 5u);
      EXPECT_EQ(o.desc_wf, 1u);
      EXPECT_EQ(o.desc_last, r.last) << "cycle " << c;
    }
    // The write, then the tile from the cycle after it was taken until its
    // last descriptor leaves.
    EXPECT_EQ(o.busy, (c >= 1 && c <= 6) || (c >= 9 && c <= 15)) << "cycle " << c;
  }
}

TEST(DmaTriggerCore, EntriesTakeTurnsAndTilesKeepTheirOrder) {
  DmaTriggerParams p = doc_params();
  p.slots = 4;
  Harness h(p);
  DmaEntry a = doc_entry(), b = doc_entry();
  b.src_base = 0x1000;
  b.dst_gpu = 1;
  ASSERT_EQ(h.write(0, a), DmaWriteFault::none);
  ASSERT_EQ(h.write(1, b), DmaWriteFault::none);
  h.in.desc_ready = false;  // let both entries fill
  h.trigger(1, 0, 0x100);
  h.trigger(2, 0, 0x108);
  h.trigger(3, 0, 0x1000);
  h.in.desc_ready = true;
  h.run(20);
  ASSERT_EQ(h.descs.size(), 6u);
  // Entry 0's first tile, then entry 1's (round-robin), then entry 0's second.
  EXPECT_EQ(h.descs[0].desc_wg, 1u);
  EXPECT_EQ(h.descs[2].desc_wg, 3u);
  EXPECT_EQ(h.descs[4].desc_wg, 2u);
}

TEST(DmaTriggerCore, BurstsStopAtAlignedBoundariesAndSegmentEnds) {
  Harness h(doc_params());
  h.in.cfg_burst_log2 = 2;  // 4-byte bursts
  DmaEntry f = doc_entry();
  f.tile_rows = 3;  // 6-byte segments
  ASSERT_EQ(h.write(0, f), DmaWriteFault::none);
  h.trigger(0, 0, 0x102);  // starts 2 bytes into a 4-byte block
  h.run(20);
  ASSERT_EQ(h.descs.size(), 4u);
  EXPECT_EQ(h.descs[0].desc_src, 0x102u);
  EXPECT_EQ(h.descs[0].desc_bytes, 2u);
  EXPECT_EQ(h.descs[1].desc_src, 0x104u);
  EXPECT_EQ(h.descs[1].desc_bytes, 4u);
  EXPECT_EQ(h.descs[2].desc_src, 0x112u);
  EXPECT_TRUE(h.descs[3].desc_last);
}

TEST(DmaTriggerCore, AFullEntryHoldsTheTriggerAndNothingIsLost) {
  Harness h(doc_params());  // SLOTS 2
  DmaEntry f = doc_entry();
  f.tiles_per_block = 2;
  f.tile_cols = 4;  // 4 descriptors a tile: more than the queue holds
  ASSERT_EQ(h.write(0, f), DmaWriteFault::none);
  h.in.desc_ready = false;
  h.trigger(0, 0, 0x100);
  h.trigger(1, 0, 0x108);  // a whole block: it starts
  h.run(10);
  h.in.trig_valid = true;
  h.in.trig_addr = 0x104;
  EXPECT_FALSE(h.t.eval(h.in).trig_ready) << "both slots hold the block being sent";
  h.in.trig_valid = false;
  h.in.desc_ready = true;
  h.run(20);
  EXPECT_EQ(h.descs.size(), 8u);
  EXPECT_EQ(h.t.eval(h.in).stat_blocks, 1u);
}

// NONE: a complete tile is taken and counted, and nothing is sent (the last
// stage of a reduce-scatter, T3 Fig. 7); it never waits for room. Operation
// 3 does not exist: refused, cause 9.
TEST(DmaTriggerCore, ANoneEntryCountsTilesAndSendsNothing) {
  Harness h(doc_params());  // SLOTS 2
  DmaEntry f = doc_entry();
  f.op = DmaOp::none;
  ASSERT_EQ(h.write(0, f), DmaWriteFault::none);
  h.in.desc_ready = false;  // nothing could leave anyway
  // Each taken in the cycle after it shows (its compares registered), with
  // no wait for room.
  for (uint32_t k = 0; k < 5; ++k) {
    h.in.trig_valid = true;
    h.in.trig_wg_id = k;
    h.in.trig_addr = 0x100 + 8 * (k % 2);
    EXPECT_FALSE(h.step().trig_ready) << "tile " << k << ", first cycle";
    EXPECT_TRUE(h.step().trig_ready) << "tile " << k;
  }
  h.in.trig_valid = false;
  h.in.desc_ready = true;
  h.run(20);
  const DmaTriggerCoreOutputs o = h.t.eval(h.in);
  EXPECT_TRUE(h.descs.empty());
  EXPECT_EQ(o.stat_triggers, 5u);
  EXPECT_EQ(o.stat_blocks, 0u);
  EXPECT_FALSE(o.busy);
  EXPECT_FALSE(o.miss);
  f.op = DmaOp(3);
  EXPECT_EQ(h.write(1, f), DmaWriteFault::op);
  EXPECT_NE(f.check(doc_params()).value_or("").find("op = 3"), std::string::npos);
}

// A write commanded while the last is still in progress is refused (cause
// 8, port_busy): the register port's command is a one-cycle pulse, and a
// command the port cannot take must show. The write in progress goes on and
// commits; when it is refused at the same edge, its own cause is the one kept.
TEST(DmaTriggerCore, AWriteWhileTheLastIsInProgressIsRefused) {
  const DmaTriggerParams p = doc_params();  // a write takes 6 cycles
  Harness h(p);
  DmaEntry a = doc_entry(), b = doc_entry();
  b.src_base = 0x1000;
  h.in.tbl_we = true;
  h.in.tbl_idx = 0;
  h.in.tbl = a;
  EXPECT_TRUE(h.step().tbl_ready);  // taken
  // Every cycle of the write, up to the one it commits in.
  for (unsigned c = 1; c <= p.write_cycles(); ++c) {
    h.in.tbl_we = true;
    h.in.tbl_idx = 1;
    h.in.tbl = b;
    const DmaTriggerCoreOutputs o = h.step();
    EXPECT_FALSE(o.tbl_ready) << "cycle " << c;
    EXPECT_EQ(o.tbl_err, c > 1) << "cycle " << c;
  }
  DmaTriggerCoreOutputs o = h.step();
  EXPECT_TRUE(o.tbl_ready);
  EXPECT_TRUE(o.tbl_err);
  EXPECT_EQ(o.tbl_err_cause, unsigned(DmaWriteFault::port_busy));
  EXPECT_EQ(o.busy, false) << "a refused command starts no write";
  h.in.tbl_rd_idx = 0;
  EXPECT_TRUE(h.t.eval(h.in).tbl_rd.valid) << "the write in progress committed";
  h.in.tbl_rd_idx = 1;
  EXPECT_FALSE(h.t.eval(h.in).tbl_rd.valid) << "the refused one wrote nothing";
  // Both refused at one edge: the write in progress (M = 0) and a command
  // in its commit cycle. The cause kept is the earlier write's.
  DmaEntry bad = a;
  bad.m = 0;
  h.in.err_clear = true;
  h.step();
  h.in.err_clear = false;
  h.in.tbl_we = true;
  h.in.tbl_idx = 2;
  h.in.tbl = bad;
  h.step();
  h.run(p.write_cycles() - 1);
  h.in.tbl_we = true;  // the commit cycle
  EXPECT_FALSE(h.step().tbl_ready);
  o = h.step();
  EXPECT_TRUE(o.tbl_err);
  EXPECT_EQ(o.tbl_err_cause, unsigned(DmaWriteFault::dims_zero));
  // And an error clear in the cycle of a refused command leaves the new cause.
  h.in.tbl_we = true;
  h.in.tbl = a;
  h.in.tbl_idx = 3;
  h.step();
  h.in.tbl_we = true;
  h.in.err_clear = true;
  h.step();
  h.in.err_clear = false;
  o = h.step();
  EXPECT_TRUE(o.tbl_err);
  EXPECT_EQ(o.tbl_err_cause, unsigned(DmaWriteFault::port_busy));
}

// The index takes TBL_IDX's 6 bits: at or above ENTRIES a write is refused
// (cause 1) whatever ENTRIES is, a power of two included, instead of
// wrapping onto a live entry; the read-back there is all zeros.
TEST(DmaTriggerCore, AnIndexAboveTheTableIsRefusedAndReadsZeros) {
  for (const unsigned entries : {4u, 3u, 1u, 64u}) {
    DmaTriggerParams p = doc_params();
    p.entries = entries;
    Harness h(p);
    SCOPED_TRACE("ENTRIES = " + std::to_string(entries));
    ASSERT_EQ(h.write(0, doc_entry()), DmaWriteFault::none);
    DmaEntry other = doc_entry();
    other.src_base = 0x2000;
    other.dst_gpu = 3;
    for (unsigned idx = entries; idx < (1u << kDmaIdxBits); ++idx) {
      EXPECT_EQ(h.write(idx, other), DmaWriteFault::index) << "index " << idx;
      h.in.tbl_rd_idx = idx;
      const DmaTriggerCoreOutputs o = h.t.eval(h.in);
      EXPECT_FALSE(o.tbl_rd.valid);
      EXPECT_EQ(o.tbl_rd.src_base, 0u);
      EXPECT_EQ(o.tbl_rd.m, 0u);
      EXPECT_EQ(o.tbl_rd_pending, 0u);
    }
    // Entry idx mod ENTRIES (where a narrower index would have landed) is
    // as written.
    h.in.tbl_rd_idx = 0;
    const DmaTriggerCoreOutputs o = h.t.eval(h.in);
    EXPECT_TRUE(o.tbl_rd.valid);
    EXPECT_EQ(o.tbl_rd.src_base, 0x100u);
    EXPECT_EQ(o.tbl_rd.dst_gpu, 2u);
    // The last entry of the table is still writable.
    EXPECT_EQ(h.write(entries - 1, entries == 1 ? doc_entry() : other), DmaWriteFault::none);
  }
}

// BURST.LOG2 reaches the core whole (5 bits): every value above
// MAX_BURST_LOG2 is refused, also those whose low bits would be a good size.
TEST(DmaTriggerCore, EveryBurstSizeAboveTheMaximumIsRefused) {
  const DmaTriggerParams p = doc_params();  // MAX_BURST_LOG2 = 4
  Harness h(p);
  ASSERT_EQ(h.write(0, doc_entry()), DmaWriteFault::none);
  h.in.trig_valid = true;  // shown, never taken: ready from the next cycle on
  h.in.trig_addr = 0x100;
  h.in.cfg_burst_log2 = 1u << (kDmaBurstLog2Bits - 1);  // refused: the trigger waits
  EXPECT_FALSE(h.step().trig_ready);
  for (uint32_t b = 0; b < (1u << kDmaBurstLog2Bits); ++b) {
    h.in.cfg_burst_log2 = b;
    const DmaTriggerCoreOutputs o = h.t.eval(h.in);
    EXPECT_EQ(o.cfg_error, b > p.max_burst_log2) << "BURST.LOG2 = " << b;
    EXPECT_EQ(o.trig_ready, b <= p.max_burst_log2) << "BURST.LOG2 = " << b;
  }
}

}  // namespace
}  // namespace t3
