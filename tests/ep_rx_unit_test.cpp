// ep_rx core and block unit tests: the cycle table of docs/blocks/ep_rx.md,
// a HELD answer, the parameters' checks and the registers.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "common/packet.h"
#include "ep_rx/ep_rx.h"
#include "ep_held_check.h"
#include "param_refusal.h"
#include "t3/ep_rx_regs.h"

namespace t3 {
namespace {

EpWin window() {
  EpWin w;
  w.valid = true;
  w.home = true;
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

pkt::Header header(pkt::Op op) {
  pkt::Header h;
  h.op = uint8_t(op);
  h.len = 2;
  h.count = 1;
  h.addr = 0x4020;  // flit 2 of the window
  return h;
}

// docs/blocks/ep_rx.md, "Cycle table": a PARTIAL of two flits that makes
// its line whole at the home; everything ready, the counter answering in
// the cycle after its grant.
TEST(EpRxCore, CycleTable) {
  EpRxCore c{EpRxParams{}};
  EpRxCoreInputs in;
  c.step(in);  // reset
  in.rst_n = true;
  pack_window(in.tbl, 0, window());
  in.mw_ready = in.cnt_ready = in.res_ready = in.fin_ready = true;
  const Wide flits[] = {pkt::pack(header(pkt::Op::partial)), Wide{}, Wide{}};
  unsigned next = 0;
  struct Row {
    bool rsp_in_ready, cnt_valid, mw_valid, mw_add, home, merging;
  };
  const Row table[] = {
      {1, 0, 0, 0, 0, 0},  // 0: the header taken
      {0, 0, 0, 0, 0, 0},  // 1: looked up: window 0, offset 0x20
      {0, 0, 0, 0, 0, 0},  // 2: decoded: line 8 + 2 = 10, limit 2
      {0, 1, 0, 0, 0, 1},  // 3: ADD 1 to line 10: granted
      {0, 0, 0, 0, 0, 1},  // 4: the answer: DONE, count 1 before, whole
      {1, 0, 1, 1, 0, 1},  // 5: flit 0 added at merge + 0x20
      {1, 0, 1, 1, 0, 1},  // 6: flit 1 added
      {1, 0, 0, 0, 1, 0},  // 7: the home's line (window 0, line 10, 2 flits); idle again
  };
  for (unsigned k = 0; k < std::size(table); ++k) {
    in.rsp_in_valid = next < std::size(flits);
    in.rsp_in_flit = in.rsp_in_valid ? flits[next] : Wide{};
    in.cnt_rsp_valid = k == 4;
    in.cnt_rsp_count = 1;
    in.cnt_rsp_whole = true;
    const EpRxCoreOutputs o = c.step(in);
    const Row& r = table[k];
    EXPECT_EQ(o.rsp_in_ready, r.rsp_in_ready) << "cycle " << k;
    EXPECT_EQ(o.cnt_valid, r.cnt_valid) << "cycle " << k;
    EXPECT_EQ(o.mw_valid, r.mw_valid) << "cycle " << k;
    EXPECT_EQ(o.mw_add, r.mw_add) << "cycle " << k;
    EXPECT_EQ(o.home, r.home) << "cycle " << k;
    EXPECT_EQ(o.merging, r.merging) << "cycle " << k;
    if (o.cnt_valid) {
      EXPECT_EQ(o.cnt_line, 10u);
      EXPECT_EQ(o.cnt_limit, 2u);
      EXPECT_EQ(o.cnt_n, 1u);
    }
    if (o.mw_valid) {
      EXPECT_EQ(o.mw_addr, 0x320u + (k - 5) * 16);
    }
    if (o.home) {
      EXPECT_EQ(o.home_line, 10u);
      EXPECT_EQ(o.home_len, 2u);
    }
    if (in.rsp_in_valid && o.rsp_in_ready) ++next;
  }
  EXPECT_TRUE(c.eval(in).idle);
  EXPECT_EQ(c.eval(in).stat.partials, 1u);
}

// A pulled line that would be whole with no room for it: HELD, then asked
// again once the queue has room.
TEST(EpRxCore, HeldUntilTheFinalQueueHasRoom) {
  EpRxParams p;
  p.finq = 2;
  EpRxCore c{p};
  EpRxCoreInputs in;
  c.step(in);
  in.rst_n = true;
  pack_window(in.tbl, 0, window());
  in.mw_ready = in.cnt_ready = true;
  in.fin_ready = false;
  const EpHeldPins<EpRxCoreInputs, EpRxCoreOutputs> pins{&EpRxCoreInputs::rsp_in_valid, &EpRxCoreInputs::rsp_in_flit,
                                                         &EpRxCoreOutputs::rsp_in_ready, &EpRxCoreInputs::fin_ready,
                                                         &EpRxCoreOutputs::fin_valid};
  expect_held_until_room(c, in, pins, header(pkt::Op::pull_rsp), p.finq);
}

TEST(EpRxParams, OutOfRangeNamesTheParameter) {
  EpRxParams p;
  p.resq = 1;
  expect_refused(p, "resq (RESQ) = 1");
  p = EpRxParams{};
  p.flit_w = 192;
  EXPECT_THROW(EpRxCore{p}, std::invalid_argument);
}

TEST(EpRxBlock, RegistersShowTheParameters) {
  EpRx b{EpRxParams{}};
  EpRxInputs in;
  b.step(in);
  in.rst_n = true;
  uint32_t v = 0;
  EXPECT_EQ(b.tlm_read(T3_EP_RX_A_PARAM, v), RegStatus::ok);
  EXPECT_EQ(v, 128u | 4u << 16 | 4u << 24);
  EXPECT_EQ(b.tlm_read(T3_EP_RX_A_PARAM_Q, v), RegStatus::ok);
  EXPECT_EQ(v, 4u | 4u << 5 | 32u << 10 | 4096u << 16);
  EXPECT_EQ(b.tlm_read(T3_EP_RX_A_STATUS, v), RegStatus::ok);
  EXPECT_EQ(v, T3_EP_RX_R_STATUS_IDLE_MASK);
}

}  // namespace
}  // namespace t3
