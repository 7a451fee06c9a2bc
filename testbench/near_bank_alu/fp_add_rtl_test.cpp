// rtl/fp_add.sv, Verilated at fp16, bf16, fp32 and a small 8-bit format,
// against the GNU MPFR reference and the C++ model hw/common/fp_add,
// bit for bit. Operand pairs flagged by valid_i, most cycles one, with idle
// cycles between (an idle adder must hold its pipeline, not lose or corrupt
// a pair in flight); each output is checked LATENCY cycles after its
// operands, with LATENCY read from the RTL.
//
// T3_FP_SEED in the environment replaces the default seed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "Vfp_add_bf16.h"
#include "Vfp_add_bf16_fp_add.h"
#include "Vfp_add_e3m4.h"
#include "Vfp_add_e3m4_fp_add.h"
#include "Vfp_add_fp16.h"
#include "Vfp_add_fp16_fp_add.h"
#include "Vfp_add_fp32.h"
#include "Vfp_add_fp32_fp_add.h"
#include "common/fp_add.h"
#include "fp_reference.h"
#include "verilated.h"

namespace t3 {
namespace {

constexpr uint64_t kDefaultSeed = 0x7333a1b2c3d4e5f6ull;
constexpr unsigned kRandomPairs = 1'000'000;  // per format
constexpr unsigned kMaxReported = 8;

uint64_t seed() {
  const char* s = std::getenv("T3_FP_SEED");
  return s ? std::strtoull(s, nullptr, 0) : kDefaultSeed;
}

// One Verilated configuration: the model, its inner module class (which
// holds the public LATENCY) and the format it was built for.
struct Fp16 {
  using Model = Vfp_add_fp16;
  static constexpr unsigned kLatency = Vfp_add_fp16_fp_add::LATENCY;
  static constexpr FpFormat kFormat = kFp16;
};
struct Bf16 {
  using Model = Vfp_add_bf16;
  static constexpr unsigned kLatency = Vfp_add_bf16_fp_add::LATENCY;
  static constexpr FpFormat kFormat = kBf16;
};
struct Fp32 {
  using Model = Vfp_add_fp32;
  static constexpr unsigned kLatency = Vfp_add_fp32_fp_add::LATENCY;
  static constexpr FpFormat kFormat = kFp32;
};
// Small enough for every pair; its exponent is too narrow to need the
// alignment shift's saturation, the other branch of the RTL's generate.
struct E3M4 {
  using Model = Vfp_add_e3m4;
  static constexpr unsigned kLatency = Vfp_add_e3m4_fp_add::LATENCY;
  static constexpr FpFormat kFormat = FpFormat{3, 4};
};

// The RTL with one operand pair per cycle.
template <class Cfg>
class Rtl {
 public:
  Rtl() : model_(std::make_unique<typename Cfg::Model>(&ctx_, "fp_add")) {
    model_->clk_i = 0;
    model_->eval();
  }
  ~Rtl() { model_->final(); }

  // One clock cycle: operands a, b are presented during it (a pair to add
  // if valid); returns y_o as seen during it (before the rising edge that
  // ends it).
  uint32_t cycle(uint32_t a, uint32_t b, bool valid = true) {
    set(a, b);
    model_->valid_i = valid;
    model_->clk_i = 0;
    model_->eval();
    const uint32_t y = model_->y_o;
    model_->clk_i = 1;
    model_->eval();
    return y;
  }
  uint32_t y() const { return model_->y_o; }
  void set_inputs_and_settle(uint32_t a, uint32_t b) {
    set(a, b);
    model_->eval();
  }

 private:
  void set(uint32_t a, uint32_t b) {
    // The port is 8, 16 or 32 bits wide (CData, SData or IData).
    using Port = std::remove_reference_t<decltype(model_->a_i)>;
    model_->a_i = static_cast<Port>(a);
    model_->b_i = static_cast<Port>(b);
  }

  VerilatedContext ctx_;
  std::unique_ptr<typename Cfg::Model> model_;
};

std::string hex(const FpFormat& f, uint32_t v) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%0*" PRIx32, int((f.width() + 3) / 4), v);
  return buf;
}

// Streams operand pairs through the RTL one per cycle and checks every
// result LATENCY cycles later against MPFR and against the C++ model.
template <class Cfg>
class Stream {
 public:
  explicit Stream(std::string what) : what_(std::move(what)) {}
  ~Stream() {
    if (mismatches_ > kMaxReported) ADD_FAILURE() << mismatches_ << " mismatches in all";
  }

  // Every fifth pair follows an idle cycle whose operands (the pair's
  // complements) the adder must ignore.
  void push(uint32_t a, uint32_t b) {
    if (pushed_++ % 5 == 4) step(~a, ~b, false);
    step(a, b, true);
  }
  // Clocks the last pairs out, idle cycles with all-ones operands behind them.
  void drain() {
    for (unsigned i = 0; i < Cfg::kLatency; ++i) step(~0u, ~0u, false);
  }
  unsigned checked() const { return checked_; }
  unsigned mismatches() const { return mismatches_; }

 private:
  struct Pair {
    uint32_t a, b;
    uint64_t cycle;
    bool checked;
  };

  // y_o seen in this cycle is the sum of the pair presented LATENCY cycles
  // ago, if that cycle held one (nothing defined before the pipeline has
  // filled).
  void step(uint32_t a, uint32_t b, bool checked) {
    const uint32_t y = rtl_.cycle(a, b, checked);
    if (in_flight_.size() == Cfg::kLatency) {
      if (in_flight_.front().checked) check(in_flight_.front(), y);
      in_flight_.pop_front();
    }
    in_flight_.push_back({a, b, cycle_++, checked});
  }

