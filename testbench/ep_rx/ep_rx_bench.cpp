// Simulation speed of ep_rx in each form (testbench/common/bench.h) on its
// constrained-random traffic (ep_rx_stimulus.h).
#include "ep_rx_stimulus.h"
#include "bench.h"
#include "cosim_config.h"

int sc_main(int argc, char** argv) {
  return t3::tb::bench_main<t3::EpRxBlock>(
      argc, argv, [](const t3::EpRxParams& p, uint64_t seed) { return t3::tb::EpRxStimulus(p, seed); });
}
