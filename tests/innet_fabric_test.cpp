// The fabric with real data (issue 22): all-reduces of fp16, bf16 and fp32
// buffers through the switch and endpoint cycle models, push and pull, on
// 4 and 8 GPUs, with LRU evictions, timeouts and a straggler; each checked
// against the reference sum of tlm/innet_data.h (exact for small integers,
// else within the bound of any order's rounding), apart from every model.
// Push mode gives every GPU the same bits (one RESULT, multicast); pull
// mode reduces once per GPU, in each one's order.
#include <gtest/gtest.h>

#include <cmath>
#include <deque>
#include <map>
#include <memory>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "common/fp_add.h"
#include "common/fp_convert.h"
#include "innet_allreduce.h"
#include "innet_data.h"
#include "innet_devices.h"
#include "innet_ring.h"
#include "reg_trace.h"
#include "t3/ep_window_regs.h"
#include "t3/innet.h"
#include "t3/innet_switch_map.h"
#include "t3/mcr_table_regs.h"

namespace t3 {
namespace {

uint32_t get(const std::vector<uint8_t>& buf, uint8_t dtype, size_t i) { return element_get(buf, dtype, i); }
Buffers buffers(unsigned gpus, uint64_t bytes, uint8_t dtype, bool exact, unsigned seed) {
  return all_reduce_buffers(gpus, bytes, dtype, exact, seed);
}
using Checked = AllReduceCheck;
Checked check(const Buffers& in, const Buffers& out, uint8_t dtype, bool exact) {
  return check_all_reduce(in, out, dtype, exact);
}

InnetFabricConfig fabric(unsigned gpus, unsigned entries = 16) {
  InnetFabricConfig c;
  c.gpus = gpus;
  c.sw.ports = gpus;
  c.sw.entries = entries;
  c.ep.mem_bytes = 1 << 16;
  return c;
}

struct Outcome {
  AllReduceReport rep;
  Checked chk;
};
Outcome run(const InnetFabricConfig& c, AllReduceSpec s, bool exact, unsigned seed = 1) {
  InnetFabric f(c);
  const auto in = buffers(c.gpus, s.bytes, s.dtype, exact, seed);
  std::vector<std::vector<uint8_t>> out;
  Outcome r;
  r.rep = run_all_reduce(f, s, in, out);
  r.chk = check(in, out, s.dtype, exact);
  return r;
}

void expect_clean(const Outcome& r) {
  EXPECT_TRUE(r.rep.finished);
  for (const auto& e : r.rep.errors) ADD_FAILURE() << e;
  EXPECT_EQ(r.chk.mismatches, 0u) << r.chk.first;
}

const char* kType[] = {"fp16", "bf16", "fp32"};

TEST(InnetFabric, PushExactEveryTypeFourGpus) {
  for (uint8_t t = 0; t < 3; ++t) {
    SCOPED_TRACE(kType[t]);
    AllReduceSpec s;
    s.dtype = t;
    const Outcome r = run(fabric(4), s, true);
    expect_clean(r);
    EXPECT_EQ(r.chk.differ_between_gpus, 0u);
    // Every line reduced in the switch: no eviction, nothing at the home.
    EXPECT_EQ(r.rep.completions, s.bytes / 16 / 4);
    EXPECT_EQ(r.rep.evict_lru + r.rep.evict_timeout, 0u);
    for (const auto& e : r.rep.ep) EXPECT_EQ(e.partials, 0u);
  }
}

TEST(InnetFabric, PullExactEveryTypeFourGpus) {
  for (uint8_t t = 0; t < 3; ++t) {
    SCOPED_TRACE(kType[t]);
    AllReduceSpec s;
    s.dtype = t;
    s.pull = true;
    const Outcome r = run(fabric(4), s, true);
    expect_clean(r);
    for (const auto& e : r.rep.ep) {
      EXPECT_EQ(e.pulls, s.bytes / 16 / 4);
      EXPECT_EQ(e.pull_answers, 3 * s.bytes / 16 / 4);  // every other GPU's PULLs
    }
  }
}

TEST(InnetFabric, RandomValuesWithinTheRoundingBound) {
  for (bool pull : {false, true})
    for (uint8_t t = 0; t < 3; ++t) {
      SCOPED_TRACE(std::string(kType[t]) + (pull ? " pull" : " push"));
      AllReduceSpec s;
      s.dtype = t;
      s.pull = pull;
      const Outcome r = run(fabric(8), s, false, 7 + t);
      expect_clean(r);
      if (!pull) {
        EXPECT_EQ(r.chk.differ_between_gpus, 0u);
      }
    }
}

// A table of 2 entries, 8 GPUs, one of them late: the others' PUSHes of
// many lines evict each other (least recently used); the PARTIALs go to the
// home, which merges them and multicasts the RESULT. The late GPU's PUSHes
// of the last lines find no one to evict them: the timeout sends them home
// (without one they would wait for good: docs/blocks/reduction_table.md).
// Still exact, nothing lost.
TEST(InnetFabric, LruEvictionsMergedAtTheHome) {
  AllReduceSpec s;
  s.dtype = 0;
  s.home = 5;
  s.straggler = 3;
  s.straggler_delay = 500;
  s.rt_timeout = 1000;
  const Outcome r = run(fabric(8, 2), s, true);
  expect_clean(r);
  EXPECT_GT(r.rep.evict_lru, 0u);
  EXPECT_GT(r.rep.ep[5].partials, 0u);
  EXPECT_GT(r.rep.ep[5].home_results, 0u);
  for (unsigned g = 0; g < 8; ++g)
    if (g != 5) {
      EXPECT_EQ(r.rep.ep[g].partials, 0u) << "gpu " << g;
    }
}

// One GPU starts late: the switch's entries time out while they wait for
// it, their PARTIALs are merged at the home, the straggler's PUSHes follow
// them there (an entry of their own, timed out too). Exact.
TEST(InnetFabric, StragglerTimeoutsMergedAtTheHome) {
  for (bool pull : {false, true}) {
    SCOPED_TRACE(pull ? "pull" : "push");
    AllReduceSpec s;
    s.dtype = 2;
    s.pull = pull;
    s.straggler = 2;
    s.straggler_delay = 3000;
    s.rt_timeout = 100;
    const Outcome r = run(fabric(4), s, true);
    expect_clean(r);
    if (!pull) {  // a PULL does not wait for the straggler's request: its data are in memory
      EXPECT_GT(r.rep.evict_timeout, 0u);
      EXPECT_GT(r.rep.ep[0].partials, 0u);
    }
  }
}

// HOME_Q of two lines: the home's completed lines overflow it and wait in
// their counters, where the sweep finds each once. Exact.
TEST(InnetFabric, HomeQueueOverflowSwept) {
  InnetFabricConfig c = fabric(8, 2);
  c.ep.home_q = 2;  // ep_home's least
  c.ep.count_depth = 512;  // a sweep visits every counter
  AllReduceSpec s;
  s.dtype = 1;
  s.straggler = 6;
  s.straggler_delay = 800;
  s.rt_timeout = 1000;
  const Outcome r = run(c, s, true);
  expect_clean(r);
  EXPECT_GT(r.rep.ep[0].home_sweeps, 0u);
  EXPECT_GT(r.rep.ep[0].home_results, r.rep.ep[0].home_sweeps);
  // Every line once: reduced in the switch or sent by the home.
  EXPECT_EQ(r.rep.completions + r.rep.ep[0].home_results, s.bytes / 64);
}

// A GPU that never sends: the others' DMA credit controllers stop at their
// injection limit with no result (their requests' timeout starts after the
// last packet: docs/blocks/dma_credit.md), the switch's entries time out to
// the home, which holds those lines merged in part; the driver's wait ends
// with an error per GPU naming what it holds. Nothing is dropped.
TEST(InnetFabric, AContributorThatNeverSendsIsNamed) {
  InnetFabricConfig c = fabric(4);
  AllReduceSpec s;
  s.straggler = 3;
  s.straggler_delay = AllReduceSpec::kNever;
  s.rt_timeout = 200;
  s.max_cycles = 20000;
  InnetFabric f(c);
  const auto in = buffers(4, s.bytes, s.dtype, true, 3);
  std::vector<std::vector<uint8_t>> out;
  const AllReduceReport r = run_all_reduce(f, s, in, out);
  EXPECT_FALSE(r.finished);
  std::string all;
  for (const auto& e : r.errors) all += e + "\n";
  for (unsigned g = 0; g < 3; ++g)
    EXPECT_NE(all.find("gpu" + std::to_string(g) + ": no completion within 20000 cycles (the driver's wait); its DMA "
                       "credit controller has 16 packets outstanding (INJ_LIMIT 16)"),
              std::string::npos)
        << all;
  EXPECT_NE(all.find("gpu3: sent nothing"), std::string::npos) << all;
  EXPECT_NE(all.find("gpu0: 16 lines merged in part"), std::string::npos) << all;
  EXPECT_EQ(r.evict_timeout, 16u);
  EXPECT_EQ(r.ep[0].home_results, 0u);
  EXPECT_EQ(r.completions, 0u);
  for (unsigned g = 0; g < 4; ++g) EXPECT_EQ(r.ep[g].dropped, 0u) << "gpu " << g;
}

// Deterministic mode: the same buffers give the same bits whatever order
// the contributions arrive in (a different GPU late each run), on every
// GPU, equal to the sum in GPU order (0 + 1 + ... + 7, each addition
// rounded to the type: hw/common/fp_add.h, itself checked against GNU MPFR).
// The reductions in the switch, on the same runs, give other bits: the
// orders did differ.
TEST(InnetFabric, DeterministicModeGivesTheSameBitsInAnyOrder) {
  const uint8_t t = 0;
  const auto in = buffers(8, 4096, t, false, 11);
  std::vector<std::vector<uint8_t>> first_det, first_fast;
  size_t fast_differ = 0;
  for (int late = 0; late < 4; ++late) {
    for (bool det : {true, false}) {
      SCOPED_TRACE(std::string(det ? "deterministic" : "switch") + ", gpu " + std::to_string(late) + " late");
      InnetFabric f(fabric(8));
      AllReduceSpec s;
      s.dtype = t;
      s.deterministic = det;
      s.home = 2;
      s.straggler = late;
      s.straggler_delay = 100 + 300 * late;
      std::vector<std::vector<uint8_t>> out;
      const AllReduceReport r = run_all_reduce(f, s, in, out);
      EXPECT_TRUE(r.finished);
      for (const auto& e : r.errors) ADD_FAILURE() << e;
      EXPECT_EQ(check(in, out, t, false).mismatches, 0u);
      auto& first = det ? first_det : first_fast;
      if (first.empty()) first = out;
      if (det) {
        EXPECT_EQ(r.completions, 0u);  // nothing reduced in the switch
        EXPECT_EQ(r.ep[2].staged, 8u * 4096 / 64);
        for (unsigned g = 0; g < 8; ++g) EXPECT_EQ(out[g], first[0]) << "gpu " << g;
      } else if (out[0] != first[0]) {
        ++fast_differ;
      }
    }
  }
  ASSERT_FALSE(first_det.empty());
  size_t n = 4096 / 2;
  for (size_t i = 0; i < n; ++i) {
    uint32_t sum = get(in[0], t, i);
    for (unsigned g = 1; g < 8; ++g) sum = fp_add(kFp16, sum, get(in[g], t, i));
    ASSERT_EQ(get(first_det[0], t, i), sum) << "element " << i;
  }
  EXPECT_GT(fast_differ, 0u) << "the switch's reductions gave the same bits in every order: the test's orders did not differ";
}

// Two levels: leaf switches of GPUs under a spine; the home GPU's leaf
// reduces (docs/innet_fabric.md, "Two levels"), the other switches forward
// PUSHes to it and multicast the RESULTs coming back.
InnetFabricConfig two_levels(unsigned gpus, unsigned leaves, unsigned entries = 16) {
  InnetFabricConfig c = fabric(4, entries);
  c.gpus = gpus;
  c.leaves = leaves;
  return c;
}

TEST(InnetFabric, TwoLevelsPushExactEveryType) {
  for (uint8_t t = 0; t < 3; ++t) {
    SCOPED_TRACE(kType[t]);
    AllReduceSpec s;
    s.dtype = t;
    s.home = 9;  // on leaf 2
    const Outcome r = run(two_levels(16, 4), s, true, 30 + t);
    expect_clean(r);
    EXPECT_EQ(r.chk.differ_between_gpus, 0u);
    EXPECT_GT(r.rep.completions, 0u);  // lines reduced in the root leaf
  }
}

// 32 GPUs on 4 leaves of 8, a root table of 2 entries, a late GPU on
// another leaf, random bf16: LRU evictions and timeouts merged at the home,
// within the rounding bound, the same bits everywhere.
TEST(InnetFabric, TwoLevels32GpusEvictionsAndTimeouts) {
  AllReduceSpec s;
  s.dtype = 1;
  s.home = 3;
  s.straggler = 27;
  s.straggler_delay = 2000;
  s.rt_timeout = 300;
  const Outcome r = run(two_levels(32, 4, 2), s, false, 41);
  expect_clean(r);
  EXPECT_EQ(r.chk.differ_between_gpus, 0u);
  EXPECT_GT(r.rep.evict_lru, 0u);
  EXPECT_GT(r.rep.evict_timeout, 0u);
  EXPECT_GT(r.rep.ep[3].partials, 0u);
}

TEST(InnetFabric, TwoLevelsDeterministicIsTheSumInGpuOrder) {
  const uint8_t t = 0;
  const auto in = buffers(16, 4096, t, false, 51);
  InnetFabricConfig c = two_levels(16, 2);
  c.ep.mem_bytes = 1 << 17;  // the home's 16 stages
  InnetFabric f(c);
  AllReduceSpec s;
  s.dtype = t;
  s.deterministic = true;
  s.home = 12;
  std::vector<std::vector<uint8_t>> out;
  const AllReduceReport r = run_all_reduce(f, s, in, out);
  for (const auto& e : r.errors) ADD_FAILURE() << e;
  for (size_t i = 0; i < 4096 / 2; ++i) {
    uint32_t sum = get(in[0], t, i);
    for (unsigned g = 1; g < 16; ++g) sum = fp_add(kFp16, sum, get(in[g], t, i));
    for (unsigned g = 0; g < 16; ++g) ASSERT_EQ(get(out[g], t, i), sum) << "gpu " << g << " element " << i;
  }
}

// The C fabric manager across the three switches of two levels (8 GPUs on
// 2 leaves, the home GPU 5 on leaf 1: leaf 1 is the root), the endpoint
// driver on every GPU; a create refused for one switch writes to none.
// 8 GPUs on 2 leaves, the C fabric manager on its three switches (probed),
// the processors' completions left to the endpoint driver.
struct TwoLevelFirmware {
  TwoLevelFirmware() : f(two_levels(8, 2)) {
    f.reset();
    f.set_auto_pop(false);
    dev = std::make_unique<InnetDevices>(f);
    t3_device* sws[3] = {dev->sw(0), dev->sw(1), dev->sw(2)};
    const t3_fm_windows win = T3_INNET_SWITCH_WINDOWS;
    EXPECT_EQ(t3_fm_init(&fm, sws, 3, &win), T3_OK) << t3_fm_message(&fm);
    EXPECT_EQ(t3_fm_probe(&fm), T3_OK) << t3_fm_message(&fm);
  }
  InnetFabric f;
  std::unique_ptr<InnetDevices> dev;
  t3_fabric fm;
};

TEST(InnetFirmware, TwoLevelsByTheFabricManagerAndTheDrivers) {
  TwoLevelFirmware r;
  InnetFabric& f = r.f;
  InnetDevices& dev = *r.dev;
  t3_fabric& fm = r.fm;
  EXPECT_EQ(fm.hw[0].ports, 5u);
  EXPECT_EQ(fm.hw[2].ports, 2u);
  //                  base      size     ports expect home root dtype
  t3_fm_region rg[3] = {{0x100000, 0x1000, 0x1F, 8, 4, 0, 2},   // leaf 0: up (port 4) towards the root
                        {0x100000, 0x1000, 0x1F, 8, 1, 1, 2},   // leaf 1: the root, home GPU 5 on port 1
                        {0x100000, 0x1000, 0x3, 8, 1, 0, 2}};   // spine: towards leaf 1
  dev.clear_trace();
  t3_fm_region bad[3] = {rg[0], rg[1], rg[2]};
  bad[2].home = 2;  // the spine has 2 ports
  EXPECT_EQ(t3_fm_region_create(&fm, 0, bad), T3_E_ARG);
  EXPECT_NE(std::string(t3_fm_message(&fm)).find("switch 2: home = 2 is out of range; allowed: 0..1"), std::string::npos)
      << t3_fm_message(&fm);
  EXPECT_TRUE(trace_writes(dev.trace()).empty()) << dev.trace();
  ASSERT_EQ(t3_fm_region_create(&fm, 0, rg), T3_OK) << t3_fm_message(&fm);
  ASSERT_EQ(t3_fm_set_timeout(&fm, 1, 2000), T3_OK) << t3_fm_message(&fm);
  EXPECT_EQ(trace_writes(dev.trace()).size(), 3u * 2 * 8 + 1);  // 8 writes a table, 2 tables a switch, the timeout

  const uint64_t bytes = 4096;
  const auto in = buffers(8, bytes, 2, true, 61);
  for (unsigned g = 0; g < 8; ++g) {
    f.ep(g).set_window(0, all_reduce_window(0x100000, bytes, 0, 0x1000, 0x2000, 8, 2, g == 5));
    f.ep(g).memory().load(0, in[g].data(), bytes);
  }
  std::vector<t3_ep> ep(8);
  for (unsigned g = 0; g < 8; ++g) {
    ASSERT_EQ(t3_ep_init(&ep[g], dev.ep(g), g), T3_OK);
    ASSERT_EQ(t3_ep_probe(&ep[g]), T3_OK) << t3_ep_message(&ep[g]);
    const t3_ep_allreduce a = {0, 0x100000, bytes, 2, 0, g};
    ASSERT_EQ(t3_ep_allreduce_start(&ep[g], &a), T3_OK) << t3_ep_message(&ep[g]);
  }
  for (unsigned g = 0; g < 8; ++g) {
    t3_ep_cpl c{};
    ASSERT_EQ(t3_ep_wait(&ep[g], 500000, &c), T3_OK) << t3_ep_message(&ep[g]);
    EXPECT_EQ(c.tag, g);
  }
  std::vector<std::vector<uint8_t>> out(8, std::vector<uint8_t>(bytes));
  for (unsigned g = 0; g < 8; ++g) f.ep(g).memory().dump(0x1000, out[g].data(), bytes);
  EXPECT_EQ(check(in, out, 2, true).mismatches, 0u);
  EXPECT_EQ(f.unconnected_flits(), 0u);
}

// The software baseline: a ring all-reduce by the GPUs' copy engines on the
// same fabric, every type, 4 and 8 GPUs: exact, the same bits everywhere
// (each chunk reduced once, then copied), 2 (N - 1) / N of the buffer up
// each GPU's link (and its packets' headers); slower than push mode.
TEST(InnetFabric, TheRingBaselineIsExactAndSlower) {
  for (unsigned gpus : {4u, 8u})
    for (uint8_t t = 0; t < 3; ++t) {
      SCOPED_TRACE(std::to_string(gpus) + " GPUs, " + kType[t]);
      InnetFabricConfig c = fabric(gpus);
      c.link_cycles = 4;
      InnetFabric f(c);
      const auto in = buffers(gpus, 8192, t, true, 80 + t);
      std::vector<std::vector<uint8_t>> out;
      RingSpec rs;
      rs.dtype = t;
      rs.bytes = 8192;
      const RingReport r = run_ring_all_reduce(f, rs, in, out);
      EXPECT_TRUE(r.finished);
      for (const auto& e : r.errors) ADD_FAILURE() << e;
      const Checked k = check(in, out, t, true);
      EXPECT_EQ(k.mismatches, 0u) << k.first;
      EXPECT_EQ(k.differ_between_gpus, 0u);
      const uint64_t data = 2 * (gpus - 1) * 8192 / gpus / 16;  // data flits each GPU sends
      EXPECT_EQ(r.up_flits[0], data + data / 4);                 // and a header every 4
      AllReduceSpec s;
      s.dtype = t;
      s.bytes = 8192;
      std::vector<std::vector<uint8_t>> out2;
      const AllReduceReport p = run_all_reduce(f, s, in, out2);
      EXPECT_LT(p.cycles, r.cycles) << "push " << p.cycles << ", ring " << r.cycles;
    }
}

// A create a switch refuses part way (region 0 already in switch 1's
// mcr_in, put there behind the firmware's back) is rolled back on the
// switches before it: the fabric holds the region everywhere or nowhere.
// Address ranges that wrap past 2^64 are refused; a timeout wider than the
// DMA credit controller's TIMEOUT_W is refused. None of them writes.
TEST(InnetFirmware, ARefusalPartWayIsRolledBackAndRangesDoNotWrap) {
  TwoLevelFirmware r;
  InnetFabric& f = r.f;
  InnetDevices& dev = *r.dev;
  t3_fabric& fm = r.fm;
  const uint32_t in = T3_INNET_SWITCH_MCR_IN_BASE;
  for (auto [a, d] : {std::pair<uint32_t, uint32_t>{T3_MCR_TABLE_A_RGN_IDX, 0}, {T3_MCR_TABLE_A_RGN_BASE_LO, 0x800000},
                      {T3_MCR_TABLE_A_RGN_SIZE_LO, 0x1000}, {T3_MCR_TABLE_A_RGN_PORTS, 1}, {T3_MCR_TABLE_A_RGN_ATTR, 1},
                      {T3_MCR_TABLE_A_RGN_CMD, T3_MCR_TABLE_R_RGN_CMD_ADD_MASK}})
    ASSERT_TRUE(f.switch_write(in + a, d, 1));
  t3_fm_region rg[3] = {{0x100000, 0x1000, 0x1F, 8, 4, 0, 2}, {0x100000, 0x1000, 0x1F, 8, 1, 1, 2},
                        {0x100000, 0x1000, 0x3, 8, 1, 0, 2}};
  dev.clear_trace();
  EXPECT_EQ(t3_fm_region_create(&fm, 0, rg), T3_E_REFUSED) << dev.trace();
  EXPECT_NE(std::string(t3_fm_message(&fm)).find("switch 1: the region table at 0x0 refused region 0: command code 2; "
                                                 "the switches before it were rolled back"),
            std::string::npos)
      << t3_fm_message(&fm);
  for (uint32_t w : {T3_INNET_SWITCH_MCR_IN_BASE, T3_INNET_SWITCH_MCR_OUT_BASE}) {
    uint32_t attr = 1;
    ASSERT_TRUE(f.switch_write(w + T3_MCR_TABLE_A_RGN_IDX, 0, 0));
    ASSERT_TRUE(f.switch_read(w + T3_MCR_TABLE_A_RGN_RD_ATTR, attr, 0));
    EXPECT_EQ(attr >> 31, 0u) << "switch 0 holds no region 0 (table 0x" << std::hex << w << ")";
  }
  EXPECT_EQ(fm.used[0], 0u);

  dev.clear_trace();
  t3_fm_region wrap[3] = {rg[0], rg[1], rg[2]};
  for (auto& r : wrap) r.base = 0xFFFFFFFFFFFFF000ull;
  EXPECT_EQ(t3_fm_region_create(&fm, 1, wrap), T3_E_ARG);
  EXPECT_NE(std::string(t3_fm_message(&fm)).find("base = 0xfffffffffffff000; allowed: a multiple of the size 0x1000 below 2^48"),
            std::string::npos)
      << t3_fm_message(&fm);
  t3_ep e;
  ASSERT_EQ(t3_ep_init(&e, dev.ep(2), 2), T3_OK);
  ASSERT_EQ(t3_ep_probe(&e), T3_OK) << t3_ep_message(&e);
  dev.clear_trace();
  EXPECT_EQ(t3_ep_configure(&e, 16, 1u << 16), T3_E_ARG);
  EXPECT_NE(std::string(t3_ep_message(&e)).find("timeout_cycles = 65536 is out of range; allowed: 0..65535 (TIMEOUT_W 16)"),
            std::string::npos)
      << t3_ep_message(&e);
  const t3_ep_allreduce a = {0xFFFFFFFFFFFFFFF0ull, 0x100000, 16, 2, 0, 1};
  EXPECT_EQ(t3_ep_allreduce_start(&e, &a), T3_E_ARG);
  EXPECT_NE(std::string(t3_ep_message(&e)).find("local = 0xfffffffffffffff0"), std::string::npos) << t3_ep_message(&e);
  EXPECT_TRUE(trace_writes(dev.trace()).empty()) << dev.trace();
}

TEST(InnetFabric, BadSpecsNameTheFieldAndTheRange) {
  InnetFabric f(fabric(4));
  std::vector<std::vector<uint8_t>> in(4, std::vector<uint8_t>(4096)), out;
  auto msg = [&](AllReduceSpec s) {
    try {
      run_all_reduce(f, s, in, out);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  AllReduceSpec s;
  s.dtype = 3;
  EXPECT_NE(msg(s).find("dtype = 3 is out of range; allowed: 0..2"), std::string::npos) << msg(s);
  s = AllReduceSpec{};
  s.home = 4;
  EXPECT_NE(msg(s).find("home = 4 is out of range; allowed: 0..3"), std::string::npos) << msg(s);
  s = AllReduceSpec{};
  s.pull = true;
  s.src_addr = 0x1000;
  s.dst_addr = 0x1800;
  s.merge_addr = 0x8000;
  EXPECT_NE(msg(s).find("pull mode reduces out of place"), std::string::npos) << msg(s);
  s = AllReduceSpec{};
  s.net_base = 0x100800;
  EXPECT_NE(msg(s).find("net_base = 0x100800: a multiple of the region's size 0x1000"), std::string::npos) << msg(s);
  s = AllReduceSpec{};
  s.deterministic = true;
  s.pull = true;
  EXPECT_NE(msg(s).find("deterministic = 1 with pull = 1"), std::string::npos) << msg(s);
  {
    InnetFabric two(two_levels(8, 2));
    std::vector<std::vector<uint8_t>> in8(8, std::vector<uint8_t>(4096));
    AllReduceSpec p;
    p.pull = true;
    try {
      run_all_reduce(two, p, in8, out);
      ADD_FAILURE() << "pull on two levels was not refused";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("pull = 1 on two switch levels"), std::string::npos) << e.what();
    }
  }
  for (auto [gpus, leaves, text] : {std::tuple<unsigned, unsigned, const char*>{12, 5, "a multiple of leaves (5)"},
                                    {34, 2, "32 at most"}, {32, 2, "at most 15 per leaf"}, {8, 1, "leaves = 1"}}) {
    try {
      InnetFabric bad(two_levels(gpus, leaves));
      ADD_FAILURE() << text;
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
    }
  }
  s = AllReduceSpec{};
  s.bytes = 40000;  // three buffers past MEM_BYTES 64 KiB
  EXPECT_NE(msg(s).find("MEM_BYTES"), std::string::npos) << msg(s);
}

// One GPU alone (its endpoint composition, memory and copy queue),
// PARTIALs on its response port (a home).
struct HomeRig {
  explicit HomeRig(const InnetEndpointParams& p) : e(p, 20) {
    in.rst_n = false;
    e.step(in, out);
    e.step(in, out);
    in.rst_n = true;
    in.req_out_ready = true;
    for (unsigned c = 0; c <= p.count_depth && !e.idle(); ++c) e.step(in, out);  // ep_count's reset walk
    EXPECT_TRUE(e.idle());
  }
  void partial(uint64_t addr, unsigned count, float v) {
    pkt::Header h;
    h.op = uint8_t(pkt::Op::partial);
    h.dtype = 2;
    h.len = 4;
    h.count = uint8_t(count);
    h.addr = addr;
    stream.push_back(pkt::pack(h));
    uint32_t b;
    std::memcpy(&b, &v, 4);
    for (int i = 0; i < 4; ++i) {
      Wide f;
      for (unsigned l = 0; l < 4; ++l) f.set_lane(32 * l, 32, b);
      stream.push_back(f);
    }
  }
  // One cycle; hold: the stream's next flit is held back. The RESULTs the
  // home sends are collected: address -> the first lane of each flit.
  void step(bool hold, bool out_ready) {
    in.rsp_in_valid = !stream.empty() && !hold;
    in.rsp_in_flit = in.rsp_in_valid ? stream.front() : Wide{};
    in.rsp_out_ready = out_ready;
    InnetEndpointInputs drive = in;
    e.step(drive, out);
    if (in.rsp_in_valid && out.rsp_in_ready) {
      stream.pop_front();
      ++taken;
    }
    if (out.rsp_out_valid && out_ready) {
      if (left == 0) {
        cur = pkt::unpack(out.rsp_out_flit);
        left = cur.len;
        sent.push_back({cur.addr, {}});
      } else {
        float v;
        const uint32_t b = uint32_t(out.rsp_out_flit.w[0]);
        std::memcpy(&v, &b, 4);
        sent.back().second.push_back(v);
        --left;
      }
    }
  }
  FabricGpu e;
  InnetEndpointInputs in;
  InnetEndpointOutputs out;
  std::deque<Wide> stream;
  size_t taken = 0;
  unsigned left = 0;
  pkt::Header cur;
  std::vector<std::pair<uint64_t, std::vector<float>>> sent;
};

// HOME_Q of two, lines that wait for the sweep, and the sweep reaching a
// line whose last PARTIAL's header is in but whose data are not: it must
// not send that line before its data are merged (nor twice, nor leave
// another line unsent). Found by review of the endpoint's first model: it
// did.
TEST(FabricGpuHome, TheSweepWaitsForALinesLastData) {
  InnetEndpointParams p;
  p.home_q = 2;
  p.count_depth = 64;
  HomeRig r(p);
  EpWin w;
  w.valid = true;
  w.net_base = 0x10000;
  w.bytes = 64 * 16;
  w.dst = 0x1000;
  w.merge = 0x2000;
  w.expected = 2;
  w.dtype = 2;
  w.home = true;
  r.e.set_window(0, w);
  for (unsigned line : {0u, 4u, 8u, 40u}) r.partial(0x10000 + line * 16, 2, 5.0f);  // whole at once
  r.partial(0x10000 + 16 * 16, 1, 1.0f);  // line 16 in two halves: 1 + 2
  r.partial(0x10000 + 16 * 16, 1, 2.0f);
  const size_t hold_from = r.stream.size() - 4;  // the second half's data, held back for a while
  for (int c = 0; c < 2000; ++c) r.step(r.taken >= hold_from && c < 400, c >= 150);
  std::map<uint64_t, std::vector<std::vector<float>>> by_line;
  for (const auto& [a, d] : r.sent) by_line[(a - 0x10000) / 16].push_back(d);
  const std::map<unsigned, float> want = {{0, 5.0f}, {4, 5.0f}, {8, 5.0f}, {16, 3.0f}, {40, 5.0f}};
  EXPECT_EQ(by_line.size(), want.size());
  for (const auto& [line, v] : want) {
    ASSERT_EQ(by_line[line].size(), 1u) << "line " << line << " sent once";
    EXPECT_EQ(by_line[line][0], std::vector<float>(4, v)) << "line " << line;
  }
  EXPECT_GT(r.e.stats().home_sweeps, 0u);
  EXPECT_EQ(r.e.stats().home_results, 5u);
  EXPECT_EQ(r.e.open_lines(), 0u);
  EXPECT_TRUE(r.e.idle());
}

// Two windows at one home, the first merging into its dst, the second not:
// the first's reads must not reach the second's copy to its dst. Found by
// review: they did.
TEST(FabricGpuHome, OneWindowsReadsNeverReachAnothersDst) {
  HomeRig r(InnetEndpointParams{});
  EpWin w0;
  w0.valid = true;
  w0.net_base = 0x10000;
  w0.bytes = 0x400;
  w0.dst = w0.merge = 0x1000;
  w0.src = 0;
  w0.expected = 2;
  w0.dtype = 2;
  w0.home = true;
  EpWin w1 = w0;
  w1.net_base = 0x20000;
  w1.src = 0x2000;
  w1.dst = 0x3000;
  w1.merge = 0x4000;
  w1.count_base = 64;
  r.e.set_window(0, w0);
  r.e.set_window(1, w1);
  r.partial(0x10000, 2, 1.0f);
  r.partial(0x20000, 2, 2.0f);
  for (int c = 0; c < 300; ++c) r.step(false, true);
  float d0[16], d1[16];
  r.e.memory().dump(0x1000, d0, sizeof d0);
  r.e.memory().dump(0x3000, d1, sizeof d1);
  for (int i = 0; i < 16; ++i) {
    EXPECT_EQ(d0[i], 1.0f) << i;
    EXPECT_EQ(d1[i], 2.0f) << i;
  }
  EXPECT_EQ(r.e.stats().home_results, 2u);
}

// Malformed packets at a home: each dropped whole and named, the packets
// around it merged as if it were not there.
TEST(FabricGpuHome, MalformedPacketsAreDroppedWholeAndNamed) {
  HomeRig r(InnetEndpointParams{});
  EpWin w;
  w.valid = true;
  w.net_base = 0x10000;
  w.bytes = 0x400;
  w.dst = 0x1000;
  w.merge = 0x2000;
  w.expected = 2;
  w.dtype = 2;
  w.home = true;
  r.e.set_window(0, w);
  r.partial(0x10000, 1, 1.0f);
  r.partial(0x10008, 1, 9.0f);  // misaligned: dropped with its 4 data flits
  r.partial(0x10000, 1, 2.0f);
  for (int c = 0; c < 300; ++c) r.step(false, true);
  EXPECT_EQ(r.e.stats().dropped, 1u);
  EXPECT_EQ(r.e.rx_cause(), EpRxCause::malformed);
  ASSERT_EQ(r.sent.size(), 1u);
  EXPECT_EQ(r.sent[0].second, std::vector<float>(4, 3.0f));
  // A PARTIAL for a range no window holds, then one where this GPU is not
  // the home: each named.
  r.partial(0x90000, 1, 1.0f);
  for (int c = 0; c < 100; ++c) r.step(false, true);
  EXPECT_EQ(r.e.rx_cause(), EpRxCause::no_window);
  w.home = false;
  w.merge = 0x1000;
  r.e.set_window(0, w);
  r.partial(0x10000, 1, 1.0f);
  for (int c = 0; c < 100; ++c) r.step(false, true);
  EXPECT_EQ(r.e.rx_cause(), EpRxCause::not_home);
  // A response into a copy window (which takes WRITEs only).
  w.copy = EpWin::kCopyAdd;
  r.e.set_window(0, w);
  r.partial(0x10000, 1, 1.0f);
  for (int c = 0; c < 100; ++c) r.step(false, true);
  EXPECT_EQ(r.e.rx_cause(), EpRxCause::wrong_op);
  EXPECT_EQ(r.e.stats().dropped, 4u);
  EXPECT_TRUE(r.e.idle());
}

// A reduction to an address in no region: the switch sends it by dst (a
// plain unicast), the receiving GPU drops it by name (no window holds its
// address), and the sender's request never completes. An all-reduce that
// waits for that GPU's contribution ends with each GPU's wait named.
TEST(InnetFabric, AReductionToAnUnmappedRegionIsNamed) {
  InnetFabric f(fabric(4));
  AllReduceSpec s;
  s.max_cycles = 30000;
  s.straggler = 3;
  s.straggler_delay = AllReduceSpec::kNever;  // GPU 3 takes no part: it pushes elsewhere
  const auto in = buffers(4, s.bytes, s.dtype, true, 71);
  // GPU 3's stray request, queued before the run starts (run_all_reduce
  // resets the fabric first, so it is submitted from inside the run: a
  // second fabric shows the same without the all-reduce).
  InnetFabric g(fabric(4));
  g.reset();
  FabricCmd cmd;
  cmd.local = 0;
  cmd.net = 0x900000;  // no region
  cmd.len = 4;
  cmd.dtype = 2;
  cmd.src = 3;
  cmd.dst = 1;
  g.submit(3, cmd);
  for (int i = 0; i < 2000; ++i) g.step();
  EXPECT_TRUE(g.completions(3).empty());
  EXPECT_EQ(g.ep(1).stats().dropped, 1u);
  EXPECT_EQ(g.ep(1).req_cause(), EpReqCause::no_window);  // a PUSH: the request stream's
  uint32_t miss = 0;
  ASSERT_TRUE(g.switch_read(T3_INNET_SWITCH_MCR_IN_BASE + T3_MCR_TABLE_A_STAT_MISS, miss));
  EXPECT_EQ(miss, 1u);  // the switch counted it as sent outside every region
  // An all-reduce without GPU 3's contributions: every wait named.
  std::vector<std::vector<uint8_t>> out;
  const AllReduceReport r = run_all_reduce(f, s, in, out);
  std::string all;
  for (const auto& e : r.errors) all += e + "\n";
  EXPECT_NE(all.find("gpu3: sent nothing"), std::string::npos) << all;
  EXPECT_NE(all.find("gpu0: no completion within 30000 cycles"), std::string::npos) << all;
}

// A fabric used twice: the second run's completions and data are its own.
TEST(InnetFabric, ASecondRunOnTheSameFabricIsItsOwn) {
  InnetFabric f(fabric(4));
  AllReduceSpec s;
  std::vector<std::vector<uint8_t>> out1, out2;
  const auto in1 = buffers(4, s.bytes, s.dtype, true, 21), in2 = buffers(4, s.bytes, s.dtype, true, 22);
  const AllReduceReport r1 = run_all_reduce(f, s, in1, out1);
  const AllReduceReport r2 = run_all_reduce(f, s, in2, out2);
  EXPECT_TRUE(r1.errors.empty() && r2.errors.empty());
  EXPECT_GT(r2.cycles, r1.cycles / 2);
  EXPECT_EQ(check(in2, out2, s.dtype, true).mismatches, 0u);
  EXPECT_EQ(r2.ep[0].pushes, s.bytes / 64);  // counted since the second run's reset
}

// A window refused through the endpoint's page 1 raises the endpoint's
// interrupt (REFUSED, enabled) and holds it until it is cleared, with the
// window block clocked only when its registers move.
TEST(FabricGpuWindow, ARefusedWindowRaisesTheInterruptUntilCleared) {
  FabricGpu e(InnetEndpointParams{}, 20);
  InnetEndpointInputs in;
  InnetEndpointOutputs o;
  in.rst_n = false;
  e.step(in, o);
  in.rst_n = true;
  const uint32_t page = T3_EP_WINDOW_PAGE;
  ASSERT_EQ(e.tlm_write(page + T3_EP_WINDOW_A_INTR_ENABLE, 1), RegStatus::ok);
  ASSERT_EQ(e.tlm_write(page + T3_EP_WINDOW_A_WIN_BYTES, 0), RegStatus::ok);  // cause BYTES
  ASSERT_EQ(e.tlm_write(page + T3_EP_WINDOW_A_WIN_CMD, T3_EP_WINDOW_R_WIN_CMD_WRITE_MASK), RegStatus::ok);
  for (unsigned c = 0; c < 50; ++c) {
    e.step(in, o);
    if (c >= 2) {
      EXPECT_TRUE(o.intr) << "cycle " << c;
    }
  }
  uint32_t st = 0;
  ASSERT_EQ(e.tlm_read(page + T3_EP_WINDOW_A_STATUS, st), RegStatus::ok);
  EXPECT_EQ(st & 0x1F, unsigned(EpWinCause::bytes));
  ASSERT_EQ(e.tlm_write(page + T3_EP_WINDOW_A_INTR_STATE, 1), RegStatus::ok);
  e.step(in, o);
  e.step(in, o);
  EXPECT_FALSE(o.intr) << "cleared";
  EXPECT_EQ(e.tlm_write(0xC000, 0), RegStatus::address_error) << "page 12 holds no block";
}

TEST(FabricGpuWindow, RefusedWindowsNameTheFieldAndChangeNothing) {
  InnetEndpointParams p;
  p.mem_bytes = 1 << 16;
  FabricGpu e(p, 20);
  auto msg = [&](unsigned i, const EpWin& w) {
    try {
      e.set_window(i, w);
    } catch (const std::invalid_argument& x) {
      return std::string(x.what());
    }
    return std::string("no error");
  };
  EpWin w;
  w.valid = true;
  w.net_base = 0x10000;
  w.bytes = 0x1000;
  w.src = 0;
  w.dst = 0x1000;
  w.merge = 0x2000;
  w.expected = 4;
  w.home = true;
  EXPECT_EQ(msg(0, w), "no error");
  EXPECT_NE(msg(4, w).find("index is out of range: 0..3 (WINDOWS)"), std::string::npos);
  EpWin b = w;
  b.bytes = 24;
  EXPECT_NE(msg(1, b).find("bytes = 24: a positive multiple of 16"), std::string::npos) << msg(1, b);
  b = w;
  b.merge = 0x800;
  EXPECT_NE(msg(1, b).find("merge = 0x800 overlaps src"), std::string::npos) << msg(1, b);
  b = w;
  b.dst = 0xF800;
  EXPECT_NE(msg(1, b).find("dst = 0xf800"), std::string::npos) << msg(1, b);
  EXPECT_NE(msg(1, b).find("(MEM_BYTES)"), std::string::npos) << msg(1, b);
  b = w;
  b.expected = 1;
  EXPECT_NE(msg(1, b).find("expected = 1: 2..255"), std::string::npos) << msg(1, b);
  b = w;  // window 0 holds this network range
  EXPECT_NE(msg(1, b).find("overlaps window 0"), std::string::npos) << msg(1, b);
  b.net_base = 0x20000;
  b.count_base = 4000;  // 256 counters past COUNT_DEPTH 4096
  EXPECT_NE(msg(1, b).find("count_base = 4000"), std::string::npos) << msg(1, b);
  b = w;
  b.net_base = 0x20000;
  b.count_base = 1000;
  b.det = true;
  b.stage = 0x4000;
  b.contrib_mask = 0x7;  // three bits for four contributors
  EXPECT_NE(msg(1, b).find("contrib_mask = 0x7: one bit per contributor, expected (4)"), std::string::npos) << msg(1, b);
  b.contrib_mask = 0xF;
  b.stage = 0xD000;  // 4 x 0x1000 past 64 KiB
  EXPECT_NE(msg(1, b).find("stage = 0xd000"), std::string::npos) << msg(1, b);
  b.stage = 0x1000;
  EXPECT_NE(msg(1, b).find("stage = 0x1000 overlaps dst"), std::string::npos) << msg(1, b);
  b.home = false;
  EXPECT_NE(msg(1, b).find("det = 1 without home"), std::string::npos) << msg(1, b);
  EXPECT_FALSE(e.window(1).valid);
}

}  // namespace
}  // namespace t3
