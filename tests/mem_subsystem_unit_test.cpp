// Unit tests of the memory-side subsystem's cycle model (no SystemC, no
// RTL): its parameters, its register windows, the path of one write from
// the compute stream to the DMA engine (the cycle table in
// docs/blocks/mem_subsystem.md), back-pressure from a full queue.
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "mem_subsystem/mem_subsystem.h"
#include "mem_subsystem/mem_subsystem_pins.h"
#include "t3/dma_trigger_regs.h"
#include "t3/mem_subsystem_map.h"
#include "t3/mca_arbiter_regs.h"
#include "t3/near_bank_alu_regs.h"
#include "t3/tracker_regs.h"

namespace t3 {
namespace {

constexpr uint32_t kTrk = T3_MEM_SUBSYSTEM_TRACKER_BASE, kDma = T3_MEM_SUBSYSTEM_DMA_TRIGGER_BASE,
                   kMca = T3_MEM_SUBSYSTEM_MCA_ARBITER_BASE, kNba = T3_MEM_SUBSYSTEM_NEAR_BANK_ALU_BASE;

// The documented configuration: the co-simulation's small one, but a DRAM
// queue of 8.
MemSubsystemParams doc_params() {
  MemSubsystemParams p;
  p.sets = 4;
  p.ways = 2;
  p.wg_id_w = 6;
  p.addr_w = 24;
  p.cnt_w = 8;
  p.entries = 4;
  p.slots = 2;
  p.desc_depth = 2;
  p.gpu_w = 2;
  p.dim_w = 8;
  p.max_burst_log2 = 6;
  p.queue_depth = 8;
  p.burst_bytes = 16;
  p.bg = 2;
  p.bank_addr_w = 10;
  p.t_ccds = 2;
  p.t_ccdl = 3;
  p.t_ccdwl = 6;
  p.stat_w = 8;
  return p;
}

std::string message(const MemSubsystemParams& p) {
  try {
    p.validate();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no error";
}

// The subsystem with its inputs, stepped one clock at a time; registers
// written as the TLM socket writes them (at once, between two clocks).
struct Harness {
  explicit Harness(const MemSubsystemParams& p) : m(p) {
    in.rst_n = false;
    m.clock(in);
    in.rst_n = true;
    in.desc_ready = true;
  }
  MemSubsystemOutputs step() {
    const MemSubsystemOutputs o = m.eval(in);
    if (o.desc_valid && in.desc_ready) descs.push_back(o);
    m.clock(in);
    return o;
  }
  void run(unsigned n) {
    for (unsigned i = 0; i < n; ++i) step();
  }
  void write(uint32_t addr, uint32_t v) {
    ASSERT_EQ(m.tlm_write(addr, v), RegStatus::ok) << "write of 0x" << std::hex << addr;
    step();
  }
  uint32_t read(uint32_t addr) const {
    uint32_t v = 0;
    EXPECT_EQ(m.tlm_read(addr, v), RegStatus::ok) << "read of 0x" << std::hex << addr;
    return v;
  }
  // One WF tile of 8 fp16 rows x 1 column (one 16-byte burst) at 0x1000,
  // tracked with one update an element; DMA entry 0 stores it to GPU 1 at
  // 0x9000 in one 16-byte descriptor. MCA: compute first, no threshold.
  void configure() {
    write(kTrk + T3_TRACKER_A_BASE_LO, 0x1000);
    write(kTrk + T3_TRACKER_A_LIMIT_LO, 0x1010);
    write(kTrk + T3_TRACKER_A_TILE, 8u | 1u << T3_TRACKER_R_TILE_UPDATES_PER_ELEM_SHIFT);
    write(kDma + T3_DMA_TRIGGER_A_BURST, 4);
    write(kDma + T3_DMA_TRIGGER_A_TBL_IDX, 0);
    write(kDma + T3_DMA_TRIGGER_A_TBL_SRC_LO, 0x1000);
    write(kDma + T3_DMA_TRIGGER_A_TBL_DST_LO, 0x9000);
    write(kDma + T3_DMA_TRIGGER_A_TBL_CTRL, T3_DMA_TRIGGER_R_TBL_CTRL_VALID_MASK |
                                                1u << T3_DMA_TRIGGER_R_TBL_CTRL_ELEM_LOG2_SHIFT |
                                                1u << T3_DMA_TRIGGER_R_TBL_CTRL_DST_GPU_SHIFT |
                                                1u << T3_DMA_TRIGGER_R_TBL_CTRL_TILES_PER_BLOCK_SHIFT);
    write(kDma + T3_DMA_TRIGGER_A_TBL_M, 8);
    write(kDma + T3_DMA_TRIGGER_A_TBL_N, 1);
    write(kDma + T3_DMA_TRIGGER_A_TBL_TILE_ROWS, 8);
    write(kDma + T3_DMA_TRIGGER_A_TBL_TILE_COLS, 1);
    write(kDma + T3_DMA_TRIGGER_A_TBL_CMD, 1);
    for (int i = 0; i < 20 && !(read(kDma + T3_DMA_TRIGGER_A_STATUS) & T3_DMA_TRIGGER_R_STATUS_TBL_READY_MASK); ++i)
      step();
    ASSERT_EQ(read(kDma + T3_DMA_TRIGGER_A_STATUS) & T3_DMA_TRIGGER_R_STATUS_TBL_ERR_MASK, 0u);
    write(kDma + T3_DMA_TRIGGER_A_CTRL, T3_DMA_TRIGGER_R_CTRL_ENABLE_MASK);
    write(kMca + T3_MCA_ARBITER_A_CTRL, 1u << T3_MCA_ARBITER_R_CTRL_POLICY_SHIFT |
                                            3u << T3_MCA_ARBITER_R_CTRL_THR_SEL_SHIFT);
    write(kTrk + T3_TRACKER_A_CTRL, T3_TRACKER_R_CTRL_ENABLE_MASK);
  }
  // The GEMM's store of the whole tile: one burst, 8 elements.
  void gemm_store() {
    in.cmp_valid = true;
    in.cmp.op = uint32_t(MemOp::store);
    in.cmp.addr = 0x1000;
    in.cmp.size = 8;
    in.cmp.wg = 0;
    in.cmp.wf = 0;
    in.cmp.data = Wide{};
    for (unsigned b = 0; b < 16; ++b) in.cmp.data.set_byte(b, uint8_t(0xA0 + b));
    in.cmp.mask = Wide{};
    in.cmp.mask.set_lane(0, 16, 0xFFFF);
  }

  MemSubsystem m;
  MemSubsystemInputs in;
  std::vector<MemSubsystemOutputs> descs;
};

TEST(MemSubsystemParams, DefaultsAndTheBlocksTheyMake) {
  const MemSubsystemParams p;
  EXPECT_NO_THROW(p.validate());
  EXPECT_EQ(p.occ_w(), 6u) << "0..32 entries";
  EXPECT_EQ(p.mca_arbiter().occ_w, 6u);
  EXPECT_EQ(p.mca_arbiter().data_w, 1u) << "the subsystem holds the payload itself";
  EXPECT_EQ(p.tracker().sets, 256u);
  EXPECT_EQ(p.dma_trigger().entries, 16u);
  EXPECT_EQ(p.near_bank_alu().addr_w, 20u) << "BANK_ADDR_W is the ALU's ADDR_W";
}

TEST(MemSubsystemParams, ErrorsNameTheParameterAndItsRange) {
  MemSubsystemParams p;
  p.queue_depth = 64;
  EXPECT_NE(message(p).find("(QUEUE_DEPTH) = 64 is out of range; allowed: 2..63"), std::string::npos)
      << message(p);
  p = MemSubsystemParams{};
  p.burst_bytes = 24;
  EXPECT_NE(message(p).find("BURST_BYTES"), std::string::npos) << message(p);
  // A block's own rule, named as the block names it.
  p = MemSubsystemParams{};
  p.wg_id_w = 8;  // not more than log2(SETS) = 8
  EXPECT_NE(message(p).find("WG_ID_W"), std::string::npos) << message(p);
  EXPECT_THROW(MemSubsystem{p}, std::invalid_argument);
}

TEST(MemSubsystem, FourRegisterWindowsAndNothingElse) {
  const MemSubsystemParams p = doc_params();
  Harness h(p);
  // Each window answers with its block's build parameters.
  const uint32_t geo = h.read(kTrk + T3_TRACKER_A_PARAM_GEOMETRY);
  EXPECT_EQ(1u << (geo & T3_TRACKER_R_PARAM_GEOMETRY_SETS_LOG2_MASK), p.sets);
  EXPECT_EQ(h.read(kDma + T3_DMA_TRIGGER_A_PARAM_TABLE) & T3_DMA_TRIGGER_R_PARAM_TABLE_ENTRIES_MASK, p.entries);
  EXPECT_EQ((h.read(kMca + T3_MCA_ARBITER_A_PARAM_WIDTHS) & T3_MCA_ARBITER_R_PARAM_WIDTHS_OCC_W_MASK) >>
                T3_MCA_ARBITER_R_PARAM_WIDTHS_OCC_W_SHIFT,
            p.occ_w());
  EXPECT_EQ(h.read(kNba + T3_NEAR_BANK_ALU_A_PARAM_BURST) & T3_NEAR_BANK_ALU_R_PARAM_BURST_BURST_BYTES_MASK,
            p.burst_bytes);
  // Beyond the four windows: an address error, on the TLM port and on APB.
  uint32_t v = 0;
  EXPECT_EQ(h.m.tlm_read(0x4000, v), RegStatus::address_error);
  EXPECT_EQ(h.m.tlm_write(0xF00C, 1), RegStatus::address_error);
  h.in.apb.psel = h.in.apb.penable = true;
  h.in.apb.paddr = 0x5000;
  MemSubsystemOutputs o = h.m.eval(h.in);
  EXPECT_TRUE(o.apb.pready);
  EXPECT_TRUE(o.apb.pslverr);
  h.in.apb.paddr = kMca + T3_MCA_ARBITER_A_CTRL;  // a block's register: no error
  o = h.m.eval(h.in);
  EXPECT_FALSE(o.apb.pslverr);
  EXPECT_EQ(o.apb.prdata, T3_MCA_ARBITER_R_CTRL_RESET);
}

TEST(MemSubsystem, OneInterruptLineForTheFourBlocks) {
  Harness h(doc_params());
  h.write(kDma + T3_DMA_TRIGGER_A_INTR_STATE, ~0u);
  h.write(kMca + T3_MCA_ARBITER_A_INTR_STATE, ~0u);  // the reset bounds do not fit OCC_W = 4
  h.write(kTrk + T3_TRACKER_A_INTR_STATE, ~0u);
  h.write(kNba + T3_NEAR_BANK_ALU_A_INTR_STATE, ~0u);
  for (const uint32_t base : {kTrk, kDma, kMca, kNba}) {
    EXPECT_FALSE(h.step().intr);
    h.write(base + 0x4, 1);  // INTR_ENABLE bit 0
    h.write(base + 0x8, 1);  // INTR_TEST bit 0: INTR_STATE at the edge, intr_o a register after it
    EXPECT_TRUE(h.step().intr) << "window 0x" << std::hex << base;
    h.write(base + 0x0, ~0u);
    h.write(base + 0x4, 0);
  }
}

// The cycle table "One write's path" in docs/blocks/mem_subsystem.md.
TEST(MemSubsystem, OneWritesPathAsDocumented) {
  Harness h(doc_params());
  h.configure();
  struct Row {
    bool cmp_ready;
    uint32_t occupancy;
    bool bank_wr, desc_valid;
  };
  const Row rows[] = {
      {true, 0, false, false},   // 0 the arbiter takes the store into its output register
      {false, 0, false, false},  // 1 into the DRAM queue and the tracking queue
      {false, 1, false, false},  // 2 the queue's head to the ALU; the Tracker takes the write (8 elements)
      {false, 0, false, false},  // 3 the Tracker's lookup: 8 of 8, fires
      {false, 0, false, false},  // 4 the trigger into the Tracker's output queue
      {false, 0, false, false},  // 5 the trigger shows at the table (its compares registered)
      {false, 0, false, false},  // 6 the table takes it
      {false, 0, false, false},  // 7 the DMA block is picked
      {false, 0, true, false},   // 8 its entry's fields fetched; the ALU writes the burst (6 cycles after taking it)
      {false, 0, false, false},  // 9 its tile read
      {false, 0, false, false},  // 10 the tile loaded
      {false, 0, false, false},  // 11 the descriptor into its queue
      {false, 0, false, true},   // 12 the descriptor leaves
      {false, 0, false, false},  // 13
  };
  for (int c = 0; c < 14; ++c) {
    if (c == 0) h.gemm_store();
    const MemSubsystemOutputs o = h.step();
    h.in.cmp_valid = false;
    const Row& r = rows[c];
    EXPECT_EQ(o.cmp_ready, r.cmp_ready) << "cycle " << c;
    EXPECT_EQ(o.occupancy, r.occupancy) << "cycle " << c;
    EXPECT_EQ(o.bank_wr, r.bank_wr) << "cycle " << c;
    EXPECT_EQ(o.desc_valid, r.desc_valid) << "cycle " << c;
    if (o.bank_wr) {
      EXPECT_EQ(o.bank_wr_bg, 0u) << "burst 0x100: bank group 0x100 mod 2";
      EXPECT_EQ(o.bank_wr_addr, 0x80u) << "burst 0x100 / 2";
      EXPECT_EQ(o.bank_wmask.lane(0, 16), 0xFFFFu);
      EXPECT_EQ(o.bank_wdata.byte(0), 0xA0u);
      EXPECT_EQ(o.bank_wdata.byte(15), 0xAFu);
    }
  }
  ASSERT_EQ(h.descs.size(), 1u);
  const MemSubsystemOutputs& d = h.descs[0];
  EXPECT_EQ(d.desc_src, 0x1000u);
  EXPECT_EQ(d.desc_dst, 0x9000u);
  EXPECT_EQ(d.desc_gpu, 1u);
  EXPECT_EQ(d.desc_bytes, 16u);
  EXPECT_FALSE(d.desc_op) << "STORE";
  EXPECT_TRUE(d.desc_last);
  EXPECT_EQ(h.read(kTrk + T3_TRACKER_A_STAT_TRIGGERS), 1u);
  EXPECT_EQ(h.read(kDma + T3_DMA_TRIGGER_A_STAT_DESCS), 1u);
  EXPECT_EQ(h.read(kNba + T3_NEAR_BANK_ALU_A_STAT_STORES), 1u);
}

TEST(MemSubsystem, AFullQueueHoldsTheStreamsBackAndLosesNothing) {
  const MemSubsystemParams p = doc_params();
  Harness h(p);
  h.configure();
  // ADDs to one bank group: tCCDWL apart, slower than one a cycle.
  unsigned taken = 0, max_occ = 0;
  bool held = false;
  h.in.cmp.op = uint32_t(MemOp::add);
  h.in.cmp.size = 0;
  h.in.cmp.data = Wide{};
  h.in.cmp.mask = Wide{};
  h.in.cmp.mask.set_lane(0, 16, 0xFFFF);
  h.in.bank_rdata = Wide{};
  unsigned writes = 0;
  for (int c = 0; c < 400; ++c) {  // 40 x tCCDWL = 240 cycles of ADDs
    h.in.cmp_valid = taken < 40;
    h.in.cmp.addr = 0x8000 + 32 * taken;  // bank group 0 every time
    const MemSubsystemOutputs o = h.step();
    taken += h.in.cmp_valid && o.cmp_ready;
    held |= h.in.cmp_valid && !o.cmp_ready;
    max_occ = std::max(max_occ, o.occupancy);
    writes += o.bank_wr;
  }
  EXPECT_TRUE(held) << "the queue filled and the stream waited";
  EXPECT_EQ(max_occ, p.queue_depth);
  EXPECT_EQ(taken, 40u);
  EXPECT_EQ(writes, 40u) << "every ADD taken reached the bank";
  EXPECT_EQ(h.read(kNba + T3_NEAR_BANK_ALU_A_STAT_ADDS), 40u);
}

// The wires are worked out by one template on two paths: eval() evaluates
// the blocks (const), step() and clock() evaluate and clock each block in
// one call. The kernel-free engine calls step(), the SystemC one eval() and
// then clock(); each is compared with the RTL there. Here the two paths are
// held to the same outputs in every cycle of one configured tile stream plus
// random traffic on every input (requests of every op into and around the
// tracked region, register accesses of every window, resets, drain, learn,
// back-pressure), a subsystem stepped each way. (Their edges are the same
// code: a wrong edge is the co-simulations' to catch.)
// Every output pin of two outputs that differ (the pin list the
// co-simulation compares by), by name.
struct SameOutputs {
  const MemSubsystemOutputs& x;
  const MemSubsystemOutputs& y;
  std::string differ;
  template <class Field, class Port>
  void in(const PinInfo&, Field, Port) {}
  template <class Field, class Port>
  void out(const PinInfo& pin, Field field, Port) {
    if (!(field(x) == field(y))) differ += std::string(" ") + pin.name;
  }
};

TEST(MemSubsystem, EvalGivesStepsOutputs) {
  const MemSubsystemParams p = doc_params();
  Harness a(p), b(p);
  a.configure();
  b.configure();
  std::mt19937_64 rng(7);
  auto bit = [&](unsigned per_mille) { return rng() % 1000 < per_mille; };
  auto request = [&](MemRequest& r) {
    r.op = uint32_t(rng() % 4);  // 3: refused by the near-bank ALU
    r.fmt = uint32_t(rng() % 4);
    r.addr = 0x1000 + (rng() % 64) * 4 - 64;  // the tracked tile and either side of it
    r.size = uint32_t(rng() % 9);
    r.wg = uint32_t(rng() % 4);
    r.wf = uint32_t(rng() % 8);
    r.src = uint32_t(rng() % 3);
    for (unsigned w = 0; w < 2; ++w) {
      r.data.w[w] = rng();
      r.mask.w[w] = rng() & 0xFFFF;
    }
  };
  MemSubsystemInputs in = a.in;
  unsigned diffs = 0, descs = 0, bank_writes = 0, held = 0;
  for (int c = 0; c < 200000 && diffs < 5; ++c) {
    // Resets in the second half only (they end the configured stream).
    in.rst_n = c < 100000 || !bit(2);
    in.cmp_valid = bit(600);
    request(in.cmp);
    in.com_valid = bit(500);
    request(in.com);
    in.desc_ready = bit(700);
    in.learn = bit(50);
    in.drain = bit(50);
    for (unsigned w = 0; w < 2; ++w) in.bank_rdata.w[w] = rng();
    // An APB transfer now and then, to any window (the unmapped ones too);
    // writes only outside the Tracker's and DMA table's configuration, so
    // that the tile stream keeps running.
    in.apb = ApbRequest{};
    if (bit(100)) {
      in.apb.psel = true;
      in.apb.penable = bit(500);
      in.apb.pwrite = bit(300);
      in.apb.paddr = uint32_t(rng() % 0x5000) & ~3u;
      in.apb.pwdata = uint32_t(rng());
      in.apb.pstrb = 0xF;
      if (in.apb.pwrite && in.apb.paddr < kMca) in.apb.paddr |= 0x7F0;  // past the configuration registers
    }
    const MemSubsystemOutputs x = a.m.step(in);
    const MemSubsystemOutputs y = b.m.eval(in);
    b.m.clock(in);
    SameOutputs same{x, y, {}};
    MemSubsystemBlock::pins(p, same);
    if (!same.differ.empty()) {
      ++diffs;
      ADD_FAILURE() << "cycle " << c << ": step() and eval()+clock() differ on" << same.differ;
    }
    descs += x.desc_valid && in.desc_ready;
    bank_writes += x.bank_wr;
    held += in.rst_n && in.cmp_valid && !x.cmp_ready;
  }
  // The traffic reached what it is for: the tile stream's descriptors, the
  // bank, the streams' back-pressure; the state left is the same.
  EXPECT_GT(descs, 0u);
  EXPECT_GT(bank_writes, 0u);
  EXPECT_GT(held, 0u);
  for (uint32_t r : {kTrk + T3_TRACKER_A_STAT_UPDATES, kTrk + T3_TRACKER_A_STAT_STALLS,
                     kNba + T3_NEAR_BANK_ALU_A_STAT_STORES, kNba + T3_NEAR_BANK_ALU_A_STAT_ADDS})
    EXPECT_EQ(a.read(r), b.read(r)) << "register 0x" << std::hex << r;
}

}  // namespace
}  // namespace t3