  void check(const Pair& p, uint32_t y) {
    constexpr FpFormat f = Cfg::kFormat;
    const uint32_t ref = tb::mpfr_add_bits(f, p.a, p.b);
    const uint32_t model = fp_add(f, p.a, p.b);
    ++checked_;
    if ((y == ref && model == ref) || ++mismatches_ > kMaxReported) return;
    ADD_FAILURE() << what_ << ": " << hex(f, p.a) << " + " << hex(f, p.b) << " presented in cycle "
                  << p.cycle << ": RTL " << hex(f, y) << ", C++ model " << hex(f, model)
                  << ", MPFR " << hex(f, ref);
  }

  std::string what_;
  Rtl<Cfg> rtl_;
  std::deque<Pair> in_flight_;
  uint64_t cycle_ = 0, pushed_ = 0;
  unsigned checked_ = 0, mismatches_ = 0;
};

template <class Cfg>
class FpAddRtl : public ::testing::Test {};

using Configs = ::testing::Types<Fp16, Bf16, Fp32, E3M4>;

struct ConfigNames {
  template <class T>
  static std::string GetName(int) {
    if (std::is_same_v<T, Fp16>) return "fp16";
    if (std::is_same_v<T, Bf16>) return "bf16";
    if (std::is_same_v<T, Fp32>) return "fp32";
    return "e3m4";
  }
};
TYPED_TEST_SUITE(FpAddRtl, Configs, ConfigNames);

TYPED_TEST(FpAddRtl, LatencyIsFourCyclesAndTheOutputIsRegistered) {
  // rtl/near_bank_alu_core.sv carries an ADD from stage 2 to its write-back
  // in stage 6 (NearBankAluParams::kWriteLatency) on this latency.
  static_assert(TypeParam::kLatency == 4, "the near-bank ALU's valid pipeline expects 4");
  constexpr FpFormat f = TypeParam::kFormat;
  const uint32_t one = uint32_t(f.bias()) << f.man_w;
  const uint32_t two = uint32_t(f.bias() + 1) << f.man_w;
  Rtl<TypeParam> rtl;
  // 1 + 1 in cycle 0, then 0 + 0: y_o shows 2 in cycle 4 and in no other.
  std::vector<uint32_t> seen;
  seen.push_back(rtl.cycle(one, one));
  for (int t = 1; t < 8; ++t) seen.push_back(rtl.cycle(0, 0));
  for (int t = 1; t < 8; ++t)
    EXPECT_EQ(seen[t] == two, t == int(TypeParam::kLatency)) << "cycle " << t << ": " << seen[t];
  // Changing the operands without a clock edge leaves y_o alone.
  const uint32_t before = rtl.y();
  rtl.set_inputs_and_settle(one, one);
  EXPECT_EQ(rtl.y(), before);
}

TYPED_TEST(FpAddRtl, AnIdleAdderHoldsItsLastSum) {
  constexpr FpFormat f = TypeParam::kFormat;
  const uint32_t one = uint32_t(f.bias()) << f.man_w;
  const uint32_t two = uint32_t(f.bias() + 1) << f.man_w;
  Rtl<TypeParam> rtl;
  // 1 + 1 in cycle 0, then operands without valid_i: 2 from cycle 4 on.
  rtl.cycle(one, one, true);
  for (int t = 1; t < 10; ++t) {
    const uint32_t y = rtl.cycle(one, 0, false);
    if (t >= int(TypeParam::kLatency)) {
      EXPECT_EQ(y, two) << "cycle " << t;
    }
  }
}

TYPED_TEST(FpAddRtl, EveryPairOfEdgeValues) {
  constexpr FpFormat f = TypeParam::kFormat;
  Stream<TypeParam> s("edge values");
  const std::vector<uint32_t> edges = tb::fp_edge_values(f);
  for (uint32_t a : edges)
    for (uint32_t b : edges) s.push(a, b);
  s.drain();
  EXPECT_EQ(s.checked(), edges.size() * edges.size());
  EXPECT_EQ(s.mismatches(), 0u);
}

TYPED_TEST(FpAddRtl, RandomPairsFromEveryClass) {
  constexpr FpFormat f = TypeParam::kFormat;
  const uint64_t sd = seed();
  SCOPED_TRACE("seed " + std::to_string(sd) + " (set T3_FP_SEED to repeat)");
  std::mt19937_64 rng(sd);
  Stream<TypeParam> s("random");
  if (f.width() <= 8) {
    // Every pair, in a shuffled order so that neighbouring cycles differ.
    std::vector<uint32_t> all(1u << (2 * f.width()));
    for (uint32_t i = 0; i < all.size(); ++i) all[i] = i;
    std::shuffle(all.begin(), all.end(), rng);
    for (uint32_t ab : all) s.push(ab >> f.width(), ab & ((1u << f.width()) - 1));
  } else {
    for (unsigned i = 0; i < kRandomPairs; ++i) {
      const tb::OperandPair p = tb::fp_random_pair(f, rng);
      s.push(p.a, p.b);
    }
  }
  s.drain();
  EXPECT_EQ(s.mismatches(), 0u);
  EXPECT_GE(s.checked(), f.width() <= 8 ? (1u << (2 * f.width())) : kRandomPairs);
}

}  // namespace
}  // namespace t3
