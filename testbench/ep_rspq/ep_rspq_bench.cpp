// Simulation speed of ep_rspq in each form (testbench/common/bench.h) on its
// constrained-random traffic (ep_rspq_stimulus.h).
#include "ep_rspq_stimulus.h"
#include "bench.h"
#include "cosim_config.h"

int sc_main(int argc, char** argv) {
  return t3::tb::bench_main<t3::EpRspqBlock>(
      argc, argv, [](const t3::EpRspqParams& p, uint64_t seed) { return t3::tb::EpRspqStimulus(p, seed); });
}
