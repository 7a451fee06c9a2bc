// Unit tests of the reduction table's cycle model
// (hw/reduction_table/reduction_table_core.h): parameter and header checks,
// the documented cycle table (docs/blocks/reduction_table.md, "Timing"),
// and the rules one by one on the core's pins. The co-simulation
// (testbench/reduction_table) holds the RTL to the same model.
#include <gtest/gtest.h>

#include <cstdio>
#include <deque>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/fp_convert.h"
#include "param_refusal.h"
#include "reduction_table/reduction_table.h"
#include "t3/reduction_table_regs.h"

namespace t3 {
namespace {

using pkt::Header;

Header hdr(uint8_t op, uint8_t rgn, uint64_t addr, uint8_t count, uint8_t expect, uint8_t dtype = 0,
           uint8_t len = 1) {
  Header h;
  h.op = op;
  h.dtype = dtype;
  h.len = len;
  h.count = count;
  h.addr = addr;
  h.rgn = rgn;
  h.expect = expect;
  h.home = 9;
  h.hit = true;
  return h;
}

// The small integer k as fp16 in every lane of a 128-bit flit.
Wide lanes16(unsigned k) {
  uint32_t bits = 0;
  if (k) {
    const unsigned n = 31 - unsigned(__builtin_clz(k));  // k = 1.x * 2^n
    bits = (15 + n) << 10 | ((k << (10 - n)) & 0x3FF);
  }
  Wide w;
  for (unsigned l = 0; l < 8; ++l) w.set_lane(16 * l, 16, bits);
  return w;
}

// The core driven flit by flit: packets queued per stream, a flit offered
// until taken, every cycle's outputs recorded.
struct Rig {
  explicit Rig(ReductionTableParams p = {}) : core(p) {
    in.rst_n = false;
    core.step(in);
    in.rst_n = true;
    in.out_ready = true;
  }
  ReductionTableCore core;
  ReductionTableCoreInputs in;
  std::deque<Wide> q[2];
  std::vector<ReductionTableCoreOutputs> log;
  std::vector<std::pair<Header, std::vector<Wide>>> out;
  bool in_pkt = false;
  unsigned left = 0;

