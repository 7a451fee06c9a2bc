// ep_tx core unit tests: the cycle table of docs/blocks/ep_tx.md, a
// copy's packets, the parameter checks.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "common/packet.h"
#include "ep_tx/ep_tx.h"
#include "t3/ep_tx_regs.h"

namespace t3 {
namespace {

Wide data(unsigned i) {
  Wide d;
  d.w[0] = 0xD0 + i;
  return d;
}

// The page's cycle table: a PUSH of two flits, each read answered the cycle
// after it is granted, the output always ready.
TEST(EpTxCore, CycleTableOfAPush) {
  EpTxCore core{EpTxParams{}};
  EpTxCoreInputs in;
  in.rst_n = true;
  in.mr_ready = true;
  in.req_out_ready = true;
  pkt::Header h;
  h.op = uint8_t(pkt::Op::push);
  h.len = 2;
  in.pkt_valid = true;
  in.pkt_hdr = pkt::pack(h);
  in.pkt_local_addr = 0x100;
  struct Row {
    bool pkt_ready, mr_valid;
    uint64_t mr_addr;
    bool out_valid;
    int out;  // -1 the header, else the data flit
    bool idle;
  };
  const Row rows[] = {
      {true, false, 0, false, 0, true},       // 0: the descriptor taken
      {false, true, 0x100, true, -1, false},  // 1: the header leaves; read 0 granted
      {false, true, 0x110, false, 0, false},  // 2: read 1 granted; read 0 answered
      {true, false, 0, true, 0, false},       // 3: flit 0 leaves; read 1 answered; nothing left to read
      {true, false, 0, true, 1, false},       // 4: flit 1 leaves
      {true, false, 0, false, 0, true},       // 5: idle
  };
  unsigned tag0 = 0, tag1 = 0;
  for (unsigned c = 0; c < 6; ++c) {
    if (c == 2) {
      in.md_valid = true;
      in.md_tag = uint8_t(tag0);
      in.md_data = data(0);
    } else if (c == 3) {
      in.md_valid = true;
      in.md_tag = uint8_t(tag1);
      in.md_data = data(1);
    } else {
      in.md_valid = false;
    }
    const EpTxCoreOutputs o = core.step(in);
    const Row& r = rows[c];
    EXPECT_EQ(o.pkt_ready, r.pkt_ready) << "cycle " << c;
    EXPECT_EQ(o.mr_valid, r.mr_valid) << "cycle " << c;
    if (r.mr_valid) {
      EXPECT_EQ(o.mr_addr, r.mr_addr) << "cycle " << c;
    }
    if (c == 1) tag0 = o.mr_tag;
    if (c == 2) tag1 = o.mr_tag;
    EXPECT_EQ(o.req_out_valid, r.out_valid) << "cycle " << c;
    if (r.out_valid) {
      EXPECT_EQ(o.req_out_flit, r.out < 0 ? pkt::pack(h) : data(unsigned(r.out))) << "cycle " << c;
    }
    EXPECT_EQ(o.idle, r.idle) << "cycle " << c;
    in.pkt_valid = false;
  }
}

TEST(EpTxCore, ACopyOfZeroFlitsIsTakenWithNoPacket) {
  EpTxCore core{EpTxParams{}};
  EpTxCoreInputs in;
  in.rst_n = true;
  in.cp_valid = true;
  in.cp_flits = 0;
  EXPECT_TRUE(core.step(in).cp_done);
  in.cp_valid = false;
  EXPECT_TRUE(core.step(in).idle);
}

TEST(EpTxCore, ParametersOutOfRangeAreNamed) {
  EpTxParams p;
  p.max_len = 17;
  try {
    EpTxCore c(p);
    FAIL() << "accepted MAX_LEN = 17";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("MAX_LEN"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace t3
