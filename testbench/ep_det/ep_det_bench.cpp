// Simulation speed of ep_det in each form (testbench/common/bench.h) on its
// constrained-random traffic (ep_det_stimulus.h).
#include "ep_det_stimulus.h"
#include "bench.h"
#include "cosim_config.h"

int sc_main(int argc, char** argv) {
  return t3::tb::bench_main<t3::EpDetBlock>(
      argc, argv, [](const t3::EpDetParams& p, uint64_t seed) { return t3::tb::EpDetStimulus(p, seed); });
}
