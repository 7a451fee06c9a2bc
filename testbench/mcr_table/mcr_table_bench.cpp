// Simulation speed of mcr_table in each form (testbench/common/bench.h) on its
// constrained-random traffic (mcr_table_stimulus.h).
#include "mcr_table_stimulus.h"
#include "bench.h"
#include "cosim_config.h"

int sc_main(int argc, char** argv) {
  return t3::tb::bench_main<t3::McrTableBlock>(
      argc, argv, [](const t3::McrTableParams& p, uint64_t seed) { return t3::tb::McrTableStimulus(p, seed); });
}
