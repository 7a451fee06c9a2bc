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


}  // namespace t3
