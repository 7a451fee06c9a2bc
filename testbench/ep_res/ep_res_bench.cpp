// Simulation speed of ep_res in each form (testbench/common/bench.h) on its
// constrained-random traffic (ep_res_stimulus.h).
#include "ep_res_stimulus.h"
#include "bench.h"
#include "cosim_config.h"

int sc_main(int argc, char** argv) {
  return t3::tb::bench_main<t3::EpResBlock>(
      argc, argv, [](const t3::EpResParams& p, uint64_t seed) { return t3::tb::EpResStimulus(p, seed); });
}
