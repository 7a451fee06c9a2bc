#include "mem_subsystem/mem_subsystem_sc.h"

template class t3::ScModel<t3::MemSubsystemBlock>;
