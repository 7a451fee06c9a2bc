#include "dma_trigger/dma_trigger.h"

namespace t3 {

DmaEntry dma_trigger_staged_entry(const DmaTriggerReg2Hw& r) {
  DmaEntry e;
  e.valid = r.tbl_ctrl_valid != 0;
  e.src_base = uint64_t(r.tbl_src_hi_addr) << 32 | r.tbl_src_lo_addr;
  e.dst_base = uint64_t(r.tbl_dst_hi_addr) << 32 | r.tbl_dst_lo_addr;
  e.dst_gpu = r.tbl_ctrl_dst_gpu;
  e.op = DmaOp(r.tbl_ctrl_op);
  e.tiles_per_block = r.tbl_ctrl_tiles_per_block;
  e.m = r.tbl_m_value;
  e.n = r.tbl_n_value;
  e.elem_log2 = r.tbl_ctrl_elem_log2;
  e.tile_rows = r.tbl_tile_rows_value;
  e.tile_cols = r.tbl_tile_cols_value;
  return e;
}

void DmaTriggerGlue::configure(const Params&, const DmaTriggerReg2Hw& r, DmaTriggerCoreInputs& c) {
  c.cfg_enable = r.ctrl_enable != 0;
  c.cfg_burst_log2 = r.burst_log2;
  c.tbl_we = r.tbl_cmd_write != 0;
  c.tbl_idx = r.tbl_idx_idx;
  c.tbl_rd_idx = r.tbl_idx_idx;
  c.tbl = dma_trigger_staged_entry(r);
  c.err_clear = r.ctrl_err_clear != 0;
}

DmaTriggerHw2Reg DmaTriggerGlue::hw2reg(const Params& p, const DmaTriggerCoreOutputs& o) {
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

}  // namespace t3
