// The near-bank ALU cycle model's lane adders (T3 §4.3): a whole DRAM burst
// of fp16, bf16 or fp32 lanes added at once, on the host's FPU.
//
// Same results, bit for bit, as fp_add() (the RTL's algorithm in integer
// arithmetic, hw/common/fp_add.h) for these three formats, and the
// same semantics: IEEE 754 round to nearest even, subnormals kept, the
// canonical quiet NaN. tests/near_bank_alu_fp_add_test.cpp checks both
// against GNU MPFR on the same operands.
//
// Why the host FPU: the cycle model spends most of its time in these adds
// (one burst is 8-16 lanes), and fp_add's bit-level steps cost several times
// a hardware add. Why it is exact:
// - fp32: one IEEE binary32 addition on the host is the correctly rounded
//   sum;
// - fp16 and bf16: both operands are exact in binary32, the sum is rounded
//   once to binary32 and then once more to the 16-bit format. Rounding twice
//   to nearest gives the correctly rounded sum when the wider format has at
//   least 2p + 2 significand bits for a p-bit format (Figueroa, "When is
//   double rounding innocuous?", SIGNUM 1995): 24 >= 2*11 + 2 (fp16) and
//   24 >= 2*8 + 2 (bf16). A sum in the 16-bit format's subnormal range is a
//   multiple of its smallest subnormal and exact in binary32, so the second
//   rounding alone decides it there.
// Both rest on the host doing IEEE binary32 in round to nearest without
// flushing subnormals; fp_lanes_check_host() tests that and the cycle model
// calls it when it is built.
#pragma once

#include <cstdint>

#include "common/wide.h"

namespace t3 {

// One lane, for the tests; the burst function below inlines the same code.
uint32_t fp16_add_host(uint32_t a, uint32_t b);
uint32_t bf16_add_host(uint32_t a, uint32_t b);
uint32_t fp32_add_host(uint32_t a, uint32_t b);

// y = a + b lane by lane over the low `bits` bits (128, 256 or 512) in
// format `fmt` (0 fp16, 1 bf16, 2 fp32, as NbFormat); y's other bits are
// left as they are. fmt 3 is the caller's to refuse, and any other width is
// not a burst: both throw std::invalid_argument.
void fp_add_burst(uint32_t fmt, const Wide& a, const Wide& b, Wide& y, unsigned bits);

// Throws std::runtime_error, saying what is wrong, when the host's binary32
// arithmetic does not round to nearest even or flushes subnormals (as code
// built with -ffast-math may arrange for the whole process).
void fp_lanes_check_host();

}  // namespace t3
