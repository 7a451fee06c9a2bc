// ep_final core and block unit tests: the cycle table of
// docs/blocks/ep_final.md, a header past MAX_LEN, the parameters' checks and
// the registers.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "common/packet.h"
#include "ep_final/ep_final.h"
#include "param_refusal.h"
#include "t3/ep_final_regs.h"

namespace t3 {
namespace {

Wide line(unsigned len) {
  pkt::Header h;
  h.op = uint8_t(pkt::Op::pull_rsp);
  h.len = uint8_t(len);
  h.dtype = 2;
  return pkt::pack(h);
}

// docs/blocks/ep_final.md, "Cycle table": a line of two flits, every port
// ready, flit 1's answer before flit 0's.
TEST(EpFinalCore, CycleTable) {
  EpFinalCore c{EpFinalParams{}};
  EpFinalCoreInputs in;
  c.step(in);  // reset
  in.rst_n = true;
  in.mr_ready = in.mw_ready = in.res_ready = true;
  in.fin_valid = true;
  in.fin_src = 0x100;
  in.fin_dst = 0x200;
  in.fin_hdr = line(2);
  struct Row {
    bool fin_ready, mr_valid;
    uint64_t mr_addr;
    bool mw_valid;
    uint64_t mw_addr;
    bool res_valid;
  };
  const Row table[] = {
      {1, 0, 0, 0, 0, 0},          // 0: the line taken
      {0, 1, 0x100, 0, 0, 0},      // 1: read flit 0
      {0, 1, 0x110, 0, 0, 0},      // 2: read flit 1
      {0, 0, 0, 0, 0, 0},          // 3: flit 1's answer
      {0, 0, 0, 0, 0, 0},          // 4: flit 0's answer
      {0, 0, 0, 1, 0x200, 0},      // 5: flit 0 added
      {0, 0, 0, 1, 0x210, 0},      // 6: flit 1 added
      {0, 0, 0, 0, 0, 1},          // 7: the header handed on
      {1, 0, 0, 0, 0, 0},          // 8: idle
  };
  for (unsigned k = 0; k < std::size(table); ++k) {
    in.md_valid = k == 3 || k == 4;
    in.md_tag = k == 3 ? 1 : 0;
    in.md_data.w[0] = 0xD0 + in.md_tag;
    const EpFinalCoreOutputs o = c.step(in);
    if (o.fin_ready) in.fin_valid = false;
    const Row& r = table[k];
    EXPECT_EQ(o.fin_ready, r.fin_ready) << "cycle " << k;
    EXPECT_EQ(o.mr_valid, r.mr_valid) << "cycle " << k;
    EXPECT_EQ(o.mr_addr, r.mr_addr) << "cycle " << k;
    EXPECT_EQ(o.mw_valid, r.mw_valid) << "cycle " << k;
    EXPECT_EQ(o.mw_addr, r.mw_addr) << "cycle " << k;
    EXPECT_EQ(o.res_valid, r.res_valid) << "cycle " << k;
    if (o.mw_valid) {
      EXPECT_EQ(o.mw_data.w[0], 0xD0u + (k - 5)) << "cycle " << k;
      EXPECT_TRUE(o.mw_add);
      EXPECT_EQ(o.mw_dtype, 2u);
    }
    EXPECT_FALSE(o.stray) << "cycle " << k;
  }
  EXPECT_EQ(c.eval(in).stat.lines, 1u);
  EXPECT_EQ(c.eval(in).stat.flits, 2u);
}

TEST(EpFinalCore, AHeaderPastMaxLenReadsMaxLenFlits) {
  EpFinalParams p;
  p.max_len = 2;
  EpFinalCore c{p};
  EpFinalCoreInputs in;
  c.step(in);
  in.rst_n = true;
  in.mr_ready = true;
  in.fin_valid = true;
  in.fin_hdr = line(9);
  unsigned reads = 0;
  for (int k = 0; k < 10; ++k) reads += c.step(in).mr_valid;
  EXPECT_EQ(reads, 2u);
}

TEST(EpFinalParams, OutOfRangeNamesTheParameter) {
  EpFinalParams p;
  p.max_len = 17;
  expect_refused(p, "max_len (MAX_LEN) = 17");
}

TEST(EpFinalBlock, RegistersShowTheParametersAndIdle) {
  EpFinal b{EpFinalParams{}};
  EpFinalInputs in;
  b.step(in);
  in.rst_n = true;
  uint32_t v = 0;
  EXPECT_EQ(b.tlm_read(T3_EP_FINAL_A_PARAM, v), RegStatus::ok);
  EXPECT_EQ(v, 128u | 4u << 16 | 32u << 24);
  EXPECT_EQ(b.tlm_read(T3_EP_FINAL_A_STATUS, v), RegStatus::ok);
  EXPECT_EQ(v, T3_EP_FINAL_R_STATUS_IDLE_MASK);
}

}  // namespace
}  // namespace t3
