// Simulation speed of dma_credit in each form (testbench/common/bench.h) on its
// constrained-random traffic (dma_credit_stimulus.h).
#include "dma_credit_stimulus.h"
#include "bench.h"
#include "cosim_config.h"

int sc_main(int argc, char** argv) {
  return t3::tb::bench_main<t3::DmaCreditBlock>(
      argc, argv, [](const t3::DmaCreditParams& p, uint64_t seed) { return t3::tb::DmaCreditStimulus(p, seed); });
}
