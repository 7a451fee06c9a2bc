// ep_res core and block unit tests: the cycle table of docs/blocks/ep_res.md,
// the parameters' checks and the registers.
#include <gtest/gtest.h>

#include <iterator>
#include <stdexcept>

#include "common/packet.h"
#include "ep_res/ep_res.h"
#include "param_refusal.h"
#include "t3/ep_res_regs.h"

namespace t3 {
namespace {

Wide hdr(pkt::Op op, uint64_t addr, unsigned len, unsigned ctr) {
  pkt::Header h;
  h.op = uint8_t(op);
  h.len = uint8_t(len);
  h.ctr = uint8_t(ctr);
  h.addr = addr;
  return pkt::pack(h);
}

// docs/blocks/ep_res.md, "Cycle table": the defaults (8 counters, 16-byte
// flits); counter 2 sends 4 flits at 0x100 (cycle 0) and 4 at 0x140 (1),
// and completes in cycle 3; ep_rx hands on a RESULT in each cycle from 1,
// at the rows' addresses; everything ready.
TEST(EpResCore, CycleTable) {
  EpResCore c{EpResParams{}};
  EpResCoreInputs in;
  c.step(in);  // reset
  in.rst_n = true;
  in.desc_ready = in.res_ready = true;
  struct Row {
    bool desc;
    uint64_t desc_addr;
    bool cpl;
    bool rx;
    uint64_t rx_addr;
    unsigned ctr_out;  // the ctr handed on (0 when nothing)
    uint64_t live;
  };
  const Row table[] = {
      {1, 0x100, 0, 0, 0, 0, 0x0},      // 0: counter 2's first packet: [0x100, 0x140)
      {1, 0x140, 0, 1, 0x13F, 2, 0x4},  // 1: a RESULT at 0x13F: counter 2; the range grows to 0x180
      {0, 0, 0, 1, 0x17F, 2, 0x4},      // 2: 0x17F: counter 2
      {0, 0, 1, 1, 0x180, 0xFF, 0x4},   // 3: 0x180: none (UNMATCHED); counter 2 completes
      {0, 0, 0, 1, 0x100, 0xFF, 0x0},   // 4: its range ended: none
  };
  for (unsigned k = 0; k < std::size(table); ++k) {
    const Row& r = table[k];
    in.desc_valid = r.desc;
    in.desc_hdr = hdr(pkt::Op::push, r.desc_addr, 4, 2);
    in.cpl_wr = r.cpl;
    in.cpl_status = 0;
    in.cpl_ctr = 2;
    in.rx_valid = r.rx;
    in.rx_hdr = hdr(pkt::Op::result, r.rx_addr, 1, 0x33);
    const EpResCoreOutputs o = c.step(in);
    EXPECT_EQ(o.res_valid, r.rx) << "cycle " << k;
    if (r.rx) {
      EXPECT_EQ(pkt::unpack(o.res_hdr).ctr, r.ctr_out) << "cycle " << k;
    }
    EXPECT_EQ(o.unmatched, r.rx && r.ctr_out == 0xFF) << "cycle " << k;
    EXPECT_EQ(o.live, r.live) << "cycle " << k;
  }
  const EpResCoreOutputs o = c.eval(in);
  EXPECT_EQ(o.stat.results, 4u);
  EXPECT_EQ(o.stat.unmatched, 2u);
}

TEST(EpResParams, OutOfRangeNamesTheParameter) {
  EpResParams p;
  p.ctrs = 65;
  expect_refused(p, "ctrs (CTRS) = 65");
  p = EpResParams{};
  p.flit_w = 192;
  EXPECT_THROW(EpResCore{p}, std::invalid_argument);
}

TEST(EpResBlock, RegistersShowTheParameters) {
  EpRes b{EpResParams{}};
  EpResInputs in;
  b.step(in);
  in.rst_n = true;
  uint32_t v = 0;
  EXPECT_EQ(b.tlm_read(T3_EP_RES_A_PARAM, v), RegStatus::ok);
  EXPECT_EQ(v, 128u | 8u << 16 | 32u << 24);
}

}  // namespace
}  // namespace t3
