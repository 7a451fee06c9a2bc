// The memory-side subsystem's SystemC module: the generic module of
// hw/common/sc_model.h around t3::MemSubsystem, with the ports of
// hw/mem_subsystem/mem_subsystem_pins.h.
#pragma once

#include "common/sc_model.h"
#include "mem_subsystem/mem_subsystem_pins.h"

namespace t3 {

using MemSubsystemSc = ScModel<MemSubsystemBlock>;
extern template class ScModel<MemSubsystemBlock>;

}  // namespace t3
