// IEEE 754-2008 addition on bit patterns; see fp_add.h for the semantics.
//
// The steps follow rtl/fp_add.sv stage by stage, so that a mismatch between
// the two points at one stage:
//   1. unpack, classify, compare the magnitudes, both exponent differences;
//   2. order by magnitude, align the smaller operand with guard, round and
//      sticky bits (the RTL's stages 1 and 2 are one step here);
//   3. add or subtract the significands, count leading zeros (capped so that
//      the result never goes below the subnormal exponent);
//   4. normalize, round to nearest even, pack, handle inf/NaN/zero/overflow.
#include "common/fp_add.h"

#include <stdexcept>
#include <string>

namespace t3 {
namespace {

// Three bits below the significand: guard and round bits survive the at most
// two-place left shift an effective subtraction with an exponent difference
// >= 2 needs; the lowest collects everything shifted out (sticky). With an
// exponent difference <= 1 nothing is shifted out, so no information is lost
// before a longer normalization shift.
constexpr unsigned kGrs = 3;

[[noreturn]] void bad_field(const char* name, unsigned value, unsigned lo, unsigned hi) {
  throw std::invalid_argument(std::string("FpFormat.") + name + " = " + std::to_string(value) +
                              " is out of range; allowed: " + std::to_string(lo) + ".." +
                              std::to_string(hi));
}

// Leading zeros of v | 1: callers replace the result of a zero sum anyway,
// and the OR spares the zero test that would otherwise be a branch.
inline unsigned leading_zeros32_or1(uint32_t v) {
  v |= 1;
#if defined(__GNUC__) || defined(__clang__)
  return unsigned(__builtin_clz(v));
#else
  unsigned n = 0;
  for (uint32_t bit = 0x80000000u; !(v & bit); bit >>= 1) ++n;
  return n;
#endif
}

}  // namespace

void check(const FpFormat& f) {
  if (f.exp_w < kFpExpWMin || f.exp_w > kFpExpWMax)
    bad_field("exp_w", f.exp_w, kFpExpWMin, kFpExpWMax);
  if (f.man_w < kFpManWMin || f.man_w > kFpManWMax)
    bad_field("man_w", f.man_w, kFpManWMin, kFpManWMax);
}

uint32_t fp_canonical_nan(const FpFormat& f) {
  check(f);
  return ((((1u << f.exp_w) - 1) << f.man_w) | (1u << (f.man_w - 1)));
}

uint32_t fp_add(const FpFormat& f, uint32_t a, uint32_t b) {
  // One unsigned compare per field (wrap-around) keeps the hot path to two
  // well-predicted branches; check() builds the message only when it fails.
  if (f.exp_w - kFpExpWMin > kFpExpWMax - kFpExpWMin ||
      f.man_w - kFpManWMin > kFpManWMax - kFpManWMin)
    check(f);

  const unsigned man_w = f.man_w;
  const unsigned mag_w = f.exp_w + man_w;
  const uint32_t mag_mask = (1u << mag_w) - 1;
  const uint32_t frac_mask = (1u << man_w) - 1;
  const uint32_t inf_mag = mag_mask & ~frac_mask;
  const unsigned ext_w = man_w + 1 + kGrs;  // aligned significand
  const unsigned sum_w = ext_w + 1;         // plus the carry of an addition

  // ---- Stages 1-2: order by magnitude so that the difference is never negative.
  const uint32_t mag_a = a & mag_mask, mag_b = b & mag_mask;
  const uint32_t sign_a = (a >> mag_w) & 1, sign_b = (b >> mag_w) & 1;
  const uint32_t swap = mag_b > mag_a;
  // Selects written as masks: the order of random operands is a coin toss,
  // which a branch would mispredict half the time.
  const uint32_t swap_mask = 0u - swap;
  const uint32_t mag_x = mag_a ^ ((mag_a ^ mag_b) & swap_mask);
  const uint32_t mag_y = mag_a ^ mag_b ^ mag_x;
  const uint32_t sub = sign_a ^ sign_b;
  const uint32_t sign_x = sign_a ^ (sub & swap);

  // x is the larger magnitude, so a NaN anywhere shows up in x; an inf in y
  // means both are inf.
  const uint32_t nan = uint32_t(mag_x > inf_mag) | (uint32_t(mag_y == inf_mag) & sub);
  const uint32_t inf = mag_x == inf_mag;

  // Subnormals (exponent field 0) share the scale of exponent field 1 and
  // have no implicit leading 1.
  const uint32_t exp_x = mag_x >> man_w, exp_y = mag_y >> man_w;
  const uint32_t eff_x = exp_x | (exp_x == 0), eff_y = exp_y | (exp_y == 0);
  const uint32_t sig_x = (mag_x & frac_mask) | (uint32_t(exp_x != 0) << man_w);
  const uint32_t sig_y = (mag_y & frac_mask) | (uint32_t(exp_y != 0) << man_w);

  // Beyond ext_w places every bit of y is below the sticky position.
  const uint32_t diff = eff_x - eff_y;
  const unsigned shamt = diff > ext_w ? ext_w : diff;
  const uint32_t ext_y = sig_y << kGrs;
  const uint32_t lost = ext_y & ((1u << shamt) - 1);
  const uint32_t al_y = (ext_y >> shamt) | uint32_t(lost != 0);

  // ---- Stage 3: |x| >= |y|, so the difference is never negative.
  const uint32_t ext_x = sig_x << kGrs;
  const uint32_t sum = sub ? ext_x - al_y : ext_x + al_y;
  // The exponent may not drop below that of the subnormals: stop the
  // normalization shift at eff_x (exponent field 1, or 0 without the
  // implicit bit). A zero sum is replaced as a whole in stage 4.
  const unsigned lz = leading_zeros32_or1(sum) - (32 - sum_w);
  const unsigned sh = lz < eff_x ? lz : eff_x;

  // ---- Stage 4: the significand is normalized to sum_w bits; the kept bits
  // are [sum_w-1:kGrs+1], bit kGrs is the round bit, the rest is sticky.
  const uint32_t norm = sum << sh;  // sh <= lz: stays within sum_w bits
  const uint32_t kept = norm >> (kGrs + 1);
  const uint32_t round_bit = (norm >> kGrs) & 1;
  const uint32_t sticky = (norm & ((1u << kGrs) - 1)) != 0;
  const uint32_t round_up = round_bit & (sticky | (kept & 1));  // ties to even
  // The implicit bit of `kept` adds 1 to the exponent field: a normalized
  // result gets eff_x + 1 - sh, a subnormal one (implicit bit 0, sh = eff_x)
  // gets 0. The rounding increment carries into the exponent the same way,
  // from the largest subnormal to the smallest normal and from the largest
  // finite value to inf.
  const uint32_t mag = ((eff_x - sh) << man_w) + kept + round_up;
  // RNE overflows to inf (IEEE 754-2008 §7.4).
  const uint32_t overflow = mag >= inf_mag;

  uint32_t y = (sign_x << mag_w) | mag;
  // IEEE 754-2008 §6.3: an exact zero sum of opposite-signed operands is +0
  // in round-to-nearest; (-0) + (-0) keeps its sign.
  y = sum == 0 ? ((sign_a & sign_b) << mag_w) : y;
  y = (inf | overflow) ? ((sign_x << mag_w) | inf_mag) : y;
  y = nan ? (inf_mag | (1u << (man_w - 1))) : y;
  return y;
}

}  // namespace t3
