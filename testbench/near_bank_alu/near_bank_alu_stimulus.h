// Constrained-random traffic for the near-bank ALU, with the DRAM bank array
// behind it (testbench/common/bank_array.h: every address starts with
// contents of its own, bank_initial, which the scoreboard knows too).
//
// Commands: READ, STORE and ADD of fp16, bf16 and fp32 lanes, now and then a
// refused one (op 3, or ADD with format 3), over a few hot addresses (so that
// reads meet writes in flight, and ADDs to one address follow each other at
// the tCCDWL limit) and over the whole address space. Lanes come from the
// operand classes of testbench/common/fp_reference.h: an ADD is often
// preceded by a STORE of its partner operands to the same address, so that
// every class (cancellation, guard/sticky, exact ties, overflow, subnormals,
// NaN and inf) meets the adders. Byte masks are mostly full, sometimes random.
// A refused command may be replaced by another (the controller's queue picks
// among bank groups), except inside a sequence, which keeps its order. Now
// and then the error flag is cleared as firmware clears it: a write of
// CTRL.ERR_CLEAR queued on the register port.
#pragma once

#include <cstdint>
#include <deque>
#include <random>
#include <utility>
#include <vector>

#include "apb_master.h"
#include "bank_array.h"
#include "near_bank_alu/near_bank_alu.h"

namespace t3::tb {

struct NbTraffic {
  double p_valid = 0.8;     // a command is offered
  double p_read = 0.25, p_store = 0.2;  // the rest ADD
  double p_refused = 0.01;  // op 3 or ADD with format 3
  double p_hot = 0.6;       // one of the hot addresses
  unsigned hot = 4;         // how many
  double p_pair = 0.3;      // STORE a, then ADD b, to one address
  double p_chain = 0.1;     // 2..6 ADDs to one address, back to back
  double p_full_mask = 0.8;
  double p_hold = 0.6;      // a refused command is offered again
  double p_err_clear = 0.02;  // a CTRL.ERR_CLEAR write is queued (bus idle)
};

class NearBankAluStimulus {
 public:
  NearBankAluStimulus(const NearBankAluParams& p, uint64_t seed, NbTraffic t = {});

  // This cycle's command and bank data; an error clear goes on apb (queued:
  // the caller drives the port).
  void drive(NearBankAluInputs& in, ApbMaster& apb);
  void after(const NearBankAluInputs& in, const NearBankAluOutputs& out);
  // Offers no new command (the bank array still answers).
  void stop() { stopping_ = true; }
  bool idle() const { return seq_.empty() && !have_; }
  BankArray& bank() { return bank_; }
  uint64_t seed() const { return seed_; }

 private:
  struct Cmd {
    uint32_t op, fmt, bg, addr;
    Wide data, mask;
  };
  Wide lanes(uint32_t fmt);
  Cmd random_cmd();
  std::pair<uint32_t, uint32_t> address();

  NearBankAluParams p_;
  uint64_t seed_;
  std::mt19937_64 rng_;
  NbTraffic t_;
  BankArray bank_;
  std::vector<std::pair<uint32_t, uint32_t>> hot_;
  std::deque<Cmd> seq_;  // a sequence in progress: kept in order
  bool have_ = false, from_seq_ = false;
  Cmd cur_;
  bool stopping_ = false;
};

}  // namespace t3::tb
