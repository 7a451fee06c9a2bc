// ep_req core and block unit tests: the cycle table of docs/blocks/ep_req.md,
// a PUSH held until the staged queue has room, the parameters' checks and
// the registers.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "common/packet.h"
#include "ep_req/ep_req.h"
#include "ep_held_check.h"
#include "param_refusal.h"
#include "t3/ep_req_regs.h"

namespace t3 {
namespace {

EpWin window() {
  EpWin w;
  w.valid = true;
  w.home = w.det = true;
  w.dtype = 0;
  w.expected = 2;
  w.count_base = 8;
  w.net_base = 0x4000;
  w.bytes = 0x100;
  w.src = 0x100;
  w.dst = 0x200;
  w.merge = 0x300;
  w.stage = 0x1000;
  w.contrib_mask = 0x6;  // GPUs 1 and 2
  return w;
}

pkt::Header header(pkt::Op op) {
  pkt::Header h;
  h.op = uint8_t(op);
  h.len = 2;
  h.count = 1;
  h.src = 2;         // rank 1
  h.addr = 0x4020;  // flit 2 of the window
  return h;
}

// docs/blocks/ep_req.md, "Cycle table": a PULL of two flits, then a PUSH of
// two flits that makes its line whole; everything ready, the queue giving
// slot 4, the counter answering in the cycle after its grant.
TEST(EpReqCore, CycleTable) {
  EpReqCore c{EpReqParams{}};
  EpReqCoreInputs in;
  c.step(in);  // reset
  in.rst_n = true;
  pack_window(in.tbl, 0, window());
  in.mw_ready = in.cnt_ready = in.rq_ready = in.mr_ready = true;
  in.rq_slot = 4;
  const Wide flits[] = {pkt::pack(header(pkt::Op::pull)), pkt::pack(header(pkt::Op::push)), Wide{}, Wide{}};
  unsigned next = 0;
  struct Row {
    bool req_in_ready, rq_valid, mr_valid, cnt_valid, mw_valid, det_valid;
  };
  const Row table[] = {
      {1, 0, 0, 0, 0, 0},  // 0: the PULL's header taken
      {0, 0, 0, 0, 0, 0},  // 1: looked up: window 0, offset 0x20
      {0, 0, 0, 0, 0, 0},  // 2: decoded: a PULL, from src + 0x20
      {0, 1, 0, 0, 0, 0},  // 3: its PULL_RSP and two slots reserved: slot 4 first
      {0, 0, 1, 0, 0, 0},  // 4: read src + 0x20 into slot 4
      {0, 0, 1, 0, 0, 0},  // 5: read src + 0x30 into slot 5; idle after
      {1, 0, 0, 0, 0, 0},  // 6: the PUSH's header taken
      {0, 0, 0, 0, 0, 0},  // 7: looked up
      {0, 0, 0, 0, 0, 0},  // 8: decoded: line 8 + 2 = 10, limit 2, stage + 1 * 0x100 + 0x20
      {0, 0, 0, 1, 0, 0},  // 9: ADD 1 to line 10: granted
      {0, 0, 0, 0, 0, 0},  // 10: the answer: DONE, whole
      {1, 0, 0, 0, 1, 0},  // 11: flit 0 stored at 0x1120
      {1, 0, 0, 0, 1, 0},  // 12: flit 1 stored at 0x1130
      {1, 0, 0, 0, 0, 1},  // 13: the staged line (window 0, line 10, 2 flits) for the in-order add
  };
  for (unsigned k = 0; k < std::size(table); ++k) {
    in.req_in_valid = next < std::size(flits) && k >= 6 * (next > 0);
    in.req_in_flit = in.req_in_valid ? flits[next] : Wide{};
    in.cnt_rsp_valid = k == 10;
    in.cnt_rsp_whole = true;
    const EpReqCoreOutputs o = c.step(in);
    const Row& r = table[k];
    EXPECT_EQ(o.req_in_ready, r.req_in_ready) << "cycle " << k;
    EXPECT_EQ(o.rq_valid, r.rq_valid) << "cycle " << k;
    EXPECT_EQ(o.mr_valid, r.mr_valid) << "cycle " << k;
    EXPECT_EQ(o.cnt_valid, r.cnt_valid) << "cycle " << k;
    EXPECT_EQ(o.mw_valid, r.mw_valid) << "cycle " << k;
    EXPECT_EQ(o.det_valid, r.det_valid) << "cycle " << k;
    if (o.rq_valid) {
      EXPECT_EQ(o.rq_len, 2u);
    }
    if (o.mr_valid) {
      EXPECT_EQ(o.mr_addr, 0x120u + (k - 4) * 16);
      EXPECT_EQ(o.mr_tag, 4u + (k - 4));
    }
    if (o.cnt_valid) {
      EXPECT_EQ(o.cnt_line, 10u);
      EXPECT_EQ(o.cnt_limit, 2u);
      EXPECT_TRUE(o.cnt_whole_ok);
    }
    if (o.mw_valid) {
      EXPECT_EQ(o.mw_addr, 0x1120u + (k - 11) * 16);
    }
    if (o.det_valid) {
      EXPECT_EQ(o.det_line, 10u);
      EXPECT_EQ(o.det_len, 2u);
    }
    if (in.req_in_valid && o.req_in_ready) ++next;
  }
  EXPECT_EQ(next, std::size(flits));
  EXPECT_EQ(c.eval(in).stat.pulls, 1u);
  EXPECT_EQ(c.eval(in).stat.pushes, 1u);
}

// A PUSH that would make its line whole with the staged queue full: HELD,
// then asked again once the queue has room.
TEST(EpReqCore, HeldUntilTheStagedQueueHasRoom) {
  EpReqParams p;
  p.detq = 2;
  EpReqCore c{p};
  EpReqCoreInputs in;
  c.step(in);
  in.rst_n = true;
  pack_window(in.tbl, 0, window());
  in.mw_ready = in.cnt_ready = true;
  in.det_ready = false;
  const EpHeldPins<EpReqCoreInputs, EpReqCoreOutputs> pins{&EpReqCoreInputs::req_in_valid, &EpReqCoreInputs::req_in_flit,
                                                           &EpReqCoreOutputs::req_in_ready, &EpReqCoreInputs::det_ready,
                                                           &EpReqCoreOutputs::det_valid};
  expect_held_until_room(c, in, pins, header(pkt::Op::push), p.detq);
}

TEST(EpReqParams, OutOfRangeNamesTheParameter) {
  EpReqParams p;
  p.slots = 65;
  expect_refused(p, "slots (SLOTS) = 65");
  p = EpReqParams{};
  p.detq = 1;
  EXPECT_THROW(EpReqCore{p}, std::invalid_argument);
}

TEST(EpReqBlock, RegistersShowTheParameters) {
  EpReq b{EpReqParams{}};
  EpReqInputs in;
  b.step(in);
  in.rst_n = true;
  uint32_t v = 0;
  EXPECT_EQ(b.tlm_read(T3_EP_REQ_A_PARAM, v), RegStatus::ok);
  EXPECT_EQ(v, 128u | 4u << 16 | 4u << 24);
  EXPECT_EQ(b.tlm_read(T3_EP_REQ_A_PARAM_Q, v), RegStatus::ok);
  EXPECT_EQ(v, 10u | 8u << 8 | 32u << 16);
  EXPECT_EQ(b.tlm_read(T3_EP_REQ_A_PARAM_C, v), RegStatus::ok);
  EXPECT_EQ(v, 4096u);
  EXPECT_EQ(b.tlm_read(T3_EP_REQ_A_STATUS, v), RegStatus::ok);
  EXPECT_EQ(v, T3_EP_REQ_R_STATUS_IDLE_MASK);
}

}  // namespace
}  // namespace t3
