// MPFR reference and operand generators; see fp_reference.h.
#include "fp_reference.h"

#include <mpfr.h>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace t3::tb {
namespace {

// Validates before any field is derived: an unsupported width would make the
// shifts below undefined.
const FpFormat& checked(const FpFormat& f) {
  check(f);
  return f;
}

// The format's fields, derived here rather than taken from fp_add.cpp.
struct Fields {
  unsigned e, m;        // exponent and fraction widths
  long bias;
  uint32_t exp_ones;    // exponent field of inf and NaN
  uint32_t frac_mask;
  uint32_t width_mask;

  explicit Fields(const FpFormat& f)
      : e(checked(f).exp_w), m(f.man_w), bias((1L << (f.exp_w - 1)) - 1),
        exp_ones((1u << f.exp_w) - 1), frac_mask((1u << f.man_w) - 1),
        width_mask(f.exp_w + f.man_w + 1 == 32 ? ~0u : (1u << (f.exp_w + f.man_w + 1)) - 1) {}
  uint32_t pack(uint32_t sign, uint32_t exp, uint32_t frac) const {
    return (sign << (e + m)) | (exp << m) | frac;
  }
  uint32_t sign(uint32_t v) const { return (v >> (e + m)) & 1; }
  uint32_t exp(uint32_t v) const { return (v >> m) & exp_ones; }
  uint32_t frac(uint32_t v) const { return v & frac_mask; }
  uint32_t max_finite_exp() const { return exp_ones - 1; }
  uint32_t inf(uint32_t sign) const { return pack(sign, exp_ones, 0); }
  uint32_t qnan() const { return pack(0, exp_ones, 1u << (m - 1)); }
  // The value 2^k with sign s if the format holds it exactly, else nothing.
  bool pow2(long k, uint32_t s, uint32_t* out) const {
    const long field = k + bias;
    if (field >= 1 && field <= long(max_finite_exp())) {
      *out = pack(s, uint32_t(field), 0);
      return true;
    }
    const long sub_bit = k + bias - 1 + long(m);  // subnormal: frac * 2^(1-bias-m)
    if (field < 1 && sub_bit >= 0) {
      *out = pack(s, 0, 1u << sub_bit);
      return true;
    }
    return false;
  }
};

// Working variables, reused across calls: mpfr_init2/mpfr_clear per call
// would cost more than the addition.
struct Scratch {
  mpfr_t a, b, s, t;
  Scratch() {
    mpfr_inits2(64, a, b, s, t, static_cast<mpfr_ptr>(nullptr));
  }
  ~Scratch() { mpfr_clears(a, b, s, t, static_cast<mpfr_ptr>(nullptr)); }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
};

Scratch& scratch() {
  static thread_local Scratch s;
  return s;
}

// Sets MPFR's exponent range for one computation and restores the caller's.
class ExpRange {
 public:
  ExpRange(mpfr_exp_t emin, mpfr_exp_t emax) : emin_(mpfr_get_emin()), emax_(mpfr_get_emax()) {
    if (mpfr_set_emin(emin) != 0 || mpfr_set_emax(emax) != 0)
      throw std::logic_error("fp_reference: MPFR refused the exponent range");
  }
  ~ExpRange() {
    mpfr_set_emin(emin_);
    mpfr_set_emax(emax_);
  }
  ExpRange(const ExpRange&) = delete;
  ExpRange& operator=(const ExpRange&) = delete;

