// T3 Tracker as firmware and the memory controller see it (T3 §4.2.1,
// Fig. 9): the core (hw/tracker/tracker_core.h) behind its registers
// (hw/tracker/tracker.yaml), with the APB port and interrupt of
// hw/common/apb.h. rtl/tracker.sv is the same composition in RTL.
//
// The registers drive the core's configuration (CTRL.ENABLE, BASE, LIMIT,
// TILE) and show its status (STATUS, STAT_*); the region and the threshold
// are locked while a tile is live (busy). The interrupts: CFG_ERROR is set
// in every cycle the core refuses its configuration; SET_FULL in every cycle
// a write waits for a free way.
#pragma once

#include "common/apb.h"
#include "common/bits.h"
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
  // Inline: it runs every cycle, and beside the register block's set events
  // it builds only the members they read.
  static TrackerHw2Reg hw2reg(const Params& p, const TrackerCoreOutputs& o) {
    TrackerHw2Reg h;
    h.intr_state_cfg_error_set = o.cfg_error;
    h.intr_state_set_full_set = o.set_full;
    h.status_cfg_error = o.cfg_error;
    h.status_set_full = o.set_full;
    h.status_live = o.live;
    h.stat_updates_count = o.stat_updates;
    h.stat_triggers_count = o.stat_triggers;
    h.stat_stalls_count = o.stat_stalls;
    h.stat_untracked_count = o.stat_untracked;
    h.param_geometry_sets_log2 = clog2(p.sets);
    h.param_geometry_ways = p.ways;
    h.param_widths_addr_w = p.addr_w;
    h.param_widths_cnt_w = p.cnt_w;
    h.param_widths_upe_w = p.upe_w;
    h.param_widths_stat_w = p.stat_w;
    h.busy = o.busy;  // a tile live, or a write in flight towards one
    return h;
  }
};

using Tracker = RegBlock<TrackerGlue>;

// The configuration a core would see from these register values.
TrackerConfig tracker_config(const TrackerReg2Hw& r);

}  // namespace t3
