// Independent reference for the near-bank ALU's IEEE 754 adder (T3 §4.3):
// the correctly rounded sum computed by GNU MPFR, and operand generators that
// aim at the corners of floating-point addition.
//
// Nothing here uses hw/common/fp_add.cpp: fields are decoded to exact
// MPFR values and the MPFR result is encoded back by code of its own, so a
// bug in fp_add.cpp cannot hide in the reference. Only the FpFormat type is
// shared.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "common/fp_add.h"

namespace t3::tb {

// The correctly rounded (nearest, ties to even) a + b in format f, with
// IEEE subnormals, overflow to inf and the NaN policy of fp_add.h (every NaN
// result is the canonical quiet NaN). Operands are bit patterns in the low
// f.width() bits; higher bits are ignored. Leaves MPFR's exponent range as
// it found it.
uint32_t mpfr_add_bits(const FpFormat& f, uint32_t a, uint32_t b);

// mpfr_add_bits plus what happened on the way, for checking that operand
// classes reach the corners they aim at.
struct MpfrSum {
  uint32_t bits = 0;
  bool inexact = false;   // the exact sum is not representable
  bool tie = false;       // the exact sum lies halfway between two neighbours
  bool overflow = false;  // finite operands, infinite result
};
MpfrSum mpfr_add_info(const FpFormat& f, uint32_t a, uint32_t b);

// The canonical quiet NaN, written independently of fp_canonical_nan().
uint32_t ref_canonical_nan(const FpFormat& f);

// Special and boundary values of f, both signs: zeros, smallest and largest
// subnormals, smallest normal, 1.0 and its neighbours, powers of two that are
// half an ulp of 1.0 and of the largest finite value, the largest finite
// values, infinities, quiet and signalling NaNs with several payloads.
// Sorted, without duplicates.
std::vector<uint32_t> fp_edge_values(const FpFormat& f);

// Random operand classes; each aims at one corner of addition.
enum class OperandClass : uint8_t {
  uniform,     // uniform bit patterns (includes NaNs and infinities)
  cancel,      // opposite signs, nearly equal magnitudes: long normalization
  align,       // exponent difference around man_w + 2: guard and sticky bits
  tie,         // the exact sum is halfway between two representable values
  overflow,    // sums at and beyond the largest finite value
  sub_sub,     // subnormal + subnormal
  sub_normal,  // subnormal + normal
};
inline constexpr unsigned kOperandClasses = 7;
const char* to_string(OperandClass c);

struct OperandPair {
  uint32_t a;
  uint32_t b;
  OperandClass cls;
};

// One operand pair of class c.
OperandPair fp_random_pair(const FpFormat& f, std::mt19937_64& rng, OperandClass c);
// One operand pair of a class chosen uniformly at random.
OperandPair fp_random_pair(const FpFormat& f, std::mt19937_64& rng);

}  // namespace t3::tb
