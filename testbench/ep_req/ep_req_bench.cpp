// Simulation speed of ep_req in each form (testbench/common/bench.h) on its
// constrained-random traffic (ep_req_stimulus.h).
#include "ep_req_stimulus.h"
#include "bench.h"
#include "cosim_config.h"

int sc_main(int argc, char** argv) {
  return t3::tb::bench_main<t3::EpReqBlock>(
      argc, argv, [](const t3::EpReqParams& p, uint64_t seed) { return t3::tb::EpReqStimulus(p, seed); });
}
