// Near-bank ALU co-simulation tests: directed cases and constrained-random
// traffic. Every output of the C++ model is compared with the Verilated RTL in
// every cycle (256-bit bursts included; the binary fails at the end if any
// cycle mismatched), and the scoreboard checks the outputs against a golden
// memory whose sums come from GNU MPFR, and every register access and the
// interrupt line against its own register picture. The error flag is cleared
// as firmware clears it, through the register port (CTRL.ERR_CLEAR).
// --engine systemc|direct.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <random>

#include "apb_access.h"
#include "apb_master.h"
#include "cosim_config.h"
#include "fp_reference.h"
#include "near_bank_alu_scoreboard.h"
#include "near_bank_alu_stimulus.h"
#include "reg_traffic.h"
#include "t3/near_bank_alu_regs.h"
#include "test_cosim.h"

namespace t3::tb {
namespace {

Cosim<NearBankAluBlock>& the_cosim() { return shared_cosim<NearBankAluBlock>(); }
const NearBankAluParams& params() { return the_cosim().params(); }

// Drives the co-simulation with the bank array and the scoreboard attached;
// register accesses go through the APB port, as the driver makes them.
class Bench : public ApbAccess<Bench> {
  friend class ApbAccess<Bench>;

 public:
  explicit Bench(uint64_t seed = test_options().seed)
      : c_(the_cosim()), seed_(seed), bank_(std::make_unique<BankArray>(params().burst_bytes, seed)),
        sb_(std::make_unique<NearBankAluScoreboard>(params(), bank_initial, seed)) {
    // The shared DUT still holds the last test's state until a reset edge:
    // reset it (compared, as every cycle) before this bench's bank array and
    // scoreboard attach.
    c_.in() = NearBankAluInputs{};
    EXPECT_TRUE(c_.reset(2)) << c_.first_mismatch();
  }

  NearBankAluInputs& in() { return c_.in(); }
  const NearBankAluOutputs& out() const { return c_.out(); }
  NearBankAluScoreboard& sb() { return *sb_; }
  BankArray& bank() { return *bank_; }
  ApbMaster& apb() { return apb_; }
  Cosim<NearBankAluBlock>& cosim() { return c_; }

  // One cycle: the bank array's data and the register port's next phase in,
  // compare, scoreboard, bank array on.
  void cycle() {
    c_.in().bank_rdata = bank_->rdata();
    apb_.drive(c_.in().apb, c_.in().rst_n);
    const NearBankAluInputs in = c_.in();
    EXPECT_TRUE(c_.cycle()) << c_.first_mismatch();
    if (auto err = sb_->observe(in, c_.out()))
      ADD_FAILURE() << "cycle " << c_.cycles() - 1 << ": " << *err;
    if (auto d = apb_.after(in.apb, c_.out().apb)) apb_completed(*d);
    bank_->after(c_.out());
  }
  void cycles(unsigned n) {
    for (unsigned i = 0; i < n; ++i) cycle();
  }
  // A reset drops the register transfer in progress, as a bus bridge's would.
  void reset(unsigned n) {
    apb_.clear();
    in().rst_n = false;
    cycles(n);
    in().rst_n = true;
  }

  // Offers a command until taken; returns the cycles it waited.
  unsigned command(uint32_t op, uint32_t fmt, uint32_t bg, uint32_t addr, const Wide& data,
                   const Wide* mask = nullptr) {
    in().cmd_valid = true;
    in().cmd_op = op;
    in().cmd_fmt = fmt;
    in().cmd_bg = bg;
    in().cmd_addr = addr;
    in().cmd_data = data;
    in().cmd_mask = mask ? *mask : full();
    unsigned n = 0;
    for (; n < 100; ++n) {
      cycle();
      if (out().cmd_ready) break;
    }
    in().cmd_valid = false;
    return n;
  }
  Wide read(uint32_t bg, uint32_t addr) {
    command(0, 0, bg, addr, {});
    for (int n = 0; n < 10 && !out().rsp_valid; ++n) cycle();
    EXPECT_TRUE(out().rsp_valid);
    return out().rsp_data;
  }
  static Wide full() {
    Wide m;
    for (unsigned b = 0; b < params().burst_bytes; ++b) m.set_lane(b, 1, 1);
    return m;
  }

