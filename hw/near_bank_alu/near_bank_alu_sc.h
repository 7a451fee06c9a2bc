// The near-bank ALU's SystemC module: the generic module of
// hw/common/sc_model.h around t3::NearBankAlu, with the ports of
// hw/near_bank_alu/near_bank_alu_pins.h.
#pragma once

#include "common/sc_model.h"
#include "near_bank_alu/near_bank_alu_pins.h"

namespace t3 {

using NearBankAluSc = ScModel<NearBankAluBlock>;
extern template class ScModel<NearBankAluBlock>;

}  // namespace t3
