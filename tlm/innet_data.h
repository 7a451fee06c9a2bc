// Real data for the fabric's all-reduces: buffers of fp16, bf16 or fp32
// elements, and the check of a result against the reference sum, computed
// here apart from every model:
// - exact where every order of the additions gives the same sum (small
//   integers: every partial sum is a value of the type);
// - otherwise within the bound of any order's rounding: n - 1 additions,
//   each rounded to the type (unit roundoff u), in any order, are within
//   gamma(n - 1) * sum(|x_i|) of the exact sum, gamma(k) = k u / (1 - k u)
//   (Higham, "Accuracy and Stability of Numerical Algorithms", §4.2).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace t3 {

using Buffers = std::vector<std::vector<uint8_t>>;

unsigned element_bytes(uint8_t dtype);  // 2 (fp16, bf16) or 4 (fp32)
uint32_t element_encode(uint8_t dtype, float v);  // rounded to nearest even
double element_decode(uint8_t dtype, uint32_t bits);
uint32_t element_get(const std::vector<uint8_t>& buf, uint8_t dtype, size_t i);
void element_put(std::vector<uint8_t>& buf, uint8_t dtype, size_t i, uint32_t bits);

// A buffer per GPU: small integers (exact sums: |x| <= 64 fp16, 8 bf16,
// 1000 fp32) or random values of mixed signs and magnitudes (2^-6..2^6).
Buffers all_reduce_buffers(unsigned gpus, uint64_t bytes, uint8_t dtype, bool exact, unsigned seed);

struct AllReduceCheck {
  size_t mismatches = 0;           // elements outside the bound (exact: any difference)
  size_t differ_between_gpus = 0;  // elements whose bits differ from GPU 0's
  std::string first;               // the first mismatch, said
};
// Every GPU's out against the sum of every GPU's in.
AllReduceCheck check_all_reduce(const Buffers& in, const Buffers& out, uint8_t dtype, bool exact);

}  // namespace t3
