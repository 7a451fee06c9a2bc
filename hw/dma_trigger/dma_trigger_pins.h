// The DMA trigger table's pins, the one list (see hw/common/pins.h): RTL
// name, direction, width at parameters p, and the DmaTriggerInputs /
// DmaTriggerOutputs field that carries it. rtl/dma_trigger.sv declares the
// same ports; ctest dma_trigger_pins_* compares them.
#pragma once

#include "common/pins.h"
#include "dma_trigger/dma_trigger.h"

#define T3_DMA_TRIGGER_PINS(X)                                                  \
  X(in,  rst_ni,                   1,              rst_n)                       \
  X(in,  cfg_enable_i,             1,              cfg_enable)                  \
  X(in,  cfg_burst_log2_i,         p.burst_w(),    cfg_burst_log2)              \
  X(out, cfg_error_o,              1,              cfg_error)                   \
  X(in,  tbl_we_i,                 1,              tbl_we)                      \
  X(out, tbl_ready_o,              1,              tbl_ready)                   \
  X(in,  tbl_idx_i,                p.idx_w(),      tbl_idx)                     \
  X(in,  tbl_valid_i,              1,              tbl.valid)                   \
  X(in,  tbl_src_base_i,           p.addr_w,       tbl.src_base)                \
  X(in,  tbl_dst_base_i,           p.addr_w,       tbl.dst_base)                \
  X(in,  tbl_dst_gpu_i,            p.gpu_w,        tbl.dst_gpu)                 \
  X(in,  tbl_op_i,                 1,              tbl.op)                      \
  X(in,  tbl_tiles_per_block_i,    p.count_w(),    tbl.tiles_per_block)         \
  X(in,  tbl_m_i,                  p.dim_w,        tbl.m)                       \
  X(in,  tbl_n_i,                  p.dim_w,        tbl.n)                       \
  X(in,  tbl_elem_log2_i,          2,              tbl.elem_log2)               \
  X(in,  tbl_tile_rows_i,          p.dim_w,        tbl.tile_rows)               \
  X(in,  tbl_tile_cols_i,          p.dim_w,        tbl.tile_cols)               \
  X(in,  tbl_rd_idx_i,             p.idx_w(),      tbl_rd_idx)                  \
  X(out, tbl_rd_valid_o,           1,              tbl_rd.valid)                \
  X(out, tbl_rd_src_base_o,        p.addr_w,       tbl_rd.src_base)             \
  X(out, tbl_rd_dst_base_o,        p.addr_w,       tbl_rd.dst_base)             \
  X(out, tbl_rd_dst_gpu_o,         p.gpu_w,        tbl_rd.dst_gpu)              \
  X(out, tbl_rd_op_o,              1,              tbl_rd.op)                   \
  X(out, tbl_rd_tiles_per_block_o, p.count_w(),    tbl_rd.tiles_per_block)      \
  X(out, tbl_rd_m_o,               p.dim_w,        tbl_rd.m)                    \
  X(out, tbl_rd_n_o,               p.dim_w,        tbl_rd.n)                    \
  X(out, tbl_rd_elem_log2_o,       2,              tbl_rd.elem_log2)            \
  X(out, tbl_rd_tile_rows_o,       p.dim_w,        tbl_rd.tile_rows)            \
  X(out, tbl_rd_tile_cols_o,       p.dim_w,        tbl_rd.tile_cols)            \
  X(out, tbl_rd_pending_o,         p.count_w(),    tbl_rd_pending)              \
  X(in,  trig_valid_i,             1,              trig_valid)                  \
  X(out, trig_ready_o,             1,              trig_ready)                  \
  X(in,  trig_wg_id_i,             p.wg_id_w,      trig_wg_id)                  \
  X(in,  trig_wf_id_i,             p.wf_id_w,      trig_wf_id)                  \
  X(in,  trig_addr_i,              p.addr_w,       trig_addr)                   \
  X(out, desc_valid_o,             1,              desc_valid)                  \
  X(in,  desc_ready_i,             1,              desc_ready)                  \
  X(out, desc_src_o,               p.addr_w,       desc_src)                    \
  X(out, desc_dst_o,               p.addr_w,       desc_dst)                    \
  X(out, desc_gpu_o,               p.gpu_w,        desc_gpu)                    \
  X(out, desc_bytes_o,             p.bytes_w(),    desc_bytes)                  \
  X(out, desc_op_o,                1,              desc_op)                     \
  X(out, desc_wg_o,                p.wg_id_w,      desc_wg)                     \
  X(out, desc_wf_o,                p.wf_id_w,      desc_wf)                     \
  X(out, desc_last_o,              1,              desc_last)                   \
  X(out, tbl_err_o,                1,              tbl_err)                     \
  X(out, tbl_err_cause_o,          3,              tbl_err_cause)               \
  X(out, miss_o,                   1,              miss)                        \
  X(out, miss_wg_o,                p.wg_id_w,      miss_wg)                     \
  X(out, miss_wf_o,                p.wf_id_w,      miss_wf)                     \
  X(out, miss_addr_o,              p.addr_w,       miss_addr)                   \
  X(in,  err_clear_i,              1,              err_clear)                   \
  X(out, stat_triggers_o,          p.stat_w,       stat_triggers)               \
  X(out, stat_miss_o,              p.stat_w,       stat_miss)                   \
  X(out, stat_descs_o,             p.stat_w,       stat_descs)                  \
  X(out, stat_blocks_o,            p.stat_w,       stat_blocks)                 \
  X(out, stat_stalls_o,            p.stat_w,       stat_stalls)                 \
  X(out, busy_o,                   1,              busy)

namespace t3 {

T3_BLOCK(DmaTrigger, "dma_trigger", T3_DMA_TRIGGER_PINS)

}  // namespace t3
