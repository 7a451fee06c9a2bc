// T3 near-bank ALU as firmware and the memory controller see it (T3 §4.3,
// §5.1.1): the core (hw/near_bank_alu/near_bank_alu_core.h) behind its
// registers (hw/near_bank_alu/near_bank_alu.yaml), with the APB port and
// interrupt of hw/common/apb.h. rtl/near_bank_alu.sv is the same composition
// in RTL.
//
// The block has no run-time configuration (its timing is parameters, T3
// Table 1): the registers show the captured error (STATUS.ERR, cleared by
// CTRL.ERR_CLEAR), the counters (STAT_*) and the build's parameters
// (PARAM_*). The REFUSED interrupt is set in every cycle STATUS.ERR is 1 (a
// level: clearing it sticks only after ERR_CLEAR). Busy (a command in the
// pipeline) is reported to the register block; no register of this map is
// locked by it.
#pragma once

#include "common/apb.h"
#include "common/reg_block.h"
#include "near_bank_alu/near_bank_alu_core.h"
#include "near_bank_alu/near_bank_alu_regs.h"

namespace t3 {

struct NearBankAluInputs : NearBankAluDataIn {
  ApbRequest apb;
};

// intr before apb: with NearBankAluDataOut's order, the struct ends exactly
// at 256 bytes (see there).
struct NearBankAluOutputs : NearBankAluDataOut {
  bool intr = false;
  ApbResponse apb;
};
static_assert(sizeof(NearBankAluOutputs) == 256, "NearBankAluOutputs is no longer four 64-byte lines");

// How the core meets the registers (hw/common/reg_block.h);
// rtl/near_bank_alu.sv makes the same connections.
struct NearBankAluGlue {
  using Params = NearBankAluParams;
  using Core = NearBankAluCore;
  using Regs = NearBankAluRegs;
  using DataIn = NearBankAluDataIn;
  using DataOut = NearBankAluDataOut;
  using CoreInputs = NearBankAluCoreInputs;
  using CoreOutputs = NearBankAluCoreOutputs;
  using Inputs = NearBankAluInputs;
  using Outputs = NearBankAluOutputs;

  // The connections are here rather than in near_bank_alu.cpp: hw2reg()
  // runs every cycle, and inline it costs no call and builds only what its
  // callers read.

  // CTRL.ERR_CLEAR pulses for the one cycle after its write; the core clears
  // its flag at that cycle's edge.
  static void configure(const Params&, const NearBankAluReg2Hw& r, NearBankAluCoreInputs& c) {
    c.err_clear = r.ctrl_err_clear != 0;
  }
  static NearBankAluHw2Reg hw2reg(const Params& p, const NearBankAluCoreOutputs& o) {
    NearBankAluHw2Reg h;
    h.intr_state_refused_set = o.err;  // a level: set in every cycle the flag is
    h.status_err = o.err;
    h.stat_reads_count = o.stat_reads;
    h.stat_stores_count = o.stat_stores;
    h.stat_adds_count = o.stat_adds;
    h.stat_refused_count = o.stat_refused;
    h.stat_hazard_stalls_count = o.stat_hazard_stalls;
    h.stat_timing_stalls_count = o.stat_timing_stalls;
    h.param_burst_burst_bytes = p.burst_bytes;
    h.param_burst_bg = p.bg;
    h.param_burst_addr_w = p.addr_w;
    h.param_burst_stat_w = p.stat_w;
    h.param_timing_t_ccds = p.t_ccds;
    h.param_timing_t_ccdl = p.t_ccdl;
    h.param_timing_t_ccdwl = p.t_ccdwl;
    h.busy = o.busy;
    return h;
  }
};

using NearBankAlu = RegBlock<NearBankAluGlue>;

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
