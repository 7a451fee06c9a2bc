// What a co-simulation test binary's sc_main hands to its tests.
#pragma once

#include "run_options.h"

namespace t3::tb {
RunOptions& test_options();
}  // namespace t3::tb
