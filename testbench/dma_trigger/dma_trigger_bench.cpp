// Simulation speed of the DMA trigger table in each form
// (testbench/common/bench.h) on its constrained-random phases
// (dma_trigger_stimulus.h), each programmed through the register port first
// (the burst size, then the table, as the driver writes them).
#include <memory>

#include "bench.h"
#include "cosim_config.h"
#include "dma_trigger_scoreboard.h"
#include "dma_trigger_stimulus.h"

namespace {

// The stimulus asks the scoreboard which entries are idle and when a table
// write has its verdict; here the scoreboard only keeps that account (its
// verdicts are the co-simulation tests' business).
struct Source {
  Source(const t3::DmaTriggerParams& p, uint64_t seed)
      : sb(std::make_unique<t3::tb::DmaTriggerScoreboard>(p)),
        apb(std::make_unique<t3::tb::ApbMaster>()),
        stim(std::make_unique<t3::tb::DmaTriggerStimulus>(p, *sb, *apb, seed)) {
    stim->new_phase();
  }
  void drive(t3::DmaTriggerInputs& in) {
    stim->drive(in);
    apb->drive(in.apb, in.rst_n);
  }
  void after(const t3::DmaTriggerInputs& in, const t3::DmaTriggerOutputs& out) {
    apb->after(in.apb, out.apb);
    sb->observe(in, out);
    stim->after(in, out);
    if (stim->idle(out)) stim->new_phase();
  }
  std::unique_ptr<t3::tb::DmaTriggerScoreboard> sb;
  std::unique_ptr<t3::tb::ApbMaster> apb;
  std::unique_ptr<t3::tb::DmaTriggerStimulus> stim;
};

}  // namespace

int sc_main(int argc, char** argv) {
  return t3::tb::bench_main<t3::DmaTriggerBlock>(
      argc, argv, [](const t3::DmaTriggerParams& p, uint64_t seed) { return Source(p, seed); });
}
