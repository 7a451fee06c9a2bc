// Bit-width helpers shared by the cycle models.
#pragma once

#include <cstdint>

namespace t3 {

// The low `width` bits set (all 64 for width >= 64).
constexpr uint64_t low_mask(unsigned width) {
  return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
}

// $clog2 of SystemVerilog: the bits needed to index v items (0 for v <= 1).
constexpr unsigned clog2(uint64_t v) {
  unsigned r = 0;
  while (r < 64 && (uint64_t{1} << r) < v) ++r;
  return r;
}

}  // namespace t3
