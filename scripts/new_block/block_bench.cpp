// Simulation speed of @name@ in each form (testbench/common/bench.h) on its
// constrained-random traffic (@name@_stimulus.h).
#include "@name@_stimulus.h"
#include "bench.h"
#include "cosim_config.h"

int sc_main(int argc, char** argv) {
  return t3::tb::bench_main<t3::@Camel@Block>(
      argc, argv, [](const t3::@Camel@Params& p, uint64_t seed) { return t3::tb::@Camel@Stimulus(p, seed); });
}
