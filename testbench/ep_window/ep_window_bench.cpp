// Simulation speed of ep_window in each form (testbench/common/bench.h) on its
// constrained-random traffic (ep_window_stimulus.h).
#include "ep_window_stimulus.h"
#include "bench.h"
#include "cosim_config.h"

int sc_main(int argc, char** argv) {
  return t3::tb::bench_main<t3::EpWindowBlock>(
      argc, argv, [](const t3::EpWindowParams& p, uint64_t seed) { return t3::tb::EpWindowStimulus(p, seed); });
}