  // One register access through the port (no command meanwhile).
  // A cycle of the bench's inputs as they are, for a register access (apb_access.h).
  void apb_idle_cycle() { cycle(); }

 private:
  Cosim<NearBankAluBlock>& c_;
  uint64_t seed_;
  std::unique_ptr<BankArray> bank_;
  std::unique_ptr<NearBankAluScoreboard> sb_;
  ApbMaster apb_;
};

constexpr uint32_t kErrClear = T3_NEAR_BANK_ALU_R_CTRL_ERR_CLEAR_MASK;
constexpr uint32_t kRefused = T3_NEAR_BANK_ALU_R_INTR_STATE_REFUSED_MASK;

Wide splat(const FpFormat& f, uint32_t v) {
  Wide w;
  for (unsigned lsb = 0; lsb < params().data_w(); lsb += f.width()) w.set_lane(lsb, f.width(), v);
  return w;
}

TEST(NearBankAluCosim, StoreThenReadReturnsTheBurst) {
  Bench b;
  Wide data;
  for (unsigned i = 0; i < params().burst_bytes; ++i) data.set_byte(i, uint8_t(3 * i + 1));
  b.command(1, 0, 1 % params().bg, 5, data);
  b.cycles(6);
  EXPECT_EQ(b.read(1 % params().bg, 5), data);
  EXPECT_EQ(b.bank().at(1 % params().bg, 5), data) << "the bank holds it";
}

// One ADD per format: 1.0 + 1.0 = 2.0 in every lane, written back under a
// mask that leaves the odd bytes alone.
TEST(NearBankAluCosim, AddOfEachFormatUnderAByteMask) {
  struct F {
    uint32_t code;
    FpFormat f;
    uint32_t one, two;
  };
  const F fmts[] = {{0, kFp16, 0x3c00, 0x4000}, {1, kBf16, 0x3f80, 0x4000},
                    {2, kFp32, 0x3f800000, 0x40000000}};
  for (const F& x : fmts) {
    Bench b;
    b.command(1, 0, 0, 7, splat(x.f, x.one));
    Wide even;
    for (unsigned i = 0; i < params().burst_bytes; i += 2) even.set_lane(i, 1, 1);
    b.command(2, x.code, 0, 7, splat(x.f, x.one), &even);
    b.cycles(8);
    const Wide got = b.read(0, 7);
    const Wide two = splat(x.f, x.two), one = splat(x.f, x.one);
    for (unsigned i = 0; i < params().burst_bytes; ++i)
      EXPECT_EQ(got.byte(i), (i % 2 ? one : two).byte(i)) << "format " << x.code << " byte " << i;
  }
}

// ADDs to one address at the tCCDWL limit: each reads the one before's sum
// (forwarded in the cycle it reaches the bank), none waits longer.
TEST(NearBankAluCosim, BackToBackAddsToOneAddress) {
  const NearBankAluParams& p = params();
  Bench b;
  b.command(1, 0, 0, 3, splat(kFp32, 0));  // +0.0
  b.cycles(4);  // the first ADD needs the STORE in the bank (or forwarded)
  const uint64_t start = b.cosim().cycles();
  const unsigned n = 8;
  for (unsigned i = 0; i < n; ++i) b.command(2, 2, 0, 3, splat(kFp32, 0x3f800000));  // += 1.0
  const uint64_t spent = b.cosim().cycles() - start;
  EXPECT_EQ(spent, uint64_t(n - 1) * std::max(p.t_ccdwl, 4u) + 1) << "one ADD per tCCDWL";
  b.cycles(8);
  EXPECT_EQ(b.read(0, 3), splat(kFp32, 0x41000000)) << "8.0";
  EXPECT_GT(b.sb().totals().back_to_back, 0u);
  if (p.t_ccdwl == 4) {  // then each ADD reads the one before's write in its very cycle
    EXPECT_GT(b.sb().totals().forwarded, 0u);
  }
}

// A READ right behind a STORE of its address waits until the STORE reaches
// the bank (or is forwarded), and sees it.
TEST(NearBankAluCosim, AReadWaitsForAnOlderWriteOfItsAddress) {
  const NearBankAluParams& p = params();
  Bench b;
  const Wide v = splat(kFp16, 0x1234);
  b.command(1, 0, 1 % p.bg, 9, v);
  const unsigned waited = b.command(0, 0, 1 % p.bg, 9, {});
  EXPECT_EQ(waited, 3u) << "accepted 4 cycles after the STORE: its write is forwarded";
  b.cycles(4);
  EXPECT_GT(b.out().stat_hazard_stalls, 0u);
  // Another address of the same bank group only waits for tCCDL.
  b.command(1, 0, 1 % p.bg, 9, v);
  EXPECT_EQ(b.command(0, 0, 1 % p.bg, 10, {}), p.t_ccdl - 1);
}

// Bank timing: tCCDS across bank groups, tCCDL after a READ or STORE, tCCDWL
// after an op-and-store (T3 §5.1.1), and bg_ready_o saying so.
TEST(NearBankAluCosim, BankTimingAfterEachOp) {
  const NearBankAluParams& p = params();
  Bench b;
  for (uint32_t op : {0u, 1u, 2u}) {
    b.cycles(16);
    b.command(op, 2, 0, 1, splat(kFp32, 0));
    const unsigned spacing = op == 2 ? p.t_ccdwl : p.t_ccdl;
    b.cycle();  // the cycle after the command
    EXPECT_EQ(b.out().bg_ready & 1, spacing == 1 ? 1u : 0u) << "op " << op;
    if (p.bg > 1) {
      EXPECT_EQ((b.out().bg_ready >> 1) & 1, p.t_ccds <= 1 ? 1u : 0u) << "tCCDS";
    }
    EXPECT_EQ(b.command(0, 0, 0, 2, {}), std::max(spacing, 2u) - 2) << "op " << op;
  }
}

TEST(NearBankAluCosim, RefusedCommandsAreTakenCountedAndFlagged) {
  Bench b;
  EXPECT_EQ(b.command(3, 0, 0, 1, {}), 0u);
  EXPECT_EQ(b.command(2, 3, 0, 1, {}), 0u);
  b.cycle();
  EXPECT_EQ(b.out().stat_refused, 2u);
  EXPECT_TRUE(b.out().err);
  EXPECT_EQ(b.out().stat_adds, 0u);
  EXPECT_TRUE(b.write_reg(T3_NEAR_BANK_ALU_A_CTRL, kErrClear));
  b.cycle();  // the pulse's cycle: the flag clears at its edge
  b.cycle();
  EXPECT_FALSE(b.out().err);
  EXPECT_TRUE(nb_command_fault(3, 0).has_value());
  EXPECT_NE(nb_command_fault(2, 3)->find("fmt = 3 is out of range for ADD"), std::string::npos);
}

// A refusal as firmware sees it: STATUS.ERR and STAT_REFUSED read back, the
// REFUSED interrupt pending, and on intr_o once enabled.
TEST(NearBankAluCosim, ARefusalShowsInStatusAndRaisesTheInterrupt) {
  Bench b;
  EXPECT_EQ(b.read_reg(T3_NEAR_BANK_ALU_A_STATUS), 0u);
  EXPECT_EQ(b.read_reg(T3_NEAR_BANK_ALU_A_INTR_STATE), 0u);
  b.command(3, 0, 0, 1, {});
  b.cycle();
  EXPECT_EQ(b.read_reg(T3_NEAR_BANK_ALU_A_STATUS), T3_NEAR_BANK_ALU_R_STATUS_ERR_MASK);
  EXPECT_EQ(b.read_reg(T3_NEAR_BANK_ALU_A_STAT_REFUSED), 1u);
  EXPECT_EQ(b.read_reg(T3_NEAR_BANK_ALU_A_INTR_STATE), kRefused);
  EXPECT_FALSE(b.out().intr) << "not enabled";
  EXPECT_TRUE(b.write_reg(T3_NEAR_BANK_ALU_A_INTR_ENABLE, T3_NEAR_BANK_ALU_R_INTR_ENABLE_REFUSED_MASK));
  EXPECT_FALSE(b.out().intr) << "the enable takes effect at the write's edge";
  b.cycle();
  EXPECT_TRUE(b.out().intr);
  // The flag is a level: clearing INTR_STATE alone does not stick.
  EXPECT_TRUE(b.write_reg(T3_NEAR_BANK_ALU_A_INTR_STATE, kRefused));
  b.cycle();
  EXPECT_TRUE(b.out().intr) << "STATUS.ERR still 1: set again";
  EXPECT_EQ(b.read_reg(T3_NEAR_BANK_ALU_A_INTR_STATE), kRefused);
  EXPECT_GT(b.sb().regs().counts().intr_cycles, 0u);
}

// The handler's sequence: CTRL.ERR_CLEAR, then the W1C clear of INTR_STATE
// (written back to back: the pulse has cleared the flag by then), and the
// line stays down.
TEST(NearBankAluCosim, ErrClearThenInterruptClear) {
  Bench b;
  EXPECT_TRUE(b.write_reg(T3_NEAR_BANK_ALU_A_INTR_ENABLE, T3_NEAR_BANK_ALU_R_INTR_ENABLE_REFUSED_MASK));
  b.command(2, 3, 1 % params().bg, 2, {});
  b.cycles(2);
  ASSERT_TRUE(b.out().intr);
  b.apb().write(T3_NEAR_BANK_ALU_A_CTRL, kErrClear);
  b.apb().write(T3_NEAR_BANK_ALU_A_INTR_STATE, kRefused);
  while (!b.apb().idle()) b.cycle();
  b.cycle();
  EXPECT_FALSE(b.out().err);
  EXPECT_FALSE(b.out().intr);
  EXPECT_EQ(b.read_reg(T3_NEAR_BANK_ALU_A_STATUS), 0u);
  EXPECT_EQ(b.read_reg(T3_NEAR_BANK_ALU_A_INTR_STATE), 0u);
  EXPECT_EQ(b.read_reg(T3_NEAR_BANK_ALU_A_CTRL), 0u) << "W1P reads 0";
  b.cycles(4);
  EXPECT_FALSE(b.out().intr);
  EXPECT_EQ(b.sb().counts().err_clears, 1u);
  // The other order leaves the interrupt pending: the flag set it again in
  // the cycles before ERR_CLEAR's pulse.
  b.command(3, 0, 0, 2, {});
  b.cycles(2);
  b.apb().write(T3_NEAR_BANK_ALU_A_INTR_STATE, kRefused);
  b.apb().write(T3_NEAR_BANK_ALU_A_CTRL, kErrClear);
  while (!b.apb().idle()) b.cycle();
  b.cycles(2);
  EXPECT_FALSE(b.out().err);
  EXPECT_TRUE(b.out().intr);
}

// A refusal taken in the very cycle ERR_CLEAR pulses (the cycle after the
// CTRL write's access phase) leaves STATUS.ERR set; without one the pulse
// clears it.
TEST(NearBankAluCosim, ARefusalInTheCycleOfTheClearPulseLeavesErrSet) {
  for (const bool same_cycle : {true, false}) {
    SCOPED_TRACE(same_cycle ? "a refusal with the pulse" : "the pulse alone");
    Bench b;
    b.command(3, 0, 0, 1, {});
    b.cycle();
    ASSERT_TRUE(b.out().err);
    b.apb().write(T3_NEAR_BANK_ALU_A_CTRL, kErrClear);
    while (!b.apb().idle()) b.cycle();  // its access phase was the last cycle
    // The pulse's cycle, with or without a refused command taken in it.
    b.in().cmd_valid = same_cycle;
    b.in().cmd_op = 3;
    b.cycle();
    EXPECT_TRUE(b.out().cmd_ready);
    b.in().cmd_valid = false;
    b.cycle();
    EXPECT_EQ(b.out().err, same_cycle) << "the flag after the pulse's edge";
    EXPECT_EQ(b.read_reg(T3_NEAR_BANK_ALU_A_STATUS),
              same_cycle ? T3_NEAR_BANK_ALU_R_STATUS_ERR_MASK : 0u);
    EXPECT_EQ(b.sb().counts().clear_and_refusal, same_cycle ? 1u : 0u);
    EXPECT_EQ(b.sb().counts().err_clears, 1u) << "the pulse found the flag set";
    EXPECT_EQ(b.out().stat_refused, same_cycle ? 2u : 1u);
  }
}

// PARAM_* describe the build; RO, unmapped, unaligned and partial accesses
// are refused and change nothing. No register of this map is busy-locked:
// a write while commands are in the pipeline is taken.
TEST(NearBankAluCosim, ParametersMatchTheBuildAndBadAccessesAreRefused) {
  const NearBankAluParams& p = params();
  Bench b;
  const uint32_t burst = b.read_reg(T3_NEAR_BANK_ALU_A_PARAM_BURST);
  auto field = [](uint32_t v, uint32_t mask, uint32_t shift) { return (v & mask) >> shift; };
  EXPECT_EQ(field(burst, T3_NEAR_BANK_ALU_R_PARAM_BURST_BURST_BYTES_MASK,
                  T3_NEAR_BANK_ALU_R_PARAM_BURST_BURST_BYTES_SHIFT), p.burst_bytes);
  EXPECT_EQ(field(burst, T3_NEAR_BANK_ALU_R_PARAM_BURST_BG_MASK, T3_NEAR_BANK_ALU_R_PARAM_BURST_BG_SHIFT),
            p.bg);
  EXPECT_EQ(field(burst, T3_NEAR_BANK_ALU_R_PARAM_BURST_ADDR_W_MASK,
                  T3_NEAR_BANK_ALU_R_PARAM_BURST_ADDR_W_SHIFT), p.addr_w);
  EXPECT_EQ(field(burst, T3_NEAR_BANK_ALU_R_PARAM_BURST_STAT_W_MASK,
                  T3_NEAR_BANK_ALU_R_PARAM_BURST_STAT_W_SHIFT), p.stat_w);
  const uint32_t timing = b.read_reg(T3_NEAR_BANK_ALU_A_PARAM_TIMING);
  EXPECT_EQ(field(timing, T3_NEAR_BANK_ALU_R_PARAM_TIMING_T_CCDS_MASK,
                  T3_NEAR_BANK_ALU_R_PARAM_TIMING_T_CCDS_SHIFT), p.t_ccds);
  EXPECT_EQ(field(timing, T3_NEAR_BANK_ALU_R_PARAM_TIMING_T_CCDL_MASK,
                  T3_NEAR_BANK_ALU_R_PARAM_TIMING_T_CCDL_SHIFT), p.t_ccdl);
  EXPECT_EQ(field(timing, T3_NEAR_BANK_ALU_R_PARAM_TIMING_T_CCDWL_MASK,
                  T3_NEAR_BANK_ALU_R_PARAM_TIMING_T_CCDWL_SHIFT), p.t_ccdwl);
  EXPECT_FALSE(b.write_reg(T3_NEAR_BANK_ALU_A_PARAM_BURST, 0));   // read-only
  EXPECT_FALSE(b.write_reg(T3_NEAR_BANK_ALU_A_STAT_READS, 5));    // read-only
  EXPECT_TRUE(b.access({false, 0xFFC, 0, 0}).err);                 // no register there
  EXPECT_TRUE(b.access({true, T3_NEAR_BANK_ALU_A_INTR_ENABLE, 1, 0x3}).err);  // partial write
  EXPECT_TRUE(b.access({false, T3_NEAR_BANK_ALU_A_STATUS + 1, 0, 0}).err);    // unaligned
  EXPECT_EQ(b.read_reg(T3_NEAR_BANK_ALU_A_INTR_ENABLE), 0u);
  EXPECT_EQ(b.read_reg(T3_NEAR_BANK_ALU_A_PARAM_BURST), burst);
  // Commands in the pipeline (busy) lock nothing.
  b.command(1, 0, 0, 3, splat(kFp32, 0));
  b.apb().write(T3_NEAR_BANK_ALU_A_INTR_ENABLE, T3_NEAR_BANK_ALU_R_INTR_ENABLE_REFUSED_MASK);
  while (!b.apb().idle()) b.cycle();
  EXPECT_EQ(b.read_reg(T3_NEAR_BANK_ALU_A_INTR_ENABLE), T3_NEAR_BANK_ALU_R_INTR_ENABLE_REFUSED_MASK);
  const RegAccessCounts& n = b.sb().regs().counts();
  EXPECT_EQ(n.read_only_errors, 2u);
  EXPECT_EQ(n.address_errors, 2u);
  EXPECT_EQ(n.strobe_errors, 1u);
  EXPECT_EQ(n.busy_errors, 0u);
}

// The counters through the registers, as firmware reads them, against the
// pins (STAT_W wide) after traffic of every kind.
TEST(NearBankAluCosim, CountersReadThroughTheRegisters) {
  Bench b;
  b.command(1, 0, 0, 5, splat(kFp16, 0x3c00));
  b.command(0, 0, 0, 5, {});   // waits for the STORE: hazard stalls
  b.command(2, 0, 0, 5, splat(kFp16, 0x3c00));
  b.command(0, 0, 0, 6, {});   // waits for tCCDWL: timing stalls
  b.command(3, 0, 0, 6, {});
  b.cycles(8);
  const NearBankAluOutputs o = b.out();
  EXPECT_EQ(b.read_reg(T3_NEAR_BANK_ALU_A_STAT_READS), o.stat_reads);
  EXPECT_EQ(b.read_reg(T3_NEAR_BANK_ALU_A_STAT_STORES), o.stat_stores);
  EXPECT_EQ(b.read_reg(T3_NEAR_BANK_ALU_A_STAT_ADDS), o.stat_adds);
  EXPECT_EQ(b.read_reg(T3_NEAR_BANK_ALU_A_STAT_REFUSED), o.stat_refused);
  EXPECT_GT(b.read_reg(T3_NEAR_BANK_ALU_A_STAT_HAZARD_STALLS), 0u);
  EXPECT_GT(b.read_reg(T3_NEAR_BANK_ALU_A_STAT_TIMING_STALLS), 0u);
  EXPECT_EQ(o.stat_reads, 2u);
  EXPECT_EQ(o.stat_adds, 1u);
}

// Every pair of edge values of each format through the block, lane by lane:
// the write-backs must equal GNU MPFR's sums (the scoreboard checks each).
TEST(NearBankAluCosim, EdgeValuePairsOfEveryFormat) {
  Bench b;
  for (uint32_t code : {0u, 1u, 2u}) {
    const FpFormat f = *nb_format(code);
    const std::vector<uint32_t> e = fp_edge_values(f);
    const unsigned lanes = params().data_w() / f.width();
    size_t k = 0;
    while (k < e.size() * e.size()) {
      Wide a, c;
      for (unsigned l = 0; l < lanes; ++l, ++k) {
        a.set_lane(l * f.width(), f.width(), e[(k / e.size()) % e.size()]);
        c.set_lane(l * f.width(), f.width(), e[k % e.size()]);
      }
      b.command(1, code, 0, 2, a);
      b.command(2, code, 0, 2, c);
    }
  }
  b.cycles(8);
  EXPECT_GT(b.sb().totals().adds, 100u);
}

TEST(NearBankAluCosim, ResetLosesWritesInFlightOnly) {
  Bench b;
  b.command(1, 0, 0, 4, splat(kFp16, 0x1111));
  b.cycles(8);  // written
  b.command(1, 0, 0, 4, splat(kFp16, 0x2222));
  b.cycle();    // in flight
  b.reset(2);   // the scoreboard undoes the lost write
  b.cycles(4);
  EXPECT_EQ(b.out().stat_stores, 0u);
  EXPECT_EQ(b.read(0, 4), splat(kFp16, 0x1111));
}

// Constrained-random commands (near_bank_alu_stimulus.h), their error clears
// written to CTRL.ERR_CLEAR, random register traffic besides (reg_traffic.h:
// reads of every register and of offsets that hold none, refused writes,
// interrupt enables, clears and tests, CTRL.ERR_CLEAR pulses at random
// times), resets now and then.
TEST(NearBankAluCosim, ConstrainedRandom) {
  const RunOptions& opt = test_options();
  const uint64_t cycles = opt.cycles ? opt.cycles : T3_RANDOM_CYCLES;
  std::mt19937_64 rng(opt.seed);
  Bench b(opt.seed);
  auto stim = std::make_unique<NearBankAluStimulus>(params(), rng());
  RegTraffic<NearBankAluRegMap> regs(rng(), 0.05);
  regs.allow_pulses(unsigned(NearBankAluReg::ctrl), kErrClear);
  // The bench's bank array is the one the scoreboard's initial contents
  // describe; the stimulus brings its own, so it drives through the bench's.
  uint64_t resets = 0;
  const uint64_t first = b.cosim().cycles();
  while (b.cosim().cycles() - first < cycles && !testing::Test::HasFailure()) {
    stim->drive(b.in(), b.apb());
    regs.maybe_queue(b.apb(), b.sb().regs());
    const NearBankAluInputs in = b.in();
    b.cycle();
    stim->after(in, b.out());
    if (rng() % 50000 == 0) {
      ++resets;
      b.reset(1 + unsigned(rng() % 3));
    }
  }
  stim->stop();
  b.in().cmd_valid = false;
  b.cycles(NearBankAluParams::kWriteLatency + 2);  // every write in the bank
  EXPECT_TRUE(b.sb().idle());
  // Every address the scoreboard knows holds in the bank what it should.
  unsigned diffs = 0;
  for (const auto& [key, want] : b.sb().written())
    if (b.bank().at(key.first, key.second) != want && ++diffs <= 3)
      ADD_FAILURE() << "bank group " << key.first << ", address " << key.second
                    << " holds something else than the golden memory";
  const auto& t = b.sb().totals();
  const RegAccessCounts& r = b.sb().regs().counts();
  std::printf("random: %llu cycles, %llu resets, %llu reads, %llu stores, %llu adds (fp16 %llu, "
              "bf16 %llu, fp32 %llu), %llu refused, %llu hazard stalls, %llu timing stalls, %llu "
              "forwarded reads, %llu back-to-back adds, %zu addresses, %llu mismatches\n",
              (unsigned long long)(b.cosim().cycles() - first), (unsigned long long)resets,
              (unsigned long long)t.reads, (unsigned long long)t.stores,
              (unsigned long long)t.adds, (unsigned long long)t.adds_by_format[0],
              (unsigned long long)t.adds_by_format[1], (unsigned long long)t.adds_by_format[2],
              (unsigned long long)t.refused, (unsigned long long)t.hazard,
              (unsigned long long)t.timing, (unsigned long long)t.forwarded,
              (unsigned long long)t.back_to_back, b.sb().written().size(),
              (unsigned long long)the_cosim().mismatches());
  std::printf("registers: %llu reads, %llu writes; refused: %llu address, %llu strobe, %llu "
              "read-only, %llu busy (no register is busy-locked); %llu error clears that found "
              "the flag set (%llu with a refusal in the pulse's cycle); %llu cycles with the "
              "interrupt up\n",
              (unsigned long long)r.reads, (unsigned long long)r.writes,
              (unsigned long long)r.address_errors, (unsigned long long)r.strobe_errors,
              (unsigned long long)r.read_only_errors, (unsigned long long)r.busy_errors,
              (unsigned long long)t.err_clears, (unsigned long long)t.clear_and_refusal,
              (unsigned long long)r.intr_cycles);
  EXPECT_EQ(the_cosim().failures(), 0u) << the_cosim().first_failure();
  EXPECT_EQ(r.busy_errors, 0u) << "no register of this map is locked while busy";
  if (cycles < 1000000) return;
  for (int f = 0; f < 3; ++f) EXPECT_GT(t.adds_by_format[f], 10000u) << "format " << f;
  EXPECT_GT(t.reads, 5000u);
  EXPECT_GT(t.refused, 100u);
  EXPECT_GT(t.hazard, 1000u);
  EXPECT_GT(t.forwarded, 100u);
  EXPECT_GT(t.back_to_back, 1000u);
  EXPECT_GT(resets, 5u);
  // The register port: reads of every kind, each refusal the map allows
  // (address, strobe, read-only; a busy refusal cannot happen here), error
  // clears through CTRL, the interrupt line up.
  EXPECT_GT(r.reads, 1000u);
  EXPECT_GT(r.writes, 1000u);
  EXPECT_GT(r.address_errors, 0u);
  EXPECT_GT(r.strobe_errors, 0u);
  EXPECT_GT(r.read_only_errors, 0u);
  EXPECT_GT(t.err_clears, 100u);
  EXPECT_GT(r.intr_cycles, 1000u);
}

}  // namespace
}  // namespace t3::tb
