// Simulation speed of ep_final in each form (testbench/common/bench.h) on its
// constrained-random traffic (ep_final_stimulus.h).
#include "ep_final_stimulus.h"
#include "bench.h"
#include "cosim_config.h"

int sc_main(int argc, char** argv) {
  return t3::tb::bench_main<t3::EpFinalBlock>(
      argc, argv, [](const t3::EpFinalParams& p, uint64_t seed) { return t3::tb::EpFinalStimulus(p, seed); });
}
