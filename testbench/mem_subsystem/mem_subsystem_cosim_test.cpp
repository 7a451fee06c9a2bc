// The memory-side subsystem's co-simulation: the C++/SystemC composition of
// the four blocks' models against the RTL top, every output of every cycle
// compared (reset cycles included), the end-to-end scoreboard on the RTL's
// outputs. Every configuration is programmed by the firmware driver itself
// (firmware/, through testbench/common/cosim_hal.h) over the APB port, as
// a host would; the traffic is that of GPU g during its part of a
// collective fused with its producer (mem_subsystem_stimulus.h).
// Run on either engine: --engine systemc (default) or --engine direct.
#include <gtest/gtest.h>

#include <cstdio>
#include <algorithm>
#include <memory>
#include <random>
#include <sstream>

#include "cosim_config.h"
#include "cosim_hal.h"
#include "mem_subsystem_harness.h"
#include "mem_subsystem_stimulus.h"
#include "t3/dma_trigger_regs.h"
#include "t3/mca_arbiter_regs.h"
#include "t3/near_bank_alu_regs.h"
#include "t3/tracker_regs.h"
#include "test_cosim.h"

namespace t3::tb {
namespace {

Cosim<MemSubsystemBlock>& the_cosim() { return shared_cosim<MemSubsystemBlock>(); }
const MemSubsystemParams& params() { return the_cosim().params(); }

constexpr t3_windows kWin = T3_MEM_SUBSYSTEM_WINDOWS;

class Bench {
 public:
  explicit Bench(uint64_t seed) : h_(the_cosim(), seed), c_(h_.cosim()), sb_(h_.sb()), apb_(h_.apb()) {
    reset();
  }

  Cosim<MemSubsystemBlock>& cosim() { return c_; }
  MemSubsystemScoreboard& sb() { return sb_; }
  MemSubsystemHarness& harness() { return h_; }
  const t3_ctx& ctx() const { return ctx_; }

  // One cycle (mem_subsystem_harness.h), its compare and scoreboard as
  // test failures; the register transfer it completed, if any.
  std::optional<ApbDone> cycle() {
    MemSubsystemHarness::Cycle r = h_.cycle();
    EXPECT_TRUE(r.compared) << c_.first_mismatch();
    if (r.sb_error) ADD_FAILURE() << "cycle " << c_.cycles() - 1 << ": " << *r.sb_error;
    max_occupancy_ = std::max(max_occupancy_, c_.out().occupancy);
    return r.apb_done;
  }

  void reset(unsigned n = 2) {
    c_.in() = MemSubsystemInputs{};
    apb_.clear();
    EXPECT_TRUE(c_.reset(n)) << c_.first_mismatch();
    sb_.reset();
  }

  // The firmware driver programs ph: probe, the library sequence, commit.
  int program(const MemPhase& ph) {
    CosimHal hal(apb_, [this] { return cycle(); });
    t3_init(&ctx_, &kWin, ph.gpu, ph.gpus);
    int e = t3_probe(&ctx_);
    if (!e) e = t3_set_burst(&ctx_, ph.burst_log2);
    if (!e) e = ph.map(ctx_);
    if (!e) e = t3_commit(&ctx_);
    if (!e) sb_.configure(ctx_);
    return e;
  }

  // A register read or write through the APB port (no traffic meanwhile).
  ApbDone access(const ApbTransfer& t) {
    CosimHal hal(apb_, [this] { return cycle(); });
    uint32_t v = 0;
    const int e = t.write ? hal.write32(t.addr, t.data) : hal.read32(t.addr, v);
    (void)e;
    return hal.log().back();
  }

  // The phase's traffic until everything it brings has been sent and read.
  // Returns the cycles it took.
  uint64_t run(MemSubsystemStimulus& s, uint64_t limit) {
    h_.set_traffic(&s);
    const uint64_t start = c_.cycles();
    const bool drained = h_.drain(limit, [&] {
      cycle();
      return !testing::Test::HasFailure();
    });
    h_.set_traffic(nullptr);
    EXPECT_TRUE(drained || testing::Test::HasFailure())
        << "traffic did not drain in " << limit << " cycles: deadlock (" << s.describe() << "; "
        << sb_.tiles_due() << " tiles due, " << sb_.reads_due() << " reads due, queue "
        << c_.out().occupancy << ")";
    if (auto err = sb_.check_drained()) ADD_FAILURE() << *err;
    return c_.cycles() - start;
  }

