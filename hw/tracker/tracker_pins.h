// The Tracker's pins, the one list (see hw/common/pins.h): RTL name,
// direction, width at parameters p, and the TrackerInputs/TrackerOutputs
// field that carries it. rtl/tracker.sv declares the same ports; the pin
// check (ctest tracker_pins_*) compares this list with the Verilated model
// and the RTL source. The configuration is in registers (the APB port); the
// status counters are registers too and also brought out as pins, for
// observation.
#pragma once

#include "common/apb.h"
#include "common/pins.h"
#include "tracker/tracker.h"

#define T3_TRACKER_PINS(X)                                        \
  X(in,  rst_ni,                 1,             rst_n)            \
  T3_APB_PINS(X)                                                  \
  X(in,  in_valid_i,             1,             in_valid)         \
  X(out, in_ready_o,             1,             in_ready)         \
  X(in,  in_wg_id_i,             p.wg_id_w,     in_wg_id)         \
  X(in,  in_wf_id_i,             p.wf_id_w,     in_wf_id)         \
  X(in,  in_addr_i,              p.addr_w,      in_addr)          \
  X(in,  in_size_i,              p.cnt_w,       in_size)          \
  X(in,  in_src_i,               2,             in_src)           \
  X(out, trig_valid_o,           1,             trig_valid)       \
  X(in,  trig_ready_i,           1,             trig_ready)       \
  X(out, trig_wg_id_o,           p.wg_id_w,     trig_wg_id)       \
  X(out, trig_wf_id_o,           p.wf_id_w,     trig_wf_id)       \
  X(out, trig_addr_o,            p.addr_w,      trig_addr)        \
  X(out, stat_updates_o,         p.stat_w,      stat_updates)     \
  X(out, stat_triggers_o,        p.stat_w,      stat_triggers)    \
  X(out, stat_stalls_o,          p.stat_w,      stat_stalls)      \
  X(out, stat_untracked_o,       p.stat_w,      stat_untracked)   \
  X(out, live_o,                 p.live_w(),    live)             \
  X(out, set_full_o,             1,             set_full)

namespace t3 {

T3_BLOCK(Tracker, "tracker", T3_TRACKER_PINS)

}  // namespace t3
