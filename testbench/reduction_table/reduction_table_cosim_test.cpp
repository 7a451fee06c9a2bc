// Reduction table co-simulation tests: directed cases for every rule and
// corner, then constrained-random traffic. Every output of the C++ model is
// compared with the Verilated RTL in every cycle (the binary fails at the
// end if any cycle mismatched), and the transaction-level scoreboard checks
// the RTL's outputs (the register port's answers and the interrupt line
// included) against the rules. Run on either engine: --engine systemc
// (default) or --engine direct.
#include <gtest/gtest.h>

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

TEST(ReductionTableCosim, PushContributionsReduceToOneResult) {
  Bench b;
  for (unsigned dt = 0; dt < 3; ++dt) {
    const uint64_t addr = 0x1000 * (dt + 1);
    for (int c = 0; c < 4; ++c)
      b.req().push(with_lanes(hdr(3, 5, addr, 1, 4, uint8_t(dt), uint8_t(params().max_len)), c + 1));
    b.settle();
    ASSERT_EQ(b.got().size(), dt + 1u);
    const Packet& r = b.got().back();
    EXPECT_EQ(r.h.op, uint8_t(pkt::Op::result));
    EXPECT_EQ(r.h.count, 4u);
    const unsigned lw = dt == 2 ? 32 : 16;
    EXPECT_EQ(r.data[0].lane(0, lw), exact_value(dt, 10, 0, false));
  }
  b.at_rest();
  EXPECT_EQ(b.out().stat_completions, 3u);
  EXPECT_EQ(b.out().stat_alloc, 3u);
  EXPECT_EQ(b.out().stat_hits, 9u);
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
    regs.maybe_queue(stim.apb(), sb.regs());
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
  EXPECT_EQ(c.failures(), 0u) << c.first_failure();
}

}  // namespace
}  // namespace t3::tb
