// T3 DMA trigger table and address generator as firmware and the memory
// controller see it (T3 §4.2.2, §4.4, Fig. 11-12): the core
// (hw/dma_trigger/dma_trigger_core.h) behind its registers
// (hw/dma_trigger/dma_trigger_regs.yaml), with the APB port and interrupt of
// hw/common/apb.h. rtl/dma_trigger.sv is the same composition in RTL.
//
// The registers drive the core's configuration (CTRL.ENABLE, BURST) and its
// table-write port: TBL_IDX and the staged fields TBL_SRC_*, TBL_DST_*,
// TBL_CTRL, TBL_M, TBL_N, TBL_TILE_* are the entry the one-cycle pulse of
// TBL_CMD.WRITE writes (the driver's dma_map, T3 Fig. 12); TBL_RD_* read
// entry TBL_IDX back. CTRL.ERR_CLEAR clears the captured errors. STATUS,
// MISS_* and STAT_* show the core's state; BURST is locked while the core
// is busy. The interrupts are levels: TBL_ERROR is set in every cycle a
// refused write is captured (STATUS.TBL_ERR), MISS in every cycle an
// uncovered trigger is (STATUS.MISS).
//
// Staged fields wider than this build's core takes are cut to its widths
// (ADDR_W, GPU_W, log2(SLOTS + 1), DIM_W; PARAM_* tell firmware), as the
// Tracker's addresses are. The index is not: TBL_IDX reaches the core whole,
// so that an index at or above ENTRIES is refused (cause 1) and reads back
// zeros, and BURST.LOG2 reaches it whole, so that every value above
// MAX_BURST_LOG2 shows as STATUS.CFG_ERROR.
#pragma once

#include "common/apb.h"
#include "common/reg_block.h"
#include "dma_trigger/dma_trigger_core.h"
#include "dma_trigger/dma_trigger_regs.h"

namespace t3 {

struct DmaTriggerInputs : DmaTriggerDataIn {
  ApbRequest apb;
};

struct DmaTriggerOutputs : DmaTriggerDataOut {
  ApbResponse apb;
  bool intr = false;
};

// How the core meets the registers (hw/common/reg_block.h);
// rtl/dma_trigger.sv makes the same connections.
struct DmaTriggerGlue {
  using Params = DmaTriggerParams;
  using Core = DmaTriggerCore;
  using Regs = DmaTriggerRegs;
  using DataIn = DmaTriggerDataIn;
  using DataOut = DmaTriggerDataOut;
  using CoreInputs = DmaTriggerCoreInputs;
  using CoreOutputs = DmaTriggerCoreOutputs;
  using Inputs = DmaTriggerInputs;
  using Outputs = DmaTriggerOutputs;

  static void configure(const Params& p, const DmaTriggerReg2Hw& r, DmaTriggerCoreInputs& c);
  static DmaTriggerHw2Reg hw2reg(const Params& p, const DmaTriggerCoreOutputs& o);
};

using DmaTrigger = RegBlock<DmaTriggerGlue>;

// The entry the staging registers hold (what TBL_CMD.WRITE writes), as the
// registers carry it (not yet cut to the core's widths).
DmaEntry dma_trigger_staged_entry(const DmaTriggerReg2Hw& r);

}  // namespace t3
