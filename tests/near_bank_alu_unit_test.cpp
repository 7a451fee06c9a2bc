// Unit tests of the near-bank ALU core's cycle model (no SystemC, no RTL;
// the block behind its registers is the co-simulation's, but for one test
// here: its eval() and clock() against RegBlock's generic ones). The adder
// itself: near_bank_alu_fp_add_test.cpp.
#include <gtest/gtest.h>

#include <map>
#include <random>
#include <stdexcept>
#include <utility>

#include "apb_master.h"
#include "near_bank_alu/near_bank_alu.h"
#include "near_bank_alu/near_bank_alu_core.h"
#include "reg_traffic.h"

namespace t3 {
namespace {

// The model with a bank array behind it (read-first, byte-masked writes).
struct Harness {
  explicit Harness(const NearBankAluParams& p = {}) : alu(p), p(p) {
    in.rst_n = false;
    alu.clock(in);
    in.rst_n = true;
  }
  NearBankAluCoreOutputs step() {
    in.bank_rdata = rdata;
    const NearBankAluCoreOutputs o = alu.eval(in);
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
  NearBankAluCore alu;
  NearBankAluParams p;
  NearBankAluCoreInputs in;
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
  EXPECT_THROW(NearBankAluCore{p}, std::invalid_argument);
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
    bool busy;
  };
  // cycle 0: taken; 1: bank read; 2: data into the adders (4 stages); 6:
  // write-back. Bank group 0 takes its next command at cycle 4 (tCCDWL = 4,
  // T3 §5.1.1, whatever the pipeline's depth). Busy (the registers') while
  // the ADD is in the pipeline, cycles 1..6.
  const Row rows[] = {{true, false, false, 0xf, false}, {false, true, false, 0xe, true},
                      {false, false, false, 0xe, true}, {false, false, false, 0xe, true},
                      {false, false, false, 0xf, true}, {false, false, false, 0xf, true},
                      {false, false, true, 0xf, true},  {false, false, false, 0xf, false}};
  for (int c = 0; c < 8; ++c) {
    if (c == 1) h.in.cmd_valid = false;
    const NearBankAluCoreOutputs o = h.step();
    if (c == 0) {
      EXPECT_EQ(o.cmd_ready, rows[c].cmd_ready);
    }
    EXPECT_EQ(o.bank_rd, rows[c].bank_rd) << "cycle " << c;
    EXPECT_EQ(o.bank_wr, rows[c].bank_wr) << "cycle " << c;
    EXPECT_EQ(o.bg_ready, rows[c].bg_ready) << "cycle " << c;
    EXPECT_EQ(o.busy, rows[c].busy) << "cycle " << c;
    if (o.bank_wr) {
      EXPECT_EQ(o.bank_wdata, splat32(0x40400000)) << "3.0";
    }
  }
}

TEST(NearBankAlu, AReadSeesTheWriteOfItsDataCycle) {
  Harness h;
  h.cmd(1, 0, 2, 8, splat32(0x11223344));  // STORE at cycle 0: written at cycle 6
  h.step();
  h.cmd(0, 0, 2, 8, {});
  unsigned waited = 0;
  while (!h.step().cmd_ready) ++waited;  // READ taken at cycle 4, reads at 5, data at 6
  EXPECT_EQ(waited, 3u);
  h.in.cmd_valid = false;
  NearBankAluCoreOutputs o;
  for (int c = 0; c < 4 && !o.rsp_valid; ++c) o = h.step();
  ASSERT_TRUE(o.rsp_valid);
  EXPECT_EQ(o.rsp_data, splat32(0x11223344)) << "forwarded: the bank's read missed the write";
}

// The two writes forwarded into a read's data, the write of its read cycle
// (5 cycles older) and that of its data cycle (4 older), the younger on top:
// with tCCDL = 1 two STOREs to one address follow each other in consecutive
// cycles (no default timing does this; the co-simulated builds have
// tCCDL >= 2).
TEST(NearBankAlu, TwoForwardedWritesTheYoungerOnTop) {
  NearBankAluParams p;
  p.t_ccdl = 1;
  Harness h(p);
  h.cmd(1, 0, 1, 3, splat32(0x11111111));  // cycle 0: written at 6
  h.step();
  h.cmd(1, 0, 1, 3, splat32(0x22222222));  // cycle 1: written at 7, even bytes
  h.in.cmd_mask = Wide{};
  for (unsigned b = 0; b < p.burst_bytes; b += 2) h.in.cmd_mask.set_lane(b, 1, 1);
  ASSERT_TRUE(h.step().cmd_ready);
  h.in.cmd_valid = false;
  for (int c = 2; c < 5; ++c) h.step();
  h.cmd(0, 0, 1, 3, {});  // cycle 5: reads at 6, data at 7
  ASSERT_TRUE(h.step().cmd_ready) << "4 and 5 cycles after the STOREs: no hazard";
  h.in.cmd_valid = false;
  NearBankAluCoreOutputs o;
  for (int c = 0; c < 4 && !o.rsp_valid; ++c) o = h.step();
  ASSERT_TRUE(o.rsp_valid);
  EXPECT_EQ(o.rsp_data, splat32(0x11221122));
  EXPECT_EQ(h.mem[std::make_pair(1u, 3u)], splat32(0x11221122)) << "and the bank, after both";
}

TEST(NearBankAlu, RefusedCommandsDoNothingButCount) {
  Harness h;
  h.cmd(3, 0, 0, 0, {});
  EXPECT_TRUE(h.step().cmd_ready);
  h.cmd(2, 3, 0, 0, {});
  EXPECT_TRUE(h.step().cmd_ready);
  h.in.cmd_valid = false;
  for (int c = 0; c < 8; ++c) {
    const NearBankAluCoreOutputs o = h.step();
    EXPECT_FALSE(o.bank_rd || o.bank_wr);
    EXPECT_TRUE(o.err);
    EXPECT_EQ(o.stat_refused, 2u);
  }
}

// err_clear (the block's CTRL.ERR_CLEAR pulse) clears the flag at its edge,
// unless a refused command is taken in the same cycle.
TEST(NearBankAlu, ErrClearLosesToARefusalInTheSameCycle) {
  Harness h;
  h.cmd(3, 0, 0, 0, {});
  h.step();
  h.in.cmd_valid = false;
  EXPECT_TRUE(h.step().err);
  h.in.err_clear = true;
  h.cmd(2, 3, 0, 0, {});  // refused, with the clear
  EXPECT_TRUE(h.step().err);
  h.in.cmd_valid = false;
  EXPECT_TRUE(h.step().err) << "the refusal won; this clear takes effect at this edge";
  h.in.err_clear = false;
  EXPECT_FALSE(h.step().err);
  EXPECT_EQ(h.step().stat_refused, 2u) << "a clear leaves the counter alone";
}

// step() is eval() then clock() on one decision: two cores on the same
// random commands, one stepped and one evaluated then clocked, give the
// same outputs every cycle (reset cycles included).
TEST(NearBankAlu, StepIsEvalThenClock) {
  NearBankAluParams p;
  p.bg = 2;
  p.addr_w = 2;  // four addresses a bank group: hazards and forwarding
  NearBankAluCore a(p), b(p);
  std::mt19937_64 rng(7);
  NearBankAluCoreInputs in;
  auto same = [](const NearBankAluCoreOutputs& x, const NearBankAluCoreOutputs& y) {
    return x.cmd_ready == y.cmd_ready && x.bg_ready == y.bg_ready && x.bank_rd == y.bank_rd &&
           x.bank_rd_bg == y.bank_rd_bg && x.bank_rd_addr == y.bank_rd_addr &&
           x.bank_wr == y.bank_wr && x.bank_wr_bg == y.bank_wr_bg &&
           x.bank_wr_addr == y.bank_wr_addr && x.bank_wdata == y.bank_wdata &&
           x.bank_wmask == y.bank_wmask && x.rsp_valid == y.rsp_valid &&
           x.rsp_data == y.rsp_data && x.err == y.err && x.stat_reads == y.stat_reads &&
           x.stat_stores == y.stat_stores && x.stat_adds == y.stat_adds &&
           x.stat_refused == y.stat_refused && x.stat_hazard_stalls == y.stat_hazard_stalls &&
           x.stat_timing_stalls == y.stat_timing_stalls && x.busy == y.busy;
  };
  unsigned writes = 0, reads = 0;
  for (int c = 0; c < 20000; ++c) {
    in.rst_n = c >= 2 && rng() % 5000 != 0;
    in.cmd_valid = rng() % 4 != 0;
    in.cmd_op = uint32_t(rng() % 4);
    in.cmd_fmt = uint32_t(rng() % 4);
    in.cmd_bg = uint32_t(rng() % 2);
    in.cmd_addr = uint32_t(rng() % 4);
    for (auto* w : {&in.cmd_data, &in.cmd_mask, &in.bank_rdata})
      for (auto& word : w->w) word = rng();
    in.cmd_data.truncate(p.data_w());
    in.cmd_mask.truncate(p.burst_bytes);
    in.bank_rdata.truncate(p.data_w());
    in.err_clear = rng() % 16 == 0;
    const NearBankAluCoreOutputs oa = a.eval(in);
    a.clock(in);
    const NearBankAluCoreOutputs ob = b.step(in);
    ASSERT_TRUE(same(oa, ob)) << "cycle " << c;
    writes += oa.bank_wr;
    reads += oa.rsp_valid;
  }
  EXPECT_GT(writes, 1000u);
  EXPECT_GT(reads, 500u);
}

// The block's own eval() and clock() (hw/near_bank_alu/near_bank_alu.h: the
// core run on the data pins where they are) against RegBlock's generic ones
// (hw/common/reg_block.h), which a glue of another name gets: the same
// outputs, register port and interrupt included, in every cycle of random
// commands and random register traffic, resets among them; and its step()
// (the kernel-free engine's and the benchmark's) the same again.
struct GenericGlue : NearBankAluGlue {};

TEST(NearBankAluBlock, SameAsTheGenericRegBlock) {
  NearBankAluParams p;
  p.bg = 2;
  p.addr_w = 2;
  NearBankAlu fast(p), stepped(p);
  RegBlock<GenericGlue> generic(p);
  std::mt19937_64 rng(11);
  tb::ApbMaster apb;
  tb::RegShadow<NearBankAluRegMap> shadow;  // only what the traffic rewrites
  tb::RegTraffic<NearBankAluRegMap> traffic(rng(), 0.5);
  traffic.allow_pulses(unsigned(NearBankAluReg::ctrl), ~0u);
  NearBankAluInputs in;
  auto same = [](const NearBankAluOutputs& x, const NearBankAluOutputs& y) {
    return x.cmd_ready == y.cmd_ready && x.bg_ready == y.bg_ready && x.bank_rd == y.bank_rd &&
           x.bank_rd_bg == y.bank_rd_bg && x.bank_rd_addr == y.bank_rd_addr &&
           x.bank_wr == y.bank_wr && x.bank_wr_bg == y.bank_wr_bg &&
           x.bank_wr_addr == y.bank_wr_addr && x.bank_wdata == y.bank_wdata &&
           x.bank_wmask == y.bank_wmask && x.rsp_valid == y.rsp_valid &&
           x.rsp_data == y.rsp_data && x.err == y.err && x.stat_reads == y.stat_reads &&
           x.stat_stores == y.stat_stores && x.stat_adds == y.stat_adds &&
           x.stat_refused == y.stat_refused && x.stat_hazard_stalls == y.stat_hazard_stalls &&
           x.stat_timing_stalls == y.stat_timing_stalls && x.intr == y.intr &&
           x.apb.prdata == y.apb.prdata && x.apb.pready == y.apb.pready &&
           x.apb.pslverr == y.apb.pslverr;
  };
  unsigned accesses = 0, refusals = 0, intr = 0, err = 0, writes = 0;
  for (int c = 0; c < 50000; ++c) {
    in.rst_n = c >= 2 && rng() % 5000 != 0;
    in.cmd_valid = rng() % 4 != 0;
    in.cmd_op = uint32_t(rng() % 4);
    in.cmd_fmt = uint32_t(rng() % (rng() % 64 ? 3 : 4));
    in.cmd_bg = uint32_t(rng() % 2);
    in.cmd_addr = uint32_t(rng() % 4);
    for (auto* w : {&in.cmd_data, &in.cmd_mask, &in.bank_rdata})
      for (auto& word : w->w) word = rng();
    in.cmd_data.truncate(p.data_w());
    in.cmd_mask.truncate(p.burst_bytes);
    in.bank_rdata.truncate(p.data_w());
    traffic.maybe_queue(apb, shadow);
    apb.drive(in.apb, in.rst_n);
    const NearBankAluOutputs a = fast.eval(in), b = generic.eval(in);
    ASSERT_TRUE(same(a, b)) << "cycle " << c;
    NearBankAluOutputs s;
    stepped.step(in, s);
    ASSERT_TRUE(same(s, b)) << "step(), cycle " << c;
    fast.clock(in);
    generic.clock(in);
    apb.after(in.apb, a.apb);
    accesses += in.apb.access();
    refusals += a.apb.pslverr;
    intr += a.intr;
    err += a.err;
    writes += a.bank_wr;
  }
  EXPECT_GT(accesses, 5000u);
  EXPECT_GT(refusals, 500u);
  EXPECT_GT(intr, 1000u);
  EXPECT_GT(err, 1000u);
  EXPECT_GT(writes, 1000u);
}

}  // namespace
}  // namespace t3
