// The in-network firmware (firmware/include/t3/innet.h) on a fabric of 4
// GPUs whose switch is the RTL, compared with its model in every cycle
// (kernel-free engine; innet_switch_fabric.h):
// - the fabric manager's set-up of a 4-GPU all-reduce writes what the golden
//   trace (fm_allreduce_4gpu.golden, written by hand from the register maps)
//   says, and the region reads back as written; model and RTL answer every
//   access alike (0 mismatches);
// - the endpoint driver starts each GPU's all-reduce and waits for it:
//   push and pull, the data exact;
// - a refused call writes nothing and names the field and the range.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "innet_allreduce.h"
#include "innet_devices.h"
#include "innet_switch_fabric.h"
#include "sc_test_env.h"
#include "t3/innet.h"
#include "t3/innet_switch_map.h"
#include "t3/mcr_table_regs.h"

namespace t3 {
namespace {

constexpr t3_fm_windows kWin = T3_INNET_SWITCH_WINDOWS;

struct Rig {
  Rig() {
    tb::RunOptions opt = tb::test_options();
    opt.engine = tb::EngineKind::direct;  // one fabric per test: no SystemC elaboration
    auto sw = std::make_unique<tb::CosimFabricSwitch>(tb::make_cosim<InnetSwitchBlock>(opt));
    cosim = &sw->cosim();
    InnetFabricConfig c;
    c.gpus = 4;
    c.sw = tb::built_params<InnetSwitchBlock>();
    c.ep.mem_bytes = 1 << 18;
    f = std::make_unique<InnetFabric>(c, std::move(sw));
    f->reset();
    f->set_auto_pop(false);
    dev = std::make_unique<InnetDevices>(*f);
    t3_device* sws[1] = {dev->sw()};
    EXPECT_EQ(t3_fm_init(&fm, sws, 1, &kWin), T3_OK) << t3_fm_message(&fm);
    EXPECT_EQ(t3_fm_probe(&fm), T3_OK) << t3_fm_message(&fm);
    dev->clear_trace();
  }
  t3_fm_region region() const {
    t3_fm_region r{};
    r.base = 0x100000;
    r.size = 0x10000;
    r.ports = 0xF;
    r.expect = 4;
    r.home = 0;
    r.root = 1;
    r.dtype = 2;
    return r;
  }
  std::unique_ptr<InnetFabric> f;
  std::unique_ptr<InnetDevices> dev;
  tb::Cosim<InnetSwitchBlock>* cosim = nullptr;
  t3_fabric fm;
};

TEST(InnetFirmware, FabricManagerSetUpMatchesTheGoldenTraceAndReadsBack) {
  Rig r;
  const t3_fm_region rg = r.region();
  ASSERT_EQ(t3_fm_region_create(&r.fm, 0, &rg), T3_OK) << t3_fm_message(&r.fm);
  ASSERT_EQ(t3_fm_set_timeout(&r.fm, 0, 2000), T3_OK) << t3_fm_message(&r.fm);
  const std::vector<std::string> got = trace_writes(r.dev->trace()), golden = golden_writes(T3_FM_GOLDEN_TRACE);
  for (size_t i = 0; i < std::max(got.size(), golden.size()); ++i)
    EXPECT_EQ(i < got.size() ? got[i] : "(nothing)", i < golden.size() ? golden[i] : "(nothing)") << "write " << i + 1;
  // Each table's entry 0 as written (RGN_RD_*), on the RTL; the model gave
  // the same answers in the same cycles (the co-simulation's compare).
  for (uint32_t win : {kWin.mcr_in, kWin.mcr_out}) {
    uint32_t v = 0;
    ASSERT_TRUE(r.f->switch_write(win + T3_MCR_TABLE_A_RGN_IDX, 0));
    const std::pair<uint32_t, uint32_t> want[] = {
        {T3_MCR_TABLE_A_RGN_RD_BASE_LO, 0x100000}, {T3_MCR_TABLE_A_RGN_RD_BASE_HI, 0},
        {T3_MCR_TABLE_A_RGN_RD_SIZE_LO, 0x10000},  {T3_MCR_TABLE_A_RGN_RD_SIZE_HI, 0},
        {T3_MCR_TABLE_A_RGN_RD_PORTS, 0xF},        {T3_MCR_TABLE_A_RGN_RD_ATTR, 0x82010004u}};
    for (const auto& [a, w] : want) {
      ASSERT_TRUE(r.f->switch_read(win + a, v));
      EXPECT_EQ(v, w) << std::hex << "window 0x" << win << " register 0x" << a;
    }
  }
  EXPECT_EQ(r.cosim->failures(), 0u) << r.cosim->first_failure();
}

// Each GPU's window set, its all-reduce started and waited for by the
// endpoint driver, through the endpoint's register pages.
void all_reduce_by_the_drivers(bool pull) {
  Rig r;
  const t3_fm_region rg = r.region();
  ASSERT_EQ(t3_fm_region_create(&r.fm, 0, &rg), T3_OK) << t3_fm_message(&r.fm);
  ASSERT_EQ(t3_fm_set_timeout(&r.fm, 0, 2000), T3_OK) << t3_fm_message(&r.fm);
  const uint64_t bytes = 4096;
  std::vector<std::vector<float>> in(4, std::vector<float>(bytes / 4));
  for (unsigned g = 0; g < 4; ++g)
    for (size_t i = 0; i < in[g].size(); ++i) in[g][i] = float(int((i * 7 + g * 13) % 201) - 100);
  std::vector<t3_ep> ep(4);
  for (unsigned g = 0; g < 4; ++g) {
    r.f->ep(g).memory().load(0, in[g].data(), bytes);
    ASSERT_EQ(t3_ep_init(&ep[g], r.dev->ep(g), g), T3_OK);
    ASSERT_EQ(t3_ep_probe(&ep[g]), T3_OK) << t3_ep_message(&ep[g]);
    ASSERT_EQ(t3_ep_configure(&ep[g], 16, 0), T3_OK) << t3_ep_message(&ep[g]);
    t3_ep_window w{};
    w.net_base = 0x100000;
    w.bytes = bytes;
    w.src = 0;
    w.dst = 0x10000;
    w.merge = 0x20000;
    w.expected = 4;
    w.dtype = 2;
    w.home = g == 0;
    ASSERT_EQ(t3_ep_set_window(&ep[g], 0, &w), T3_OK) << t3_ep_message(&ep[g]);
    EXPECT_EQ(r.f->ep(g).window(0), all_reduce_window(0x100000, bytes, 0, 0x10000, 0x20000, 4, 2, g == 0))
        << "the window the driver wrote, as the endpoint holds it";
  }
  for (unsigned g = 0; g < 4; ++g) {
    t3_ep_allreduce a{};
    a.local = 0;
    a.net = 0x100000;
    a.bytes = bytes;
    a.dtype = 2;
    a.pull = pull;
    a.tag = 40 + g;
    ASSERT_EQ(t3_ep_allreduce_start(&ep[g], &a), T3_OK) << t3_ep_message(&ep[g]);
  }
  for (unsigned g = 0; g < 4; ++g) {
    t3_ep_cpl c{};
    ASSERT_EQ(t3_ep_wait(&ep[g], 200000, &c), T3_OK) << t3_ep_message(&ep[g]);
    EXPECT_EQ(c.tag, 40 + g);
  }
  for (unsigned g = 0; g < 4; ++g) {
    std::vector<float> out(bytes / 4);
    r.f->ep(g).memory().dump(0x10000, out.data(), bytes);
    for (size_t i = 0; i < out.size(); ++i)
      ASSERT_EQ(out[i], in[0][i] + in[1][i] + in[2][i] + in[3][i]) << "gpu " << g << " element " << i;
  }
  EXPECT_EQ(r.cosim->failures(), 0u) << r.cosim->first_failure();
}

TEST(InnetFirmware, PushAllReduceByTheDrivers) { all_reduce_by_the_drivers(false); }
TEST(InnetFirmware, PullAllReduceByTheDrivers) { all_reduce_by_the_drivers(true); }

TEST(InnetFirmware, ARefusedCallWritesNothingAndNamesTheField) {
  Rig r;
  auto refused = [&](t3_fm_region rg, uint32_t idx, int code, const char* text) {
    r.dev->clear_trace();
    EXPECT_EQ(t3_fm_region_create(&r.fm, idx, &rg), code) << text;
    EXPECT_NE(std::string(t3_fm_message(&r.fm)).find(text), std::string::npos) << t3_fm_message(&r.fm);
    EXPECT_TRUE(trace_writes(r.dev->trace()).empty()) << r.dev->trace();
  };
  t3_fm_region rg = r.region();
  rg.base = 0x108000;
  refused(rg, 0, T3_E_ARG, "base = 0x108000; allowed: a multiple of the size 0x10000");
  rg = r.region();
  rg.size = 0x18000;
  refused(rg, 0, T3_E_ARG, "size = 0x18000; allowed: a power of two");
  rg = r.region();
  rg.ports = 0x1FF;
  refused(rg, 0, T3_E_ARG, "ports = 0x1ff; allowed: bits of ports 0..7 (PORTS 8)");
  rg = r.region();
  rg.home = 8;
  refused(rg, 0, T3_E_ARG, "home = 8 is out of range; allowed: 0..7");
  rg = r.region();
  rg.dtype = 3;
  refused(rg, 0, T3_E_ARG, "dtype = 3 is out of range; allowed: 0..2");
  refused(r.region(), 8, T3_E_ARG, "idx = 8 is out of range for switch 0; allowed: 0..7 (REGIONS)");
  rg = r.region();
  ASSERT_EQ(t3_fm_region_create(&r.fm, 0, &rg), T3_OK) << t3_fm_message(&r.fm);
  refused(r.region(), 0, T3_E_BUSY, "region 0 exists; destroy it first");
  rg = r.region();
  rg.base = 0x108000;
  rg.size = 0x1000;  // inside region 0
  refused(rg, 1, T3_E_OVERLAP, "overlaps region 0");
  ASSERT_EQ(t3_fm_region_destroy(&r.fm, 0), T3_OK) << t3_fm_message(&r.fm);
  ASSERT_EQ(t3_fm_region_create(&r.fm, 1, &rg), T3_OK) << t3_fm_message(&r.fm);  // no longer overlaps

  // The endpoint driver, the same way.
  t3_ep e;
  ASSERT_EQ(t3_ep_init(&e, r.dev->ep(1), 1), T3_OK);
  ASSERT_EQ(t3_ep_probe(&e), T3_OK) << t3_ep_message(&e);
  auto ep_refused = [&](t3_ep_allreduce a, const char* text) {
    r.dev->clear_trace();
    EXPECT_EQ(t3_ep_allreduce_start(&e, &a), T3_E_ARG) << text;
    EXPECT_NE(std::string(t3_ep_message(&e)).find(text), std::string::npos) << t3_ep_message(&e);
    EXPECT_TRUE(trace_writes(r.dev->trace()).empty()) << r.dev->trace();
  };
  t3_ep_allreduce a{0, 0x100000, 4096, 2, 0, 1};
  a.bytes = 4100;
  ep_refused(a, "bytes = 4100; allowed: a positive multiple of 16");
  a = t3_ep_allreduce{0, 0x100000, 4096, 3, 0, 1};
  ep_refused(a, "dtype = 3 is out of range; allowed: 0..2");
  a = t3_ep_allreduce{0, 0x100000, 4096, 2, 0, 256};
  ep_refused(a, "tag = 256 is out of range; allowed: 0..255");
  a = t3_ep_allreduce{8, 0x100000, 4096, 2, 0, 1};
  ep_refused(a, "local = 0x8; allowed: a multiple of 16");
  // A window the driver refuses writes nothing; one the endpoint refuses
  // (a window the driver never wrote is in the way) is named by its cause.
  auto win_refused = [&](uint32_t idx, t3_ep_window w, const char* text) {
    r.dev->clear_trace();
    EXPECT_EQ(t3_ep_set_window(&e, idx, &w), T3_E_ARG) << text;
    EXPECT_NE(std::string(t3_ep_message(&e)).find(text), std::string::npos) << t3_ep_message(&e);
    EXPECT_TRUE(trace_writes(r.dev->trace()).empty()) << r.dev->trace();
  };
  const t3_ep_window w0{0x100000, 4096, 0, 0x10000, 0x20000, 0, 0, 4, 2, 1, 0, 0, 0};
  t3_ep_window w = w0;
  win_refused(4, w, "window index 4 is out of range; allowed: 0..3 (WINDOWS)");
  w.merge = 0x800;
  win_refused(0, w, "window 0: merge = 0x800 overlaps src 0x0");
  w = w0;
  w.dst = 0x3F800;
  win_refused(0, w, "window 0: dst = 0x3f800; allowed: a multiple of 16 with dst + bytes <= 0x40000 (MEM_BYTES)");
  w = w0;
  w.det = 1;
  w.contrib_mask = 0x7;
  w.stage = 0x40000;
  win_refused(0, w, "window 0: contrib_mask = 0x7 has 3 bits; allowed: expected (4) bits");
  w = w0;
  w.count_base = 4000;
  win_refused(0, w, "window 0: count_base = 4000; allowed: count_base + 256 lines <= 4096 (COUNT_DEPTH)");
  ASSERT_EQ(t3_ep_set_window(&e, 0, &w0), T3_OK) << t3_ep_message(&e);
  w = w0;
  win_refused(1, w, "window 1: net_base = 0x100000: the range overlaps window 0's");
  EpWin other = all_reduce_window(0x200000, 4096, 0, 0x10000, 0x20000, 4, 2, false);
  other.count_base = 1000;
  r.f->ep(1).set_window(2, other);  // behind the driver's back
  w.net_base = 0x200000;
  w.count_base = 2000;
  EXPECT_EQ(t3_ep_set_window(&e, 1, &w), T3_E_REFUSED);
  EXPECT_NE(std::string(t3_ep_message(&e)).find("window 1 refused by the endpoint: STATUS.CAUSE 17 (NET_OVERLAP)"),
            std::string::npos)
      << t3_ep_message(&e);
  EXPECT_FALSE(r.f->ep(1).window(1).valid);
  ASSERT_EQ(t3_ep_clear_window(&e, 0), T3_OK) << t3_ep_message(&e);
  EXPECT_FALSE(r.f->ep(1).window(0).valid);
  // Nothing started: a wait ends by its timeout, named.
  t3_ep_cpl c{};
  EXPECT_EQ(t3_ep_wait(&e, 1000, &c), T3_E_TIMEOUT);
  EXPECT_NE(std::string(t3_ep_message(&e)).find("gpu 1: no completion within 1000 ns"), std::string::npos)
      << t3_ep_message(&e);
  EXPECT_EQ(r.cosim->failures(), 0u) << r.cosim->first_failure();
}

}  // namespace
}  // namespace t3
