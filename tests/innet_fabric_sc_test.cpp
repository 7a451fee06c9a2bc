// The in-network firmware on the fabric's SystemC/TLM-2.0 form (tlm/
// innet_fabric_sc.h), run by the same TLM host as the T3 firmware: the
// fabric manager's set-up of a 4-GPU all-reduce writes what the golden
// trace written by hand says (the same file the RTL switch's test checks:
// testbench/innet_switch/fm_allreduce_4gpu.golden), the endpoint driver
// starts and waits for every GPU's all-reduce, and the data are exact.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <systemc>
#include <vector>

#include "host.h"
#include "innet_allreduce.h"
#include "innet_fabric_sc.h"
#include "reg_trace.h"
#include "router.h"
#include "t3/innet.h"
#include "t3/innet_switch_map.h"

namespace {
int failures = 0;
void expect(bool ok, const std::string& what) {
  if (!ok) {
    ++failures;
    std::fprintf(stderr, "FAIL: %s\n", what.c_str());
  }
}
}  // namespace

int sc_main(int, char**) {
  using namespace t3;
  InnetFabricConfig c;
  c.gpus = 4;
  c.ep.mem_bytes = 1 << 16;
  InnetFabric fabric(c);
  fabric.reset();
  fabric.set_auto_pop(false);
  InnetFabricSc sc("fabric", fabric);
  Router router("router", sc.windows());
  Host host("host", RegTrace(innet_trace_windows(fabric)));
  host.socket.bind(router.socket);
  for (unsigned d = 0; d < sc.devices(); ++d) router.out(d).bind(sc.socket(d));
  std::ostringstream trace;
  host.set_trace(&trace);
  TlmDevices dev(host, sc.devices());

  const uint64_t bytes = 4096;
  std::vector<std::vector<float>> in(4, std::vector<float>(bytes / 4));
  for (unsigned g = 0; g < 4; ++g) {
    for (size_t i = 0; i < in[g].size(); ++i) in[g][i] = float(int((i * 5 + g * 11) % 151) - 75);
    fabric.ep(g).set_window(0, all_reduce_window(0x100000, bytes, 0, 0x1000, 0x2000, 4, 2, g == 0));
    fabric.ep(g).memory().load(0, in[g].data(), bytes);
  }
  std::string error;
  size_t setup_end = 0;
  host.run([&]() -> int {
    t3_device* sw = dev.device(0);
    const t3_fm_windows win = T3_INNET_SWITCH_WINDOWS;
    t3_fabric fm;
    t3_fm_region rg = {0x100000, 0x10000, 0xF, 4, 0, 1, 2};
    int rc = t3_fm_init(&fm, &sw, 1, &win);
    if (!rc) rc = t3_fm_probe(&fm);
    if (!rc) rc = t3_fm_region_create(&fm, 0, &rg);
    if (!rc) rc = t3_fm_set_timeout(&fm, 0, 2000);
    if (rc) {
      error = t3_fm_message(&fm);
      return rc;
    }
    setup_end = trace.str().size();
    t3_ep ep[4];
    for (unsigned g = 0; g < 4; ++g) {
      const t3_ep_allreduce a = {0, 0x100000, bytes, 2, 0, 7};
      rc = t3_ep_init(&ep[g], dev.device(1 + g), g);
      if (!rc) rc = t3_ep_probe(&ep[g]);
      if (!rc) rc = t3_ep_allreduce_start(&ep[g], &a);
      if (rc) {
        error = t3_ep_message(&ep[g]);
        return rc;
      }
    }
    for (unsigned g = 0; g < 4; ++g) {
      t3_ep_cpl cpl;
      if ((rc = t3_ep_wait(&ep[g], 1000000, &cpl))) {
        error = t3_ep_message(&ep[g]);
        return rc;
      }
    }
    return 0;
  });
  while (!host.done() && sc_core::sc_time_stamp() < sc_core::sc_time(10, sc_core::SC_MS))
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_US));
  expect(host.done() && host.result() == 0, "the firmware: " + std::to_string(host.result()) + " " + error);

  // The fabric manager's writes (the trace up to its end) against the golden trace.
  const std::vector<std::string> got = trace_writes(trace.str().substr(0, setup_end));
  const std::vector<std::string> golden = golden_writes(T3_FM_GOLDEN_TRACE);
  expect(got == golden, "the fabric manager's writes differ from the golden trace (" + std::to_string(got.size()) +
                            " against " + std::to_string(golden.size()) + ")");
  for (size_t i = 0; i < got.size() && i < golden.size(); ++i)
    if (got[i] != golden[i]) std::fprintf(stderr, "  write %zu: got %s, golden %s\n", i + 1, got[i].c_str(), golden[i].c_str());
  size_t bad = 0;
  for (unsigned g = 0; g < 4; ++g) {
    std::vector<float> out(bytes / 4);
    fabric.ep(g).memory().dump(0x1000, out.data(), bytes);
    for (size_t i = 0; i < out.size(); ++i) bad += out[i] != in[0][i] + in[1][i] + in[2][i] + in[3][i];
  }
  expect(bad == 0, std::to_string(bad) + " elements differ from the sum");
  std::printf("%zu writes of the set-up (golden: %zu), %llu accesses in all, %s of simulated time; data %s\n", got.size(),
              golden.size(), static_cast<unsigned long long>(host.accesses()),
              sc_core::sc_time_stamp().to_string().c_str(), bad ? "WRONG" : "exact");
  std::printf("%s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
