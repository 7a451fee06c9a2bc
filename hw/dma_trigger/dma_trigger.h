// T3 DMA trigger table and address generator as firmware and the memory
// controller see it (T3 §4.2.2, §4.4, Fig. 11-12): the core
// (hw/dma_trigger/dma_trigger_core.h) behind its registers
// (hw/dma_trigger/dma_trigger.yaml), with the APB port and interrupt of
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
#include "common/bits.h"
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
  // Inline: it runs every cycle, and beside the register block's set events
  // it builds only the members they read.
  static DmaTriggerHw2Reg hw2reg(const Params& p, const DmaTriggerCoreOutputs& o) {
    DmaTriggerHw2Reg h;
    // Levels: set in every cycle the captured error lasts, so that a clear
    // of INTR_STATE before CTRL.ERR_CLEAR sees it set again.
    h.intr_state_tbl_error_set = o.tbl_err;
    h.intr_state_miss_set = o.miss;
    h.status_cfg_error = o.cfg_error;
    h.status_busy = o.busy;
    h.status_tbl_ready = o.tbl_ready;
    h.status_tbl_err = o.tbl_err;
    h.status_tbl_err_cause = o.tbl_err_cause;
    h.status_miss = o.miss;
    h.miss_id_wg = o.miss_wg;
    h.miss_id_wf = o.miss_wf;
    h.miss_addr_lo_addr = uint32_t(o.miss_addr);
    h.miss_addr_hi_addr = uint32_t(o.miss_addr >> 32);
    h.tbl_rd_src_lo_addr = uint32_t(o.tbl_rd.src_base);
    h.tbl_rd_src_hi_addr = uint32_t(o.tbl_rd.src_base >> 32);
    h.tbl_rd_dst_lo_addr = uint32_t(o.tbl_rd.dst_base);
    h.tbl_rd_dst_hi_addr = uint32_t(o.tbl_rd.dst_base >> 32);
    h.tbl_rd_ctrl_valid = o.tbl_rd.valid;
    h.tbl_rd_ctrl_op = uint32_t(o.tbl_rd.op);
    h.tbl_rd_ctrl_elem_log2 = o.tbl_rd.elem_log2;
    h.tbl_rd_ctrl_dst_gpu = o.tbl_rd.dst_gpu;
    h.tbl_rd_ctrl_tiles_per_block = o.tbl_rd.tiles_per_block;
    h.tbl_rd_ctrl_pending = o.tbl_rd_pending;
    h.tbl_rd_m_value = o.tbl_rd.m;
    h.tbl_rd_n_value = o.tbl_rd.n;
    h.tbl_rd_tile_rows_value = o.tbl_rd.tile_rows;
    h.tbl_rd_tile_cols_value = o.tbl_rd.tile_cols;
    h.stat_triggers_count = o.stat_triggers;
    h.stat_miss_count = o.stat_miss;
    h.stat_descs_count = o.stat_descs;
    h.stat_blocks_count = o.stat_blocks;
    h.stat_stalls_count = o.stat_stalls;
    h.param_table_entries = p.entries;
    h.param_table_slots = p.slots;
    h.param_table_desc_depth = p.desc_depth;
    h.param_table_max_burst_log2 = p.max_burst_log2;
    h.param_widths_addr_w = p.addr_w;
    h.param_widths_gpu_w = p.gpu_w;
    h.param_widths_dim_w = p.dim_w;
    h.param_widths_stat_w = p.stat_w;
    h.param_ids_wg_id_w = p.wg_id_w;
    h.param_ids_wf_id_w = p.wf_id_w;
    h.busy = o.busy;
    return h;
  }
};

using DmaTrigger = RegBlock<DmaTriggerGlue>;

// The entry the staging registers hold (what TBL_CMD.WRITE writes), as the
// registers carry it (not yet cut to the core's widths).
DmaEntry dma_trigger_staged_entry(const DmaTriggerReg2Hw& r);

}  // namespace t3