 private:
  mpfr_exp_t emin_, emax_;
};

// MPFR's exponent convention is x = m * 2^e with 0.5 <= m < 1: the largest
// finite value (2 - 2^-m) * 2^bias has e = bias + 1; the smallest subnormal
// 2^(1 - bias - m) = 0.5 * 2^(2 - bias - m) has e = (1 - bias) - p + 2.
mpfr_exp_t mpfr_emax_of(const Fields& fl) { return fl.bias + 1; }
mpfr_exp_t mpfr_emin_of(const Fields& fl) { return (1 - fl.bias) - long(fl.m + 1) + 2; }

// Exact value of bit pattern v (precision p = m + 1 holds every value).
void decode(const Fields& fl, uint32_t v, mpfr_ptr x) {
  const uint32_t s = fl.sign(v), ex = fl.exp(v), fr = fl.frac(v);
  if (ex == fl.exp_ones) {
    if (fr != 0)
      mpfr_set_nan(x);
    else
      mpfr_set_inf(x, s ? -1 : 1);
    return;
  }
  if (ex == 0 && fr == 0) {
    mpfr_set_zero(x, s ? -1 : 1);
    return;
  }
  // Normal: (2^m + frac) * 2^(ex - bias - m); subnormal: frac * 2^(1 - bias - m).
  const unsigned long sig = ex == 0 ? fr : ((1ul << fl.m) | fr);
  const long scale = (ex == 0 ? 1L : long(ex)) - fl.bias - long(fl.m);
  if (mpfr_set_ui_2exp(x, sig, scale, MPFR_RNDN) != 0)
    throw std::logic_error("fp_reference: operand not exact in MPFR");
  if (s) mpfr_neg(x, x, MPFR_RNDN);
}

[[noreturn]] void encode_fail(const char* why) {
  throw std::logic_error(std::string("fp_reference: cannot encode the MPFR result: ") + why);
}

// Bit pattern of x, which must be representable in the format. Runs in the
// widest exponent range, so the scalings below are exact.
uint32_t encode(const Fields& fl, mpfr_srcptr x, mpfr_ptr tmp) {
  if (mpfr_nan_p(x)) return fl.qnan();
  const uint32_t s = mpfr_signbit(x) ? 1 : 0;
  if (mpfr_inf_p(x)) return fl.inf(s);
  if (mpfr_zero_p(x)) return fl.pack(s, 0, 0);
  // x = m * 2^e, 0.5 <= m < 1: its IEEE exponent is e - 1.
  const long unb = long(mpfr_get_exp(x)) - 1;
  const bool normal = unb >= 1 - fl.bias;
  // Significand as an integer: x * 2^(m - unb), or for a subnormal
  // x * 2^(bias - 1 + m).
  const long scale = normal ? long(fl.m) - unb : fl.bias - 1 + long(fl.m);
  mpfr_set_prec(tmp, mpfr_get_prec(x));
  mpfr_mul_2si(tmp, x, scale, MPFR_RNDN);
  mpfr_abs(tmp, tmp, MPFR_RNDN);
  if (!mpfr_integer_p(tmp) || !mpfr_fits_ulong_p(tmp, MPFR_RNDN)) encode_fail("not on the grid");
  const unsigned long sig = mpfr_get_ui(tmp, MPFR_RNDN);
  if (normal) {
    const long field = unb + fl.bias;
    if (field > long(fl.max_finite_exp())) encode_fail("exponent above the largest finite");
    if (sig < (1ul << fl.m) || sig >= (2ul << fl.m)) encode_fail("significand not normalized");
    return fl.pack(s, uint32_t(field), uint32_t(sig) & fl.frac_mask);
  }
  if (sig == 0 || sig >= (1ul << fl.m)) encode_fail("subnormal significand out of range");
  return fl.pack(s, 0, uint32_t(sig));
}

// Rounds a + b into s at precision p in exponent range [emin, emax] the way
// an IEEE format with subnormals does; returns MPFR's ternary value.
int add_rounded(mpfr_ptr s, mpfr_srcptr a, mpfr_srcptr b, mpfr_prec_t p, mpfr_exp_t emin,
                mpfr_exp_t emax) {
  ExpRange range(emin, emax);
  mpfr_set_prec(s, p);
  int t = mpfr_add(s, a, b, MPFR_RNDN);
  t = mpfr_check_range(s, t, MPFR_RNDN);
  return mpfr_subnormalize(s, t, MPFR_RNDN);
}

MpfrSum add_info(const FpFormat& f, uint32_t a, uint32_t b, bool want_tie) {
  const Fields fl(f);
  // Decoding and encoding scale by powers of two: whatever range the caller
  // left MPFR in, do that in the widest one.
  ExpRange wide(mpfr_get_emin_min(), mpfr_get_emax_max());
  Scratch& w = scratch();
  const mpfr_prec_t p = mpfr_prec_t(fl.m) + 1;
  mpfr_set_prec(w.a, p);
  mpfr_set_prec(w.b, p);
  decode(fl, a & fl.width_mask, w.a);
  decode(fl, b & fl.width_mask, w.b);

  MpfrSum r;
  const mpfr_exp_t emin = mpfr_emin_of(fl), emax = mpfr_emax_of(fl);
  const int t = add_rounded(w.s, w.a, w.b, p, emin, emax);
  r.bits = encode(fl, w.s, w.t);
  r.inexact = t != 0;
  r.overflow = mpfr_inf_p(w.s) && mpfr_number_p(w.a) && mpfr_number_p(w.b);
  if (want_tie && r.inexact) {
    // A tie is exactly representable on the grid with twice the resolution:
    // one more significand bit, and a subnormal step half as large (the
    // range top already holds the midpoint above the largest finite value).
    r.tie = add_rounded(w.t, w.a, w.b, p + 1, emin - 1, emax) == 0;
  }
  return r;
}

uint32_t draw(std::mt19937_64& rng, uint32_t lo, uint32_t hi) {  // inclusive
  return lo + uint32_t(rng() % (uint64_t(hi) - lo + 1));
}

uint32_t bits(std::mt19937_64& rng, unsigned n) {
  return n == 0 ? 0 : uint32_t(rng()) & (n >= 32 ? ~0u : (1u << n) - 1);
}

// Fraction bits, either uniform or with only a few low bits set or clear:
// sparse patterns reach the guard and sticky positions more often. (Every
// draw is its own statement: the order in which C++ evaluates operands and
// arguments is unspecified, and a seed must give the same pairs everywhere.)
uint32_t fraction(const Fields& fl, std::mt19937_64& rng) {
  const uint64_t kind = rng() % 4;
  const uint32_t r = bits(rng, fl.m);
  const uint32_t low = draw(rng, 0, fl.m);
  const uint32_t sparse = r & bits(rng, low);
  switch (kind) {
    case 0: return sparse;
    case 1: return fl.frac_mask & ~sparse;
    default: return r;
  }
}

// A finite operand with the given exponent field, random sign and fraction.
uint32_t operand(const Fields& fl, std::mt19937_64& rng, uint32_t exp) {
  const uint32_t s = bits(rng, 1);
  const uint32_t fr = fraction(fl, rng);
  return fl.pack(s, exp, fr);
}

}  // namespace

