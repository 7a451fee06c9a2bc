// The firmware driver (firmware/src/driver.c, collectives.c) against a
// stand-in for the hardware: a register array behind the HAL that answers the
// PARAM_* registers of a chosen build and a table that is always ready. Every
// validation error, with its code and a message that names the field and its
// range, and that a refused commit makes no register access at all. The
// driver against the real block models and the RTL: tests/firmware_tlm_test.cpp.
#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "t3/collectives.h"
#include "t3/dma_trigger_regs.h"
#include "t3/driver.h"
#include "t3/hal.h"
#include "t3/mca_arbiter_regs.h"
#include "t3/near_bank_alu_regs.h"
#include "t3/tracker_regs.h"

namespace {

constexpr t3_windows kWin = T3_MEM_SUBSYSTEM_WINDOWS;

struct Access {
  char kind;  // 'W', 'R', 'P' (poll)
  uint32_t addr, value;
};

// The hardware as the HAL sees it.
struct FakeHw {
  std::map<uint32_t, uint32_t> regs;
  std::vector<Access> log;

  // A build like the defaults: 256 x 8 Tracker, 16 table entries of 8 slots.
  FakeHw() {
    regs[kWin.tracker + T3_TRACKER_A_PARAM_GEOMETRY] =
        8u << T3_TRACKER_R_PARAM_GEOMETRY_SETS_LOG2_SHIFT |
        8u << T3_TRACKER_R_PARAM_GEOMETRY_WAYS_SHIFT;
    regs[kWin.tracker + T3_TRACKER_A_PARAM_WIDTHS] = 48u << T3_TRACKER_R_PARAM_WIDTHS_ADDR_W_SHIFT |
                                                     16u << T3_TRACKER_R_PARAM_WIDTHS_CNT_W_SHIFT |
                                                     4u << T3_TRACKER_R_PARAM_WIDTHS_UPE_W_SHIFT |
                                                     32u << T3_TRACKER_R_PARAM_WIDTHS_STAT_W_SHIFT;
    regs[kWin.dma_trigger + T3_DMA_TRIGGER_A_PARAM_TABLE] =
        16u << T3_DMA_TRIGGER_R_PARAM_TABLE_ENTRIES_SHIFT |
        8u << T3_DMA_TRIGGER_R_PARAM_TABLE_SLOTS_SHIFT |
        4u << T3_DMA_TRIGGER_R_PARAM_TABLE_DESC_DEPTH_SHIFT |
        12u << T3_DMA_TRIGGER_R_PARAM_TABLE_MAX_BURST_LOG2_SHIFT;
    regs[kWin.dma_trigger + T3_DMA_TRIGGER_A_PARAM_WIDTHS] =
        48u << T3_DMA_TRIGGER_R_PARAM_WIDTHS_ADDR_W_SHIFT |
        4u << T3_DMA_TRIGGER_R_PARAM_WIDTHS_GPU_W_SHIFT |
        16u << T3_DMA_TRIGGER_R_PARAM_WIDTHS_DIM_W_SHIFT |
        32u << T3_DMA_TRIGGER_R_PARAM_WIDTHS_STAT_W_SHIFT;
    regs[kWin.mca_arbiter + T3_MCA_ARBITER_A_PARAM_WIDTHS] =
        64u << T3_MCA_ARBITER_R_PARAM_WIDTHS_DATA_W_SHIFT |
        6u << T3_MCA_ARBITER_R_PARAM_WIDTHS_OCC_W_SHIFT |
        16u << T3_MCA_ARBITER_R_PARAM_WIDTHS_CNT_W_SHIFT |
        12u << T3_MCA_ARBITER_R_PARAM_WIDTHS_LEARN_W_SHIFT;
    regs[kWin.near_bank_alu + T3_NEAR_BANK_ALU_A_PARAM_BURST] =
        32u << T3_NEAR_BANK_ALU_R_PARAM_BURST_BURST_BYTES_SHIFT;
    regs[kWin.dma_trigger + T3_DMA_TRIGGER_A_STATUS] = T3_DMA_TRIGGER_R_STATUS_TBL_READY_MASK;
  }
  size_t writes() const {
    size_t n = 0;
    for (const Access& a : log) n += a.kind == 'W';
    return n;
  }
};

FakeHw* g_hw = nullptr;

}  // namespace

extern "C" int mmio_write32(uint32_t addr, uint32_t value) {
  g_hw->log.push_back({'W', addr, value});
  // Registers that read back as the hardware makes them, not as written.
  if (addr != kWin.dma_trigger + T3_DMA_TRIGGER_A_TBL_CMD) g_hw->regs[addr] = value;
  return T3_MMIO_OK;
}

