// The DMA trigger table's SystemC module: the generic module of
// hw/common/sc_model.h around t3::DmaTrigger, with the ports of
// hw/dma_trigger/dma_trigger_pins.h.
#pragma once

#include "common/sc_model.h"
#include "dma_trigger/dma_trigger_pins.h"

namespace t3 {

using DmaTriggerSc = ScModel<DmaTriggerBlock>;
extern template class ScModel<DmaTriggerBlock>;

}  // namespace t3
