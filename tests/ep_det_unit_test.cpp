// ep_det core and block unit tests: the cycle table of docs/blocks/ep_det.md,
// the parameters' checks and the registers.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "ep_det/ep_det.h"
#include "param_refusal.h"
#include "t3/ep_det_regs.h"

namespace t3 {
namespace {

// docs/blocks/ep_det.md, "Cycle table": line 9 (flit 1 of a window with
// count_base 8, 2 contributors, stage 0x1000, 0x100 bytes, merge 0x300),
// one flit each; the memory answering each read two cycles after it, the
// second contributor's first; everything ready.
TEST(EpDetCore, CycleTable) {
  EpDetCore c{EpDetParams{}};
  EpDetCoreInputs in;
  c.step(in);  // reset
  in.rst_n = true;
  EpWin w;
  w.valid = w.home = w.det = true;
  w.dtype = 2;
  w.expected = 2;
  w.count_base = 8;
  w.bytes = 0x100;
  w.stage = 0x1000;
  w.merge = 0x300;
  pack_window(in.tbl, 0, w);
  in.mr_ready = in.mw_ready = in.hq_ready = true;
  struct Row {
    bool det_ready, mr_valid, md_valid, mw_valid, mw_add, hq_valid;
  };
  const Row table[] = {
      {1, 0, 0, 0, 0, 0},  // 0: line 9, 1 flit, taken
      {0, 0, 0, 0, 0, 0},  // 1: START: 2 x 1 flits to add, from stage + 0x10
      {0, 1, 0, 0, 0, 0},  // 2: read 0x1010 (contributor 0), tag 0
      {0, 1, 0, 0, 0, 0},  // 3: read 0x1110 (contributor 1), tag 1
      {0, 0, 1, 0, 0, 0},  // 4: tag 1's answer (contributor 1): waits for contributor 0
      {0, 0, 1, 0, 0, 0},  // 5: tag 0's answer
      {0, 0, 0, 1, 0, 0},  // 6: contributor 0 stored at 0x310
      {0, 0, 0, 1, 1, 0},  // 7: contributor 1 added at 0x310
      {0, 0, 0, 0, 0, 1},  // 8: the line to the home
      {1, 0, 0, 0, 0, 0},  // 9: idle
  };
  for (unsigned k = 0; k < std::size(table); ++k) {
    in.det_valid = k == 0;
    in.det_line = 9;
    in.det_len = 1;
    in.md_valid = k == 4 || k == 5;
    in.md_tag = uint8_t(k == 4 ? 1 : 0);
    in.md_data = Wide{};
    in.md_data.w[0] = k;
    const EpDetCoreOutputs o = c.step(in);
    const Row& r = table[k];
    EXPECT_EQ(o.det_ready, r.det_ready) << "cycle " << k;
    EXPECT_EQ(o.mr_valid, r.mr_valid) << "cycle " << k;
    EXPECT_EQ(o.mw_valid, r.mw_valid) << "cycle " << k;
    EXPECT_EQ(o.mw_add, r.mw_add) << "cycle " << k;
    EXPECT_EQ(o.hq_valid, r.hq_valid) << "cycle " << k;
    EXPECT_FALSE(o.stray) << "cycle " << k;
    if (o.mr_valid) {
      EXPECT_EQ(o.mr_addr, 0x1010u + (k - 2) * 0x100);
      EXPECT_EQ(o.mr_tag, k - 2);
    }
    if (o.mw_valid) {
      EXPECT_EQ(o.mw_addr, 0x310u);
      EXPECT_EQ(o.mw_data.w[0], k == 6 ? 5u : 4u) << "contributor " << k - 6 << "'s answer";
      EXPECT_EQ(o.mw_dtype, 2u);
    }
    if (o.hq_valid) {
      EXPECT_EQ(o.hq_line, 9u);
    }
  }
  EXPECT_EQ(c.eval(in).stat.flits, 2u);
  EXPECT_EQ(c.eval(in).stat.lines, 1u);
}

TEST(EpDetParams, OutOfRangeNamesTheParameter) {
  EpDetParams p;
  p.buf = 33;
  expect_refused(p, "buf (BUF) = 33");
  p = EpDetParams{};
  p.buf = 1;
  EXPECT_THROW(EpDetCore{p}, std::invalid_argument);
}

TEST(EpDetBlock, RegistersShowTheParameters) {
  EpDet b{EpDetParams{}};
  EpDetInputs in;
  b.step(in);
  in.rst_n = true;
  uint32_t v = 0;
  EXPECT_EQ(b.tlm_read(T3_EP_DET_A_PARAM, v), RegStatus::ok);
  EXPECT_EQ(v, 128u | 4u << 16 | 4u << 24);
  EXPECT_EQ(b.tlm_read(T3_EP_DET_A_PARAM_Q, v), RegStatus::ok);
  EXPECT_EQ(v, 8u | 32u << 8 | 4096u << 15);
  EXPECT_EQ(b.tlm_read(T3_EP_DET_A_STATUS, v), RegStatus::ok);
  EXPECT_EQ(v, T3_EP_DET_R_STATUS_IDLE_MASK);
}

}  // namespace
}  // namespace t3