extern "C" int mmio_read32(uint32_t addr, uint32_t* value) {
  g_hw->log.push_back({'R', addr, 0});
  *value = g_hw->regs.count(addr) ? g_hw->regs[addr] : 0;
  return T3_MMIO_OK;
}

extern "C" int mmio_poll32(uint32_t addr, uint32_t mask, uint32_t want, uint32_t) {
  g_hw->log.push_back({'P', addr, want});
  return (g_hw->regs[addr] & mask) == want ? T3_MMIO_OK : T3_MMIO_TIMEOUT;
}

namespace {

// fp16 output of a GEMM, 512 x 512, WG tiles 64 x 64 of 8 WFs (T3 §4.2.1).
t3_buffer gemm_out(uint64_t addr = 0x100000000ull) {
  t3_buffer b{};
  b.addr = addr;
  b.m = 512;
  b.n = 512;
  b.elem_bytes = 2;
  b.wg_rows = 64;
  b.wg_cols = 64;
  b.wfs_per_wg = 8;
  return b;
}

class Driver : public ::testing::Test {
 protected:
  void SetUp() override {
    g_hw = &hw;
    ASSERT_EQ(t3_init(&c, &kWin, 0, 4), T3_OK);
    ASSERT_EQ(t3_probe(&c), T3_OK) << t3_message(&c);
    hw.log.clear();
  }
  void TearDown() override { g_hw = nullptr; }

  // A refused commit: the code, a message naming what and the allowed range,
  // and not one register access.
  void expect_refused(int code, const std::string& names) {
    const size_t before = hw.log.size();
    EXPECT_EQ(t3_commit(&c), code) << t3_message(&c);
    EXPECT_EQ(t3_error(&c), code);
    const std::string msg = t3_message(&c);
    EXPECT_NE(msg.find(names), std::string::npos) << msg;
    EXPECT_NE(msg.find("allowed"), std::string::npos) << msg;
    EXPECT_EQ(hw.log.size(), before) << "a refused commit touched a register";
  }

