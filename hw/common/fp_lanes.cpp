// Lane adders on the host FPU; see fp_lanes.h for why they are exact.
#include "common/fp_lanes.h"

#include <cfenv>
#include <cstring>
#include <stdexcept>
#include <string>

namespace t3 {
namespace {

inline float as_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

inline uint32_t as_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

// All ones when c holds: selects written as masks vectorize, branches and
// ?: on lanes often do not.
inline uint32_t mask(bool c) { return 0u - uint32_t(c); }

// A NaN tested on the bits (an integer compare, which vectorizes).
inline uint32_t is_nan(float f) { return mask((as_bits(f) & 0x7FFFFFFF) > 0x7F800000u); }

// The canonical quiet NaNs (fp_add.h).
constexpr uint32_t kNan16 = 0x7E00, kNanBf16 = 0x7FC0, kNan32 = 0x7FC00000;

// fp16 to binary32, exact. The exponent and fraction move to binary32's
// places; multiplying by 2^(127-15) restores the bias and also normalizes a
// subnormal (a binary32 subnormal times 2^112 is exact). Exponent field 31
// (inf, NaN) lands on a finite value: its exponent is set to all ones.
inline float f16_to_f32(uint32_t h) {
  const float scaled = as_float((h & 0x7FFF) << 13) * 0x1p112f;
  const uint32_t special = mask((h & 0x7C00) == 0x7C00) & 0x7F800000u;
  return as_float(as_bits(scaled) | special | ((h & 0x8000) << 16));
}

// binary32 (not NaN) to fp16, rounded to nearest even. Results below the
// smallest normal fp16 are rounded by one binary32 addition of a constant
// whose ulp is fp16's smallest subnormal; the others by adding half an fp16
// ulp (less one, plus the kept LSB: ties to even) to the bit pattern, whose
// carry runs into the exponent and, past the largest finite value, to inf.
// All three cases are computed and one is selected by masks, so that the
// compiler can vectorize a burst's lanes.
inline uint32_t f32_to_f16(float f) {
  const uint32_t u = as_bits(f);
  const uint32_t sign = (u >> 16) & 0x8000;
  const uint32_t mag = u & 0x7FFFFFFF;
  constexpr uint32_t magic = (127u - 15 + 23 - 10 + 1) << 23;  // 2^-1: its ulp is 2^-24
  const uint32_t sub = as_bits(as_float(mag) + as_float(magic)) - magic;
  const uint32_t norm = (mag + ((15u - 127u) << 23) + 0xFFF + ((mag >> 13) & 1)) >> 13;
  const uint32_t inf = mask(mag >= (127u + 16) << 23);  // >= 2^16
  const uint32_t small = mask(mag < (127u - 14) << 23);  // below 2^-14
  return (inf & 0x7C00u) | (~inf & ((small & sub) | (~small & norm))) | sign;
}

inline uint32_t add16(uint32_t a, uint32_t b) {
  const float s = f16_to_f32(a & 0xFFFF) + f16_to_f32(b & 0xFFFF);
  const uint32_t nan = is_nan(s);
  return (nan & kNan16) | (~nan & f32_to_f16(s));
}

inline uint32_t addbf16(uint32_t a, uint32_t b) {
  const float s = as_float((a & 0xFFFF) << 16) + as_float((b & 0xFFFF) << 16);
  const uint32_t u = as_bits(s);
  // Half a bf16 ulp less one, plus the kept LSB (ties to even); the carry
  // reaches the exponent and, past the largest finite value, inf.
  const uint32_t nan = is_nan(s);
  return (nan & kNanBf16) | (~nan & ((u + 0x7FFF + ((u >> 16) & 1)) >> 16));
}

inline uint32_t add32(uint32_t a, uint32_t b) {
  const float s = as_float(a) + as_float(b);
  const uint32_t nan = is_nan(s);
  return (nan & kNan32) | (~nan & as_bits(s));
}

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "fp_add_burst reads a Wide's words as lanes in memory order: little-endian hosts only"
#endif

// The lanes of a burst as an array (little-endian: lane i is bits
// [i*Lane, (i+1)*Lane) of the Wide), one loop the compiler vectorizes; the
// burst's width is a template argument, so that the loop has no remainder.
template <class Lane, uint32_t (*kAdd)(uint32_t, uint32_t), unsigned kBits>
void burst(const Wide& a, const Wide& b, Wide& y) {
  constexpr unsigned kLanes = kBits / (8 * sizeof(Lane));
  Lane la[kLanes], lb[kLanes], ly[kLanes];
  std::memcpy(la, a.w.data(), kBits / 8);
  std::memcpy(lb, b.w.data(), kBits / 8);
  for (unsigned i = 0; i < kLanes; ++i) ly[i] = Lane(kAdd(la[i], lb[i]));
  std::memcpy(y.w.data(), ly, kBits / 8);
}

template <class Lane, uint32_t (*kAdd)(uint32_t, uint32_t)>
void burst(const Wide& a, const Wide& b, Wide& y, unsigned bits) {
  static_assert(Wide::kMaxBits == 512, "one case per burst width up to Wide::kMaxBits");
  switch (bits) {
    case 128: return burst<Lane, kAdd, 128>(a, b, y);
    case 256: return burst<Lane, kAdd, 256>(a, b, y);
    case 512: return burst<Lane, kAdd, 512>(a, b, y);
  }
  throw std::invalid_argument("fp_add_burst: bits = " + std::to_string(bits) +
                              " is not a burst width; allowed: 128, 256, 512");
}

}  // namespace

uint32_t fp16_add_host(uint32_t a, uint32_t b) { return add16(a, b); }
uint32_t bf16_add_host(uint32_t a, uint32_t b) { return addbf16(a, b); }
uint32_t fp32_add_host(uint32_t a, uint32_t b) { return add32(a, b); }

void fp_add_burst(uint32_t fmt, const Wide& a, const Wide& b, Wide& y, unsigned bits) {
  switch (fmt) {
    case 0: return burst<uint16_t, add16>(a, b, y, bits);
    case 1: return burst<uint16_t, addbf16>(a, b, y, bits);
    case 2: return burst<uint32_t, add32>(a, b, y, bits);
  }
  throw std::invalid_argument("fp_add_burst: fmt = " + std::to_string(fmt) +
                              " is out of range; allowed: 0 fp16, 1 bf16, 2 fp32");
}

void fp_lanes_check_host() {
  if (std::fegetround() != FE_TONEAREST)
    throw std::runtime_error(
        "near-bank ALU model: the host's floating-point rounding mode is not round to nearest "
        "(fesetround(FE_TONEAREST) before building the model)");
  // volatile: the compiler must not fold these at build time.
  // Compared as bits: under DAZ a float comparison would see the subnormal
  // expected value as zero too.
  volatile float min_normal = 0x1p-126f, half = 0.5f, tiny = 0x1p-149f;
  if (as_bits(min_normal * half) != 0x00400000u || as_bits(tiny + tiny) != 0x00000002u)
    throw std::runtime_error(
        "near-bank ALU model: the host flushes binary32 subnormals to zero (FTZ/DAZ, as code "
        "built with -ffast-math may set for the whole process); the model needs IEEE "
        "subnormals");
  // Two ties: 1 + 2^-24 goes down to 1, 1 + 3 * 2^-24 up to 1 + 2^-22
  // (both to the even neighbour; truncation or rounding up fails one).
  volatile float one = 1.0f, tie_down = 0x1p-24f, tie_up = 0x1.8p-23f;
  if (one + tie_down != 1.0f || one + tie_up != 1.0f + 0x1p-22f)
    throw std::runtime_error(
        "near-bank ALU model: the host's binary32 addition does not round to nearest even");
}

}  // namespace t3
