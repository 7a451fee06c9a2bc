// The Tracker's SystemC module: the generic module of hw/common/sc_model.h
// around t3::Tracker, with the ports of hw/tracker/tracker_pins.h.
#pragma once

#include "common/sc_model.h"
#include "tracker/tracker_pins.h"

namespace t3 {

using TrackerSc = ScModel<TrackerBlock>;
extern template class ScModel<TrackerBlock>;

}  // namespace t3
