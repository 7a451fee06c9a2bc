// The MCA arbiter's pins, the one list (see hw/common/pins.h): RTL name,
// direction, width at parameters p, and the McaArbiterInputs/McaArbiterOutputs
// field that carries it. rtl/mca_arbiter.sv declares the same ports; the pin
// check (ctest mca_arbiter_pins_*) compares this list with the Verilated
// model and the RTL source. The configuration is in registers (the APB
// port); the learning state, the level in force and the status counters are
// registers too (STATUS, LEARN_AVG, STAT_*) and also brought out as pins,
// for observation.
#pragma once

#include "common/apb.h"
#include "common/pins.h"
#include "mca_arbiter/mca_arbiter.h"

#define T3_MCA_ARBITER_PINS(X)                                    \
  X(in,  rst_ni,             1,           rst_n)                  \
  T3_APB_PINS(X)                                                  \
  X(in,  cmp_valid_i,        1,           cmp_valid)              \
  X(out, cmp_ready_o,        1,           cmp_ready)              \
  X(in,  cmp_data_i,         p.data_w,    cmp_data)               \
  X(in,  com_valid_i,        1,           com_valid)              \
  X(out, com_ready_o,        1,           com_ready)              \
  X(in,  com_data_i,         p.data_w,    com_data)               \
  X(out, out_valid_o,        1,           out_valid)              \
  X(in,  out_ready_i,        1,           out_ready)              \
  X(out, out_data_o,         p.data_w,    out_data)               \
  X(out, out_src_o,          1,           out_src)                \
  X(in,  occupancy_i,        p.occ_w,     occupancy)              \
  X(in,  learn_i,            1,           learn)                  \
  X(in,  drain_i,            1,           drain)                  \
  X(out, learn_busy_o,       1,           learn_busy)             \
  X(out, learn_avg_o,        p.occ_w,     learn_avg)              \
  X(out, thr_sel_o,          2,           thr_sel)                \
  X(out, thr_o,              p.occ_w,     thr)                    \
  X(out, stat_grants_cmp_o,  p.stat_w,    stat_grants_cmp)        \
  X(out, stat_grants_com_o,  p.stat_w,    stat_grants_com)        \
  X(out, stat_wait_cmp_o,    p.stat_w,    stat_wait_cmp)          \
  X(out, stat_wait_com_o,    p.stat_w,    stat_wait_com)          \
  X(out, stat_starved_o,     p.stat_w,    stat_starved)

namespace t3 {

T3_BLOCK(McaArbiter, "mca_arbiter", T3_MCA_ARBITER_PINS)

}  // namespace t3
