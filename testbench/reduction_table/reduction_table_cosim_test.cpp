// Reduction table co-simulation tests: directed cases for every rule and
// corner, then constrained-random traffic. Every output of the C++ model is
// compared with the Verilated RTL in every cycle (the binary fails at the
// end if any cycle mismatched), and the transaction-level scoreboard checks
// the RTL's outputs (the register port's answers and the interrupt line
// included) against the rules. Run on either engine: --engine systemc
// (default) or --engine direct.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <deque>
#include <memory>
#include <random>
#include <vector>

#include "apb_access.h"
#include "cosim_config.h"
#include "reduction_table_scoreboard.h"
#include "reduction_table_stimulus.h"
#include "reg_traffic.h"
#include "t3/reduction_table_regs.h"
#include "test_cosim.h"

namespace t3::tb {
namespace {

using u64 = unsigned long long;

Cosim<ReductionTableBlock>& the_cosim() { return shared_cosim<ReductionTableBlock>(); }
const ReductionTableParams& params() { return the_cosim().params(); }

// The co-simulation with the scoreboard attached: packets go in through
// drivers, what leaves is collected; register accesses go through the APB
// port.
class Bench : public ApbAccess<Bench> {
  friend class ApbAccess<Bench>;

 public:
  Bench() : c_(the_cosim()), req_(params().flit_w), rsp_(params().flit_w), out_(params().flit_w) {
    c_.in() = ReductionTableInputs{};
    EXPECT_TRUE(c_.reset(2)) << c_.first_mismatch();
    sb_ = std::make_unique<ReductionTableScoreboard>(params());
    c_.in().rst_n = true;
    c_.in().out_ready = true;
  }
  ReductionTableInputs& in() { return c_.in(); }
  const ReductionTableOutputs& out() const { return c_.out(); }
  ReductionTableScoreboard& sb() { return *sb_; }
  PktDriver& req() { return req_; }
  PktDriver& rsp() { return rsp_; }
  std::deque<Packet>& got() { return got_; }

  void cycle() {
    req_.drive(c_.in().req_in_valid, c_.in().req_in_flit);
    rsp_.drive(c_.in().rsp_in_valid, c_.in().rsp_in_flit);
    apb_.drive(c_.in().apb, c_.in().rst_n);
    const ReductionTableInputs in = c_.in();
    EXPECT_TRUE(c_.cycle()) << c_.first_mismatch();
    if (auto err = sb_->observe(in, c_.out())) ADD_FAILURE() << "cycle " << c_.cycles() - 1 << ": " << *err;
    req_.after(in.req_in_valid, c_.out().req_in_ready);
    rsp_.after(in.rsp_in_valid, c_.out().rsp_in_ready);
    std::ostringstream e;
    if (auto pk = out_.observe("out", c_.out().out_valid, in.out_ready, c_.out().out_flit, e))
      got_.push_back(*pk);
    if (auto d = apb_.after(in.apb, c_.out().apb)) apb_completed(*d);
  }
  void apb_idle_cycle() { cycle(); }
  void run(unsigned n) {
    for (unsigned i = 0; i < n; ++i) cycle();
  }
  // Runs until both drivers are empty and nothing has left for `quiet` cycles.
  void settle(unsigned quiet = 40) {
    unsigned q = 0;
    for (unsigned n = 0; n < 20000 && q < quiet; ++n) {
      cycle();
      q = (req_.idle() && rsp_.idle() && !c_.out().out_valid) ? q + 1 : 0;
    }
  }
  void at_rest() {
    if (auto e = sb_->check_at_rest()) ADD_FAILURE() << *e;
  }

