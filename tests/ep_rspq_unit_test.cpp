// ep_rspq core and block unit tests: the cycle table of
// docs/blocks/ep_rspq.md, the parameters' checks and the registers.
#include <gtest/gtest.h>

#include <iterator>
#include <stdexcept>

#include "ep_rspq/ep_rspq.h"
#include "param_refusal.h"
#include "t3/ep_rspq_regs.h"

namespace t3 {
namespace {

Wide flit(uint64_t v) {
  Wide w;
  w.w[0] = v;
  return w;
}

// docs/blocks/ep_rspq.md, "Cycle table": the defaults (10 slots); the home
// and a pull both ask in cycle 0 (a RESULT of 2 data flits, a PULL_RSP of
// 1); the memory answers the RESULT's second flit in cycle 2, its first in
// cycle 3 (the home's port), the pull's in cycle 4 (the pull's); the home
// releases its RESULT in cycle 3; the reader always ready.
TEST(EpRspqCore, CycleTable) {
  EpRspqCore c{EpRspqParams{}};
  EpRspqCoreInputs in;
  c.step(in);  // reset
  in.rst_n = true;
  in.rsp_out_ready = true;
  in.hrq_hdr = flit(0xA);
  in.hrq_len = 2;
  in.prq_hdr = flit(0xB);
  in.prq_len = 1;
  struct Row {
    bool hrq_ready, prq_ready;
    unsigned slot;
    bool out_valid;
    uint64_t out;
    unsigned queued;
  };
  const Row table[] = {
      {1, 0, 1, 0, 0, 0},      // 0: the home's RESULT granted: slots 0 (header), 1, 2
      {0, 1, 4, 1, 0xA, 3},    // 1: the pull granted: slots 3 (header), 4; the RESULT's header leaves
      {0, 0, 6, 0, 0, 4},      // 2: slot 2 answered (0x12); slot 1 still out: a bubble
      {0, 0, 6, 0, 0, 4},      // 3: slot 1 answered (0x11)
      {0, 0, 6, 1, 0x11, 4},   // 4: slot 1 leaves; slot 4 answered (0x14)
      {0, 0, 6, 1, 0x12, 3},   // 5: slot 2
      {0, 0, 6, 1, 0xB, 2},    // 6: the PULL_RSP's header
      {0, 0, 6, 1, 0x14, 1},   // 7: its data
      {0, 0, 6, 0, 0, 0},      // 8: idle
  };
  for (unsigned k = 0; k < std::size(table); ++k) {
    in.hrq_valid = k == 0;
    in.prq_valid = k <= 1;
    in.hmd_valid = k == 2 || k == 3;
    in.hmd_tag = uint8_t(k == 2 ? 2 : 1);
    in.hmd_data = flit(0x10 + in.hmd_tag);
    in.pmd_valid = k == 4;
    in.pmd_tag = 4;
    in.pmd_data = flit(0x14);
    in.hrel = k == 3;
    const EpRspqCoreOutputs o = c.step(in);
    const Row& r = table[k];
    EXPECT_EQ(o.hrq_ready, r.hrq_ready) << "cycle " << k;
    EXPECT_EQ(o.prq_ready, r.prq_ready) << "cycle " << k;
    EXPECT_EQ(o.hrq_slot, r.slot) << "cycle " << k;
    EXPECT_EQ(o.prq_slot, r.slot) << "cycle " << k;
    EXPECT_EQ(o.rsp_out_valid, r.out_valid) << "cycle " << k;
    EXPECT_EQ(o.rsp_out_flit, flit(r.out)) << "cycle " << k;
    EXPECT_EQ(o.queued, r.queued) << "cycle " << k;
    EXPECT_FALSE(o.stray) << "cycle " << k;
    EXPECT_EQ(o.idle, r.queued == 0) << "cycle " << k;
  }
  const EpRspqCoreOutputs o = c.eval(in);
  EXPECT_EQ(o.stat.results, 1u);
  EXPECT_EQ(o.stat.pull_rsps, 1u);
  EXPECT_EQ(o.stat.flits, 5u);
}

TEST(EpRspqParams, OutOfRangeNamesTheParameter) {
  EpRspqParams p;
  p.slots = 65;
  expect_refused(p, "slots (SLOTS) = 65");
  p = EpRspqParams{};
  p.max_len = 16;  // 10 slots cannot hold 1 + 16
  expect_refused(p, "slots (SLOTS) = 10 is out of range; allowed: 1 + MAX_LEN (17) .. 64");
  EXPECT_THROW(EpRspqCore{p}, std::invalid_argument);
}

TEST(EpRspqBlock, RegistersShowTheParameters) {
  EpRspq b{EpRspqParams{}};
  EpRspqInputs in;
  b.step(in);
  in.rst_n = true;
  uint32_t v = 0;
  EXPECT_EQ(b.tlm_read(T3_EP_RSPQ_A_PARAM, v), RegStatus::ok);
  EXPECT_EQ(v, 128u | 4u << 11 | 10u << 16 | 32u << 24);
  EXPECT_EQ(b.tlm_read(T3_EP_RSPQ_A_STATUS, v), RegStatus::ok);
  EXPECT_EQ(v, T3_EP_RSPQ_R_STATUS_IDLE_MASK);
}

}  // namespace
}  // namespace t3
