// The near-bank ALU's pins, the one list (see hw/common/pins.h): RTL name,
// direction, width at parameters p, and the NearBankAluInputs /
// NearBankAluOutputs field that carries it. rtl/near_bank_alu.sv declares the
// same ports; ctest near_bank_alu_pins_* compares them. The burst's data
// pins (BURST_BYTES x 8 bits) are wider than 64 bits: t3::Wide fields.
// Firmware reaches the block through the register port (APB): the error
// flag is cleared there (CTRL.ERR_CLEAR); the flag and the counters are
// registers too (STATUS, STAT_*) and also brought out as pins, for
// observation.
#pragma once

#include "common/apb.h"
#include "common/pins.h"
#include "near_bank_alu/near_bank_alu.h"

#define T3_NEAR_BANK_ALU_PINS(X)                                        \
  X(in,  rst_ni,               1,              rst_n)                   \
  T3_APB_PINS(X)                                                        \
  X(in,  cmd_valid_i,          1,              cmd_valid)               \
  X(out, cmd_ready_o,          1,              cmd_ready)               \
  X(in,  cmd_op_i,             2,              cmd_op)                  \
  X(in,  cmd_fmt_i,            2,              cmd_fmt)                 \
  X(in,  cmd_bg_i,             p.bg_w(),       cmd_bg)                  \
  X(in,  cmd_addr_i,           p.addr_w,       cmd_addr)                \
  X(in,  cmd_data_i,           p.data_w(),     cmd_data)                \
  X(in,  cmd_mask_i,           p.burst_bytes,  cmd_mask)                \
  X(out, bg_ready_o,           p.bg,           bg_ready)                \
  X(out, bank_rd_o,            1,              bank_rd)                 \
  X(out, bank_rd_bg_o,         p.bg_w(),       bank_rd_bg)              \
  X(out, bank_rd_addr_o,       p.addr_w,       bank_rd_addr)            \
  X(in,  bank_rdata_i,         p.data_w(),     bank_rdata)              \
  X(out, bank_wr_o,            1,              bank_wr)                 \
  X(out, bank_wr_bg_o,         p.bg_w(),       bank_wr_bg)              \
  X(out, bank_wr_addr_o,       p.addr_w,       bank_wr_addr)            \
  X(out, bank_wdata_o,         p.data_w(),     bank_wdata)              \
  X(out, bank_wmask_o,         p.burst_bytes,  bank_wmask)              \
  X(out, rsp_valid_o,          1,              rsp_valid)               \
  X(out, rsp_data_o,           p.data_w(),     rsp_data)                \
  X(out, err_o,                1,              err)                     \
  X(out, stat_reads_o,         p.stat_w,       stat_reads)              \
  X(out, stat_stores_o,        p.stat_w,       stat_stores)             \
  X(out, stat_adds_o,          p.stat_w,       stat_adds)               \
  X(out, stat_refused_o,       p.stat_w,       stat_refused)            \
  X(out, stat_hazard_stalls_o, p.stat_w,       stat_hazard_stalls)      \
  X(out, stat_timing_stalls_o, p.stat_w,       stat_timing_stalls)

namespace t3 {

T3_BLOCK(NearBankAlu, "near_bank_alu", T3_NEAR_BANK_ALU_PINS)

}  // namespace t3
