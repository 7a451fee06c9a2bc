// The MCA arbiter's SystemC module: the generic module of hw/common/sc_model.h
// around t3::McaArbiter, with the ports of hw/mca_arbiter/mca_arbiter_pins.h.
#pragma once

#include "common/sc_model.h"
#include "mca_arbiter/mca_arbiter_pins.h"

namespace t3 {

using McaArbiterSc = ScModel<McaArbiterBlock>;
extern template class ScModel<McaArbiterBlock>;

}  // namespace t3
