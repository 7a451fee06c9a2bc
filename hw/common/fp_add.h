// IEEE 754-2008 binary addition for the near-bank ALU (T3 §4.3), one lane.
//
// The near-bank ALU adds fp16, bf16 or fp32 lanes of a DRAM burst
// (op-and-store). This is the cycle model's per-lane adder; rtl/fp_add.sv is
// the same algorithm in hardware (4 register stages), and the two agree bit
// for bit. testbench/common/fp_reference.h checks both against GNU MPFR.
//
// Semantics (one format family, generic over the field widths):
// - round to nearest, ties to even; subnormal inputs and results are kept
//   (no flush to zero); a result too large for the format becomes +/-inf;
// - exact zero sums: x + (-x) = +0, (-0) + (-0) = -0, (+0) + (-0) = +0;
// - inf + finite = inf; inf + inf = inf; inf + (-inf) = NaN;
// - every NaN result is the canonical quiet NaN (sign 0, exponent all ones,
//   fraction MSB 1, rest 0), whatever NaN payload came in; no exception flags.
//
// Pure integer arithmetic: the result does not depend on the host FPU or its
// rounding mode, and the algorithm is the one the RTL implements.
#pragma once

#include <cstdint>

namespace t3 {

// A binary interchange-style format: 1 sign bit, exp_w exponent bits, man_w
// stored fraction bits (the leading significand bit is implicit).
struct FpFormat {
  unsigned exp_w;
  unsigned man_w;

  constexpr unsigned width() const { return 1 + exp_w + man_w; }
  constexpr int bias() const { return (1 << (exp_w - 1)) - 1; }
};

inline constexpr FpFormat kFp16{5, 10};
inline constexpr FpFormat kBf16{8, 7};
inline constexpr FpFormat kFp32{8, 23};

// Supported field widths (rtl/fp_add.sv checks the same ranges). At least two
// exponent bits leave one normal exponent besides zero/subnormal and inf/NaN;
// at least one fraction bit tells NaN from inf; the upper limits keep a whole
// value, and fp_add's working registers, inside 32 bits.
inline constexpr unsigned kFpExpWMin = 2, kFpExpWMax = 8;
inline constexpr unsigned kFpManWMin = 1, kFpManWMax = 23;

// Throws std::invalid_argument naming the field and its allowed range.
void check(const FpFormat& f);

// The one NaN fp_add returns: sign 0, exponent all ones, fraction MSB set.
uint32_t fp_canonical_nan(const FpFormat& f);

// a + b. Operands are bit patterns in the low f.width() bits; higher bits are
// ignored. Returns the bit pattern of the sum (higher bits zero). Throws
// std::invalid_argument, as check() does, for an unsupported format.
uint32_t fp_add(const FpFormat& f, uint32_t a, uint32_t b);

}  // namespace t3
