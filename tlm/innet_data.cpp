#include "innet_data.h"

#include <cmath>
#include <cstring>
#include <random>

#include "common/fp_add.h"
#include "common/fp_convert.h"

namespace t3 {

namespace {
const FpFormat& format(uint8_t dtype) { return dtype == 0 ? kFp16 : dtype == 1 ? kBf16 : kFp32; }
}  // namespace

unsigned element_bytes(uint8_t dtype) { return dtype == 2 ? 4 : 2; }

uint32_t element_encode(uint8_t dtype, float v) {
  uint32_t b;
  std::memcpy(&b, &v, 4);
  return dtype == 2 ? b : fp_narrow(format(dtype), b);
}

double element_decode(uint8_t dtype, uint32_t bits) {
  const uint32_t b = dtype == 2 ? bits : fp_widen(format(dtype), bits);
  float v;
  std::memcpy(&v, &b, 4);
  return v;
}

uint32_t element_get(const std::vector<uint8_t>& buf, uint8_t dtype, size_t i) {
  uint32_t v = 0;
  std::memcpy(&v, buf.data() + i * element_bytes(dtype), element_bytes(dtype));
  return v;
}

void element_put(std::vector<uint8_t>& buf, uint8_t dtype, size_t i, uint32_t bits) {
  std::memcpy(buf.data() + i * element_bytes(dtype), &bits, element_bytes(dtype));
}

Buffers all_reduce_buffers(unsigned gpus, uint64_t bytes, uint8_t dtype, bool exact, unsigned seed) {
  std::mt19937 rng(seed);
  const int lim = dtype == 0 ? 64 : dtype == 1 ? 8 : 1000;
  std::uniform_int_distribution<int> small(-lim, lim);
  std::uniform_real_distribution<float> mant(-1.0f, 1.0f);
  std::uniform_int_distribution<int> expo(-6, 6);
  Buffers b(gpus, std::vector<uint8_t>(bytes));
  for (auto& g : b)
    for (size_t i = 0; i < bytes / element_bytes(dtype); ++i)
      element_put(g, dtype, i, element_encode(dtype, exact ? float(small(rng)) : std::ldexp(mant(rng), expo(rng))));
  return b;
}

AllReduceCheck check_all_reduce(const Buffers& in, const Buffers& out, uint8_t dtype, bool exact) {
  AllReduceCheck c;
  const size_t n = in.at(0).size() / element_bytes(dtype);
  const double u = std::ldexp(1.0, -int(format(dtype).man_w + 1));
  const double k = double(in.size() - 1), gamma = k * u / (1 - k * u);
  for (size_t i = 0; i < n; ++i) {
    double sum = 0, abs = 0;
    for (const auto& g : in) {
      const double v = element_decode(dtype, element_get(g, dtype, i));
      sum += v;  // exact in double: a few dozen values of at most 24 bits
      abs += std::fabs(v);
    }
    for (size_t g = 0; g < out.size(); ++g) {
      const double got = element_decode(dtype, element_get(out[g], dtype, i));
      const bool ok = exact ? got == sum : std::fabs(got - sum) <= gamma * abs;
      if (!ok && c.mismatches++ == 0)
        c.first = "gpu " + std::to_string(g) + " element " + std::to_string(i) + ": " + std::to_string(got) +
                  ", reference " + std::to_string(sum) + " (bound " + std::to_string(gamma * abs) + ")";
      if (element_get(out[g], dtype, i) != element_get(out[0], dtype, i)) ++c.differ_between_gpus;
    }
  }
  return c;
}

}  // namespace t3
