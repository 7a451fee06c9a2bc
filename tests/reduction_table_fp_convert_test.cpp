// The fp32 accumulator's conversions (hw/common/fp_convert.h, the reduction
// table's ACC32) against GNU MPFR: every fp16 and bf16 value widened to
// fp32, and fp32 values rounded to fp16 and bf16 (the edges, ties, the
// subnormal range, overflow, NaNs, and random patterns). rtl/fp_widen.sv and
// rtl/fp_narrow.sv are held to these functions by the reduction table's
// co-simulation (configuration small: ACC32 = 1) and its directed rounding
// case.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>

#include "common/fp_convert.h"

namespace t3 {
namespace {

// The value of a bit pattern of f, with MPFR: sign, exponent and fraction
// read off the fields (exact at 64 bits).
void decode(mpfr_t v, const FpFormat& f, uint32_t x) {
  const uint32_t sign = (x >> (f.exp_w + f.man_w)) & 1;
  const uint32_t exp = (x >> f.man_w) & ((1u << f.exp_w) - 1);
  const uint32_t frac = x & ((1u << f.man_w) - 1);
  if (exp == (1u << f.exp_w) - 1) {
    if (frac) mpfr_set_nan(v);
    else mpfr_set_inf(v, sign ? -1 : 1);
    return;
  }
  if (exp == 0 && frac == 0) {
    mpfr_set_zero(v, sign ? -1 : 1);
    return;
  }
  const uint64_t sig = exp ? (frac | (1u << f.man_w)) : frac;
  const long e = long(exp ? exp : 1) - f.bias() - long(f.man_w);
  mpfr_set_ui_2exp(v, sig, e, MPFR_RNDN);  // exact: 64 bits of precision
  if (sign) mpfr_neg(v, v, MPFR_RNDN);
}

// The pattern of f nearest to v (round to nearest even, with f's
// subnormals and overflow to inf, MPFR's emin/emax/subnormalize), every NaN
// the canonical one.
uint32_t encode(const FpFormat& f, const mpfr_t v) {
  const uint32_t exp_ones = (1u << f.exp_w) - 1;
  if (mpfr_nan_p(v)) return (exp_ones << f.man_w) | (1u << (f.man_w - 1));
  const uint32_t sign = mpfr_signbit(v) ? 1u << (f.exp_w + f.man_w) : 0;
  if (mpfr_inf_p(v)) return sign | (exp_ones << f.man_w);
  if (mpfr_zero_p(v)) return sign;
  const mpfr_exp_t emin_old = mpfr_get_emin(), emax_old = mpfr_get_emax();
  // MPFR's exponent e means a value in [2^(e-1), 2^e): the normal range of
  // f is e in [2 - bias, bias + 1], subnormals man_w below.
  mpfr_set_emin(2 - f.bias() - long(f.man_w));
  mpfr_set_emax(f.bias() + 1);
  mpfr_t r;
  mpfr_init2(r, f.man_w + 1);
  int t = mpfr_set(r, v, MPFR_RNDN);
  t = mpfr_check_range(r, t, MPFR_RNDN);
  mpfr_subnormalize(r, t, MPFR_RNDN);
  uint32_t bits;
  if (mpfr_inf_p(r)) {
    bits = sign | (exp_ones << f.man_w);
  } else if (mpfr_zero_p(r)) {
    bits = sign;
  } else {
    mpfr_t a;
    mpfr_init2(a, 64);
    mpfr_abs(a, r, MPFR_RNDN);
    const long e = mpfr_get_exp(a) - 1;  // a in [2^e, 2^(e+1))
    if (e >= 1 - f.bias()) {
      mpfr_mul_2si(a, a, long(f.man_w) - e, MPFR_RNDN);
      const uint64_t sig = mpfr_get_ui(a, MPFR_RNDN);
      bits = sign | uint32_t(e + f.bias()) << f.man_w | uint32_t(sig & ((1u << f.man_w) - 1));
    } else {
      mpfr_mul_2si(a, a, f.bias() - 1 + long(f.man_w), MPFR_RNDN);
      bits = sign | uint32_t(mpfr_get_ui(a, MPFR_RNDN));
    }
    mpfr_clear(a);
  }
  mpfr_clear(r);
  mpfr_set_emin(emin_old);
  mpfr_set_emax(emax_old);
  return bits;
}

TEST(FpConvert, EveryFp16AndBf16ValueWidensExactly) {
  mpfr_t v;
  mpfr_init2(v, 64);
  for (const FpFormat& f : {kFp16, kBf16}) {
    for (uint32_t x = 0; x < 0x10000; ++x) {
      decode(v, f, x);
      const uint32_t want = encode(kFp32, v);  // exact: fp32 holds every such value
      const uint32_t got = fp_widen(f, x);
      if (mpfr_nan_p(v)) {
        // A NaN stays a NaN, its sign and fraction moved up (not canonical).
        EXPECT_EQ(got & 0x7F800000u, 0x7F800000u) << std::hex << x;
        EXPECT_EQ(got, (x >> (f.exp_w + f.man_w)) << 31 | 0x7F800000u | (x & ((1u << f.man_w) - 1)) << (23 - f.man_w))
            << std::hex << x;
      } else {
        ASSERT_EQ(got, want) << "format " << f.exp_w << "/" << f.man_w << ", 0x" << std::hex << x;
      }
    }
  }
  mpfr_clear(v);
}

void check_narrow(uint32_t x, mpfr_t v) {
  decode(v, kFp32, x);
  for (const FpFormat& f : {kFp16, kBf16}) {
    const uint32_t want = encode(f, v), got = fp_narrow(f, x);
    ASSERT_EQ(got, want) << "fp32 0x" << std::hex << x << " to " << std::dec << f.exp_w << "/" << f.man_w;
  }
}

TEST(FpConvert, Fp32RoundsToFp16AndBf16AsMpfr) {
  mpfr_t v;
  mpfr_init2(v, 64);
  // Every exponent with the fraction's edges, halves and ties around each
  // format's rounding position, both signs.
  for (uint32_t s = 0; s < 2; ++s)
    for (uint32_t e = 0; e < 256; ++e)
      for (uint32_t frac : {0u, 1u, 0x7FFFFFu, 0x400000u, 0x1000u, 0x0FFFu, 0x1001u, 0x3000u, 0x2000u,
                            0x8000u, 0x7FFFu, 0x8001u, 0x18000u, 0x10000u, 0x7FE000u, 0x7FF000u,
                            0x7FFF00u, 0x7F8000u, 0x123456u})
        check_narrow(s << 31 | e << 23 | frac, v);
  std::mt19937_64 rng(20260);
  for (int i = 0; i < 2000000; ++i) {
    uint32_t x = uint32_t(rng());
    if (i % 4 == 1) x = (x & 0x807FFFFFu) | uint32_t(100 + rng() % 60) << 23;  // fp16's range
    if (i % 4 == 2) x &= ~0x0FFFu;  // near a tie of fp16
    check_narrow(x, v);
  }
  mpfr_clear(v);
}

TEST(FpConvert, WideningThenNarrowingIsTheIdentityButForNaNs) {
  for (const FpFormat& f : {kFp16, kBf16})
    for (uint32_t x = 0; x < 0x10000; ++x) {
      const bool nan = ((x >> f.man_w) & ((1u << f.exp_w) - 1)) == (1u << f.exp_w) - 1 &&
                       (x & ((1u << f.man_w) - 1)) != 0;
      const uint32_t back = fp_narrow(f, fp_widen(f, x));
      if (nan) EXPECT_EQ(back, fp_canonical_nan(f)) << std::hex << x;
      else ASSERT_EQ(back, x) << std::hex << x;
    }
}

}  // namespace
}  // namespace t3
