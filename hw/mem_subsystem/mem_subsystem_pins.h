// The memory-side subsystem's pins, the one list (see hw/common/pins.h): RTL
// name, direction, width at parameters p, and the MemSubsystemInputs /
// MemSubsystemOutputs field that carries it. rtl/mem_subsystem.sv declares
// the same ports; ctest mem_subsystem_pins_* compares them.
#pragma once

#include "common/apb.h"
#include "common/pins.h"
#include "mem_subsystem/mem_subsystem.h"

// One request stream: valid/ready and the request's fields.
#define T3_MEM_REQUEST_PINS(X, s)                                 \
  X(in,  s##_valid_i, 1,                 s##_valid)               \
  X(out, s##_ready_o, 1,                 s##_ready)               \
  X(in,  s##_op_i,    2,                 s.op)                    \
  X(in,  s##_fmt_i,   2,                 s.fmt)                   \
  X(in,  s##_addr_i,  p.addr_w,          s.addr)                  \
  X(in,  s##_data_i,  p.burst_bytes * 8, s.data)                  \
  X(in,  s##_mask_i,  p.burst_bytes,     s.mask)                  \
  X(in,  s##_wg_i,    p.wg_id_w,         s.wg)                    \
  X(in,  s##_wf_i,    p.wf_id_w,         s.wf)                    \
  X(in,  s##_size_i,  p.cnt_w,           s.size)

#define T3_MEM_SUBSYSTEM_PINS(X)                                  \
  X(in,  rst_ni,         1,                       rst_n)          \
  T3_APB_PINS_W(X, ::t3::kMemApbAddrBits)                         \
  T3_MEM_REQUEST_PINS(X, cmp)                                     \
  T3_MEM_REQUEST_PINS(X, com)                                     \
  X(in,  com_src_i,      2,                       com.src)        \
  X(out, rsp_valid_o,    1,                       rsp_valid)      \
  X(out, rsp_data_o,     p.burst_bytes * 8,       rsp_data)       \
  X(out, desc_valid_o,   1,                       desc_valid)     \
  X(in,  desc_ready_i,   1,                       desc_ready)     \
  X(out, desc_src_o,     p.addr_w,                desc_src)       \
  X(out, desc_dst_o,     p.addr_w,                desc_dst)       \
  X(out, desc_gpu_o,     p.gpu_w,                 desc_gpu)       \
  X(out, desc_bytes_o,   p.max_burst_log2 + 1,    desc_bytes)     \
  X(out, desc_op_o,      1,                       desc_op)        \
  X(out, desc_wg_o,      p.wg_id_w,               desc_wg)        \
  X(out, desc_wf_o,      p.wf_id_w,               desc_wf)        \
  X(out, desc_last_o,    1,                       desc_last)      \
  X(out, bank_rd_o,      1,                       bank_rd)        \
  X(out, bank_rd_bg_o,   p.bg_w(),                bank_rd_bg)     \
  X(out, bank_rd_addr_o, p.bank_addr_w,           bank_rd_addr)   \
  X(in,  bank_rdata_i,   p.burst_bytes * 8,       bank_rdata)     \
  X(out, bank_wr_o,      1,                       bank_wr)        \
  X(out, bank_wr_bg_o,   p.bg_w(),                bank_wr_bg)     \
  X(out, bank_wr_addr_o, p.bank_addr_w,           bank_wr_addr)   \
  X(out, bank_wdata_o,   p.burst_bytes * 8,       bank_wdata)     \
  X(out, bank_wmask_o,   p.burst_bytes,           bank_wmask)     \
  X(in,  learn_i,        1,                       learn)          \
  X(in,  drain_i,        1,                       drain)          \
  X(out, occupancy_o,    p.occ_w(),               occupancy)

namespace t3 {

T3_BLOCK(MemSubsystem, "mem_subsystem", T3_MEM_SUBSYSTEM_PINS)

}  // namespace t3
