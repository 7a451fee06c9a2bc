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


}  // namespace t3
