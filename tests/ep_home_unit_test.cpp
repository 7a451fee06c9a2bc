// ep_home core and block unit tests: the cycle table of docs/blocks/ep_home.md,
// the parameters' checks and the registers.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "common/packet.h"
#include "ep_home/ep_home.h"
#include "param_refusal.h"
#include "t3/ep_home_regs.h"

namespace t3 {
namespace {

EpWin window() {
  EpWin w;
  w.valid = w.home = true;
  w.dtype = 0;
  w.expected = 2;
  w.count_base = 8;
  w.net_base = 0x4000;
  w.bytes = 0x100;
  w.src = 0x100;
  w.dst = 0x200;
  w.merge = 0x300;
  return w;
}

// docs/blocks/ep_home.md, "Cycle table": ep_rx's pulse for line 10 (flit 2
// of the window), two flits; the queue gives slot 4; the memory answers
// each read two cycles after it; everything ready.
TEST(EpHomeCore, CycleTable) {
  EpHomeCore c{EpHomeParams{}};
  EpHomeCoreInputs in;
  c.step(in);  // reset
  in.rst_n = true;
  in.node = 3;
  pack_window(in.tbl, 0, window());
  in.cnt_ready = in.rq_ready = in.mr_ready = in.mw_ready = in.res_ready = true;
  in.rq_slot = 4;
  struct Row {
    bool rq_valid, mr_valid, md_valid, mw_valid, cnt_valid, res_valid;
  };
  const Row table[] = {
      {0, 0, 0, 0, 0, 0},  // 0: ep_rx's pulse: line 10, 2 flits, into the queue
      {0, 0, 0, 0, 0, 0},  // 1: taken from the queue
      {0, 0, 0, 0, 0, 0},  // 2: started: the RESULT built, its place in the result queue reserved
      {1, 0, 0, 0, 0, 0},  // 3: RESULT and 2 slots reserved, slot 4 first
      {0, 1, 0, 0, 0, 0},  // 4: read merge + 0x20 into slot 4
      {0, 1, 0, 0, 0, 0},  // 5: read merge + 0x30 into slot 5
      {0, 0, 1, 0, 0, 0},  // 6: slot 4's answer
      {0, 0, 1, 1, 0, 0},  // 7: slot 5's answer; flit 0 copied to dst + 0x20
      {0, 0, 0, 1, 0, 0},  // 8: flit 1 copied to dst + 0x30
      {0, 0, 0, 0, 0, 0},  // 9: every answer back, every flit copied
      {0, 0, 0, 0, 1, 0},  // 10: CLEAR line 10
      {0, 0, 0, 0, 0, 1},  // 11: the RESULT's header for the DMA credit controller
  };
  for (unsigned k = 0; k < std::size(table); ++k) {
    in.home = k == 0;
    in.home_line = k == 0 ? 10 : 0;
    in.home_len = k == 0 ? 2 : 0;
    in.md_valid = k == 6 || k == 7;
    in.md_tag = uint8_t(in.md_valid ? k - 2 : 0);
    in.md_data = Wide{};
    in.md_data.w[0] = in.md_valid ? k : 0;
    const EpHomeCoreOutputs o = c.step(in);
    const Row& r = table[k];
    EXPECT_EQ(o.rq_valid, r.rq_valid) << "cycle " << k;
    EXPECT_EQ(o.mr_valid, r.mr_valid) << "cycle " << k;
    EXPECT_EQ(o.mw_valid, r.mw_valid) << "cycle " << k;
    EXPECT_EQ(o.cnt_valid, r.cnt_valid) << "cycle " << k;
    EXPECT_EQ(o.res_valid, r.res_valid) << "cycle " << k;
    EXPECT_FALSE(o.stray) << "cycle " << k;
    if (o.rq_valid) {
      const pkt::Header h = pkt::unpack(o.rq_hdr);
      EXPECT_EQ(h.op, uint8_t(pkt::Op::result));
      EXPECT_EQ(h.addr, 0x4020u);
      EXPECT_EQ(h.src, 3u);
      EXPECT_EQ(h.count, 2u);
      EXPECT_EQ(o.rq_len, 2u);
    }
    if (o.mr_valid) {
      EXPECT_EQ(o.mr_addr, 0x320u + (k - 4) * 16);
      EXPECT_EQ(o.mr_tag, 4u + (k - 4));
    }
    if (o.mw_valid) {
      EXPECT_EQ(o.mw_addr, 0x220u + (k - 7) * 16);
      EXPECT_EQ(o.mw_data.w[0], 6u + (k - 7)) << "the answer for the flit";
    }
    if (o.cnt_valid) {
      EXPECT_EQ(o.cnt_op, 2u);
      EXPECT_EQ(o.cnt_line, 10u);
    }
  }
  EXPECT_TRUE(c.eval(in).idle) << "the header taken in cycle 11";
  EXPECT_EQ(c.eval(in).stat.results, 1u);
}

TEST(EpHomeParams, OutOfRangeNamesTheParameter) {
  EpHomeParams p;
  p.home_q = 1;
  expect_refused(p, "home_q (HOME_Q) = 1");
  p = EpHomeParams{};
  p.slots = 1;
  EXPECT_THROW(EpHomeCore{p}, std::invalid_argument);
}

TEST(EpHomeBlock, RegistersShowTheParameters) {
  EpHome b{EpHomeParams{}};
  EpHomeInputs in;
  b.step(in);
  in.rst_n = true;
  uint32_t v = 0;
  EXPECT_EQ(b.tlm_read(T3_EP_HOME_A_PARAM, v), RegStatus::ok);
  EXPECT_EQ(v, 128u | 4u << 16 | 4u << 24);
  EXPECT_EQ(b.tlm_read(T3_EP_HOME_A_PARAM_Q, v), RegStatus::ok);
  EXPECT_EQ(v, 10u | 8u << 8 | 4u << 16 | 32u << 24);
  EXPECT_EQ(b.tlm_read(T3_EP_HOME_A_PARAM_C, v), RegStatus::ok);
  EXPECT_EQ(v, 4096u);
  EXPECT_EQ(b.tlm_read(T3_EP_HOME_A_STATUS, v), RegStatus::ok);
  EXPECT_EQ(v, T3_EP_HOME_R_STATUS_IDLE_MASK);
}

}  // namespace
}  // namespace t3
