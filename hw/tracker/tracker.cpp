#include "tracker/tracker.h"

#include "common/bits.h"

namespace t3 {

TrackerConfig tracker_config(const TrackerReg2Hw& r) {
  TrackerConfig c;
  c.enable = r.ctrl_enable != 0;
  c.base = uint64_t(r.base_hi_addr) << 32 | r.base_lo_addr;
  c.limit = uint64_t(r.limit_hi_addr) << 32 | r.limit_lo_addr;
  c.tile_size = r.tile_size;
  c.updates_per_elem = r.tile_updates_per_elem;
  return c;
}

void TrackerGlue::configure(const Params&, const TrackerReg2Hw& r, TrackerCoreInputs& c) {
  c.cfg = tracker_config(r);
}

TrackerHw2Reg TrackerGlue::hw2reg(const Params& p, const TrackerCoreOutputs& o) {
  TrackerHw2Reg h;
  h.intr_state_cfg_error_set = o.cfg_error;
  h.intr_state_set_full_set = o.set_full;
  h.status_cfg_error = o.cfg_error;
  h.status_set_full = o.set_full;
  h.status_live = o.live;
  h.stat_updates_count = o.stat_updates;
  h.stat_triggers_count = o.stat_triggers;
  h.stat_stalls_count = o.stat_stalls;
  h.stat_untracked_count = o.stat_untracked;
  h.param_geometry_sets_log2 = clog2(p.sets);
  h.param_geometry_ways = p.ways;
  h.param_widths_addr_w = p.addr_w;
  h.param_widths_cnt_w = p.cnt_w;
  h.param_widths_upe_w = p.upe_w;
  h.param_widths_stat_w = p.stat_w;
  h.busy = o.busy;  // a tile live, or a write in flight towards one
  return h;
}

}  // namespace t3
