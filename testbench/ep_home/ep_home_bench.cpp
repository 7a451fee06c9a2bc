// Simulation speed of ep_home in each form (testbench/common/bench.h) on its
// constrained-random traffic (ep_home_stimulus.h).
#include "ep_home_stimulus.h"
#include "bench.h"
#include "cosim_config.h"

int sc_main(int argc, char** argv) {
  return t3::tb::bench_main<t3::EpHomeBlock>(
      argc, argv, [](const t3::EpHomeParams& p, uint64_t seed) { return t3::tb::EpHomeStimulus(p, seed); });
}
