// Simulation speed of ep_tx in each form (testbench/common/bench.h) on its
// constrained-random traffic (ep_tx_stimulus.h).
#include "ep_tx_stimulus.h"
#include "bench.h"
#include "cosim_config.h"

int sc_main(int argc, char** argv) {
  return t3::tb::bench_main<t3::EpTxBlock>(
      argc, argv, [](const t3::EpTxParams& p, uint64_t seed) { return t3::tb::EpTxStimulus(p, seed); });
}
