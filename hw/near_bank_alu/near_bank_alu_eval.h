// The near-bank ALU block's eval(), clock() and step(): hand-written
// specializations of RegBlock (hw/common/reg_block.h), included by the
// generated hw/near_bank_alu/near_bank_alu.h (the description's
// core.include). The core's outputs are registered, so the block runs it on
// the data pins where they are; see below.
#pragma once

#include "near_bank_alu/near_bank_alu.h"

namespace t3 {

// With NearBankAluDataOut's order and the generated NearBankAluOutputs (intr
// before apb), the outputs end exactly at 256 bytes.
static_assert(sizeof(NearBankAluOutputs) == 256, "NearBankAluOutputs is no longer four 64-byte lines");

// The block's eval() and clock(): RegBlock's (hw/common/reg_block.h), with
// the core run on the data pins where they are. The generic members copy
// the pins into the core's input struct twice a cycle and the core's outputs
// once more into the block's: with three 64-byte bursts each way, about 700
// bytes a cycle, which on this model cost more than the rest of a cycle
// (docs/blocks/near_bank_alu.md, Speed). Everything else is the generic
// code's, step for step; the unit test NearBankAluBlock.SameAsTheGenericRegBlock
// holds the two to the same outputs in every cycle. To go when RegBlock lets
// a core take its data pins by reference.
template <>
inline void RegBlock<NearBankAluGlue>::eval(const NearBankAluInputs& in, NearBankAluOutputs& o) const {
  const bool ready = core_.cmd_ready(in);
  static_cast<NearBankAluDataOut&>(o) = core_.registered();
  o.cmd_ready = ready;
  // hw2reg() reads the registered outputs only (not cmd_ready).
  answer(in, core_.registered(), o);
}

template <>
inline void RegBlock<NearBankAluGlue>::clock(const NearBankAluInputs& in) {
  // What the registers see of the core in this cycle (step()'s outputs but
  // cmd_ready, which hw2reg() does not read), then the core's edge. ci_
  // holds the register-driven input (configure()); its data pins stay as
  // constructed, and tlm_read()/tlm_write(), which evaluate the core on ci_,
  // read only registered outputs through hw2reg(), which no pin changes.
  const Hw2Reg h = NearBankAluGlue::hw2reg(p_, core_.registered());
  core_.clock(in, ci_.err_clear);
  regs_edge(in, h);
}

// Its step(): eval() then clock(), the two above (the generic one would copy
// the data pins into the core's inputs), into the caller's outputs.
template <>
inline void RegBlock<NearBankAluGlue>::step(const NearBankAluInputs& in, NearBankAluOutputs& o) {
  eval(in, o);
  clock(in);
}

}  // namespace t3
