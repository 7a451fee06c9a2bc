// T3 MCA arbiter as firmware and the memory controller see it (T3 §4.5,
// Fig. 9): the core (hw/mca_arbiter/mca_arbiter_core.h) behind its registers
// (hw/mca_arbiter/mca_arbiter_regs.yaml), with the APB port and interrupt of
// hw/common/apb.h. rtl/mca_arbiter.sv is the same composition in RTL.
//
// The registers drive the core's configuration (CTRL, THR_LEVEL0..2,
// AUTO_BOUND0..2, LEARN, STARVE_LIMIT) and show its state (STATUS,
// LEARN_AVG, STAT_*); the auto bounds and the window are locked while a
// learning window runs (busy), so a window is never judged by bounds it was
// not started under. Fields wider than the build's widths are cut to the
// core's (PARAM_WIDTHS tells firmware the widths). The interrupts: CFG_ERROR
// is set in every cycle the core refuses its configuration (a level);
// STARVED by each grant the starvation limit decides.
#pragma once

#include "common/apb.h"
#include "common/reg_block.h"
#include "mca_arbiter/mca_arbiter_core.h"
#include "mca_arbiter/mca_arbiter_regs.h"

namespace t3 {

struct McaArbiterInputs : McaArbiterDataIn {
  ApbRequest apb;
};

struct McaArbiterOutputs : McaArbiterDataOut {
  ApbResponse apb;
  bool intr = false;
};

// How the core meets the registers (hw/common/reg_block.h);
// rtl/mca_arbiter.sv makes the same connections.
struct McaArbiterGlue {
  using Params = McaArbiterParams;
  using Core = McaArbiterCore;
  using Regs = McaArbiterRegs;
  using DataIn = McaArbiterDataIn;
  using DataOut = McaArbiterDataOut;
  using CoreInputs = McaArbiterCoreInputs;
  using CoreOutputs = McaArbiterCoreOutputs;
  using Inputs = McaArbiterInputs;
  using Outputs = McaArbiterOutputs;

  static void configure(const Params& p, const McaArbiterReg2Hw& r, McaArbiterCoreInputs& c);
  static McaArbiterHw2Reg hw2reg(const Params& p, const McaArbiterCoreOutputs& o);
};

using McaArbiter = RegBlock<McaArbiterGlue>;

// The configuration a core would see from these register values (whole
// fields: the core takes the low bits its pins carry, as the RTL's cut).
McaArbiterConfig mca_arbiter_config(const McaArbiterReg2Hw& r);

}  // namespace t3
