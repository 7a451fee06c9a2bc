// Transaction-level checker of the near-bank ALU, independent of the C++
// model and the RTL: a golden memory that applies every accepted command in
// the order it was accepted (T3 §4.3: the controller queue makes updates
// atomic and ordered), with each ADD lane computed by GNU MPFR
// (testbench/common/fp_reference.h), not by the adder under test.
//
// Every cycle it checks, from the pins: cmd_ready_o and bg_ready_o against
// its own reading of the bank timing (tCCDS, tCCDL, tCCDWL after an
// op-and-store, T3 §5.1.1) and of the ordering rule (a read waits for a
// younger write of its address that cannot reach it in time); each command's
// bank read (t+1), response (t+3, the golden burst at its turn) and
// write-back (t+6: address, byte mask, and the golden bytes under it); the
// error flag and every counter. It keeps its own picture of the registers
// (reg_shadow.h) and predicts every register access's answer (STATUS.ERR,
// the counters, the build's parameters; refused accesses) and the interrupt
// line (REFUSED: set in every cycle the error flag is); it learns the error
// clear from the register port (CTRL.ERR_CLEAR's pulse), as the block does.
// It reads the outputs it is given (the co-simulation gives it the RTL's,
// equal to the model's every cycle or the run fails on the compare).
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "complaints.h"
#include "near_bank_alu/near_bank_alu.h"
#include "reg_shadow.h"

namespace t3::tb {

using NearBankAluShadow = RegShadow<NearBankAluRegMap>;

class NearBankAluScoreboard {
 public:
  using Key = std::pair<uint32_t, uint32_t>;  // {bank group, address}
  // initial(bg, addr): the bank's contents before any write (as the
  // testbench's bank array starts).
  NearBankAluScoreboard(const NearBankAluParams& p, Wide (*initial)(uint32_t, uint32_t, uint64_t),
                        uint64_t seed);

  // Every cycle, reset cycles included (a reset loses the writes that have
  // not reached the bank; the bank keeps its contents).
  std::optional<std::string> observe(const NearBankAluInputs& in, const NearBankAluOutputs& out);
  // Nothing in flight any more.
  bool idle() const { return pending_.empty(); }
  // The registers as this checker has them; the error flag of this cycle.
  const NearBankAluShadow& regs() const { return regs_; }
  bool err() const { return err_; }
  const Wide& golden(uint32_t bg, uint32_t addr) { return cell(bg, addr); }
  const std::map<Key, Wide>& written() const { return mem_; }

  struct Counts {
    uint64_t reads = 0, stores = 0, adds = 0, refused = 0, hazard = 0, timing = 0;
    uint64_t forwarded = 0;  // reads of an address written after the read, before its data is used
    uint64_t back_to_back = 0;  // ADDs to the address of the ADD before, at the tCCDWL limit
    uint64_t adds_by_format[3] = {};
    uint64_t err_clears = 0;      // CTRL.ERR_CLEAR pulses that found the flag set
    uint64_t clear_and_refusal = 0;  // ... and a refusal in the same cycle (the flag stays)
  };
  // Since the last reset (what the status counters show) / over the whole run.
  const Counts& counts() const { return n_; }
  const Counts& totals() const { return total_; }

 private:
  Complaints complaints_;  // observe()'s text
  struct Pending {
    uint64_t accepted;  // cycle
    NbOp op;
    uint32_t bg, addr;
    Wide mask;
    Wide result;  // READ: the burst; STORE/ADD: the bytes to write
    Wide before;  // STORE/ADD: the golden burst before it (undone if a reset loses the write)
  };
  Wide& cell(uint32_t bg, uint32_t addr);
  // The RO bits of register r in this cycle (STATUS, the counters, PARAM_*).
  std::optional<uint32_t> ro(unsigned r) const;

  NearBankAluParams p_;
  Wide (*initial_)(uint32_t, uint32_t, uint64_t);
  uint64_t seed_;
  std::map<Key, Wide> mem_;
  std::deque<Pending> pending_;
  uint64_t cycle_ = 0;
  // The bank timing, by this checker's own bookkeeping: the cycle of the
  // last column command (any, and per bank group) and whether it was an
  // op-and-store.
  std::optional<uint64_t> last_any_;
  std::map<uint32_t, std::pair<uint64_t, bool>> last_bg_;
  std::optional<Pending> last_add_;
  NearBankAluShadow regs_;
  bool err_ = false;
  Counts n_, total_;
};

}  // namespace t3::tb
