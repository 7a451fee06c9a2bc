// Simulation speed of ep_mem_arb in each form (testbench/common/bench.h) on its
// constrained-random traffic (ep_mem_arb_stimulus.h).
#include "ep_mem_arb_stimulus.h"
#include "bench.h"
#include "cosim_config.h"

int sc_main(int argc, char** argv) {
  return t3::tb::bench_main<t3::EpMemArbBlock>(
      argc, argv, [](const t3::EpMemArbParams& p, uint64_t seed) { return t3::tb::EpMemArbStimulus(p, seed); });
}