  void send(unsigned s, const Header& h, const std::vector<Wide>& data) {
    q[s].push_back(pkt::pack(h));
    for (const Wide& d : data) q[s].push_back(d);
  }
  void send(unsigned s, const Header& h, unsigned k = 1) {
    std::vector<Wide> d;
    if (pkt::has_data(h.op))
      for (unsigned i = 0; i < h.len; ++i) d.push_back(lanes16(k));
    send(s, h, d);
  }
  ReductionTableCoreOutputs cycle() {
    in.req_in_valid = !q[0].empty();
    in.req_in_flit = in.req_in_valid ? q[0].front() : Wide{};
    in.rsp_in_valid = !q[1].empty();
    in.rsp_in_flit = in.rsp_in_valid ? q[1].front() : Wide{};
    const ReductionTableCoreOutputs o = core.step(in);
    if (in.req_in_valid && o.req_in_ready) q[0].pop_front();
    if (in.rsp_in_valid && o.rsp_in_ready) q[1].pop_front();
    if (o.out_valid && in.out_ready) {
      if (!in_pkt) {
        out.push_back({pkt::unpack(o.out_flit), {}});
        left = out.back().first.len;
        in_pkt = true;
      } else {
        out.back().second.push_back(o.out_flit);
        --left;
      }
      if (left == 0) in_pkt = false;
    }
    log.push_back(o);
    return o;
  }
  void run(unsigned n) {
    for (unsigned i = 0; i < n; ++i) cycle();
  }
};

TEST(ReductionTableParams, OutOfRangeNamesTheParameter) {
  for (auto [field, value, text] : {std::tuple{&ReductionTableParams::entries, 65u, "entries (ENTRIES) = 65"},
                                    std::tuple{&ReductionTableParams::entries, 1u, "entries (ENTRIES) = 1"},
                                    std::tuple{&ReductionTableParams::max_len, 17u, "max_len (MAX_LEN) = 17"},
                                    std::tuple{&ReductionTableParams::flit_w, 192u, "flit_w (FLIT_W) = 192"},
                                    std::tuple{&ReductionTableParams::timeout_w, 0u, "timeout_w (TIMEOUT_W) = 0"},
                                    std::tuple{&ReductionTableParams::acc32, 2u, "acc32 (ACC32) = 2"}}) {
    ReductionTableParams p;
    p.*field = value;
    expect_refused(p, text);
  }
  ReductionTableParams p;
  p.acc32 = 1;
  p.flit_w = 512;
  EXPECT_THROW(p.validate(), std::invalid_argument);
  try {
    ReductionTableCore c{p};
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("ACC32 = 1"), std::string::npos) << e.what();
  }
}


// fp16 value of lane 0 of a flit.
uint32_t lane0(const Wide& w) { return w.lane(0, 16); }
uint32_t f16(unsigned k) { return lanes16(k).lane(0, 16); }

// The cycle table of docs/blocks/reduction_table.md ("Timing"): two PUSHes
// of 2 data flits to one address, expect 2. Per cycle, req_in: H header
// taken, D data flit taken, w offered and held; out: H header, D data.
TEST(ReductionTableCycleTable, TwoPushesToOneEntryThenTheResult) {
  Rig r;
  r.send(0, hdr(3, 1, 0x100, 1, 2, 0, 2), 1);
  r.send(0, hdr(3, 1, 0x100, 1, 2, 0, 2), 2);
  std::string req, out;
  for (int c = 0; c < 17; ++c) {
    const bool offered = !r.q[0].empty();
    const bool first_out = !r.in_pkt;
    const auto o = r.cycle();
    req += !offered ? '-' : !o.req_in_ready ? 'w' : 'T';
    out += !o.out_valid ? '-' : first_out ? 'H' : 'D';
  }
  // Taken flits: the first and the fourth are headers (each packet is a
  // header and 2 data flits).
  for (size_t i = 0, taken = 0; i < req.size(); ++i)
    if (req[i] == 'T') req[i] = (taken++ % 3 == 0) ? 'H' : 'D';
  EXPECT_EQ(req, "HwDDHwDD---------");
  EXPECT_EQ(out, "-------------HDD-");
  ASSERT_EQ(r.out.size(), 1u);
  EXPECT_EQ(r.out[0].first.op, uint8_t(pkt::Op::result));
  EXPECT_EQ(r.out[0].first.count, 2u);
  EXPECT_EQ(r.out[0].first.dst, 9u) << "to the home";
  EXPECT_EQ(lane0(r.out[0].second[1]), f16(3));
  const auto o = r.log.back();
  EXPECT_EQ(o.stat_alloc, 1u);
  EXPECT_EQ(o.stat_hits, 1u);
  EXPECT_EQ(o.stat_completions, 1u);
  EXPECT_EQ(o.occupancy, 0u);
  EXPECT_EQ(o.stat_hwm, 1u);
  EXPECT_EQ(o.stat_stall_req, 2u) << "the two decision cycles";
}

TEST(ReductionTableChecks, EachCauseInOrder) {
  ReductionTableParams p;
  struct Case {
    Header h;
    bool rsp;
    RtErr want;
  };
  std::vector<Case> cases;
  auto add = [&](auto edit, bool rsp, RtErr want, uint8_t op = 3) {
    Header h = hdr(op, 1, 0x40, 1, 2);
    edit(h);
    cases.push_back({h, rsp, want});
  };
  add([](Header&) {}, false, RtErr::none);
  add([](Header& h) { h.op = 0x5; }, false, RtErr::unknown_op);
  add([](Header& h) { h.op = 0x0; }, false, RtErr::unknown_op);
  add([](Header& h) { h.len = 0; }, false, RtErr::bad_len);
  add([](Header& h) { h.len = 5; }, false, RtErr::bad_len);
  add([](Header& h) { h.len = 4; }, false, RtErr::none);
  add([](Header& h) { h.red_op = 2; }, false, RtErr::bad_red_op);
  add([](Header& h) { h.dtype = 3; }, false, RtErr::bad_dtype);
  add([](Header& h) { h.addr = 0x48; }, false, RtErr::misaligned);
  add([](Header& h) { h.op = 0x1; }, false, RtErr::wrong_port);
  add([](Header&) {}, true, RtErr::wrong_port);
  add([](Header&) {}, false, RtErr::wrong_port, 0xA);
  add([](Header&) {}, true, RtErr::none, 0xA);
  add([](Header&) {}, true, RtErr::wrong_port, 0xB);
  add([](Header& h) { h.hit = false; }, false, RtErr::no_region);
  add([](Header& h) { h.count = 0; }, false, RtErr::bad_count);
  add([](Header& h) { h.count = 3; }, false, RtErr::bad_count);
  add([](Header& h) { h.count = 2; }, false, RtErr::none);
  add([](Header& h) { h.expect = 0; }, false, RtErr::bad_count);
  add([](Header& h) { h.count = 2; }, false, RtErr::bad_count, 0x4);  // a PULL waiting for nothing
  add([](Header& h) { h.count = 1; }, false, RtErr::none, 0x4);
  add([](Header& h) { h.count = 0; }, true, RtErr::bad_count, 0xA);
  add([](Header& h) { h.red_op = 1; h.addr = 0x41; }, false, RtErr::bad_red_op);  // the first cause wins
  for (const Case& c : cases)
    EXPECT_EQ(rt_check(c.h, c.rsp, p), c.want) << name(c.want) << " expected for op " << unsigned(c.h.op);
}

TEST(ReductionTableRules, AMalformedPacketIsDroppedWholeAndChangesNothingElse) {
  Rig r;
  Header bad = hdr(3, 1, 0x100, 1, 2, 0, 4);
  bad.len = 7;  // past MAX_LEN: 7 data flits follow, all dropped
  r.send(0, bad, 1);
  r.send(0, hdr(3, 1, 0x100, 1, 2, 0, 1), 5);
  r.run(6);
  bool pulse = false;
  for (const auto& o : r.log) pulse |= o.evt_malformed;
  EXPECT_TRUE(pulse);
  r.run(20);
  const auto o = r.log.back();
  EXPECT_EQ(o.stat_malformed, 1u);
  EXPECT_EQ(o.err_code, unsigned(RtErr::bad_len));
  EXPECT_EQ(o.err_op, 3u);
  EXPECT_FALSE(o.err_stream);
  EXPECT_EQ(o.stat_alloc, 1u) << "the good PUSH after it allocates";
  EXPECT_EQ(o.occupancy, 1u);
  EXPECT_TRUE(r.out.empty());
  EXPECT_TRUE(r.q[0].empty()) << "every flit of the dropped packet was taken";
  EXPECT_EQ(lane0(r.core.word(r.core.lru_at(r.core.params().entries - 1), 0)), f16(5))
      << "the most recently used entry holds the good PUSH";
}

TEST(ReductionTableRules, RefusalsLeaveTheEntryAsItWas) {
  Rig r;
  r.send(0, hdr(3, 2, 0x200, 1, 4, 0, 2), 1);
  r.send(0, hdr(3, 2, 0x200, 1, 4, 1, 2), 7);  // dtype differs
  r.send(0, hdr(3, 2, 0x200, 1, 4, 0, 1), 7);  // len differs
  Header e = hdr(3, 2, 0x200, 1, 5, 0, 2);     // expect differs
  r.send(0, e, 7);
  r.send(0, hdr(3, 2, 0x200, 4, 4, 0, 2), 7);  // 1 + 4 > 4: overcount
  r.send(0, hdr(3, 2, 0x200, 3, 4, 0, 2), 2);  // completes: 1 + 3
  r.run(40);
  const auto o = r.log.back();
  EXPECT_EQ(o.stat_refused, 4u);
  EXPECT_EQ(o.err_code, unsigned(RtErr::overcount));
  ASSERT_EQ(r.out.size(), 1u);
  EXPECT_EQ(r.out[0].first.op, uint8_t(pkt::Op::result));
  EXPECT_EQ(lane0(r.out[0].second[0]), f16(3)) << "1 + 2: the refused packets' 7s are not in";
  EXPECT_EQ(o.stat_hits, 1u);
}

TEST(ReductionTableRules, TheLeastRecentlyUsedEntryIsEvictedAsAPartialToTheHome) {
  ReductionTableParams p;
  p.entries = 2;
  Rig r(p);
  r.send(0, hdr(3, 1, 0x10, 1, 3), 1);  // A
  r.send(0, hdr(3, 1, 0x20, 1, 3), 2);  // B
  r.send(0, hdr(3, 1, 0x10, 1, 3), 3);  // A again: B is now the least recently used
  r.send(0, hdr(3, 1, 0x30, 1, 3), 4);  // C: B evicted
  r.run(40);
  ASSERT_EQ(r.out.size(), 1u);
  const Header& h = r.out[0].first;
  EXPECT_EQ(h.op, uint8_t(pkt::Op::partial));
  EXPECT_EQ(h.addr, 0x20u);
  EXPECT_EQ(h.count, 1u);
  EXPECT_EQ(h.dst, 9u);
  EXPECT_EQ(h.src, 0u);
  EXPECT_EQ(lane0(r.out[0].second[0]), f16(2));
  const auto o = r.log.back();
  EXPECT_EQ(o.stat_evict_lru, 1u);
  EXPECT_EQ(o.stat_hwm, 2u);
  EXPECT_EQ(o.occupancy, 2u);
  EXPECT_EQ(r.core.entry(r.core.lru_at(0)).addr, 0x10u) << "A is the next to go";
}

// An entry no contribution touched for TIMEOUT cycles is evicted in the
// cycle after: touched by the decision in cycle d, its idle count is
// c - d - 1 in cycle c, and the eviction is decided when it reaches TIMEOUT.
TEST(ReductionTableRules, TimeoutEvictsAfterExactlyTimeoutIdleCycles) {
  for (uint32_t t : {1u, 2u, 7u}) {
    Rig r;
    r.in.cfg_timeout = t;
    r.send(0, hdr(3, 1, 0x10, 1, 3), 1);  // decided in cycle 1
    unsigned evicted_at = 0;
    for (unsigned c = 0; c < 40 && !evicted_at; ++c)
      if (r.cycle().stat_evict_timeout) evicted_at = c;
    EXPECT_EQ(evicted_at, 1 + t + 1 + 1) << "TIMEOUT " << t << ": decided in cycle 1 + t + 1, counted after";
    r.run(20);
    ASSERT_EQ(r.out.size(), 1u);
    EXPECT_EQ(r.out[0].first.op, uint8_t(pkt::Op::partial));
  }
  for (uint32_t t : {0u, 1u << 16}) {
    Rig r;
    r.in.cfg_timeout = t;
    r.send(0, hdr(3, 1, 0x10, 1, 3), 1);
    r.run(300);
    EXPECT_TRUE(r.out.empty()) << "TIMEOUT " << t << " evicts nothing";
    EXPECT_EQ(r.log.back().cfg_error, t != 0);
  }
}

TEST(ReductionTableRules, APullAllocatesAndItsResponsesReduceIntoIt) {
  Rig r;
  Header pl = hdr(4, 3, 0x300, 1, 4, 0, 2);  // the requester holds 1 of 4: waits for 3
  pl.src = 21;
  pl.ctr = 77;
  r.send(0, pl);
  r.run(3);
  for (unsigned k : {1u, 2u}) {
    Header rs = hdr(0xA, 3, 0x300, k, 4, 0, 2);
    rs.src = uint8_t(30 + k);
    rs.dst = 21;
    rs.ctr = 77;
    r.send(1, rs, k * 3);
  }
  r.run(40);
  ASSERT_EQ(r.out.size(), 1u);
  const Header& h = r.out[0].first;
  EXPECT_EQ(h.op, uint8_t(pkt::Op::pull_rsp));
  EXPECT_EQ(h.dst, 21u) << "to the requester";
  EXPECT_EQ(h.src, 0u);
  EXPECT_EQ(h.ctr, 77u) << "its counter id echoed";
  EXPECT_EQ(h.count, 3u);
  EXPECT_EQ(lane0(r.out[0].second[1]), f16(9));
  const auto o = r.log.back();
  EXPECT_EQ(o.stat_alloc, 1u);
  EXPECT_EQ(o.stat_hits, 2u);
  EXPECT_EQ(o.stat_completions, 1u);
  EXPECT_EQ(o.occupancy, 0u);
}

TEST(ReductionTableRules, AFullTableHoldsPullsButResponsesKeepFlowing) {
  ReductionTableParams p;
  p.entries = 2;
  Rig r(p);
  for (uint8_t k = 0; k < 3; ++k) {
    Header pl = hdr(4, 1, 0x100 + 0x10 * k, 0, 2);
    pl.src = k;
    r.send(0, pl);
  }
  r.send(0, hdr(3, 1, 0x900, 1, 2), 1);  // a PUSH behind the third PULL
  Header rs = hdr(0xA, 1, 0x700, 1, 2);  // a response of a pull this table never saw
  rs.src = 5;
  rs.dst = 40;
  r.send(1, rs, 4);
  r.run(30);
  const auto o = r.log.back();
  EXPECT_EQ(o.occupancy, 2u);
  EXPECT_FALSE(o.req_in_ready) << "the third PULL waits for an entry";
  EXPECT_EQ(o.stat_alloc, 2u);
  EXPECT_EQ(o.stat_bypasses, 1u) << "the response passed meanwhile";
  ASSERT_EQ(r.out.size(), 1u);
  EXPECT_EQ(r.out[0].first, rs);
  EXPECT_EQ(lane0(r.out[0].second[0]), f16(4));
  EXPECT_GT(o.stat_stall_req, 20u);
  r.in.cfg_pull_pass = true;  // a later hop: the PULL is not tracked
  r.run(10);
  EXPECT_EQ(r.log.back().stat_pull_passed, 1u);
  EXPECT_TRUE(r.q[0].empty());
  EXPECT_EQ(r.log.back().stat_evict_lru, 1u) << "the PUSH behind it frees an empty pull entry";
  EXPECT_EQ(r.log.back().stat_alloc, 3u) << "and takes it";
  EXPECT_EQ(r.out.size(), 1u) << "an empty entry leaves no packet";
}

// One-flit packets to one entry back to back (header, decision, data: a
// packet every 3 cycles at best): each data flit would read a word its
// predecessor's sum has not reached (issued 3 cycles before): held a cycle;
// 4 cycles on, the sum is forwarded from the adders. The result is exact.
TEST(ReductionTableRules, BackToBackOneFlitPacketsToOneEntryAreExact) {
  Rig r;
  for (unsigned k = 1; k <= 5; ++k) r.send(0, hdr(3, 1, 0x40, 1, 5), k);
  std::string req;
  for (int c = 0; c < 19; ++c) {
    const bool offered = !r.q[0].empty();
    const auto o = r.cycle();
    req += !offered ? '-' : o.req_in_ready ? 'T' : 'w';
  }
  EXPECT_EQ(req, "TwTTwwTTwwTTwwTTwwT");
  r.run(20);
  ASSERT_EQ(r.out.size(), 1u);
  EXPECT_EQ(lane0(r.out[0].second[0]), f16(15));
}

TEST(ReductionTableRules, BackPressureOnOutHoldsOutputsAndWhatNeedsRoom) {
  Rig r;
  r.in.out_ready = false;
  for (unsigned a = 0; a < 6; ++a) r.send(0, hdr(3, 1, 0x40 * (a + 1), 1, 1, 0, 4), a + 1);  // complete alone
  r.run(80);
  EXPECT_TRUE(r.out.empty());
  EXPECT_FALSE(r.q[0].empty()) << "two 4-flit results fill the FIFO; the third waits";
  EXPECT_EQ(r.log.back().stat_completions, 2u);
  EXPECT_TRUE(r.log.back().out_valid);
  r.in.out_ready = true;
  r.run(80);
  ASSERT_EQ(r.out.size(), 6u);
  for (unsigned a = 0; a < 6; ++a) {
    EXPECT_EQ(r.out[a].first.addr, 0x40u * (a + 1));
    EXPECT_EQ(lane0(r.out[a].second[3]), f16(a + 1));
  }
}

// ACC32: fp16 contributions accumulate in fp32 and are rounded once.
// 1 + 2^-11 + 2^-11: in fp16 each step is a tie that rounds back to 1;
// in fp32 the sum is 1 + 2^-10, one fp16 ulp above 1.
TEST(ReductionTableRules, Acc32RoundsOnceWhenTheResultLeaves) {
  for (unsigned acc : {0u, 1u}) {
    ReductionTableParams p;
    p.acc32 = acc;
    Rig r(p);
    Wide one, tiny;
    for (unsigned l = 0; l < 8; ++l) {
      one.set_lane(16 * l, 16, 0x3C00);
      tiny.set_lane(16 * l, 16, 0x1000);  // 2^-11
    }
    r.send(0, hdr(3, 1, 0x80, 1, 3), {one});
    r.send(0, hdr(3, 1, 0x80, 1, 3), {tiny});
    r.send(0, hdr(3, 1, 0x80, 1, 3), {tiny});
    r.run(40);
    ASSERT_EQ(r.out.size(), 1u);
    EXPECT_EQ(lane0(r.out[0].second[0]), acc ? 0x3C01u : 0x3C00u) << "ACC32 " << acc;
  }
}

TEST(ReductionTableRules, NaNsAreCanonicalAndInfinitiesAdd) {
  Rig r;
  Wide a, b;
  a.set_lane(0, 16, 0x7C00);   // +inf
  b.set_lane(0, 16, 0xFC00);   // -inf: NaN
  a.set_lane(16, 16, 0x7D23);  // a NaN with a payload
  b.set_lane(16, 16, 0x3C00);
  a.set_lane(32, 16, 0x7BFF);  // the largest finite twice: inf
  b.set_lane(32, 16, 0x7BFF);
  r.send(0, hdr(3, 1, 0x80, 1, 2), {a});
  r.send(0, hdr(3, 1, 0x80, 1, 2), {b});
  r.run(40);
  ASSERT_EQ(r.out.size(), 1u);
  EXPECT_EQ(r.out[0].second[0].lane(0, 16), 0x7E00u);
  EXPECT_EQ(r.out[0].second[0].lane(16, 16), 0x7E00u);
  EXPECT_EQ(r.out[0].second[0].lane(32, 16), 0x7C00u);
}

TEST(ReductionTableRules, APushCompleteAloneLeavesWithoutAnEntry) {
  Rig r;
  r.send(0, hdr(3, 1, 0x80, 5, 5, 2, 3), 6);
  r.run(30);
  ASSERT_EQ(r.out.size(), 1u);
  EXPECT_EQ(r.out[0].first.op, uint8_t(pkt::Op::result));
  EXPECT_EQ(r.out[0].first.count, 5u);
  EXPECT_EQ(r.log.back().stat_alloc, 0u);
  EXPECT_EQ(r.log.back().stat_completions, 1u);
  EXPECT_EQ(r.out[0].second[2], lanes16(6)) << "the data as it came";
}

TEST(ReductionTableRules, AnEmptyPullEntryTimesOutWithoutAPacket) {
  Rig r;
  r.in.cfg_timeout = 3;
  r.send(0, hdr(4, 1, 0x80, 0, 2));
  r.run(20);
  EXPECT_TRUE(r.out.empty());
  EXPECT_EQ(r.log.back().stat_evict_timeout, 1u);
  EXPECT_EQ(r.log.back().occupancy, 0u);
}

TEST(ReductionTableRules, DisabledTakesNoHeaderButFinishesWhatItHas) {
  Rig r;
  r.send(0, hdr(3, 1, 0x80, 1, 1, 0, 3), 2);
  r.cycle();  // the header is taken
  r.in.cfg_enable = false;
  r.send(0, hdr(3, 1, 0x90, 1, 1), 2);
  r.run(30);
  EXPECT_EQ(r.out.size(), 1u) << "the packet begun finishes";
  EXPECT_EQ(r.q[0].size(), 2u) << "the next header waits";
  r.in.cfg_enable = true;
  r.run(30);
  EXPECT_EQ(r.out.size(), 2u);
}

TEST(ReductionTableRules, AResetInTheMiddleEmptiesEverything) {
  Rig r;
  r.send(0, hdr(3, 1, 0x80, 1, 3, 0, 4), 2);
  r.run(4);
  r.in.rst_n = false;
  const auto o = r.cycle();
  EXPECT_FALSE(o.req_in_ready);
  EXPECT_FALSE(o.out_valid);
  r.in.rst_n = true;
  r.q[0].clear();
  const auto z = r.cycle();
  EXPECT_EQ(z.occupancy, 0u);
  EXPECT_EQ(z.stat_alloc, 0u);
  EXPECT_FALSE(z.busy);
  EXPECT_EQ(r.core.entry(0).valid, false);
}

TEST(ReductionTableRules, CountersWrapAtStatW) {
  ReductionTableParams p;
  p.stat_w = 2;
  Rig r(p);
  Header h = hdr(3, 1, 0x80, 1, 2);
  h.hit = false;  // no region: dropped with its data flit
  for (int i = 0; i < 5; ++i) r.send(0, h, 1);
  r.run(40);
  EXPECT_EQ(r.log.back().stat_malformed, 1u);
}

// Through the block's registers: TIMEOUT too wide for TIMEOUT_W is refused
// (STATUS.CFG_ERROR and its interrupt), the parameters read back.
TEST(ReductionTableBlock, RegistersDriveTheCore) {
  ReductionTableParams p;
  p.timeout_w = 4;
  ReductionTable b{p};
  ReductionTableInputs in;
  in.rst_n = false;
  b.step(in);
  in.rst_n = true;
  EXPECT_EQ(b.tlm_write(T3_REDUCTION_TABLE_A_INTR_ENABLE, 7), RegStatus::ok);
  EXPECT_EQ(b.tlm_write(T3_REDUCTION_TABLE_A_TIMEOUT, 16), RegStatus::ok);
  b.step(in);
  uint32_t v = 0;
  EXPECT_EQ(b.tlm_read(T3_REDUCTION_TABLE_A_STATUS, v), RegStatus::ok);
  EXPECT_EQ(v & T3_REDUCTION_TABLE_R_STATUS_CFG_ERROR_MASK, T3_REDUCTION_TABLE_R_STATUS_CFG_ERROR_MASK);
  EXPECT_TRUE(b.eval(in).intr);
  EXPECT_EQ(b.tlm_write(T3_REDUCTION_TABLE_A_TIMEOUT, 15), RegStatus::ok);
  EXPECT_EQ(b.tlm_write(T3_REDUCTION_TABLE_A_INTR_STATE, 7), RegStatus::ok);
  b.step(in);
  EXPECT_FALSE(b.eval(in).intr);
  EXPECT_EQ(b.tlm_read(T3_REDUCTION_TABLE_A_PARAM_GEOM, v), RegStatus::ok);
  EXPECT_EQ(v, 128u | 4u << 16 | 16u << 24);
  EXPECT_EQ(b.tlm_read(T3_REDUCTION_TABLE_A_PARAM_WIDTHS, v), RegStatus::ok);
  EXPECT_EQ(v, 0u | 4u << 8 | 32u << 16);
  EXPECT_EQ(b.tlm_write(T3_REDUCTION_TABLE_A_CTRL, 0), RegStatus::ok);
  in.req_in_valid = true;
  in.req_in_flit = pkt::pack(hdr(3, 1, 0x80, 1, 2));
  EXPECT_FALSE(b.eval(in).req_in_ready) << "CTRL.ENABLE 0";
}

}  // namespace
}  // namespace t3