uint32_t ref_canonical_nan(const FpFormat& f) { return Fields(f).qnan(); }

MpfrSum mpfr_add_info(const FpFormat& f, uint32_t a, uint32_t b) {
  return add_info(f, a, b, true);
}

uint32_t mpfr_add_bits(const FpFormat& f, uint32_t a, uint32_t b) {
  return add_info(f, a, b, false).bits;
}

std::vector<uint32_t> fp_edge_values(const FpFormat& f) {
  const Fields fl(f);
  const uint32_t one_exp = uint32_t(fl.bias);
  const uint32_t maxe = fl.max_finite_exp();
  std::vector<uint32_t> v;
  for (uint32_t s = 0; s < 2; ++s) {
    v.push_back(fl.pack(s, 0, 0));                     // zero
    v.push_back(fl.pack(s, 0, 1));                     // smallest subnormal
    v.push_back(fl.pack(s, 0, std::min(2u, fl.frac_mask)));
    v.push_back(fl.pack(s, 0, fl.frac_mask));          // largest subnormal
    v.push_back(fl.pack(s, 0, fl.frac_mask - 1));
    v.push_back(fl.pack(s, 1, 0));                     // smallest normal
    v.push_back(fl.pack(s, 1, 1));
    v.push_back(fl.pack(s, one_exp, 0));               // 1.0
    v.push_back(fl.pack(s, one_exp, 1));               // 1.0 + ulp
    v.push_back(fl.pack(s, one_exp - 1, fl.frac_mask));  // largest below 1.0
    v.push_back(fl.pack(s, one_exp, 1u << (fl.m - 1)));  // 1.5
    if (one_exp + 1 <= maxe) v.push_back(fl.pack(s, one_exp + 1, 0));  // 2.0
    v.push_back(fl.pack(s, maxe, fl.frac_mask));       // largest finite
    v.push_back(fl.pack(s, maxe, fl.frac_mask - 1));
    v.push_back(fl.pack(s, maxe, 0));
    uint32_t p2;
    // Half an ulp of 1.0 (1 + it is a tie), and a quarter and half of that.
    for (long k = -long(fl.m) - 3; k <= -long(fl.m) - 1; ++k)
      if (fl.pow2(k, s, &p2)) v.push_back(p2);
    // Half an ulp of the largest finite value: their sum is the overflow tie.
    if (fl.pow2(long(maxe) - fl.bias - long(fl.m) - 1, s, &p2)) v.push_back(p2);
    v.push_back(fl.inf(s));
    v.push_back(fl.pack(s, fl.exp_ones, 1u << (fl.m - 1)));      // quiet NaN
    v.push_back(fl.pack(s, fl.exp_ones, fl.frac_mask));          // quiet, all payload
    v.push_back(fl.pack(s, fl.exp_ones, (1u << (fl.m - 1)) | 1));
    if (fl.m >= 2) {  // a signalling NaN needs a payload besides the quiet bit
      v.push_back(fl.pack(s, fl.exp_ones, 1));
      v.push_back(fl.pack(s, fl.exp_ones, fl.frac_mask >> 1));
    }
  }
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

const char* to_string(OperandClass c) {
  switch (c) {
    case OperandClass::uniform: return "uniform";
    case OperandClass::cancel: return "cancel";
    case OperandClass::align: return "align";
    case OperandClass::tie: return "tie";
    case OperandClass::overflow: return "overflow";
    case OperandClass::sub_sub: return "sub_sub";
    case OperandClass::sub_normal: return "sub_normal";
  }
  return "?";
}

OperandPair fp_random_pair(const FpFormat& f, std::mt19937_64& rng) {
  return fp_random_pair(f, rng, OperandClass(rng() % kOperandClasses));
}

OperandPair fp_random_pair(const FpFormat& f, std::mt19937_64& rng, OperandClass c) {
  const Fields fl(f);
  const uint32_t maxe = fl.max_finite_exp();
  const uint32_t mag_mask = (1u << (fl.e + fl.m)) - 1;
  const uint32_t max_finite_mag = (maxe << fl.m) | fl.frac_mask;
  uint32_t a = 0, b = 0;
  switch (c) {
    case OperandClass::uniform:
      a = bits(rng, fl.e + fl.m + 1);
      b = bits(rng, fl.e + fl.m + 1);
      break;

    case OperandClass::cancel: {
      const uint32_t sa = bits(rng, 1);
      const bool near_binade = rng() % 2;
      const uint32_t ea = draw(rng, 1, maxe);
      // Just above a power of two, b lands below it: the exponents differ
      // by one and still nearly everything cancels.
      const uint32_t fa = near_binade ? bits(rng, std::min(3u, fl.m)) : fraction(fl, rng);
      const uint32_t ma = fl.pack(0, ea, fa);
      const int64_t delta = int64_t(draw(rng, 0, 32)) - 16;
      const int64_t mb = std::clamp<int64_t>(int64_t(ma) + delta, 0, max_finite_mag);
      a = fl.pack(sa, 0, 0) | ma;
      b = fl.pack(sa ^ 1, 0, 0) | uint32_t(mb);
      break;
    }

    case OperandClass::align: {
      // Exponent differences from man_w - 1 to man_w + 5 put the smaller
      // operand's bits across the guard, round and sticky positions.
      const uint32_t ea = draw(rng, 1, maxe);
      const long d = long(draw(rng, fl.m - 1, fl.m + 5));
      const long eb = long(ea) - d;
      a = operand(fl, rng, ea);
      b = operand(fl, rng, eb >= 1 ? uint32_t(eb) : 0);
      break;
    }

    case OperandClass::tie: {
      // b's bits below a's ulp are exactly 100..0. With a distance d >= 1 the
      // sum is a tie unless it carries into (or, subtracting, borrows from)
      // the next binade; with d = 0 and equal signs the sum carries one
      // place, and a fraction LSB that differs makes it a tie.
      const uint32_t dmax = std::min<uint32_t>(fl.m + 1, maxe - 1);
      const uint32_t d = draw(rng, 0, dmax);
      const uint32_t ea = draw(rng, d + 1, maxe);
      const uint32_t fa = fraction(fl, rng);
      uint32_t fb = fraction(fl, rng);
      const uint32_t sa = bits(rng, 1);
      uint32_t sb = bits(rng, 1);
      if (d == 0) {
        fb = (fb & ~1u) | ((fa & 1) ^ 1);
        sb = sa;
      } else {
        const uint32_t sig_b = ((1u << fl.m) | fb) & ~((1u << d) - 1);
        fb = (sig_b | (1u << (d - 1))) & fl.frac_mask;
      }
      a = fl.pack(sa, ea, fa);
      b = fl.pack(sb, ea - d, fb);
      if (rng() % 2) std::swap(a, b);
      break;
    }

    case OperandClass::overflow: {
      const uint32_t s = bits(rng, 1);
      if (rng() % 4 == 0) {
        // The largest finite value plus about half its ulp: the exact
        // boundary between rounding down to it and overflowing to inf.
        a = fl.pack(s, maxe, fl.frac_mask);
        uint32_t half_ulp = 0;
        const long k = long(maxe) - fl.bias - long(fl.m) - 1;
        if (!fl.pow2(k, s, &half_ulp)) half_ulp = fl.pack(s, 0, 1);
        const int64_t nudge = int64_t(draw(rng, 0, 2)) - 1;
        const int64_t mb =
            std::clamp<int64_t>(int64_t(half_ulp & mag_mask) + nudge, 0, max_finite_mag);
        b = fl.pack(s, 0, 0) | uint32_t(mb);
      } else {
        // Both near the top binade, b mostly within two binades of a.
        // Fractions biased towards all ones, near the largest finite value.
        const uint32_t fa0 = fraction(fl, rng);
        const uint32_t fa = fa0 | bits(rng, fl.m);
        const bool close = rng() % 2;
        const uint32_t eb_lo = maxe > fl.m + 2 ? maxe - (fl.m + 2) : 1;
        const uint32_t eb =
            close ? maxe - std::min(maxe - 1, draw(rng, 0, 1)) : draw(rng, eb_lo, maxe);
        const uint32_t fb = fraction(fl, rng);
        a = fl.pack(s, maxe, fa);
        b = fl.pack(s, eb, fb);
      }
      if (rng() % 2) std::swap(a, b);
      break;
    }

    case OperandClass::sub_sub:
      a = operand(fl, rng, 0);
      b = operand(fl, rng, 0);
      break;

    case OperandClass::sub_normal: {
      a = operand(fl, rng, 0);
      const uint32_t eb = draw(rng, 1, std::min(maxe, fl.m + 3));
      b = operand(fl, rng, eb);
      if (rng() % 2) std::swap(a, b);
      break;
    }
  }
  return {a, b, c};
}

}  // namespace t3::tb
