// rtl/t3_fifo.sv against hw/common/fifo.h, and both against a reference
// queue: random pushes, pops and resets (pushes into a full queue, pops of
// an empty one, both at once at every fill level), every output compared in
// every cycle (rdata_o too while the queue is empty: the stale head is state
// both must keep alike), at depths 2, 5 (no power of two) and 8, words of
// 16, 64 and 128 bits (the three kinds of Verilated port).
#include "Vt3_fifo_d2w16.h"
#include "Vt3_fifo_d5w64.h"
#include "Vt3_fifo_d8w128.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <random>
#include <string>
#include <type_traits>

#include "common/bits.h"
#include "common/fifo.h"
#include "common/wide.h"

namespace t3 {
namespace {

// A word onto a Verilated port and back (an integer, or VlWide's 32-bit
// words), without the co-simulation harness: this test links no SystemC.
template <class V, class W>
void put(V& port, const W& w) {
  if constexpr (std::is_integral_v<V>) {
    port = V(w);
  } else {
    for (unsigned i = 0; i < sizeof(V) / 4; ++i) port[i] = uint32_t(w.w[i / 2] >> (32 * (i % 2)));
  }
}
template <class V, class W>
void get(const V& port, W& w) {
  if constexpr (std::is_integral_v<V>) {
    w = W(port);
  } else {
    w = W{};
    for (unsigned i = 0; i < sizeof(V) / 4; ++i) w.w[i / 2] |= uint64_t(port[i]) << (32 * (i % 2));
  }
}

template <class V, class Word>
void compare(unsigned depth, unsigned width, uint64_t seed) {
  V rtl;
  Fifo<Word> model(depth);
  std::deque<Word> ref;
  std::mt19937_64 rng(seed);
  auto word = [&] {
    Word w{};
    if constexpr (is_wide_v<Word>) {
      for (unsigned i = 0; i < width / 64; ++i) w.w[i] = rng();
    } else {
      w = Word(rng() & low_mask(width));
    }
    return w;
  };
  unsigned refused = 0, pops = 0, empty_pops = 0, both = 0, resets = 0;
  bool reset = true;
  for (int cycle = 0; cycle < 200000; ++cycle) {
    // Phases of mostly pushes and mostly pops, so the queue fills and drains.
    const unsigned bias = (cycle / 64) % 2 ? 3 : 1;
    const bool push = rng() % 4 < bias;
    const bool pop = rng() % 4 < 4 - bias;
    const Word w = word();
    rtl.rst_ni = !reset;
    rtl.push_i = push;
    put(rtl.wdata_i, w);
    rtl.pop_i = pop;
    rtl.clk_i = 0;
    rtl.eval();

    const std::string at = "depth " + std::to_string(depth) + " cycle " + std::to_string(cycle);
    Word got{};
    get(rtl.rdata_o, got);
    ASSERT_EQ(bool(rtl.valid_o), model.valid()) << at;
    ASSERT_TRUE(got == model.rdata()) << at;
    ASSERT_EQ(bool(rtl.full_o), model.full()) << at;
    ASSERT_EQ(unsigned(rtl.count_o), model.count()) << at;
    ASSERT_EQ(model.count(), ref.size()) << at;
    if (!ref.empty()) {
      ASSERT_TRUE(model.rdata() == ref.front()) << at << ": not the oldest word";
    }

    if (reset) {
      ref.clear();
      ++resets;
    } else {
      const bool popped = pop && !ref.empty();
      if (popped) ref.pop_front();
      if (push && ref.size() < depth) ref.push_back(w);
      refused += push && !popped && model.full();
      pops += popped;
      empty_pops += pop && !popped;
      both += push && popped;
    }
    model.clock(!reset, push, w, pop);
    rtl.clk_i = 1;
    rtl.eval();
    reset = rng() % 3000 == 0;
  }
  // The run reached what it is for.
  EXPECT_GT(refused, 100u) << "pushes into a full queue";
  EXPECT_GT(empty_pops, 100u) << "pops of an empty queue";
  EXPECT_GT(both, 1000u) << "a push and a pop in one cycle";
  EXPECT_GT(resets, 10u);
  EXPECT_GT(pops, 10000u);
}

TEST(Fifo, Depth2Of16Bits) { compare<Vt3_fifo_d2w16, uint32_t>(2, 16, 2); }
TEST(Fifo, Depth5Of64Bits) { compare<Vt3_fifo_d5w64, uint64_t>(5, 64, 5); }
TEST(Fifo, Depth8Of128Bits) { compare<Vt3_fifo_d8w128, Wide>(8, 128, 8); }

TEST(Fifo, DepthOutOfRangeIsRefusedByName) {
  try {
    Fifo<uint32_t> f(1);
    FAIL() << "depth 1 taken";
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(), "t3::Fifo depth = 1 is out of range; allowed: 2..4096");
  }
}

}  // namespace
}  // namespace t3