  // The blocks' interrupt state and status, for a failure's message.
  std::string blocks_report() {
    std::ostringstream r;
    const std::pair<const char*, uint32_t> regs[] = {
        {"tracker INTR_STATE", kWin.tracker + T3_TRACKER_A_INTR_STATE},
        {"tracker STATUS", kWin.tracker + T3_TRACKER_A_STATUS},
        {"dma_trigger INTR_STATE", kWin.dma_trigger + T3_DMA_TRIGGER_A_INTR_STATE},
        {"dma_trigger STATUS", kWin.dma_trigger + T3_DMA_TRIGGER_A_STATUS},
        {"mca_arbiter INTR_STATE", kWin.mca_arbiter + T3_MCA_ARBITER_A_INTR_STATE},
        {"mca_arbiter STATUS", kWin.mca_arbiter + T3_MCA_ARBITER_A_STATUS},
        {"near_bank_alu INTR_STATE", kWin.near_bank_alu + T3_NEAR_BANK_ALU_A_INTR_STATE},
        {"near_bank_alu STATUS", kWin.near_bank_alu + T3_NEAR_BANK_ALU_A_STATUS}};
    for (const auto& [name, addr] : regs)
      r << name << " 0x" << std::hex << access({false, addr, 0, 0}).rdata << std::dec << "; ";
    return r.str();
  }

  // Traffic for a number of cycles, then nothing more.
  void run_for(MemSubsystemStimulus& s, uint64_t cycles) {
    h_.set_traffic(&s);
    for (uint64_t i = 0; i < cycles && !testing::Test::HasFailure(); ++i) cycle();
    h_.set_traffic(nullptr);
  }

 private:
  MemSubsystemHarness h_;
  Cosim<MemSubsystemBlock>& c_;
  MemSubsystemScoreboard& sb_;
  ApbMaster& apb_;
  t3_ctx ctx_{};
  uint32_t max_occupancy_ = 0;

