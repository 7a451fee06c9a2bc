// Simulation speed of the near-bank ALU in each form
// (testbench/common/bench.h) on its constrained-random traffic
// (near_bank_alu_stimulus.h, with the bank array answering), its error
// clears written to CTRL.ERR_CLEAR through the register port.
#include "apb_master.h"
#include "bench.h"
#include "cosim_config.h"
#include "near_bank_alu_stimulus.h"

namespace {

struct Source {
  Source(const t3::NearBankAluParams& p, uint64_t seed) : stim(p, seed) {}
  void drive(t3::NearBankAluInputs& in) {
    stim.drive(in, apb);
    apb.drive(in.apb, in.rst_n);
  }
  void after(const t3::NearBankAluInputs& in, const t3::NearBankAluOutputs& out) {
    apb.after(in.apb, out.apb);
    stim.after(in, out);
  }
  t3::tb::NearBankAluStimulus stim;
  t3::tb::ApbMaster apb;
};

}  // namespace

int sc_main(int argc, char** argv) {
  return t3::tb::bench_main<t3::NearBankAluBlock>(
      argc, argv, [](const t3::NearBankAluParams& p, uint64_t seed) { return Source(p, seed); });
}
