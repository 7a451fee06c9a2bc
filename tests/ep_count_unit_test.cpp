// ep_count core and block unit tests: the cycle table of
// docs/blocks/ep_count.md, the rules one by one, the parameters' checks and
// the registers.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "ep_count/ep_count.h"
#include "ep_count/ep_count_request.h"
#include "param_refusal.h"
#include "t3/ep_count_regs.h"

namespace t3 {
namespace {

EpCountParams small() {
  EpCountParams p;
  p.count_depth = 4;
  p.ports = 2;
  return p;
}

// Out of reset into a state with the array cleared.
void cleared(EpCountCore& c, EpCountCoreInputs& in) {
  in.rst_n = false;
  c.step(in);
  in.rst_n = true;
  for (unsigned n = 0; n < c.params().count_depth; ++n) ASSERT_TRUE(c.step(in).clearing);
  ASSERT_FALSE(c.eval(in).clearing);
}

// docs/blocks/ep_count.md, "Cycle table": COUNT_DEPTH 4, two ports asking
// from the reset on; port 1 has no room for a whole line at first.
TEST(EpCountCore, CycleTable) {
  const EpCountParams p = small();
  EpCountCore c{p};
  EpCountCoreInputs in;
  c.step(in);  // reset (rst_n low)
  in.rst_n = true;
  ep_count_put(p, in, 0, EpCountRequest{EpCountOp::add, 2, 1, 2, 3, true});
  ep_count_put(p, in, 1, EpCountRequest{EpCountOp::add, 2, 1, 2, 3, false});
  struct Row {
    bool clearing;
    uint32_t ready, rsp_valid;
    EpCountCode code;
    uint32_t count, len;
    bool whole;
  };
  using C = EpCountCode;
  const Row table[] = {
      {true, 0, 0, C::done, 0, 0, false},   // 0: clearing line 0
      {true, 0, 0, C::done, 0, 0, false},   // 1
      {true, 0, 0, C::done, 0, 0, false},   // 2
      {true, 0, 0, C::done, 0, 0, false},   // 3: line 3, the last
      {false, 1, 0, C::done, 0, 0, false},  // 4: port 0 granted
      {false, 2, 1, C::done, 0, 0, false},  // 5: port 1 granted; port 0's answer, line 2 written 1
      {false, 0, 2, C::held, 1, 3, false},  // 6: port 1's answer sees the 1 (forwarded); 1 + 1 = 2 is whole: held
      {false, 2, 0, C::done, 0, 0, false},  // 7: port 1 asks again, room made
      {false, 0, 2, C::done, 1, 3, true},   // 8: done, whole
  };
  for (unsigned k = 0; k < std::size(table); ++k) {
    if (k == 7) ep_count_put(p, in, 1, EpCountRequest{EpCountOp::add, 2, 1, 2, 3, true});
    const EpCountCoreOutputs o = c.step(in);
    const Row& r = table[k];
    EXPECT_EQ(o.clearing, r.clearing) << "cycle " << k;
    EXPECT_EQ(o.req_ready, r.ready) << "cycle " << k;
    EXPECT_EQ(o.rsp_valid, r.rsp_valid) << "cycle " << k;
    EXPECT_EQ(o.rsp_code, uint8_t(r.code)) << "cycle " << k;
    EXPECT_EQ(o.rsp_count, r.count) << "cycle " << k;
    EXPECT_EQ(o.rsp_len, r.len) << "cycle " << k;
    EXPECT_EQ(o.rsp_whole, r.whole) << "cycle " << k;
    in.req_valid &= ~o.req_ready;
  }
  EXPECT_EQ(c.count(2), 2u);
  EXPECT_EQ(c.len(2), 3u);
}

// One request through port 0 to its answer.
EpCountCoreOutputs ask(EpCountCore& c, EpCountCoreInputs& in, const EpCountRequest& r) {
  ep_count_put(c.params(), in, 0, r);
  c.step(in);
  ep_count_withdraw(in, 0);
  return c.step(in);
}

TEST(EpCountCore, BadRequestsChangeNothing) {
  EpCountParams p = small();
  p.count_depth = 3;  // line 3 is on the port and past the array
  p.max_len = 4;      // LEN_W 3: lengths 5..7 are on the port
  EpCountCore c{p};
  EpCountCoreInputs in;
  cleared(c, in);
  ask(c, in, EpCountRequest{EpCountOp::add, 1, 2, 9, 4, true});
  const EpCountRequest bad[] = {
      {EpCountOp(3), 1, 1, 9, 1, true},        // no such op
      {EpCountOp::add, 3, 1, 9, 1, true},      // no such line
      {EpCountOp::clear, 3, 0, 0, 0, true},    // no such line, any op
      {EpCountOp::add, 1, 0, 9, 1, true},      // an add of nothing
      {EpCountOp::add, 1, 1, 9, 0, true},      // a line of no flits
      {EpCountOp::add, 1, 1, 9, 5, true},      // longer than MAX_LEN
  };
  for (const EpCountRequest& r : bad) {
    const EpCountCoreOutputs o = ask(c, in, r);
    EXPECT_EQ(o.rsp_code, uint8_t(EpCountCode::bad)) << "line " << r.line << " op " << unsigned(r.op);
    EXPECT_TRUE(o.bad);
    EXPECT_FALSE(o.rsp_whole);
  }
  EXPECT_EQ(c.count(1), 2u);
  EXPECT_EQ(c.len(1), 4u);
  EXPECT_EQ(c.eval(in).stat.bad, 6u);
  EXPECT_EQ(c.eval(in).last.code, 3u);
}

TEST(EpCountCore, AClearKeepsTheLengthAndAReadChangesNothing) {
  EpCountCore c{small()};
  EpCountCoreInputs in;
  cleared(c, in);
  ask(c, in, EpCountRequest{EpCountOp::add, 0, 3, 7, 4, true});
  EpCountCoreOutputs o = ask(c, in, EpCountRequest{EpCountOp::read, 0, 0, 3, 0, true});
  EXPECT_EQ(o.rsp_count, 3u);
  EXPECT_TRUE(o.rsp_whole) << "the read's limit is the count";
  o = ask(c, in, EpCountRequest{EpCountOp::clear, 0, 0, 3, 0, true});
  EXPECT_EQ(o.rsp_count, 3u) << "the answer shows the line before";
  EXPECT_FALSE(o.rsp_whole) << "0 after, limit 3";
  EXPECT_EQ(c.count(0), 0u);
  EXPECT_EQ(c.len(0), 4u);
}

TEST(EpCountCore, AResetClearsWhatWasCounted) {
  EpCountCore c{small()};
  EpCountCoreInputs in;
  cleared(c, in);
  ask(c, in, EpCountRequest{EpCountOp::add, 3, 1, 7, 1, true});
  ASSERT_EQ(c.count(3), 1u);
  cleared(c, in);
  EXPECT_EQ(c.count(3), 0u);
  EXPECT_EQ(c.len(3), 0u);
}

TEST(EpCountParams, OutOfRangeNamesTheParameter) {
  EpCountParams p;
  p.count_depth = 65537;
  expect_refused(p, "count_depth (COUNT_DEPTH) = 65537");
  p = EpCountParams{};
  p.ports = 5;
  EXPECT_THROW(EpCountCore{p}, std::invalid_argument);
}

TEST(EpCountBlock, RegistersShowTheParametersAndTheClearing) {
  EpCount b{small()};
  EpCountInputs in;
  b.step(in);  // reset
  in.rst_n = true;
  uint32_t v = 0;
  EXPECT_EQ(b.tlm_read(T3_EP_COUNT_A_STATUS, v), RegStatus::ok);
  EXPECT_EQ(v, T3_EP_COUNT_R_STATUS_CLEARING_MASK);
  for (int n = 0; n < 4; ++n) b.step(in);
  EXPECT_EQ(b.tlm_read(T3_EP_COUNT_A_STATUS, v), RegStatus::ok);
  EXPECT_EQ(v, 0u);
  EXPECT_EQ(b.tlm_read(T3_EP_COUNT_A_PARAM, v), RegStatus::ok);
  EXPECT_EQ(v, 8u | 4u << 8 | 2u << 16 | 32u << 24);
  EXPECT_EQ(b.tlm_read(T3_EP_COUNT_A_PARAM_DEPTH, v), RegStatus::ok);
  EXPECT_EQ(v, 4u);
  EXPECT_EQ(b.tlm_write(T3_EP_COUNT_A_STAT_OPS, 1), RegStatus::command_error) << "read-only";
}

}  // namespace
}  // namespace t3
