// Simulation speed of the MCA arbiter in each form (testbench/common/bench.h)
// on its constrained-random traffic (mca_arbiter_stimulus.h): phases of random
// configurations, each programmed through the register port first (after a
// reset before the traffic resumes, without one while it runs), bursty
// communication, a DRAM queue model behind the output, learn pulses, drains,
// refused configurations and resets.
#include "bench.h"
#include "cosim_config.h"
#include "mca_arbiter_stimulus.h"

int sc_main(int argc, char** argv) {
  return t3::tb::bench_main<t3::McaArbiterBlock>(
      argc, argv,
      [](const t3::McaArbiterParams& p, uint64_t seed) { return t3::tb::McaStimulus(p, seed); });
}
