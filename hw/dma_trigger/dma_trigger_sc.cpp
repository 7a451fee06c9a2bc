#include "dma_trigger/dma_trigger_sc.h"

template class t3::ScModel<t3::DmaTriggerBlock>;
