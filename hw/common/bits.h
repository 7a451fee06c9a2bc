// Bit-width helpers shared by the cycle models.
#pragma once

#include <cstdint>
#include <type_traits>

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

// c ? a : b for integers, without a branch. A cycle model's selects depend
// on random traffic; the compiler turns many a ?: into a jump the host then
// mispredicts about half the time (issue 20).
template <typename T>
constexpr T pick(bool c, T a, T b) {
  static_assert(std::is_integral_v<T>, "pick() selects integers");
  using U = std::make_unsigned_t<T>;
  const U m = U(0) - U(c);
  return T((U(a) & m) | (U(b) & ~m));
}

}  // namespace t3