 public:
  uint32_t max_occupancy() const { return max_occupancy_; }
};

// A phase the driver accepts at both co-simulated builds: fp16, WG tiles of
// up to 16 x 4 in up to 2 WFs, 2 WG tiles (one column of them) a chunk.
MemPhase small_phase(Collective coll, uint32_t gpu, uint32_t gpus) {
  const MemSubsystemParams& p = params();
  MemPhase ph;
  ph.coll = coll;
  ph.gpu = gpu;
  ph.gpus = gpus;
  t3_buffer& b = ph.buf;
  b.elem_bytes = 2;
  b.wfs_per_wg = std::min(2u, p.ways);
  b.wg_cols = 2 * b.wfs_per_wg;
  b.wg_rows = std::min(16u, unsigned(low_mask(p.dim_w)));
  b.m = 2 * b.wg_rows;
  b.n = gpus * b.wg_cols;
  b.addr = 4 * p.burst_bytes;
  const uint64_t bytes = uint64_t(b.m) * b.n * b.elem_bytes;
  ph.scratch = b.addr + 2 * bytes;
  ph.scratch_bytes = 8 * uint64_t(p.burst_bytes);
  for (uint32_t g = 0; g < gpus; ++g)
    ph.peer_addr.push_back(g == gpu ? (coll == Collective::all_to_all ? b.addr + bytes : b.addr)
                                    : (uint64_t(g + 1) << (p.addr_w - 3)));
  ph.mca = MemPhase::default_mca(p);
  ph.tiles_per_block = std::min(2u, p.slots);
  ph.burst_log2 = std::min(5u, p.max_burst_log2);
  return ph;
}

uint32_t node_gpus() { return std::min(4u, 1u << params().gpu_w); }

TEST(MemSubsystemCosim, RingReduceScatterOfGpu0SendsEveryTileOnce) {
  Bench b(test_options().seed);
  const MemPhase ph = small_phase(Collective::ring_rs, 0, node_gpus());
  ASSERT_EQ(b.program(ph), T3_OK) << t3_message(&b.ctx());
  MemSubsystemStimulus s(params(), ph, b.ctx(), MemTraffic{}, test_options().seed);
  b.run(s, 200000);
  // Stages 2..N-1 tracked and DMA'd, stage N tracked and kept, stage 1 remote.
  const uint64_t tiles_per_chunk = 2 * ph.buf.wfs_per_wg;
  EXPECT_EQ(b.sb().tiles_completed(), (node_gpus() - 1) * tiles_per_chunk);
  EXPECT_EQ(b.sb().tiles_sent(), (node_gpus() - 2) * tiles_per_chunk);
  EXPECT_EQ(s.remote_writes(), tiles_per_chunk);
  EXPECT_GT(b.sb().reads_checked(), 0u);
  // The blocks' own counts, through the registers.
  EXPECT_EQ(b.access({false, kWin.tracker + T3_TRACKER_A_STAT_TRIGGERS, 0, 0}).rdata,
            uint32_t(b.sb().tiles_completed() & low_mask(params().stat_w)));
  EXPECT_EQ(b.access({false, kWin.dma_trigger + T3_DMA_TRIGGER_A_STAT_MISS, 0, 0}).rdata, 0u);
  // The arbiter's grants by stream, against the requests the traffic saw
  // taken on each port (the streams reach the arbiter's own ports).
  const uint64_t stat = low_mask(params().stat_w);
  EXPECT_EQ(b.access({false, kWin.mca_arbiter + T3_MCA_ARBITER_A_STAT_GRANTS_CMP, 0, 0}).rdata,
            uint32_t((s.local_writes() + s.other()) & stat));
  EXPECT_EQ(b.access({false, kWin.mca_arbiter + T3_MCA_ARBITER_A_STAT_GRANTS_COM, 0, 0}).rdata,
            uint32_t((s.peer_writes() + s.dma_reads()) & stat));
}

TEST(MemSubsystemCosim, EveryCollectiveOnEveryGpu) {
  const uint32_t n = node_gpus();
  for (Collective coll : {Collective::ring_rs, Collective::direct_rs, Collective::ring_ag,
                          Collective::all_to_all})
    for (uint32_t g = 0; g < n; ++g) {
      SCOPED_TRACE(std::string(to_string(coll)) + " on GPU " + std::to_string(g));
      Bench b(test_options().seed + g);
      const MemPhase ph = small_phase(coll, g, n);
      ASSERT_EQ(b.program(ph), T3_OK) << t3_message(&b.ctx());
      MemSubsystemStimulus s(params(), ph, b.ctx(), MemTraffic{}, test_options().seed + 7 * g);
      b.run(s, 200000);
      EXPECT_GT(s.local_writes() + s.peer_writes(), 0u);
    }
}

// One APB port, four windows: each block answers in its own; the rest of the
// space answers an error; a refused access changes nothing.
TEST(MemSubsystemCosim, RegisterWindows) {
  const MemSubsystemParams& p = params();
  Bench b(test_options().seed);
  const uint32_t geometry = b.access({false, kWin.tracker + T3_TRACKER_A_PARAM_GEOMETRY, 0, 0}).rdata;
  EXPECT_EQ((geometry & T3_TRACKER_R_PARAM_GEOMETRY_WAYS_MASK) >> T3_TRACKER_R_PARAM_GEOMETRY_WAYS_SHIFT, p.ways);
  const uint32_t table = b.access({false, kWin.dma_trigger + T3_DMA_TRIGGER_A_PARAM_TABLE, 0, 0}).rdata;
  EXPECT_EQ((table & T3_DMA_TRIGGER_R_PARAM_TABLE_ENTRIES_MASK) >> T3_DMA_TRIGGER_R_PARAM_TABLE_ENTRIES_SHIFT,
            p.entries);
  EXPECT_TRUE(b.access({false, 0x4000, 0, 0}).err);
  EXPECT_TRUE(b.access({true, 0xF010, 5, 0xF}).err);
  EXPECT_TRUE(b.access({true, kWin.tracker + T3_TRACKER_A_STAT_UPDATES, 5, 0xF}).err);
  EXPECT_FALSE(b.access({true, kWin.tracker + T3_TRACKER_A_BASE_LO, 0x1230, 0xF}).err);
  EXPECT_EQ(b.access({false, kWin.tracker + T3_TRACKER_A_BASE_LO, 0, 0}).rdata, 0x1230u);
  EXPECT_TRUE(b.access({false, kWin.dma_trigger + 2, 0, 0}).err);  // not a word
  EXPECT_TRUE(b.access({false, kWin.near_bank_alu + 0xFFC, 0, 0}).err);  // no register there
  // Every window that holds no block, at its first and last word and an
  // odd address in between: refused, reads 0, and a write changes nothing.
  for (uint32_t w = kMemSubsystemWindows; w < 16; ++w)
    for (uint32_t off : {0x000u, 0x7FDu, 0xFFCu}) {
      const uint32_t a = w << 12 | off;
      const ApbDone r = b.access({false, a, 0, 0});
      EXPECT_TRUE(r.err) << "read 0x" << std::hex << a;
      EXPECT_EQ(r.rdata, 0u) << "read 0x" << std::hex << a;
      EXPECT_TRUE(b.access({true, a, 0xFFFFFFFF, 0xF}).err) << "write 0x" << std::hex << a;
    }
  EXPECT_EQ(b.access({false, kWin.tracker + T3_TRACKER_A_BASE_LO, 0, 0}).rdata, 0x1230u);
  // In each block's window: the first offset past its registers and the
  // last word.
  for (uint32_t w = 0; w < kMemSubsystemWindows; ++w) {
    const MemWindowMap& m = mem_window_map(w);
    for (uint32_t off : {m.info[m.count - 1].offset + 4, 0xFFCu})
      EXPECT_TRUE(b.access({false, w << 12 | off, 0, 0}).err) << "window " << w << " offset 0x"
                                                              << std::hex << off;
  }
}

// One interrupt line, the OR of the four blocks': each block's INTR_TEST
// raises it alone (enabled), its INTR_STATE clear drops it.
TEST(MemSubsystemCosim, EachBlocksInterruptReachesTheLine) {
  Bench b(test_options().seed);
  b.sb().expect_no_interrupt(false);
  const uint32_t windows[] = {kWin.tracker, kWin.dma_trigger, kWin.mca_arbiter, kWin.near_bank_alu};
  for (uint32_t w : windows) {
    SCOPED_TRACE("window 0x" + std::to_string(w));
    // Every block's window starts with INTR_STATE, INTR_ENABLE, INTR_TEST.
    b.access({true, w + 0x4, 1, 0xF});
    b.access({true, w + 0x8, 1, 0xF});
    for (int i = 0; i < 3; ++i) b.cycle();
    EXPECT_TRUE(b.cosim().out().intr);
    b.access({true, w + 0x0, 1, 0xF});  // W1C
    b.access({true, w + 0x4, 0, 0xF});
    for (int i = 0; i < 3; ++i) b.cycle();
    EXPECT_FALSE(b.cosim().out().intr);
  }
  b.sb().expect_no_interrupt(true);
}

// A second collective programmed over the first, without a reset: the
// driver waits for the blocks to be idle and invalidates the table entries
// the first left behind.
TEST(MemSubsystemCosim, ReprogrammedWithoutReset) {
  Bench b(test_options().seed);
  const uint32_t n = node_gpus();
  for (Collective coll : {Collective::ring_rs, Collective::direct_rs, Collective::ring_rs}) {
    SCOPED_TRACE(to_string(coll));
    const MemPhase ph = small_phase(coll, n - 1, n);
    ASSERT_EQ(b.program(ph), T3_OK) << t3_message(&b.ctx());
    MemSubsystemStimulus s(params(), ph, b.ctx(), MemTraffic{}, test_options().seed + 3);
    b.run(s, 200000);
  }
}

TEST(MemSubsystemCosim, ResetInTheMiddleOfTraffic) {
  Bench b(test_options().seed);
  const MemPhase ph = small_phase(Collective::ring_rs, 1, node_gpus());
  ASSERT_EQ(b.program(ph), T3_OK) << t3_message(&b.ctx());
  MemSubsystemStimulus s(params(), ph, b.ctx(), MemTraffic{}, test_options().seed);
  b.run_for(s, 700);
  b.reset(3);
  ASSERT_EQ(b.program(ph), T3_OK) << t3_message(&b.ctx());
  MemSubsystemStimulus again(params(), ph, b.ctx(), MemTraffic{}, test_options().seed + 1);
  b.run(again, 200000);
  EXPECT_GT(b.sb().tiles_sent(), 0u);
}

// Random collectives, GPUs, shapes, formats, block sizes and bursts, phase
// after phase, sometimes reset in the middle; random readiness of the DMA
// engine and other traffic throughout.
TEST(MemSubsystemCosim, ConstrainedRandom) {
  const RunOptions& opt = test_options();
  const uint64_t cycles = opt.cycles ? opt.cycles : T3_RANDOM_CYCLES;
  std::mt19937_64 rng(opt.seed);
  Bench b(opt.seed);
  MemRegTraffic regs(opt.seed + 11, 0.02);
  b.harness().set_reg_traffic(&regs);
  uint64_t phases = 0, resets = 0, tiles = 0, sent = 0, reads = 0, writes = 0;
  bool seen[4] = {};
  const uint64_t start = b.cosim().cycles();
  while (b.cosim().cycles() - start < cycles && !testing::Test::HasFailure()) {
    const MemPhase ph = MemPhase::random(params(), rng);
    ASSERT_EQ(b.program(ph), T3_OK) << ph.describe() << ": " << t3_message(&b.ctx());
    MemTraffic t;
    t.p_local = 0.5 + 0.5 * std::uniform_real_distribution<double>(0, 1)(rng);
    t.p_peer = 0.3 + 0.7 * std::uniform_real_distribution<double>(0, 1)(rng);
    t.p_desc_ready = 0.2 + 0.8 * std::uniform_real_distribution<double>(0, 1)(rng);
    t.peer_lag = unsigned(rng() % 1000);
    MemSubsystemStimulus s(params(), ph, b.ctx(), t, rng());
    const uint64_t tiles0 = b.sb().tiles_completed(), sent0 = b.sb().tiles_sent();
    if (rng() % 8 == 0) {
      b.run_for(s, 200 + rng() % 3000);
      b.reset(1 + unsigned(rng() % 3));
      ++resets;
    } else {
      b.run(s, 2000000);
    }
    if (testing::Test::HasFailure()) {
      ADD_FAILURE() << "in phase " << phases << ": " << ph.describe() << "; " << b.blocks_report();
      break;
    }
    tiles += b.sb().tiles_completed() - tiles0;
    sent += b.sb().tiles_sent() - sent0;
    seen[unsigned(ph.coll)] = true;
    ++phases;
  }
  reads = b.sb().reads_checked();
  writes = b.sb().writes();
  std::printf("random: %llu cycles, %llu phases (%llu reset in traffic), %llu tiles complete, %llu "
              "sent, %llu writes, %llu reads checked, DRAM queue up to %u of %u, %llu model/RTL "
              "mismatches\n",
              static_cast<unsigned long long>(b.cosim().cycles() - start),
              static_cast<unsigned long long>(phases), static_cast<unsigned long long>(resets),
              static_cast<unsigned long long>(tiles), static_cast<unsigned long long>(sent),
              static_cast<unsigned long long>(writes), static_cast<unsigned long long>(reads),
              b.max_occupancy(), params().queue_depth,
              static_cast<unsigned long long>(the_cosim().mismatches()));
  EXPECT_EQ(the_cosim().failures(), 0u) << the_cosim().first_failure();
  if (cycles < 1000000) return;  // the coverage below needs the full run
  for (bool s : seen) EXPECT_TRUE(s) << "a collective never drawn";
  EXPECT_GT(resets, 0u);
  EXPECT_GT(sent, 100u);
  EXPECT_GT(reads, 1000u);
  EXPECT_EQ(b.max_occupancy(), params().queue_depth) << "the DRAM queue never filled";
  std::printf("registers: %s\n", regs.describe().c_str());
  EXPECT_TRUE(regs.every_class_reached()) << "an unmapped address class was never refused: "
                                          << regs.describe();
}

}  // namespace
}  // namespace t3::tb
