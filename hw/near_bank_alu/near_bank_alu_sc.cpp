#include "near_bank_alu/near_bank_alu_sc.h"

template class t3::ScModel<t3::NearBankAluBlock>;
