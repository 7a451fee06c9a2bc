// Simulation speed of the reduction table in each form (testbench/common/bench.h)
// on its constrained-random traffic (reduction_table_stimulus.h): many more
// reductions than entries (LRU evictions, timeouts), pulls and their
// responses, bypassed responses, malformed packets, register changes,
// back-pressure on out and resets.
#include "bench.h"
#include "cosim_config.h"
#include "reduction_table_stimulus.h"

int sc_main(int argc, char** argv) {
  return t3::tb::bench_main<t3::ReductionTableBlock>(
      argc, argv, [](const t3::ReductionTableParams& p, uint64_t seed) {
        return t3::tb::ReductionTableStimulus(p, seed);
      });
}
