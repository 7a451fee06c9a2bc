// Bit-width helpers shared by the cycle models.
#pragma once

#include <cstdint>

namespace t3 {

// The low `width` bits set (all 64 for width >= 64).
constexpr uint64_t low_mask(unsigned width) {
  return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
}

// $clog2 of SystemVerilog: the bits needed to index v items (0 for v <= 1).
// Loop-free: pin widths are derived from it in every co-simulated cycle.
constexpr unsigned clog2(uint64_t v) {
  return v <= 1 ? 0 : 64 - unsigned(__builtin_clzll(v - 1));
}

}  // namespace t3
