// T3 MCA arbiter as firmware and the memory controller see it (T3 §4.5,
// Fig. 9): the core (hw/mca_arbiter/mca_arbiter_core.h) behind its registers
// (hw/mca_arbiter/mca_arbiter.yaml), with the APB port and interrupt of
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
#include "common/bits.h"
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
  // Inline: it runs every cycle, and beside the register block's set events
  // it builds only the members they read.
  static McaArbiterHw2Reg hw2reg(const Params& p, const McaArbiterCoreOutputs& o) {
    McaArbiterHw2Reg h;
    h.intr_state_cfg_error_set = o.cfg_error;
    h.intr_state_starved_set = o.starved;
    h.status_cfg_error = o.cfg_error;
    h.status_learn_busy = o.learn_busy;
    h.status_thr_sel = o.thr_sel;
    h.status_thr = o.thr;
    h.learn_avg_occ = o.learn_avg;
    h.stat_grants_cmp_count = o.stat_grants_cmp;
    h.stat_grants_com_count = o.stat_grants_com;
    h.stat_wait_cmp_count = o.stat_wait_cmp;
    h.stat_wait_com_count = o.stat_wait_com;
    h.stat_starved_count = o.stat_starved;
    h.param_widths_data_w = p.data_w;
    h.param_widths_occ_w = p.occ_w;
    h.param_widths_cnt_w = p.cnt_w;
    h.param_widths_learn_w = p.learn_w;
    h.param_stat_stat_w = p.stat_w;
    h.busy = o.learn_busy;
    return h;
  }
};

using McaArbiter = RegBlock<McaArbiterGlue>;

// The configuration a core would see from these register values (whole
// fields: the core takes the low bits its pins carry, as the RTL's cut).
McaArbiterConfig mca_arbiter_config(const McaArbiterReg2Hw& r);

}  // namespace t3
