// Conversions between a 16-bit format (fp16, bf16) and fp32, for an fp32
// accumulator of 16-bit data (the reduction table's ACC32: the ISCA 2020
// in-network collectives paper reduces in the switch; a wider accumulator
// rounds once, when the result leaves, instead of at every contribution).
// rtl/fp_widen.sv and rtl/fp_narrow.sv are the same steps in hardware;
// tests/reduction_table_fp_convert_test.cpp checks both directions against
// GNU MPFR (testbench/common/fp_reference.h) and the RTL against these.
//
// - fp_widen: a value of `f` to fp32, exact (every value of a format with at
//   most 8 exponent and 23 fraction bits is an fp32 value): zeros keep their
//   sign, subnormals become normal fp32 values (or stay subnormal when f has
//   fp32's exponent range, as bf16), infinities stay, a NaN stays a NaN with
//   its fraction bits moved up (quiet stays quiet).
// - fp_narrow: an fp32 value to `f`, rounded to nearest, ties to even, with
//   f's subnormals, overflow to +/-inf, and every NaN the canonical quiet NaN
//   of f (fp_add.h: sign 0, exponent all ones, fraction MSB set).
//
// Header-only: integer steps, no host FPU.
#pragma once

#include <cstdint>

#include "common/fp_add.h"

namespace t3 {

inline uint32_t fp_widen(const FpFormat& f, uint32_t x) {
  const unsigned m = f.man_w, e = f.exp_w;
  const uint32_t sign = (x >> (m + e)) & 1;
  const uint32_t exp = (x >> m) & ((1u << e) - 1);
  const uint32_t frac = x & ((1u << m) - 1);
  const uint32_t s32 = sign << 31;
  if (exp == (1u << e) - 1) return s32 | 0x7F800000u | (frac << (23 - m));  // inf, NaN
  if (e == 8) return s32 | (exp << 23) | (frac << (23 - m));  // fp32's exponent range
  if (exp == 0) {
    if (frac == 0) return s32;
    // frac * 2^(1 - bias - m): the leading one at bit k becomes the implicit bit.
    unsigned k = 31 - unsigned(__builtin_clz(frac));
    const uint32_t e32 = uint32_t(int(k) + 1 - f.bias() - int(m) + 127);
    return s32 | (e32 << 23) | ((frac << (23 - k)) & 0x7FFFFFu);
  }
  return s32 | (uint32_t(int(exp) - f.bias() + 127) << 23) | (frac << (23 - m));
}

inline uint32_t fp_narrow(const FpFormat& f, uint32_t x) {
  const unsigned m = f.man_w, e = f.exp_w;
  const uint32_t sign = (x >> 31) << (m + e);
  const uint32_t exp = (x >> 23) & 0xFF, frac = x & 0x7FFFFFu;
  const uint32_t exp_ones = (1u << e) - 1;
  if (exp == 0xFF)
    return frac ? (exp_ones << m) | (1u << (m - 1)) : sign | (exp_ones << m);  // NaN, inf
  // The value is sig * 2^(exp_eff - 127 - 23); in f a value q * 2^(ulp) with
  // the exponent field of f at least 1 for normals.
  const uint32_t sig = exp ? (frac | 0x800000u) : frac;
  const int exp_eff = exp ? int(exp) : 1;
  // f's exponent field for this value if it were normal in f.
  const int ef = exp_eff - 127 + f.bias();
  // Fraction bits dropped: 23 - m for a normal result, more below f's
  // normal range (ef < 1: the result's exponent field is 0, its ulp that of
  // field 1).
  int shift = int(23 - m) + (ef < 1 ? 1 - ef : 0);
  uint64_t q;
  if (shift >= 26) {
    q = 0;  // below half of f's smallest subnormal: rounds to zero
  } else {
    const uint64_t s = sig;
    q = s >> shift;
    const uint64_t rem = s & ((uint64_t{1} << shift) - 1), half = uint64_t{1} << (shift - 1);
    if (rem > half || (rem == half && (q & 1))) ++q;
  }
  // q counts ulps of the result's binade (or of the subnormals): its field
  // and fraction are q plus the exponent field minus one placed above the
  // fraction (a carry into the implicit bit's place moves the exponent up).
  const uint64_t base = ef < 1 ? 0 : uint64_t(ef - 1);
  const uint64_t bits = (base << m) + q;
  if (bits >= (uint64_t(exp_ones) << m)) return sign | (exp_ones << m);  // overflow: inf
  return sign | uint32_t(bits);
}

}  // namespace t3
