// The near-bank ALU's IEEE 754 adder (hw/common/fp_add.h) against the
// GNU MPFR reference (testbench/common/fp_reference.h): special
// values, random operands aimed at rounding corners, exhaustive sweeps of the
// 16-bit formats and of small formats, and the explicit IEEE rules.
//
// T3_FP_SEED in the environment replaces the default seed of the random tests.
#include <gtest/gtest.h>
#include <mpfr.h>

#include <array>
#include <cfenv>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "common/fp_add.h"
#include "common/fp_lanes.h"

#if defined(__SSE__)
#include <xmmintrin.h>
#endif
#include "fp_reference.h"

namespace t3 {
namespace {

using tb::OperandClass;

constexpr uint64_t kDefaultSeed = 0x7333a1b2c3d4e5f6ull;
constexpr unsigned kRandomPairs = 2'000'000;  // per format
constexpr unsigned kMaxReported = 8;          // mismatches printed per test

uint64_t seed() {
  const char* s = std::getenv("T3_FP_SEED");
  return s ? std::strtoull(s, nullptr, 0) : kDefaultSeed;
}

std::string hex(const FpFormat& f, uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%0*" PRIx32, int((f.width() + 3) / 4), v);
  return buf;
}

std::string name(const FpFormat& f) {
  return "E" + std::to_string(f.exp_w) + "M" + std::to_string(f.man_w);
}

// The cycle model's host-FPU adder (fp_lanes.h) for the three formats it
// serves; nullptr for any other format.
uint32_t (*host_adder(const FpFormat& f))(uint32_t, uint32_t) {
  if (f.exp_w == kFp16.exp_w && f.man_w == kFp16.man_w) return fp16_add_host;
  if (f.exp_w == kBf16.exp_w && f.man_w == kBf16.man_w) return bf16_add_host;
  if (f.exp_w == kFp32.exp_w && f.man_w == kFp32.man_w) return fp32_add_host;
  return nullptr;
}

// fp_add, and the host-FPU adder where the format has one, agree with MPFR
// on a + b; the message says what each returned.
::testing::AssertionResult agrees(const FpFormat& f, uint32_t a, uint32_t b) {
  const uint32_t got = fp_add(f, a, b);
  const uint32_t want = tb::mpfr_add_bits(f, a, b);
  const auto host = host_adder(f);
  const uint32_t got_host = host ? host(a, b) : want;
  if (got == want && got_host == want) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << name(f) << ": " << hex(f, a) << " + " << hex(f, b)
                                       << ": fp_add " << hex(f, got) << ", host FPU lanes "
                                       << hex(f, got_host) << ", MPFR " << hex(f, want);
}

// Counts and reports the first few mismatches of a long sweep.
struct Mismatches {
  unsigned count = 0;
  void check(const FpFormat& f, uint32_t a, uint32_t b, const std::string& context) {
    const ::testing::AssertionResult r = agrees(f, a, b);
    if (!r && ++count <= kMaxReported) ADD_FAILURE() << r.message() << " (" << context << ")";
  }
  ~Mismatches() {
    if (count > kMaxReported) ADD_FAILURE() << count << " mismatches in all";
  }
};

struct NamedFormat {
  const char* name;
  FpFormat f;
};

class FpAdd : public ::testing::TestWithParam<NamedFormat> {};

INSTANTIATE_TEST_SUITE_P(Formats, FpAdd,
                         ::testing::Values(NamedFormat{"fp16", kFp16}, NamedFormat{"bf16", kBf16},
                                           NamedFormat{"fp32", kFp32}),
                         [](const ::testing::TestParamInfo<NamedFormat>& i) {
                           return std::string(i.param.name);
                         });

// The 16-bit formats, small enough to sweep every first operand.
class FpAdd16 : public ::testing::TestWithParam<NamedFormat> {};

INSTANTIATE_TEST_SUITE_P(Formats, FpAdd16,
                         ::testing::Values(NamedFormat{"fp16", kFp16}, NamedFormat{"bf16", kBf16}),
                         [](const ::testing::TestParamInfo<NamedFormat>& i) {
                           return std::string(i.param.name);
                         });

TEST_P(FpAdd, EveryPairOfEdgeValues) {
  const FpFormat f = GetParam().f;
  const std::vector<uint32_t> edges = tb::fp_edge_values(f);
  ASSERT_GE(edges.size(), 40u);
  Mismatches m;
  for (uint32_t a : edges)
    for (uint32_t b : edges) m.check(f, a, b, "edge values");
  EXPECT_EQ(m.count, 0u);
}

// Bits of a result, for telling what a random pair reached.
struct Decoded {
  uint32_t exp, frac;
  Decoded(const FpFormat& f, uint32_t v)
      : exp((v >> f.man_w) & ((1u << f.exp_w) - 1)), frac(v & ((1u << f.man_w) - 1)) {}
  bool subnormal() const { return exp == 0 && frac != 0; }
  bool zero() const { return exp == 0 && frac == 0; }
};

TEST_P(FpAdd, RandomPairsFromEveryClass) {
  const FpFormat f = GetParam().f;
  const uint64_t s = seed();
  SCOPED_TRACE("seed " + std::to_string(s) + " (set T3_FP_SEED to repeat)");
  std::mt19937_64 rng(s);

  struct Hits {
    unsigned drawn = 0, inexact = 0, ties = 0, overflows = 0, cancelled = 0, subnormal = 0;
  };
  std::array<Hits, tb::kOperandClasses> hits{};
  const auto host = host_adder(f);
  ASSERT_NE(host, nullptr);
  Mismatches m;
  for (unsigned i = 0; i < kRandomPairs; ++i) {
    const tb::OperandPair p = tb::fp_random_pair(f, rng);
    const tb::MpfrSum ref = tb::mpfr_add_info(f, p.a, p.b);
    const uint32_t got = fp_add(f, p.a, p.b);
    const uint32_t got_host = host(p.a, p.b);
    if ((got != ref.bits || got_host != ref.bits) && ++m.count <= kMaxReported)
      ADD_FAILURE() << name(f) << ": " << hex(f, p.a) << " + " << hex(f, p.b) << " (class "
                    << tb::to_string(p.cls) << ", pair " << i << "): fp_add " << hex(f, got)
                    << ", host FPU lanes " << hex(f, got_host) << ", MPFR " << hex(f, ref.bits);
    Hits& h = hits[unsigned(p.cls)];
    const Decoded da(f, p.a), db(f, p.b), dy(f, ref.bits);
    ++h.drawn;
    h.inexact += ref.inexact;
    h.ties += ref.tie;
    h.overflows += ref.overflow;
    h.subnormal += dy.subnormal();
    // At least two binades lost to cancellation (or an exact zero).
    const uint32_t emax_in = std::max(da.exp, db.exp);
    h.cancelled += ((p.a ^ p.b) >> (f.width() - 1)) && !ref.overflow &&
                   (dy.zero() || dy.exp + 2 <= emax_in);
  }
  EXPECT_EQ(m.count, 0u);

  std::printf("%-5s %-10s %8s %8s %8s %8s %8s %8s\n", GetParam().name, "class", "drawn",
              "inexact", "ties", "overflow", "cancel", "subnorm");
  for (unsigned c = 0; c < tb::kOperandClasses; ++c) {
    const Hits& h = hits[c];
    std::printf("%-5s %-10s %8u %8u %8u %8u %8u %8u\n", GetParam().name,
                tb::to_string(OperandClass(c)), h.drawn, h.inexact, h.ties, h.overflows,
                h.cancelled, h.subnormal);
  }
  // Each class reaches the corner it is for, often.
  auto at_least = [&](OperandClass c, unsigned Hits::*field, double share) {
    const Hits& h = hits[unsigned(c)];
    EXPECT_GE(h.*field, unsigned(share * h.drawn))
        << "class " << tb::to_string(c) << " misses its corner";
  };
  const unsigned per_class = kRandomPairs / tb::kOperandClasses;
  for (const Hits& h : hits) EXPECT_GT(h.drawn, per_class * 9 / 10);
  at_least(OperandClass::tie, &Hits::ties, 0.5);
  at_least(OperandClass::overflow, &Hits::overflows, 0.3);
  at_least(OperandClass::cancel, &Hits::cancelled, 0.5);
  at_least(OperandClass::align, &Hits::inexact, 0.5);
  at_least(OperandClass::sub_sub, &Hits::subnormal, 0.3);
  at_least(OperandClass::sub_normal, &Hits::inexact, 0.1);
  // IEEE 754: the sum of two subnormals is always exact.
  EXPECT_EQ(hits[unsigned(OperandClass::sub_sub)].inexact, 0u);
}

// Every a against the edge values and random b.
TEST_P(FpAdd16, EveryFirstOperandAgainstSelectedSeconds) {
  const FpFormat f = GetParam().f;
  const uint64_t s = seed();
  SCOPED_TRACE("seed " + std::to_string(s) + " (set T3_FP_SEED to repeat)");
  std::mt19937_64 rng(s ^ 0x5eed);
  std::vector<uint32_t> bs = tb::fp_edge_values(f);
  for (unsigned i = 0; i < 160; ++i) bs.push_back(tb::fp_random_pair(f, rng).b);
  ASSERT_GE(bs.size(), 200u);
  Mismatches m;
  for (uint32_t b : bs)
    for (uint32_t a = 0; a < (1u << f.width()); ++a) m.check(f, a, b, "sweep of a");
  EXPECT_EQ(m.count, 0u);
}

TEST_P(FpAdd16, HigherBitsOfTheOperandsAreIgnored) {
  const FpFormat f = GetParam().f;
  std::mt19937_64 rng(seed());
  for (unsigned i = 0; i < 10000; ++i) {
    const tb::OperandPair p = tb::fp_random_pair(f, rng);
    const uint32_t junk_a = uint32_t(rng()) << f.width(), junk_b = uint32_t(rng()) << f.width();
    const uint32_t y = fp_add(f, p.a | junk_a, p.b | junk_b);
    ASSERT_EQ(y, fp_add(f, p.a, p.b)) << hex(f, p.a) << " + " << hex(f, p.b);
    ASSERT_EQ(y >> f.width(), 0u);
    ASSERT_EQ(tb::mpfr_add_bits(f, p.a | junk_a, p.b | junk_b), y);
    ASSERT_EQ(host_adder(f)(p.a | junk_a, p.b | junk_b), y);
  }
}

// The rules spelled out in fp_add.h, as named cases (values in each format).
TEST_P(FpAdd, NanPolicyInfinitiesAndSignedZeros) {
  const FpFormat f = GetParam().f;
  const unsigned mw = f.man_w, top = f.exp_w + f.man_w;
  const uint32_t sign = 1u << top;
  const uint32_t inf = ((1u << f.exp_w) - 1) << mw;
  const uint32_t qnan = inf | (1u << (mw - 1));
  const uint32_t one = uint32_t(f.bias()) << mw;
  const uint32_t max_finite = inf - 1;
  const uint32_t min_sub = 1;
  auto both = [&](uint32_t a, uint32_t b, uint32_t want, const char* rule) {
    EXPECT_EQ(fp_add(f, a, b), want) << rule << ": " << hex(f, a) << " + " << hex(f, b);
    EXPECT_EQ(host_adder(f)(a, b), want)
        << "host FPU lanes, " << rule << ": " << hex(f, a) << " + " << hex(f, b);
    EXPECT_EQ(tb::mpfr_add_bits(f, a, b), want)
        << "MPFR, " << rule << ": " << hex(f, a) << " + " << hex(f, b);
  };
  EXPECT_EQ(fp_canonical_nan(f), qnan);
  EXPECT_EQ(tb::ref_canonical_nan(f), qnan);

  // Any NaN operand, quiet or signalling, either sign, any payload.
  for (uint32_t nan : {qnan, qnan | 1, inf | 1, inf | (qnan >> 1), sign | qnan, sign | inf | 3,
                       sign | inf | ((1u << mw) - 1)}) {
    both(nan, one, qnan, "NaN + finite");
    both(one, nan, qnan, "finite + NaN");
    both(nan, inf, qnan, "NaN + inf");
    both(sign | inf, nan, qnan, "-inf + NaN");
    both(nan, nan, qnan, "NaN + NaN");
    both(nan, sign, qnan, "NaN + -0");
  }
  both(inf, sign | inf, qnan, "inf + -inf");
  both(sign | inf, inf, qnan, "-inf + inf");
  both(inf, inf, inf, "inf + inf");
  both(sign | inf, sign | inf, sign | inf, "-inf + -inf");
  both(inf, sign | max_finite, inf, "inf + finite");
  both(sign | min_sub, sign | inf, sign | inf, "finite + -inf");

  both(0, 0, 0, "+0 + +0");
  both(sign, sign, sign, "-0 + -0");
  both(0, sign, 0, "+0 + -0");
  both(sign, 0, 0, "-0 + +0");
  for (uint32_t x : {one, min_sub, min_sub + 1, max_finite, uint32_t(1u << mw)}) {
    both(x, sign | x, 0, "x + -x");
    both(sign | x, x, 0, "-x + x");
    both(x, sign, x, "x + -0");
    both(sign | x, 0, sign | x, "-x + +0");
    both(sign | x, sign, sign | x, "-x + -0");
  }

  // Overflow, ties to even, subnormal to normal.
  const uint32_t half_ulp_of_max = inf - (uint32_t(mw + 2) << mw);  // 2^(emax - mw - 1)
  both(max_finite, max_finite, inf, "max + max overflows");
  both(sign | max_finite, sign | max_finite, sign | inf, "-max + -max overflows");
  both(max_finite, half_ulp_of_max, inf, "max + ulp/2 ties to the even inf");
  both(max_finite, half_ulp_of_max - 1, max_finite, "max + (less than ulp/2) stays");
  both(sign | max_finite, half_ulp_of_max, sign | (max_finite - 1),
       "-max + ulp/2 is a tie between -max and its even neighbour");
  if (f.bias() > int(mw) + 1) {
    const uint32_t half_ulp_of_one = uint32_t(f.bias() - int(mw) - 1) << mw;
    both(one, half_ulp_of_one, one, "1 + ulp/2 ties to even 1");
    both(one + 1, half_ulp_of_one, one + 2, "(1 + ulp) + ulp/2 ties to even 1 + 2 ulp");
    both(one, half_ulp_of_one + 1, one + 1, "1 + (more than ulp/2) rounds up");
  }
  both(min_sub, min_sub, 2 * min_sub, "subnormal + subnormal");
  both((1u << mw) - 1, min_sub, 1u << mw, "largest subnormal + smallest is the smallest normal");
  both(1u << mw, sign | min_sub, (1u << mw) - 1, "smallest normal - smallest subnormal");
}

// A burst is its lanes: fp_add_burst against fp_add lane by lane, on random
// bursts of every format; the bits above the burst are left alone.
TEST(FpAddBurst, EqualsItsLanes) {
  std::mt19937_64 rng(seed());
  const FpFormat formats[3] = {kFp16, kBf16, kFp32};
  for (uint32_t fmt = 0; fmt < 3; ++fmt) {
    const FpFormat f = formats[fmt];
    for (unsigned i = 0; i < 2000; ++i) {
      const unsigned bits = 128u << (i % 3);  // 16..64-byte bursts
      Wide a, b, y;
      for (unsigned lsb = 0; lsb < bits; lsb += f.width()) {
        const tb::OperandPair p = tb::fp_random_pair(f, rng);
        a.set_lane(lsb, f.width(), p.a);
        b.set_lane(lsb, f.width(), p.b);
      }
      for (unsigned w = bits / 64; w < Wide::kWords; ++w) y.w[w] = rng();
      const Wide above = y;
      fp_add_burst(fmt, a, b, y, bits);
      for (unsigned lsb = 0; lsb < bits; lsb += f.width())
        ASSERT_EQ(y.lane(lsb, f.width()), fp_add(f, a.lane(lsb, f.width()), b.lane(lsb, f.width())))
            << name(f) << " lane at bit " << lsb;
      for (unsigned w = bits / 64; w < Wide::kWords; ++w) ASSERT_EQ(y.w[w], above.w[w]);
    }
  }
  Wide z;
  EXPECT_THROW(fp_add_burst(3, z, z, z, 256), std::invalid_argument);
  EXPECT_THROW(fp_add_burst(0, z, z, z, 192), std::invalid_argument);
}

// The host-FPU lanes refuse a host that does not round to nearest or that
// flushes subnormals, instead of returning wrong sums.
TEST(FpAddBurst, HostFloatingPointIsChecked) {
  EXPECT_NO_THROW(fp_lanes_check_host());
  for (int mode : {FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO}) {
    ASSERT_EQ(std::fesetround(mode), 0);
    EXPECT_THROW(fp_lanes_check_host(), std::runtime_error) << "rounding mode " << mode;
    std::fesetround(FE_TONEAREST);
  }
#if defined(__SSE__)
  const unsigned csr = _mm_getcsr();
  _mm_setcsr(csr | 0x8040);  // FTZ and DAZ
  EXPECT_THROW(fp_lanes_check_host(), std::runtime_error) << "FTZ/DAZ";
  _mm_setcsr(csr);
#endif
  EXPECT_NO_THROW(fp_lanes_check_host());
}

// Named fp32 and fp16 cases, written out in hex so that they can be checked
// by hand (and against any IEEE machine).
TEST(FpAddLiterals, Fp32AndFp16) {
  EXPECT_EQ(fp_add(kFp32, 0x3F800000, 0x3F800000), 0x40000000u);  // 1 + 1 = 2
  EXPECT_EQ(fp_add(kFp32, 0x3F800000, 0x33800000), 0x3F800000u);  // 1 + 2^-24: tie, even
  EXPECT_EQ(fp_add(kFp32, 0x3F800001, 0x33800000), 0x3F800002u);  // tie, up to even
  EXPECT_EQ(fp_add(kFp32, 0x3F800000, 0xBF7FFFFF), 0x33800000u);  // 1 - (1 - 2^-24)
  EXPECT_EQ(fp_add(kFp32, 0x7F7FFFFF, 0x73800000), 0x7F800000u);  // max + ulp/2 = inf
  EXPECT_EQ(fp_add(kFp32, 0x00800000, 0x80000001), 0x007FFFFFu);  // min normal - min sub
  EXPECT_EQ(fp_add(kFp32, 0x7F800001, 0x3F800000), 0x7FC00000u);  // sNaN -> canonical
  EXPECT_EQ(fp_add(kFp16, 0x3C00, 0x3C00), 0x4000u);              // 1 + 1 = 2
  EXPECT_EQ(fp_add(kFp16, 0x3C00, 0x1000), 0x3C00u);              // 1 + 2^-11: tie, even
  EXPECT_EQ(fp_add(kFp16, 0x7BFF, 0x7BFF), 0x7C00u);              // 65504 + 65504 = inf
  EXPECT_EQ(fp_add(kFp16, 0xFC00, 0x7C00), 0x7E00u);              // -inf + inf = NaN
  EXPECT_EQ(fp_add(kBf16, 0x3F80, 0x3B80), 0x3F80u);              // 1 + 2^-8: tie, even
  EXPECT_EQ(fp_add(kBf16, 0xFFFF, 0x0000), 0x7FC0u);              // -NaN -> canonical
}

// Every width the adder accepts is one algorithm: formats of up to 10 bits
// exhaustively, wider odd ones at random.
TEST(FpAddOtherWidths, AgreeWithMpfr) {
  const uint64_t s = seed();
  SCOPED_TRACE("seed " + std::to_string(s) + " (set T3_FP_SEED to repeat)");
  std::mt19937_64 rng(s);
  Mismatches m;
  for (FpFormat f : {FpFormat{2, 1}, FpFormat{2, 5}, FpFormat{3, 2}, FpFormat{4, 3},
                     FpFormat{5, 2}, FpFormat{8, 1}, FpFormat{2, 23}, FpFormat{3, 20},
                     FpFormat{6, 17}, FpFormat{7, 12}, FpFormat{8, 15}}) {
    if (f.width() <= 10) {
      for (uint32_t a = 0; a < (1u << f.width()); ++a)
        for (uint32_t b = 0; b < (1u << f.width()); ++b) m.check(f, a, b, "exhaustive");
    } else {
      for (uint32_t a : tb::fp_edge_values(f))
        for (uint32_t b : tb::fp_edge_values(f)) m.check(f, a, b, "edge values");
      for (unsigned i = 0; i < 100000; ++i) {
        const tb::OperandPair p = tb::fp_random_pair(f, rng);
        m.check(f, p.a, p.b, std::string("class ") + tb::to_string(p.cls));
      }
    }
  }
  EXPECT_EQ(m.count, 0u);
}

TEST(FpReference, LeavesMpfrsExponentRangeAsItFoundIt) {
  const mpfr_exp_t emin = mpfr_get_emin(), emax = mpfr_get_emax();
  for (const auto& [lo, hi] : {std::pair<mpfr_exp_t, mpfr_exp_t>{emin, emax}, {-20, 20}}) {
    ASSERT_EQ(mpfr_set_emin(lo), 0);
    ASSERT_EQ(mpfr_set_emax(hi), 0);
    EXPECT_EQ(tb::mpfr_add_bits(kFp32, 0x00000001, 0x7F7FFFFF), 0x7F7FFFFFu);
    EXPECT_TRUE(tb::mpfr_add_info(kFp16, 0x7BFF, 0x7BFF).overflow);
    EXPECT_TRUE(tb::mpfr_add_info(kFp32, 0x3F800000, 0x33800000).tie);
    EXPECT_EQ(mpfr_get_emin(), lo);
    EXPECT_EQ(mpfr_get_emax(), hi);
  }
  mpfr_set_emin(emin);
  mpfr_set_emax(emax);
}

// The message names the field and the allowed range.
void expect_rejected(FpFormat f, const std::string& field, const std::string& range) {
  for (int which = 0; which < 3; ++which) {
    try {
      if (which == 0) check(f);
      if (which == 1) fp_add(f, 0, 0);
      if (which == 2) fp_canonical_nan(f);
      ADD_FAILURE() << name(f) << " accepted (call " << which << ")";
    } catch (const std::invalid_argument& e) {
      const std::string msg = e.what();
      EXPECT_NE(msg.find(field), std::string::npos) << msg;
      EXPECT_NE(msg.find(range), std::string::npos) << msg;
    }
  }
}

TEST(FpFormatCheck, NamesTheFieldAndTheRange) {
  expect_rejected({1, 10}, "exp_w = 1", "allowed: 2..8");
  expect_rejected({9, 10}, "exp_w = 9", "allowed: 2..8");
  expect_rejected({0, 10}, "exp_w = 0", "allowed: 2..8");
  expect_rejected({5, 0}, "man_w = 0", "allowed: 1..23");
  expect_rejected({8, 24}, "man_w = 24", "allowed: 1..23");
  EXPECT_THROW(tb::mpfr_add_bits({8, 24}, 0, 0), std::invalid_argument);
  for (FpFormat f : {kFp16, kBf16, kFp32, FpFormat{2, 1}, FpFormat{8, 23}, FpFormat{2, 23}})
    EXPECT_NO_THROW(check(f)) << name(f);
  EXPECT_EQ(kFp16.width(), 16u);
  EXPECT_EQ(kBf16.width(), 16u);
  EXPECT_EQ(kFp32.width(), 32u);
}

}  // namespace
}  // namespace t3
