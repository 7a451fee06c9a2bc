// The block's connections are inline in near_bank_alu.h (they run every
// cycle); the composition is instantiated here once, so that every member
// compiles with the model whether or not a user calls it.
#include "near_bank_alu/near_bank_alu.h"

namespace t3 {

template class RegBlock<NearBankAluGlue>;

}  // namespace t3