 private:
  Cosim<ReductionTableBlock>& c_;
  std::unique_ptr<ReductionTableScoreboard> sb_;
  ApbMaster apb_;
  PktDriver req_, rsp_;
  PktCollector out_;
  std::deque<Packet> got_;
};

// A header of a reduction on (rgn, addr).
pkt::Header hdr(uint8_t op, uint8_t rgn, uint64_t addr, uint8_t count, uint8_t expect,
                uint8_t dtype = 0, uint8_t len = 1) {
  pkt::Header h;
  h.op = op;
  h.dtype = dtype;
  h.len = len;
  h.count = count;
  h.addr = addr;
  h.rgn = rgn;
  h.expect = expect;
  h.home = 7;
  h.hit = true;
  return h;
}

// A packet whose every lane (of its dtype) is k * 2^s (exact values).
Packet with_lanes(pkt::Header h, int64_t k, int s = 0) {
  Packet p{h, {}};
  const unsigned lw = h.dtype == 2 ? 32 : 16;
  for (unsigned f = 0; f < h.len; ++f) {
    Wide w;
    for (unsigned l = 0; l < params().flit_w / lw; ++l) w.set_lane(l * lw, lw, exact_value(h.dtype, k, s, false));
    p.data.push_back(w);
  }
  return p;
}

uint32_t lane0(const Packet& p, unsigned k = 0) { return p.data[k].lane(0, p.h.dtype == 2 ? 32 : 16); }

TEST(ReductionTableCosim, PushContributionsReduceToOneResult) {
  Bench b;
  const uint8_t len = uint8_t(params().max_len);
  for (unsigned dt = 0; dt < 3; ++dt) {
    const uint64_t addr = 0x1000 * (dt + 1);
    for (int c = 0; c < 4; ++c) b.req().push(with_lanes(hdr(3, 5, addr, 1, 4, uint8_t(dt), len), c + 1));
    b.settle();
    ASSERT_EQ(b.got().size(), dt + 1u);
    const Packet& r = b.got().back();
    EXPECT_EQ(r.h.op, uint8_t(pkt::Op::result));
    EXPECT_EQ(r.h.count, 4u);
    EXPECT_EQ(r.h.dst, 7u) << "to the home";
    EXPECT_EQ(lane0(r, len - 1), exact_value(dt, 10, 0, false));
  }
  b.at_rest();
  EXPECT_EQ(b.out().stat_completions, 3u);
  EXPECT_EQ(b.out().stat_alloc, 3u);
  EXPECT_EQ(b.out().stat_hits, 9u);
  EXPECT_EQ(b.read_reg(T3_REDUCTION_TABLE_A_STAT_HITS), 9u);
  EXPECT_EQ(b.read_reg(T3_REDUCTION_TABLE_A_STATUS) & T3_REDUCTION_TABLE_R_STATUS_BUSY_MASK, 0u);
}

// Every cause of a drop: the packet is taken whole (its data flits too),
// counted, ERR says why, INTR_STATE.MALFORMED is set; the table is as it was.
TEST(ReductionTableCosim, EveryMalformedPacketIsDroppedWhole) {
  Bench b;
  ASSERT_TRUE(b.write_reg(T3_REDUCTION_TABLE_A_INTR_ENABLE, T3_REDUCTION_TABLE_R_INTR_ENABLE_MALFORMED_MASK));
  struct Case {
    unsigned code;
    bool rsp;
    pkt::Header h;
  };
  std::vector<Case> cases;
  const uint8_t ml = uint8_t(params().max_len);
  auto add = [&](unsigned code, bool rsp, uint8_t op, auto edit) {
    pkt::Header h = hdr(op, 9, 0x4000, 1, 3, 0, 1);
    edit(h);
    cases.push_back({code, rsp, h});
  };
  add(1, false, 0x6, [&](pkt::Header& h) { h.len = ml; });
  add(1, true, 0xF, [](pkt::Header& h) { h.len = 0; });
  add(2, false, 3, [&](pkt::Header& h) { h.len = uint8_t(ml + 1); });
  add(2, true, 0xA, [](pkt::Header& h) { h.len = 0; });
  add(3, false, 4, [](pkt::Header& h) { h.red_op = 3; });
  add(4, true, 0xA, [](pkt::Header& h) { h.dtype = 3; });
  add(5, false, 3, [&](pkt::Header& h) { h.addr += params().flit_w / 8 - 1; });
  add(6, false, 0x1, [](pkt::Header&) {});   // a WRITE on req_in
  add(6, false, 0xA, [](pkt::Header&) {});   // a response on req_in
  add(6, true, 0x3, [](pkt::Header&) {});    // a PUSH on rsp_in
  add(6, true, 0xB, [](pkt::Header&) {});    // a RESULT on rsp_in
  add(7, false, 3, [](pkt::Header& h) { h.hit = false; });
  add(8, false, 3, [](pkt::Header& h) { h.count = 4; });
  add(8, false, 4, [](pkt::Header& h) { h.count = 3; });
  add(8, true, 0xA, [](pkt::Header& h) { h.count = 0; });
  unsigned n = 0;
  for (const Case& c : cases) {
    Packet p{c.h, {}};
    for (unsigned k = 0; k + 1 < pkt::wire_flits(c.h); ++k) p.data.push_back(with_lanes(hdr(3, 0, 0, 1, 1), 3).data[0]);
    (c.rsp ? b.rsp() : b.req()).push(p);
    b.settle(10);
    ++n;
    EXPECT_EQ(b.out().stat_malformed, n) << "code " << c.code;
    const uint32_t e = b.read_reg(T3_REDUCTION_TABLE_A_ERR);
    EXPECT_EQ((e & T3_REDUCTION_TABLE_R_ERR_CODE_MASK) >> T3_REDUCTION_TABLE_R_ERR_CODE_SHIFT, c.code);
    EXPECT_EQ((e & T3_REDUCTION_TABLE_R_ERR_STREAM_MASK) >> T3_REDUCTION_TABLE_R_ERR_STREAM_SHIFT, c.rsp);
    EXPECT_EQ((e & T3_REDUCTION_TABLE_R_ERR_OP_MASK) >> T3_REDUCTION_TABLE_R_ERR_OP_SHIFT, c.h.op);
    EXPECT_TRUE(b.out().intr);
    ASSERT_TRUE(b.write_reg(T3_REDUCTION_TABLE_A_INTR_STATE, 7));
    b.cycle();
    EXPECT_FALSE(b.out().intr);
  }
  EXPECT_TRUE(b.got().empty());
  EXPECT_EQ(b.read_reg(T3_REDUCTION_TABLE_A_STATUS) & T3_REDUCTION_TABLE_R_STATUS_OCCUPANCY_MASK, 0u);
  b.at_rest();
}

// A packet that does not fit its entry is refused (the entry unchanged):
// another len, dtype, expect or home; a count past what the entry expects;
// the same PULL twice.
TEST(ReductionTableCosim, RefusalsLeaveTheEntryAsItWas) {
  Bench b;
  ASSERT_TRUE(b.write_reg(T3_REDUCTION_TABLE_A_INTR_ENABLE, T3_REDUCTION_TABLE_R_INTR_ENABLE_REFUSED_MASK));
  const uint8_t ml = uint8_t(params().max_len);
  pkt::Header k = hdr(3, 2, 0x2000, 1, 5, 0, ml);
  b.sb().allow_refusals(k, 5);
  b.req().push(with_lanes(k, 1));
  std::vector<std::pair<pkt::Header, unsigned>> bad;
  pkt::Header h = k;
  h.dtype = 1;
  bad.push_back({h, 9});
  if (ml > 1) {
    h = k;
    h.len = uint8_t(ml - 1);
    bad.push_back({h, 9});
  }
  h = k;
  h.expect = 6;
  bad.push_back({h, 9});
  h = k;
  h.home = 8;
  bad.push_back({h, 9});
  h = k;
  h.count = 5;
  bad.push_back({h, 10});
  unsigned n = 0;
  for (const auto& [bh, code] : bad) {
    b.req().push(with_lanes(bh, 100));
    b.settle(10);
    EXPECT_EQ(b.out().stat_refused, ++n);
    EXPECT_EQ(b.read_reg(T3_REDUCTION_TABLE_A_ERR) & T3_REDUCTION_TABLE_R_ERR_CODE_MASK, code);
    EXPECT_TRUE(b.out().intr);
  }
  // The same PULL twice: the second is refused (duplicate).
  pkt::Header pl = hdr(4, 2, 0x2000, 0, 3);
  pl.src = 3;
  b.sb().allow_refusals([&] { pkt::Header q = pl; q.dst = 3; return q; }(), 1);
  b.req().push(Packet{pl, {}});
  b.req().push(Packet{pl, {}});
  b.settle(10);
  EXPECT_EQ(b.out().stat_refused, ++n);
  EXPECT_EQ(b.read_reg(T3_REDUCTION_TABLE_A_ERR) & T3_REDUCTION_TABLE_R_ERR_CODE_MASK, 11u);
  // The rest of the reduction: 1 + 4 of 5.
  h = k;
  h.count = 4;
  b.req().push(with_lanes(h, 2));
  b.settle();
  ASSERT_FALSE(b.got().empty());
  const Packet& r = b.got().back();
  EXPECT_EQ(r.h.op, uint8_t(pkt::Op::result));
  EXPECT_EQ(lane0(r), exact_value(0, 3, 0, false)) << "the refused packets' 100s are not in";
  ASSERT_TRUE(b.write_reg(T3_REDUCTION_TABLE_A_TIMEOUT, 1));  // flush the PULL's entry
  b.settle();
  b.at_rest();
}

// More reductions than entries: the least recently used entry leaves as a
// PARTIAL to the home, carrying its count; the home (the scoreboard) merges.
TEST(ReductionTableCosim, TheLeastRecentlyUsedEntryIsEvicted) {
  Bench b;
  const unsigned e = params().entries;
  for (unsigned i = 0; i <= e; ++i) b.req().push(with_lanes(hdr(3, 1, 0x100 * (i + 1), 1, 3), int(i + 1)));
  b.settle();
  ASSERT_EQ(b.got().size(), 1u);
  EXPECT_EQ(b.got()[0].h.op, uint8_t(pkt::Op::partial));
  EXPECT_EQ(b.got()[0].h.addr, 0x100u) << "the first, least recently used";
  EXPECT_EQ(b.got()[0].h.count, 1u);
  EXPECT_EQ(b.out().stat_evict_lru, 1u);
  EXPECT_EQ(b.out().stat_hwm, e);
  // A contribution to the second makes the third the least recently used:
  // a new reduction evicts the third.
  b.req().push(with_lanes(hdr(3, 1, 0x200, 1, 3), 5));
  b.req().push(with_lanes(hdr(3, 1, 0x100 * (e + 2), 1, 3), 6));
  b.settle();
  ASSERT_EQ(b.got().size(), 2u);
  EXPECT_EQ(b.got()[1].h.op, uint8_t(pkt::Op::partial));
  EXPECT_EQ(b.got()[1].h.addr, 0x300u);
  ASSERT_TRUE(b.write_reg(T3_REDUCTION_TABLE_A_TIMEOUT, 1));
  b.settle();
  EXPECT_EQ(b.out().stat_evict_timeout, e);
  b.at_rest();
}

// TIMEOUT: an idle entry leaves as a PARTIAL; too wide for TIMEOUT_W is
// refused (STATUS.CFG_ERROR, its interrupt) and evicts nothing.
TEST(ReductionTableCosim, TimeoutsEvictIdleEntriesAndAWideTimeoutIsRefused) {
  Bench b;
  ASSERT_TRUE(b.write_reg(T3_REDUCTION_TABLE_A_INTR_ENABLE, T3_REDUCTION_TABLE_R_INTR_ENABLE_CFG_ERROR_MASK));
  if (params().timeout_w < 32) {
    ASSERT_TRUE(b.write_reg(T3_REDUCTION_TABLE_A_TIMEOUT, uint32_t(low_mask(params().timeout_w) + 1)));
    b.req().push(with_lanes(hdr(3, 1, 0x100, 1, 2), 1));
    b.run(100);
    EXPECT_TRUE(b.got().empty());
    EXPECT_TRUE(b.out().intr);
    EXPECT_EQ(b.read_reg(T3_REDUCTION_TABLE_A_STATUS) & T3_REDUCTION_TABLE_R_STATUS_CFG_ERROR_MASK,
              T3_REDUCTION_TABLE_R_STATUS_CFG_ERROR_MASK);
  } else {
    b.req().push(with_lanes(hdr(3, 1, 0x100, 1, 2), 1));
  }
  const uint32_t t = uint32_t(std::min<uint64_t>(20, low_mask(params().timeout_w)));
  ASSERT_TRUE(b.write_reg(T3_REDUCTION_TABLE_A_TIMEOUT, t));
  ASSERT_TRUE(b.write_reg(T3_REDUCTION_TABLE_A_INTR_STATE, 7));
  b.run(3);
  EXPECT_FALSE(b.out().intr);
  b.settle();
  ASSERT_EQ(b.got().size(), 1u);
  EXPECT_EQ(b.got()[0].h.op, uint8_t(pkt::Op::partial));
  EXPECT_EQ(b.out().stat_evict_timeout, 1u);
  b.at_rest();
}

// A PULL allocates; its responses reduce into the entry and leave as one
// PULL_RSP to the requester. A full table holds further PULLs (req_in
// only): responses keep flowing; CTRL.PULL_PASS lets the PULL go untracked.
TEST(ReductionTableCosim, PullsAndTheirResponses) {
  Bench b;
  const unsigned e = params().entries;
  pkt::Header pl = hdr(4, 4, 0x5000, 1, 4, 2, 1);
  pl.src = 30;
  pl.ctr = 200;
  b.req().push(Packet{pl, {}});
  b.run(5);
  for (unsigned c : {1u, 2u}) {
    pkt::Header r = hdr(0xA, 4, 0x5000, uint8_t(c), 4, 2, 1);
    r.src = uint8_t(40 + c);
    r.dst = 30;
    r.ctr = 200;
    b.rsp().push(with_lanes(r, int(c * 7)));
  }
  b.settle();
  ASSERT_EQ(b.got().size(), 1u);
  EXPECT_EQ(b.got()[0].h.op, uint8_t(pkt::Op::pull_rsp));
  EXPECT_EQ(b.got()[0].h.dst, 30u);
  EXPECT_EQ(b.got()[0].h.ctr, 200u);
  EXPECT_EQ(b.got()[0].h.count, 3u);
  EXPECT_EQ(lane0(b.got()[0]), exact_value(2, 21, 0, false));
  // Fill the table with PULLs (no responses come), one more waits.
  for (unsigned i = 0; i <= e; ++i) {
    pkt::Header q = hdr(4, 4, 0x6000 + 0x100 * i, 0, 2);
    q.src = uint8_t(i);
    b.req().push(Packet{q, {}});
  }
  b.req().push(with_lanes(hdr(3, 4, 0x9000, 1, 2), 1));  // a PUSH behind the waiting PULL
  pkt::Header r = hdr(0xA, 4, 0x7000, 1, 2);
  r.src = 99;
  r.dst = 98;
  b.run(30);
  EXPECT_FALSE(b.out().req_in_ready);
  b.rsp().push(with_lanes(r, 5));
  b.run(60);
  EXPECT_FALSE(b.req().idle()) << "the PUSH behind the PULL still waits";
  EXPECT_TRUE(b.in().req_in_valid && !b.out().req_in_ready);
  ASSERT_EQ(b.got().size(), 2u) << "the response passed meanwhile";
  EXPECT_EQ(b.out().stat_bypasses, 1u);
  ASSERT_TRUE(b.write_reg(T3_REDUCTION_TABLE_A_CTRL,
                          T3_REDUCTION_TABLE_R_CTRL_ENABLE_MASK | T3_REDUCTION_TABLE_R_CTRL_PULL_PASS_MASK));
  b.settle();
  EXPECT_TRUE(b.req().idle());
  EXPECT_EQ(b.out().stat_pull_passed, 1u);
  ASSERT_TRUE(b.write_reg(T3_REDUCTION_TABLE_A_TIMEOUT, 1));
  b.settle();
  EXPECT_EQ(b.out().stat_evict_lru, 1u) << "the PUSH took an empty pull entry";
  EXPECT_EQ(b.out().stat_evict_timeout, e) << "the other pull entries leave without a packet";
  EXPECT_EQ(b.got().size(), 3u) << "the PUSH's entry leaves as a PARTIAL";
  b.at_rest();
}

// Back-to-back packets to one entry, every length: the words written 1..3
// cycles before are waited for, 4 and 5 cycles before forwarded; the sums
// are exact (the scoreboard checks every lane).
TEST(ReductionTableCosim, BackToBackPacketsToOneEntryAreExact) {
  Bench b;
  for (unsigned len = 1; len <= params().max_len; ++len)
    for (unsigned dt = 0; dt < 3; ++dt) {
      const uint64_t addr = 0x10000 * len + 0x1000 * dt;
      for (int c = 0; c < 6; ++c) b.req().push(with_lanes(hdr(3, 3, addr, 1, 6, uint8_t(dt), uint8_t(len)), c + 1));
      b.settle();
      ASSERT_FALSE(b.got().empty());
      EXPECT_EQ(lane0(b.got().back(), len - 1), exact_value(dt, 21, 0, false)) << "len " << len;
    }
  b.at_rest();
}

// out_ready_i low: the output FIFO fills, then what needs room waits;
// nothing is lost and the order of the results is kept.
TEST(ReductionTableCosim, BackPressureOnOut) {
  Bench b;
  b.in().out_ready = false;
  const uint8_t ml = uint8_t(params().max_len);
  for (unsigned a = 0; a < 6; ++a) b.req().push(with_lanes(hdr(3, 1, 0x400 * (a + 1), 2, 2, 0, ml), int(a)));
  b.run(100);
  EXPECT_TRUE(b.got().empty());
  EXPECT_FALSE(b.req().idle());
  b.in().out_ready = true;
  b.settle();
  ASSERT_EQ(b.got().size(), 6u);
  for (unsigned a = 0; a < 6; ++a) EXPECT_EQ(b.got()[a].h.addr, 0x400u * (a + 1));
  b.at_rest();
}

// Special values through the table: NaNs canonical, infinities, overflow;
// with ACC32 16-bit lanes accumulate in fp32 and round once.
TEST(ReductionTableCosim, SpecialValuesAndTheAccumulator) {
  Bench b;
  Packet a = with_lanes(hdr(3, 1, 0x800, 1, 3), 0), c = a, d = a;
  a.data[0].set_lane(0, 16, 0x7C00);
  c.data[0].set_lane(0, 16, 0xFC00);
  a.data[0].set_lane(16, 16, 0x7D23);
  a.data[0].set_lane(32, 16, 0x7BFF);
  c.data[0].set_lane(32, 16, 0x7BFF);
  d.data[0].set_lane(32, 16, 0xFBFF);  // ACC32: back from fp32 overflow; fp16: inf stays
  a.data[0].set_lane(48, 16, 0x3C00);
  c.data[0].set_lane(48, 16, 0x1000);  // 2^-11: a tie in fp16, exact in fp32
  d.data[0].set_lane(48, 16, 0x1000);
  a.data[0].set_lane(64, 16, 0x3C00);  // 1 + 2^-11 + 2^-12: fp16 1; fp32 rounds up once
  c.data[0].set_lane(64, 16, 0x1000);
  d.data[0].set_lane(64, 16, 0x0C00);
  a.data[0].set_lane(80, 16, 0x3C01);  // 1 + 2^-10 + 2^-11: a tie both ways, to even
  c.data[0].set_lane(80, 16, 0x1000);
  a.data[0].set_lane(96, 16, 0x0001);  // subnormals: the smallest, twice, and its negative
  c.data[0].set_lane(96, 16, 0x0001);
  d.data[0].set_lane(96, 16, 0x8001);
  a.data[0].set_lane(112, 16, 0x8000);  // -0 + -0 + +0 = +0
  c.data[0].set_lane(112, 16, 0x8000);
  b.req().push(a);
  b.req().push(c);
  b.req().push(d);
  b.settle();
  ASSERT_EQ(b.got().size(), 1u);
  const Wide& r = b.got()[0].data[0];
  EXPECT_EQ(r.lane(0, 16), 0x7E00u);
  EXPECT_EQ(r.lane(16, 16), 0x7E00u);
  EXPECT_EQ(r.lane(32, 16), params().acc32 ? 0x7BFFu : 0x7C00u);
  EXPECT_EQ(r.lane(48, 16), params().acc32 ? 0x3C01u : 0x3C00u);
  EXPECT_EQ(r.lane(64, 16), params().acc32 ? 0x3C01u : 0x3C00u);
  EXPECT_EQ(r.lane(80, 16), 0x3C02u);
  EXPECT_EQ(r.lane(96, 16), 0x0001u);
  EXPECT_EQ(r.lane(112, 16), 0x0000u);
  // bf16 and fp32 lanes, the accumulator rounding bf16 once too.
  Packet e = with_lanes(hdr(3, 1, 0x840, 1, 2, 1), 0), f = e;
  e.data[0].set_lane(0, 16, 0x3F80);   // 1
  f.data[0].set_lane(0, 16, 0x3B80);   // 2^-8: a tie, to even
  e.data[0].set_lane(16, 16, 0x3F81);  // 1 + 2^-7
  f.data[0].set_lane(16, 16, 0x3BC0);  // 1.5 x 2^-8 = 0.75 ulp: 1.75 ulps round to 2
  b.req().push(e);
  b.req().push(f);
  Packet g = with_lanes(hdr(3, 1, 0x880, 1, 2, 2), 0), k = g;
  g.data[0].set_lane(0, 32, 0x3F800000);
  k.data[0].set_lane(0, 32, 0x33800000);  // 2^-24: a tie, to even
  g.data[0].set_lane(32, 32, 0x7F7FFFFF);
  k.data[0].set_lane(32, 32, 0x7F7FFFFF);  // overflow: inf
  b.req().push(g);
  b.req().push(k);
  b.settle();
  ASSERT_EQ(b.got().size(), 3u);
  EXPECT_EQ(b.got()[1].data[0].lane(0, 16), 0x3F80u);
  EXPECT_EQ(b.got()[1].data[0].lane(16, 16), 0x3F82u);
  EXPECT_EQ(b.got()[2].data[0].lane(0, 32), 0x3F800000u);
  EXPECT_EQ(b.got()[2].data[0].lane(32, 32), 0x7F800000u);
  b.at_rest();
}

// The key: one address in two regions, a push and a pull on one address,
// two requesters (and two counter ids) pulling one address: five entries,
// five results, none mixed with another.
TEST(ReductionTableCosim, KeysKeepReductionsApart) {
  Bench b;
  b.req().push(with_lanes(hdr(3, 1, 0x8000, 1, 2), 1));
  b.req().push(with_lanes(hdr(3, 2, 0x8000, 1, 2), 10));
  std::vector<pkt::Header> pulls;
  for (auto [src, ctr] : {std::pair{4, 1}, std::pair{5, 1}, std::pair{4, 2}}) {
    pkt::Header pl = hdr(4, 1, 0x8000, 0, 2);
    pl.src = uint8_t(src);
    pl.ctr = uint8_t(ctr);
    b.req().push(Packet{pl, {}});
    pulls.push_back(pl);
  }
  b.run(20);
  EXPECT_EQ(b.read_reg(T3_REDUCTION_TABLE_A_STATUS) >> T3_REDUCTION_TABLE_R_STATUS_OCCUPANCY_SHIFT & 0x7F,
            std::min(5u, params().entries));
  b.req().push(with_lanes(hdr(3, 2, 0x8000, 1, 2), 20));
  b.req().push(with_lanes(hdr(3, 1, 0x8000, 1, 2), 2));
  int v = 100;
  for (const pkt::Header& pl : pulls)
    for (int i = 0; i < 2; ++i) {
      pkt::Header r = hdr(0xA, 1, 0x8000, 1, 2);
      r.src = 50;
      r.dst = pl.src;
      r.ctr = pl.ctr;
      b.rsp().push(with_lanes(r, v + i));
    }
  b.settle();
  ASSERT_TRUE(b.write_reg(T3_REDUCTION_TABLE_A_TIMEOUT, 1));
  b.settle();
  b.at_rest();
  if (params().entries >= 5) {
    ASSERT_EQ(b.got().size(), 5u);
    EXPECT_EQ(b.out().stat_completions, 5u);
    EXPECT_EQ(b.out().stat_evict_lru + b.out().stat_evict_timeout, 0u);
  }
}

// A reset while packets are half in and out: everything in flight is gone,
// the streams stop, the table starts empty.
TEST(ReductionTableCosim, AResetInTheMiddleOfTraffic) {
  Bench b;
  const uint8_t ml = uint8_t(params().max_len);
  for (unsigned a = 0; a < 4; ++a) b.req().push(with_lanes(hdr(3, 1, 0x400 * (a + 1), 1, 2, 0, ml), 1));
  b.req().push(with_lanes(hdr(3, 1, 0x400, 1, 2, 0, ml), 1));
  b.run(12);
  b.in().rst_n = false;
  b.req().clear();
  b.run(2);
  b.in().rst_n = true;
  b.got().clear();
  b.run(20);
  EXPECT_TRUE(b.got().empty());
  EXPECT_EQ(b.out().stat_alloc, 0u);
  EXPECT_EQ(b.read_reg(T3_REDUCTION_TABLE_A_STATUS), 0u);
  b.req().push(with_lanes(hdr(3, 1, 0x400, 2, 2, 0, ml), 1));
  b.settle();
  EXPECT_EQ(b.got().size(), 1u);
  b.at_rest();
}

// CTRL.ENABLE 0: no new header is taken; what was begun finishes.
TEST(ReductionTableCosim, DisabledTakesNoNewHeader) {
  Bench b;
  ASSERT_TRUE(b.write_reg(T3_REDUCTION_TABLE_A_CTRL, 0));
  b.req().push(with_lanes(hdr(3, 1, 0x400, 2, 2), 1));
  b.run(30);
  EXPECT_TRUE(b.got().empty());
  EXPECT_FALSE(b.out().req_in_ready);
  ASSERT_TRUE(b.write_reg(T3_REDUCTION_TABLE_A_CTRL, T3_REDUCTION_TABLE_R_CTRL_ENABLE_MASK));
  b.settle();
  EXPECT_EQ(b.got().size(), 1u);
  EXPECT_EQ(b.read_reg(T3_REDUCTION_TABLE_A_PARAM_GEOM),
            params().flit_w | params().max_len << 16 | params().entries << 24);
  b.at_rest();
}

TEST(ReductionTableCosim, ConstrainedRandom) {
  const RunOptions& opt = test_options();
  const uint64_t cycles = opt.cycles ? opt.cycles : T3_RANDOM_CYCLES;
  std::mt19937_64 rng(opt.seed);
  Cosim<ReductionTableBlock>& c = the_cosim();
  c.in() = ReductionTableInputs{};
  EXPECT_TRUE(c.reset(2)) << c.first_mismatch();
  ReductionTableScoreboard sb(params());
  ReductionTableStimulus stim(params(), rng());
  RegTraffic<ReductionTableRegMap> regs(rng(), 0.002);
  uint64_t n = 0, rests = 0;
  auto step = [&] {
    stim.drive(c.in());
    // Random register accesses until the run's end, none in the drain
    // (drained() waits for the APB port to be idle).
    if (n < cycles) regs.maybe_queue(stim.apb(), sb.regs());
    for (const pkt::Header& k : stim.take_probe_keys()) sb.allow_refusals(k);
    const ReductionTableInputs in = c.in();
    EXPECT_TRUE(c.cycle()) << c.first_mismatch();
    if (auto err = sb.observe(in, c.out())) ADD_FAILURE() << "cycle " << c.cycles() - 1 << ": " << *err;
    stim.after(in, c.out());
    if (stim.at_rest()) {
      ++rests;
      if (auto err = sb.check_at_rest()) ADD_FAILURE() << "cycle " << c.cycles() - 1 << ", at rest: " << *err;
    }
    ++n;
  };
  while (n < cycles && !testing::Test::HasFailure()) step();
  stim.stop();
  for (uint64_t k = 0; k < 200000 && !stim.drained() && !testing::Test::HasFailure(); ++k) step();
  for (unsigned k = 0; k < 100; ++k) step();
  EXPECT_TRUE(stim.drained()) << "the traffic did not drain";
  if (auto err = sb.check_at_rest()) ADD_FAILURE() << "at the end: " << *err;
  const auto& sc = sb.coverage();
  const auto& tc = stim.coverage();
  const ReductionTableOutputs& o = sb.last();
  std::printf("random: %llu cycles (seed %llu), %llu phases, %llu resets, %llu rests\n", u64(n),
              u64(opt.seed), u64(tc.phases), u64(tc.resets), u64(rests));
  std::printf("  jobs: %llu push, %llu pull, %llu bypass, %llu done, %llu voided by resets, "
              "%llu probes, at most %llu open\n",
              u64(tc.push_jobs), u64(tc.pull_jobs), u64(tc.bypass_jobs), u64(tc.jobs_done),
              u64(tc.jobs_voided), u64(tc.probes), u64(tc.max_open));
  std::printf("  out: %llu RESULT, %llu PARTIAL, %llu PULL_RSP complete, %llu partial, %llu passed; "
              "%llu reductions checked (%llu lanes, %llu zero, %llu subnormal)\n",
              u64(sc.results), u64(sc.partials), u64(sc.pull_complete), u64(sc.pull_partial),
              u64(sc.bypassed), u64(sc.balanced), u64(sc.lanes_checked), u64(sc.zero_results),
              u64(sc.subnormal_results));
  std::printf("  malformed by code:");
  for (unsigned k = 1; k <= 8; ++k) std::printf(" %llu", u64(sc.malformed[k]));
  std::printf("; probe reductions refused %llu\n", u64(sc.refused_groups));
  std::printf("  counters since the last reset: alloc %u hits %u completions %u lru %u timeout %u "
              "bypass %u pull_passed %u malformed %u refused %u stall %u/%u hwm %u\n",
              o.stat_alloc, o.stat_hits, o.stat_completions, o.stat_evict_lru, o.stat_evict_timeout,
              o.stat_bypasses, o.stat_pull_passed, o.stat_malformed, o.stat_refused, o.stat_stall_req,
              o.stat_stall_rsp, o.stat_hwm);
  const RegAccessCounts& rc = sb.regs().counts();
  std::printf("  counter steps over the run: alloc %llu hits %llu completions %llu lru %llu timeout %llu "
              "bypass %llu pull_passed %llu malformed %llu refused %llu; %llu cycles with the high-water "
              "mark at ENTRIES, %llu cycles a data flit was held, %llu output gaps, %llu cycles out "
              "held\n",
              u64(sc.steps[0]), u64(sc.steps[1]), u64(sc.steps[2]), u64(sc.steps[3]), u64(sc.steps[4]),
              u64(sc.steps[5]), u64(sc.steps[6]), u64(sc.steps[7]), u64(sc.steps[8]), u64(sc.hwm_full),
              u64(sc.data_held), u64(sc.mid_packet_gaps), u64(sc.out_backpressure));
  std::printf("  configuration: %llu TIMEOUT too wide, %llu off, %llu tiny; %llu CTRL.ENABLE off, %llu "
              "phases with PULL_PASS; %llu out stalls; registers: %llu reads, %llu writes, refused "
              "%llu address, %llu strobe, %llu read-only; %llu cycles with the interrupt up\n",
              u64(tc.cfg_errors), u64(tc.timeouts_off), u64(tc.timeouts_small), u64(tc.disables),
              u64(tc.pull_pass), u64(tc.out_stalls), u64(rc.reads), u64(rc.writes), u64(rc.address_errors),
              u64(rc.strobe_errors), u64(rc.read_only_errors), u64(rc.intr_cycles));
  EXPECT_EQ(c.failures(), 0u) << c.first_failure();
  EXPECT_GT(sc.balanced, n / 200) << "the traffic checked too few reductions to mean anything";
  if (n < 1000000) return;  // the coverage below needs the full run
  EXPECT_GT(sc.results, 0u);
  EXPECT_GT(sc.partials, 0u);
  EXPECT_GT(sc.pull_complete, 0u);
  EXPECT_GT(sc.pull_partial, 0u);
  EXPECT_GT(sc.bypassed, 0u);
  EXPECT_GT(sc.zero_results, 0u);
  EXPECT_GT(sc.subnormal_results, 0u);
  for (unsigned k = 1; k <= 8; ++k) EXPECT_GT(sc.malformed[k], 0u) << "malformed code " << k;
  for (unsigned k = 0; k < 9; ++k) EXPECT_GT(sc.steps[k], 0u) << "counter " << k << " never moved";
  EXPECT_GT(sc.refused_groups, 0u);
  EXPECT_GT(sc.hwm_full, 0u);
  EXPECT_GT(sc.data_held, 0u);
  EXPECT_GT(sc.mid_packet_gaps, 0u);
  EXPECT_GT(sc.out_backpressure, 0u);
  EXPECT_GT(o.stat_stall_req + o.stat_stall_rsp, 0u);
  EXPECT_GT(rests, 2u);
  EXPECT_GT(tc.resets, 0u);
  EXPECT_GT(tc.cfg_errors + (params().timeout_w == 32), 0u);
  EXPECT_GT(tc.timeouts_off, 0u);
  EXPECT_GT(tc.timeouts_small, 0u);
  EXPECT_GT(tc.disables, 0u);
  EXPECT_GT(tc.pull_pass, 0u);
  EXPECT_GT(tc.jobs_voided, 0u);
  EXPECT_GT(rc.reads, 500u);
  EXPECT_GT(rc.address_errors, 0u);
  EXPECT_GT(rc.strobe_errors, 0u);
  EXPECT_GT(rc.read_only_errors, 0u);
  EXPECT_GT(rc.intr_cycles, 0u);
}

}  // namespace
}  // namespace t3::tb
