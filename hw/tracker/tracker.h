// T3 Tracker as firmware and the memory controller see it (T3 §4.2.1,
// Fig. 9): the core (hw/tracker/tracker_core.h) behind its registers
// (hw/tracker/tracker_regs.yaml), with the APB port and interrupt of
// hw/common/apb.h. rtl/tracker.sv is the same composition in RTL.
//
// The registers drive the core's configuration (CTRL.ENABLE, BASE, LIMIT,
// TILE) and show its status (STATUS, STAT_*); the region and the threshold
// are locked while a tile is live (busy). The interrupts: CFG_ERROR is set
// in every cycle the core refuses its configuration; SET_FULL in every cycle
// a write waits for a free way.
#pragma once

#include "common/apb.h"
#include "common/reg_block.h"
#include "tracker/tracker_core.h"
#include "tracker/tracker_regs.h"

namespace t3 {

struct TrackerInputs : TrackerDataIn {
  ApbRequest apb;
};

struct TrackerOutputs : TrackerDataOut {
  ApbResponse apb;
  bool intr = false;
};

// How the core meets the registers (hw/common/reg_block.h); rtl/tracker.sv
// makes the same connections.
struct TrackerGlue {
  using Params = TrackerParams;
  using Core = TrackerCore;
  using Regs = TrackerRegs;
  using DataIn = TrackerDataIn;
  using DataOut = TrackerDataOut;
  using CoreInputs = TrackerCoreInputs;
  using CoreOutputs = TrackerCoreOutputs;
  using Inputs = TrackerInputs;
  using Outputs = TrackerOutputs;

  static void configure(const Params& p, const TrackerReg2Hw& r, TrackerCoreInputs& c);
  static TrackerHw2Reg hw2reg(const Params& p, const TrackerCoreOutputs& o);
};

using Tracker = RegBlock<TrackerGlue>;

// The configuration a core would see from these register values.
TrackerConfig tracker_config(const TrackerReg2Hw& r);

}  // namespace t3
