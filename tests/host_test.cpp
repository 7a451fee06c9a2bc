// The host (tlm/host.h) runs C firmware (host_fw_smoke.c) through the HAL
// against two blocks' TLM register models behind the router (tlm/router.h):
// the firmware's checks pass, simulated time passes with each access, and
// the register trace names every access, its fields and its errors.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <systemc>

#include "common/reg_target.h"
#include "dma_trigger/dma_trigger_regs.h"
#include "host.h"
#include "router.h"
#include "tracker/tracker_regs.h"

extern "C" int fw_smoke(uint32_t tracker, uint32_t dma);

namespace t3 {
namespace {

constexpr uint64_t kTracker = 0x0000, kDma = 0x1000;

struct Env {
  RegFile tracker_regs{TrackerRegMap::kInfo, TrackerRegMap::kCount};
  RegFile dma_regs{DmaTriggerRegMap::kInfo, DmaTriggerRegMap::kCount};
  RegTarget tracker{"tracker", tracker_regs, [] { return false; }, sc_core::sc_time(20, sc_core::SC_NS)};
  RegTarget dma{"dma", dma_regs, [] { return false; }, sc_core::sc_time(20, sc_core::SC_NS)};
  Router router{"router", {{"tracker", kTracker, kRegWindowBytes}, {"dma_trigger", kDma, kRegWindowBytes}}};
  Host host{"host", RegTrace({{"tracker", kTracker, TrackerRegMap::kInfo, TrackerRegMap::kCount},
                              {"dma_trigger", kDma, DmaTriggerRegMap::kInfo, DmaTriggerRegMap::kCount}})};
  std::ostringstream trace;
  Env() {
    host.socket.bind(router.socket);
    router.out(0).bind(tracker.socket);
    router.out(1).bind(dma.socket);
    host.set_trace(&trace);
  }
};
Env* env = nullptr;

TEST(Host, RunsFirmwareThroughTheHalAndTracesEveryAccess) {
  env->host.run([] { return fw_smoke(uint32_t(kTracker), uint32_t(kDma)); });
  sc_core::sc_start();
  ASSERT_TRUE(env->host.done());
  EXPECT_EQ(env->host.result(), 0) << "the firmware's check that failed\n" << env->trace.str();
  EXPECT_EQ(env->host.errors(), 2u);  // the two refusals the firmware asks for
  // 20 ns a transaction, 10 ns between polls.
  EXPECT_GE(sc_core::sc_time_stamp(), sc_core::sc_time(20.0 * double(env->host.accesses()), sc_core::SC_NS));
  const std::string t = env->trace.str();
  std::printf("%s", t.c_str());
  unsigned lines = 0;
  for (char c : t) lines += c == '\n';
  EXPECT_EQ(lines, env->host.accesses());
  EXPECT_NE(t.find("tracker.TILE"), std::string::npos);
  EXPECT_NE(t.find("SIZE=64  UPDATES_PER_ELEM=2"), std::string::npos);
  EXPECT_NE(t.find("dma_trigger.BURST"), std::string::npos);
  EXPECT_NE(t.find("LOG2=8"), std::string::npos);
  EXPECT_NE(t.find("tracker.STAT_UPDATES"), std::string::npos);
  EXPECT_NE(t.find("ERROR (TLM_COMMAND_ERROR_RESPONSE)"), std::string::npos);
  EXPECT_NE(t.find("unmapped"), std::string::npos);
  EXPECT_NE(t.find("ERROR (TLM_ADDRESS_ERROR_RESPONSE)"), std::string::npos);
  // What the firmware wrote is in the registers.
  uint32_t v = 0;
  ASSERT_EQ(env->tracker_regs.read(TrackerRegMap::kInfo[unsigned(TrackerReg::limit_lo)].offset, v),
            RegStatus::ok);
  EXPECT_EQ(v, 0x9000u);
}

TEST(Router, RefusesOverlappingWindows) {
  EXPECT_THROW(Router::check({{"a", 0, 0x1000}, {"b", 0x800, 0x1000}}), std::invalid_argument);
  EXPECT_THROW(Router::check({{"a", 0, 0}}), std::invalid_argument);
  EXPECT_NO_THROW(Router::check({{"a", 0, 0x1000}, {"b", 0x1000, 0x1000}}));
}

}  // namespace
}  // namespace t3

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  t3::env = new t3::Env;
  const int rc = RUN_ALL_TESTS();
  delete t3::env;
  return rc;
}
