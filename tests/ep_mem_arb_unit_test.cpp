// ep_mem_arb core and block unit tests: the cycle table of
// docs/blocks/ep_mem_arb.md, the parameters' checks and the registers.
#include <gtest/gtest.h>

#include <iterator>
#include <stdexcept>

#include "ep_mem_arb/ep_mem_arb.h"
#include "param_refusal.h"
#include "t3/ep_mem_arb_regs.h"

namespace t3 {
namespace {

// docs/blocks/ep_mem_arb.md, "Cycle table": the defaults (10 ports, 4
// lanes, 6-bit tags); which ports ask in each cycle, what is granted onto
// which lane, and the answers routed.
TEST(EpMemArbCore, CycleTable) {
  EpMemArbCore c{EpMemArbParams{}};
  EpMemArbCoreInputs in;
  c.step(in);  // reset
  in.rst_n = true;
  for (unsigned i = 0; i < 10; ++i) in.rq_tag.set_bits(6 * i, 6, 40 + i);
  in.rq_op = 1u << 2 * 3;  // port 3 writes, the others read
  struct Row {
    uint32_t valid, ready;
    unsigned lane0_port;
    uint32_t ans_valid;
    unsigned ans_port[2];
    uint32_t md_valid;
  };
  const Row table[] = {
      {0x3FF, 0x00F, 0, 0, {0, 0}, 0},           // 0: all ten ask: ports 0..3 onto lanes 0..3
      {0x3F0, 0x0F0, 4, 0, {0, 0}, 0},           // 1: 4..7
      {0x300, 0x300, 8, 0, {0, 0}, 0},           // 2: 8, 9 on lanes 0, 1
      {0x000, 0x000, 0, 0x3, {9, 2}, 0x204},     // 3: lane 0 answers port 9, lane 1 port 2
      {0x000, 0x000, 0, 0x3, {5, 5}, 0x020},     // 4: both port 5: lane 1's lost (a clash)
      {0x000, 0x000, 0, 0x1, {12, 0}, 0x000},    // 5: port 12: none (a stray)
  };
  for (unsigned k = 0; k < std::size(table); ++k) {
    const Row& r = table[k];
    in.rq_valid = r.valid;
    in.ans_valid = r.ans_valid;
    for (unsigned l = 0; l < 2; ++l) in.ans_tag.set_bits(10 * l, 10, uint64_t{r.ans_port[l]} << 6 | l);
    const EpMemArbCoreOutputs o = c.step(in);
    EXPECT_EQ(o.rq_ready, r.ready) << "cycle " << k;
    if (r.ready) {
      EXPECT_EQ(o.mem_tag.bits(0, 10), uint64_t{r.lane0_port} << 6 | (40 + r.lane0_port)) << "cycle " << k;
    }
    EXPECT_EQ(o.md_valid, r.md_valid) << "cycle " << k;
    EXPECT_EQ(o.lost, k >= 4) << "cycle " << k;
  }
  const EpMemArbCoreOutputs o = c.eval(in);
  EXPECT_EQ(o.stat.reads, 9u);
  EXPECT_EQ(o.stat.writes, 1u);
  EXPECT_EQ(o.stat.waits, 6u + 2u);
  EXPECT_EQ(o.stat.clashes, 1u);
  EXPECT_EQ(o.stat.strays, 1u);
}

TEST(EpMemArbParams, OutOfRangeNamesTheParameter) {
  EpMemArbParams p;
  p.mem_ops = 9;
  expect_refused(p, "mem_ops (MEM_OPS) = 9");
  p = EpMemArbParams{};
  p.ports = 1;
  EXPECT_THROW(EpMemArbCore{p}, std::invalid_argument);
}

TEST(EpMemArbBlock, RegistersShowTheParameters) {
  EpMemArb b{EpMemArbParams{}};
  EpMemArbInputs in;
  b.step(in);
  in.rst_n = true;
  uint32_t v = 0;
  EXPECT_EQ(b.tlm_read(T3_EP_MEM_ARB_A_PARAM, v), RegStatus::ok);
  EXPECT_EQ(v, 128u | 10u << 10 | 4u << 15 | 6u << 19 | 32u << 24);
}

}  // namespace
}  // namespace t3
