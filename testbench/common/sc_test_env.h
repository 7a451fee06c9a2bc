// What a co-simulation test binary's sc_main hands to its tests.
#pragma once

#include <functional>
#include <string>

#include "run_options.h"

namespace t3::tb {

RunOptions& test_options();

// A check run once after every test has run; a failing one fails the binary
// (with `what` and the text it returns). The shared co-simulation registers
// "0 mismatches over the whole run" here, so that no divergence in any cycle
// (reset cycles included) can pass unnoticed.
void at_end(const std::string& what, std::function<std::string()> check);

}  // namespace t3::tb
