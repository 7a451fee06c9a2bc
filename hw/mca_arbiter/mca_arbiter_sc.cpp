#include "mca_arbiter/mca_arbiter_sc.h"

template class t3::ScModel<t3::McaArbiterBlock>;
