// The DMA trigger table's pins, the one list (see hw/common/pins.h): RTL
// name, direction, width at parameters p, and the DmaTriggerInputs /
// DmaTriggerOutputs field that carries it. rtl/dma_trigger.sv declares the
// same ports; ctest dma_trigger_pins_* compares them. The configuration and
// the table (its writes and its read-back) are in registers (the APB port);
// the captured errors, the miss capture, the status counters and busy are
// registers too (STATUS, MISS_*, STAT_*) and also brought out as pins, for
// observation.
#pragma once

#include "common/apb.h"
#include "common/pins.h"
#include "dma_trigger/dma_trigger.h"

#define T3_DMA_TRIGGER_PINS(X)                                                  \
  X(in,  rst_ni,                   1,              rst_n)                       \
  T3_APB_PINS(X)                                                                \
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
  X(out, tbl_err_cause_o,          4,              tbl_err_cause)               \
  X(out, miss_o,                   1,              miss)                        \
  X(out, miss_wg_o,                p.wg_id_w,      miss_wg)                     \
  X(out, miss_wf_o,                p.wf_id_w,      miss_wf)                     \
  X(out, miss_addr_o,              p.addr_w,       miss_addr)                   \
  X(out, stat_triggers_o,          p.stat_w,       stat_triggers)               \
  X(out, stat_miss_o,              p.stat_w,       stat_miss)                   \
  X(out, stat_descs_o,             p.stat_w,       stat_descs)                  \
  X(out, stat_blocks_o,            p.stat_w,       stat_blocks)                 \
  X(out, stat_stalls_o,            p.stat_w,       stat_stalls)                 \
  X(out, busy_o,                   1,              busy)

namespace t3 {

T3_BLOCK(DmaTrigger, "dma_trigger", T3_DMA_TRIGGER_PINS)

}  // namespace t3
