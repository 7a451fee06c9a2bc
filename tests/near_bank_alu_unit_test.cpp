// Unit tests of the near-bank ALU's cycle model (no SystemC, no RTL). The
// adder itself: near_bank_alu_fp_add_test.cpp.
#include <gtest/gtest.h>

#include <map>
#include <stdexcept>
#include <utility>

#include "near_bank_alu/near_bank_alu.h"

namespace t3 {
namespace {

// The model with a bank array behind it (read-first, byte-masked writes).
struct Harness {
  explicit Harness(const NearBankAluParams& p = {}) : alu(p), p(p) {
    in.rst_n = false;
    alu.clock(in);
    in.rst_n = true;
  }
  NearBankAluOutputs step() {
    in.bank_rdata = rdata;
    const NearBankAluOutputs o = alu.eval(in);
    rdata = o.bank_rd ? mem[{o.bank_rd_bg, o.bank_rd_addr}] : Wide{};
    if (o.bank_wr)
      for (unsigned b = 0; b < p.burst_bytes; ++b)
        if (o.bank_wmask.byte(b / 8) >> (b % 8) & 1)
          mem[{o.bank_wr_bg, o.bank_wr_addr}].set_byte(b, o.bank_wdata.byte(b));
    alu.clock(in);
    return o;
  }
  void cmd(uint32_t op, uint32_t fmt, uint32_t bg, uint32_t addr, const Wide& data) {
    in.cmd_valid = true;
    in.cmd_op = op;
    in.cmd_fmt = fmt;
    in.cmd_bg = bg;
    in.cmd_addr = addr;
    in.cmd_data = data;
    in.cmd_mask = Wide{};
    for (unsigned b = 0; b < p.burst_bytes; ++b) in.cmd_mask.set_lane(b, 1, 1);
  }
  NearBankAlu alu;
  NearBankAluParams p;
  NearBankAluInputs in;
  Wide rdata;
  std::map<std::pair<uint32_t, uint32_t>, Wide> mem;
};

Wide splat32(uint32_t v) {
  Wide w;
  for (unsigned l = 0; l < 8; ++l) w.set_lane(32 * l, 32, v);
  return w;
}

TEST(NearBankAluParams, DefaultsAreTable1AndBadValuesNameTheRange) {
  NearBankAluParams p;
  EXPECT_NO_THROW(p.validate());
  EXPECT_EQ(p.t_ccdwl, 2 * p.t_ccdl) << "T3 §5.1.1: CCDWL = 2 x CCDL";
  EXPECT_EQ(p.t_ccdwl, 4u) << "T3 Table 1: CCDWL = 4";
  EXPECT_EQ(p.bg, 4u) << "T3 Table 1: 4 bank groups";
  p.burst_bytes = 48;
  EXPECT_THROW(NearBankAlu{p}, std::invalid_argument);
  p = NearBankAluParams{};
  p.t_ccdwl = 1;
  try {
    p.validate();
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("t_ccdwl (T_CCDWL) = 1 is out of range; allowed: 2..15"),
              std::string::npos)
        << e.what();
  }
}

// The timing table "An ADD's life" in docs/blocks/near_bank_alu.md.
TEST(NearBankAlu, AnAddsLifeAsDocumented) {
  Harness h;
  h.mem[{0, 6}] = splat32(0x3f800000);  // 1.0 in every fp32 lane
  h.cmd(2, 2, 0, 6, splat32(0x40000000));  // += 2.0
  struct Row {
    bool cmd_ready, bank_rd, bank_wr;
    uint32_t bg_ready;
  };
  // cycle 0: taken; 1: bank read; 2: data into the adders; 5: write-back.
  // Bank group 0 takes its next command at cycle 4 (tCCDWL = 4).
  const Row rows[] = {{true, false, false, 0xf}, {false, true, false, 0xe},
                      {false, false, false, 0xe}, {false, false, false, 0xe},
                      {false, false, false, 0xf}, {false, false, true, 0xf},
                      {false, false, false, 0xf}};
  for (int c = 0; c < 7; ++c) {
    if (c == 1) h.in.cmd_valid = false;
    const NearBankAluOutputs o = h.step();
    if (c == 0) {
      EXPECT_EQ(o.cmd_ready, rows[c].cmd_ready);
    }
    EXPECT_EQ(o.bank_rd, rows[c].bank_rd) << "cycle " << c;
    EXPECT_EQ(o.bank_wr, rows[c].bank_wr) << "cycle " << c;
    EXPECT_EQ(o.bg_ready, rows[c].bg_ready) << "cycle " << c;
    if (o.bank_wr) {
      EXPECT_EQ(o.bank_wdata, splat32(0x40400000)) << "3.0";
    }
  }
}

TEST(NearBankAlu, AReadSeesTheWriteOfTheCycleBefore) {
  Harness h;
  h.cmd(1, 0, 2, 8, splat32(0x11223344));  // STORE at cycle 0: written at cycle 5
  h.step();
  h.cmd(0, 0, 2, 8, {});
  unsigned waited = 0;
  while (!h.step().cmd_ready) ++waited;  // READ taken at cycle 4, reads at 5
  EXPECT_EQ(waited, 3u);
  h.in.cmd_valid = false;
  NearBankAluOutputs o;
  for (int c = 0; c < 4 && !o.rsp_valid; ++c) o = h.step();
  ASSERT_TRUE(o.rsp_valid);
  EXPECT_EQ(o.rsp_data, splat32(0x11223344)) << "forwarded: the bank's read missed the write";
}

TEST(NearBankAlu, RefusedCommandsDoNothingButCount) {
  Harness h;
  h.cmd(3, 0, 0, 0, {});
  EXPECT_TRUE(h.step().cmd_ready);
  h.cmd(2, 3, 0, 0, {});
  EXPECT_TRUE(h.step().cmd_ready);
  h.in.cmd_valid = false;
  for (int c = 0; c < 8; ++c) {
    const NearBankAluOutputs o = h.step();
    EXPECT_FALSE(o.bank_rd || o.bank_wr);
    EXPECT_TRUE(o.err);
    EXPECT_EQ(o.stat_refused, 2u);
  }
}

}  // namespace
}  // namespace t3