  FakeHw hw;
  t3_ctx c{};
  const uint64_t peers[4] = {0x100000000ull, 0x200000000ull, 0x300000000ull, 0x400000000ull};
};

TEST_F(Driver, ProbeReadsTheBuildFromTheParamRegisters) {
  EXPECT_EQ(c.hw.sets, 256u);
  EXPECT_EQ(c.hw.ways, 8u);
  EXPECT_EQ(c.hw.cnt_w, 16u);
  EXPECT_EQ(c.hw.entries, 16u);
  EXPECT_EQ(c.hw.slots, 8u);
  EXPECT_EQ(c.hw.dim_w, 16u);
  EXPECT_EQ(c.hw.gpu_w, 4u);
  EXPECT_EQ(c.hw.occ_w, 6u);
  EXPECT_EQ(c.hw.burst_bytes, 32u);
}

TEST_F(Driver, RingReduceScatterOnGpu0MapsTheStagesOfFigure7) {
  const t3_buffer b = gemm_out();
  ASSERT_EQ(t3_ring_reduce_scatter(&c, &b, peers, 1), T3_OK) << t3_message(&c);
  ASSERT_EQ(c.n_maps, 4u);
  // Stage 1: chunk 0 straight to GPU-3; stages 2, 3: chunks 3, 2 DMA'd to
  // GPU-3 after 2 updates per element; stage 4: chunk 1, the result, kept.
  const uint32_t chunks[4] = {0, 3, 2, 1};
  const t3_map_kind kinds[4] = {T3_MAP_REMOTE, T3_MAP_DMA, T3_MAP_DMA, T3_MAP_TRACK};
  for (uint32_t k = 0; k < 4; ++k) {
    EXPECT_EQ(c.maps[k].stage, k + 1);
    EXPECT_EQ(c.maps[k].chunk.col0, chunks[k] * 128);
    EXPECT_EQ(c.maps[k].kind, kinds[k]);
    if (kinds[k] != T3_MAP_TRACK) {
      EXPECT_EQ(c.maps[k].peer, 3u);
      EXPECT_EQ(c.maps[k].peer_addr, peers[3] + uint64_t(chunks[k]) * 128 * 512 * 2);
      EXPECT_EQ(c.maps[k].op, T3_UPDATE);
    }
  }
  ASSERT_EQ(t3_commit(&c), T3_OK) << t3_message(&c);
  // The Tracker watches chunks 1..3 (the remote chunk 0 is outside), for a
  // WF tile of 64 x 8 elements x 2 updates.
  EXPECT_EQ(hw.regs[kWin.tracker + T3_TRACKER_A_BASE_LO], uint32_t(b.addr + 128 * 1024));
  EXPECT_EQ(hw.regs[kWin.tracker + T3_TRACKER_A_LIMIT_LO], uint32_t(b.addr + 512 * 1024));
  EXPECT_EQ(hw.regs[kWin.tracker + T3_TRACKER_A_TILE],
            512u | 2u << T3_TRACKER_R_TILE_UPDATES_PER_ELEM_SHIFT);
  EXPECT_EQ(hw.regs[kWin.tracker + T3_TRACKER_A_CTRL], T3_TRACKER_R_CTRL_ENABLE_MASK);
  // The last thing written is the Tracker turned on.
  EXPECT_EQ(hw.log.back().kind, 'W');
  EXPECT_EQ(hw.log.back().addr, kWin.tracker + T3_TRACKER_A_CTRL);
}

TEST_F(Driver, EveryCollectiveCommitsOnEveryGpu) {
  const t3_buffer b = gemm_out();
  for (int which = 0; which < 4; ++which)
    for (uint32_t g = 0; g < 4; ++g) {
      SCOPED_TRACE("collective " + std::to_string(which) + " gpu " + std::to_string(g));
      ASSERT_EQ(t3_init(&c, &kWin, g, 4), T3_OK);
      ASSERT_EQ(t3_probe(&c), T3_OK);
      const int e = which == 0   ? t3_ring_reduce_scatter(&c, &b, peers, 2)
                    : which == 1 ? t3_direct_reduce_scatter(&c, &b, peers)
                    : which == 2 ? t3_ring_all_gather(&c, &b, peers, 1)
                                 : t3_all_to_all(&c, &b, peers);
      ASSERT_EQ(e, T3_OK) << t3_message(&c);
      EXPECT_EQ(t3_commit(&c), T3_OK) << t3_message(&c);
    }
}

TEST_F(Driver, AChunkThatIsNotWholeWfTiles) {
  const t3_buffer b = gemm_out();
  EXPECT_EQ(t3_dma_map(&c, &b, t3_chunk{0, 96}, 2, 3, peers[3], T3_UPDATE, 2, 1), T3_E_CHUNK);
  EXPECT_NE(std::string(t3_message(&c)).find("multiples of wg_cols = 64"), std::string::npos)
      << t3_message(&c);
  EXPECT_EQ(t3_dma_map(&c, &b, t3_chunk{448, 128}, 2, 3, peers[3], T3_UPDATE, 2, 1), T3_E_CHUNK);
  EXPECT_NE(std::string(t3_message(&c)).find("outside the buffer"), std::string::npos)
      << t3_message(&c);
  t3_buffer odd = b;
  odd.n = 500;  // not 4 chunks of whole WG tiles
  EXPECT_EQ(t3_ring_reduce_scatter(&c, &odd, peers, 1), T3_E_CHUNK);
  EXPECT_NE(std::string(t3_message(&c)).find("gpus x wg_cols = 256"), std::string::npos)
      << t3_message(&c);
  EXPECT_TRUE(hw.log.empty());
}

TEST_F(Driver, OverlappingMaps) {
  const t3_buffer b = gemm_out();
  ASSERT_EQ(t3_dma_map(&c, &b, t3_chunk{0, 128}, 2, 3, peers[3], T3_UPDATE, 2, 1), T3_OK);
  EXPECT_EQ(t3_dma_map(&c, &b, t3_chunk{64, 128}, 3, 3, peers[3], T3_UPDATE, 2, 1), T3_E_OVERLAP);
  EXPECT_NE(std::string(t3_message(&c)).find("[64, 192) overlap stage 2's [0, 128)"),
            std::string::npos)
      << t3_message(&c);
}

TEST_F(Driver, PeersOutOfRange) {
  const t3_buffer b = gemm_out();
  EXPECT_EQ(t3_dma_map(&c, &b, t3_chunk{0, 128}, 2, 4, 0, T3_UPDATE, 2, 1),
            T3_E_PEER);  // beyond the node
  EXPECT_NE(std::string(t3_message(&c)).find("peer = 4"), std::string::npos) << t3_message(&c);
  EXPECT_EQ(t3_remote_map(&c, &b, t3_chunk{0, 128}, 1, 0, 0, T3_STORE), T3_E_PEER);  // this GPU
  // A node bigger than the table's GPU field (GPU_W = 4: GPUs 0..15).
  ASSERT_EQ(t3_init(&c, &kWin, 0, 32), T3_OK);
  ASSERT_EQ(t3_probe(&c), T3_OK);
  ASSERT_EQ(t3_dma_map(&c, &b, t3_chunk{0, 128}, 2, 20, 0, T3_UPDATE, 2, 1), T3_OK);
  expect_refused(T3_E_PEER, "peer = 20");
}

TEST_F(Driver, ThresholdsOutOfRange) {
  const t3_buffer b = gemm_out();
  ASSERT_EQ(t3_dma_map(&c, &b, t3_chunk{0, 128}, 2, 3, peers[3], T3_UPDATE, 16, 1), T3_OK);
  expect_refused(T3_E_THRESHOLD, "updates_per_elem = 16");  // UPE_W = 4
  ASSERT_EQ(t3_init(&c, &kWin, 0, 4), T3_OK);
  ASSERT_EQ(t3_probe(&c), T3_OK);
  t3_buffer big = b;
  big.wg_rows = 512;   // a WF tile of 512 x 8 elements x 2 updates = 8192: fits CNT_W = 16
  big.wfs_per_wg = 1;  // 512 x 64 x 2 = 65536: does not
  ASSERT_EQ(t3_dma_map(&c, &big, t3_chunk{0, 128}, 2, 3, peers[3], T3_UPDATE, 2, 1), T3_OK);
  expect_refused(T3_E_THRESHOLD, "threshold = 65536");
  ASSERT_EQ(t3_init(&c, &kWin, 0, 4), T3_OK);
  ASSERT_EQ(t3_probe(&c), T3_OK);
  ASSERT_EQ(t3_dma_map(&c, &b, t3_chunk{0, 128}, 2, 3, peers[3], T3_UPDATE, 2, 1), T3_OK);
  ASSERT_EQ(t3_dma_map(&c, &b, t3_chunk{128, 128}, 3, 3, peers[3], T3_UPDATE, 1, 1), T3_OK);
  expect_refused(T3_E_THRESHOLD, "updates_per_elem = 1 differs");
  EXPECT_EQ(t3_dma_map(&c, &b, t3_chunk{256, 128}, 4, 3, peers[3], T3_UPDATE, 0, 1),
            T3_E_THRESHOLD);
}

TEST_F(Driver, McaLevelsAndBoundsOutOfRange) {
  t3_mca m = c.mca;
  m.level[1] = 0;
  ASSERT_EQ(t3_mca_setup(&c, &m), T3_OK);
  expect_refused(T3_E_THRESHOLD, "level[1] = 0");
  m = c.mca;
  m.level[1] = 10;
  m.level[2] = 64;  // OCC_W = 6
  ASSERT_EQ(t3_mca_setup(&c, &m), T3_OK);
  expect_refused(T3_E_THRESHOLD, "level[2] = 64");
  m.level[2] = 30;
  m.bound[1] = 25;  // above bound[0] = 20
  ASSERT_EQ(t3_mca_setup(&c, &m), T3_OK);
  expect_refused(T3_E_THRESHOLD, "not descending");
  m.bound[1] = 10;
  m.policy = 3;
  ASSERT_EQ(t3_mca_setup(&c, &m), T3_OK);
  expect_refused(T3_E_ARG, "policy = 3");
}

TEST_F(Driver, MoreLiveTilesPerSetThanWays) {
  // 4096 rows: 64 WGs per column of WG tiles x 8 columns = 512 WGs in one
  // stage: 2 per set of 256, 16 WF tiles in a set of 8 ways.
  t3_buffer b = gemm_out();
  b.m = 4096;
  ASSERT_EQ(t3_dma_map(&c, &b, t3_chunk{0, 512}, 2, 3, peers[3], T3_UPDATE, 2, 1), T3_OK);
  expect_refused(T3_E_WAYS, "WAYS = 8");
  // 256 WGs a stage fit 256 sets one each; two stages in flight do not.
  ASSERT_EQ(t3_init(&c, &kWin, 0, 4), T3_OK);
  ASSERT_EQ(t3_probe(&c), T3_OK);
  ASSERT_EQ(t3_dma_map(&c, &b, t3_chunk{0, 256}, 2, 3, peers[3], T3_UPDATE, 2, 1), T3_OK);
  EXPECT_EQ(t3_commit(&c), T3_OK) << t3_message(&c);
  ASSERT_EQ(t3_track_map(&c, &b, t3_chunk{256, 256}, 3, 2), T3_OK);
  expect_refused(T3_E_WAYS, "stages 2 and the next: 512 WGs");
}

TEST_F(Driver, NoTableEntryLeft) {
  // 17 tracked chunks of one WG column each for a table of 16 entries.
  t3_buffer b = gemm_out();
  b.n = 17 * 64;
  for (uint32_t k = 0; k < 17; ++k)
    ASSERT_EQ(t3_dma_map(&c, &b, t3_chunk{k * 64, 64}, k + 2, 3, peers[3], T3_UPDATE, 2, 1), T3_OK);
  expect_refused(T3_E_ENTRIES, "ENTRIES = 16");
}

TEST_F(Driver, ColumnsBetweenTrackedChunksThatNoMapCovers) {
  const t3_buffer b = gemm_out();
  ASSERT_EQ(t3_dma_map(&c, &b, t3_chunk{0, 128}, 2, 3, peers[3], T3_UPDATE, 2, 1), T3_OK);
  ASSERT_EQ(t3_track_map(&c, &b, t3_chunk{384, 128}, 4, 2), T3_OK);
  expect_refused(T3_E_REGION, "columns from 128");
  // Mapped remotely, the gap is fine: nothing of it is written here.
  ASSERT_EQ(t3_remote_map(&c, &b, t3_chunk{128, 256}, 1, 3, peers[3], T3_UPDATE), T3_OK);
  EXPECT_EQ(t3_commit(&c), T3_OK) << t3_message(&c);
}

TEST_F(Driver, FieldsBeyondTheBuild) {
  t3_buffer b = gemm_out(uint64_t{1} << 48);  // ADDR_W = 48
  ASSERT_EQ(t3_dma_map(&c, &b, t3_chunk{0, 128}, 2, 3, peers[3], T3_UPDATE, 2, 1), T3_OK);
  expect_refused(T3_E_ARG, "ADDR_W");
  ASSERT_EQ(t3_init(&c, &kWin, 0, 4), T3_OK);
  ASSERT_EQ(t3_probe(&c), T3_OK);
  b = gemm_out();
  ASSERT_EQ(t3_dma_map(&c, &b, t3_chunk{0, 128}, 2, 3, peers[3], T3_UPDATE, 2, 9), T3_OK);
  expect_refused(T3_E_ARG, "wf_tiles_per_block = 9");  // SLOTS = 8
  ASSERT_EQ(t3_init(&c, &kWin, 0, 4), T3_OK);
  ASSERT_EQ(t3_probe(&c), T3_OK);
  // 8 WGs x 8 WFs = 64 tiles: blocks of 3 would leave a last block short.
  ASSERT_EQ(t3_dma_map(&c, &b, t3_chunk{0, 128}, 2, 3, peers[3], T3_UPDATE, 2, 3), T3_OK);
  expect_refused(T3_E_ARG, "not a whole number of DMA blocks");
  ASSERT_EQ(t3_init(&c, &kWin, 0, 4), T3_OK);
  ASSERT_EQ(t3_probe(&c), T3_OK);
  ASSERT_EQ(t3_set_burst(&c, 13), T3_OK);
  expect_refused(T3_E_ARG, "burst_log2 = 13");
}

TEST_F(Driver, CommitBeforeProbe) {
  ASSERT_EQ(t3_init(&c, &kWin, 0, 4), T3_OK);
  expect_refused(T3_E_NOT_PROBED, "t3_probe");
}

TEST_F(Driver, ATableThatRefusesOrNeverFinishes) {
  const t3_buffer b = gemm_out();
  ASSERT_EQ(t3_ring_reduce_scatter(&c, &b, peers, 1), T3_OK);
  hw.regs[kWin.dma_trigger + T3_DMA_TRIGGER_A_STATUS] =
      T3_DMA_TRIGGER_R_STATUS_TBL_READY_MASK | T3_DMA_TRIGGER_R_STATUS_TBL_ERR_MASK |
      7u << T3_DMA_TRIGGER_R_STATUS_TBL_ERR_CAUSE_SHIFT;
  EXPECT_EQ(t3_commit(&c), T3_E_TABLE);
  EXPECT_NE(std::string(t3_message(&c)).find("cause 7"), std::string::npos) << t3_message(&c);
  hw.regs[kWin.dma_trigger + T3_DMA_TRIGGER_A_STATUS] = 0;
  EXPECT_EQ(t3_commit(&c), T3_E_TIMEOUT);
}

}  // namespace
