// Simulation speed of ep_count in each form (testbench/common/bench.h) on its
// constrained-random traffic (ep_count_stimulus.h).
#include "ep_count_stimulus.h"
#include "bench.h"
#include "cosim_config.h"

int sc_main(int argc, char** argv) {
  return t3::tb::bench_main<t3::EpCountBlock>(
      argc, argv, [](const t3::EpCountParams& p, uint64_t seed) { return t3::tb::EpCountStimulus(p, seed); });
}
