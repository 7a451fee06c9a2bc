// ep_rx co-simulation tests: a RESULT written and handed on, a PULL_RSP
// that completes its line (counted, stored, the pulled line queued, the
// counter cleared), a PARTIAL for a window that is not the home (dropped
// whole, its cause and address in the registers), then constrained-random
// traffic. Every output of the C++ model is compared with the Verilated RTL
// in every cycle (the binary fails at the end if any cycle mismatched), and
// the scoreboard checks the RTL's outputs. --engine systemc (default) or
// direct.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <vector>

#include "common/packet.h"
#include "cosim_config.h"
#include "directed_bench.h"
#include "ep_rx_scoreboard.h"
#include "ep_rx_stimulus.h"
#include "random_run.h"
#include "reg_traffic.h"
#include "t3/ep_rx_regs.h"
#include "test_cosim.h"

namespace t3::tb {
namespace {

Cosim<EpRxBlock>& the_cosim() { return shared_cosim<EpRxBlock>(); }
const EpRxParams& params() { return the_cosim().params(); }

struct Write {
  uint64_t addr;
  bool add;
  Wide data;
};

// The co-simulation with the scoreboard attached. Flits queued with send()
// are offered one a cycle; the counter port is answered by answer_with.
class Bench : public DirectedBench<Bench, EpRxBlock, EpRxScoreboard> {
 public:
  Bench() : DirectedBench(the_cosim()) { in().mw_ready = in().cnt_ready = true; }

  void window(unsigned i, const EpWin& w) { pack_window(in().tbl, i, w); }
  void send(const pkt::Header& h, unsigned data_flits) {
    Packet p{h, {}};
    for (unsigned i = 0; i < data_flits; ++i) {
      Wide d;
      d.w[0] = 0x1000 + i;
      p.data.push_back(d);
    }
    drv_.push(p);
  }

  void before() { drv_.drive(in().rsp_in_valid, in().rsp_in_flit); }
  void after(const EpRxInputs& i, const EpRxOutputs& o) {
    if (o.mw_valid && i.mw_ready) writes.push_back({o.mw_addr, o.mw_add, o.mw_data});
    if (o.res_valid && i.res_ready) results.push_back(o.res_hdr);
    if (o.fin_valid && i.fin_ready) fins.push_back(o);
    if (o.cnt_valid && i.cnt_ready) asks.push_back(o);
    if (o.home) homes.push_back(o);
    drv_.after(i.rsp_in_valid, o.rsp_in_ready);
    // The counter's answer, in the cycle after the grant.
    in().cnt_rsp_valid = o.cnt_valid && i.cnt_ready;
    in().cnt_rsp_code = answer_code;
    in().cnt_rsp_count = answer_count;
    in().cnt_rsp_whole = answer_whole;
  }

  uint8_t answer_code = 0, answer_count = 0;
  bool answer_whole = false;
  std::vector<Write> writes;
  std::vector<Wide> results;
  std::vector<EpRxOutputs> fins, asks, homes;

 private:
  PktDriver drv_{params().flit_w};
};

EpWin a_window(bool home) {
  EpWin w;
  w.valid = true;
  w.home = home;
  w.dtype = 2;
  w.expected = 3;
  w.count_base = 1;
  w.net_base = 0x10000;
  w.bytes = 4 * params().flit_bytes();
  w.src = 0x1000;
  w.dst = 0x2000;
  w.merge = 0x3000;
  return w;
}

pkt::Header a_header(pkt::Op op, unsigned flit, unsigned len) {
  pkt::Header h;
  h.op = uint8_t(op);
  h.dtype = 2;
  h.len = uint8_t(len);
  h.count = 1;
  h.ctr = 5;
  h.addr = 0x10000 + flit * params().flit_bytes();
  return h;
}

TEST(EpRxCosim, AResultIsWrittenToDstAndHandedOn) {
  Bench b;
  b.window(0, a_window(false));
  const unsigned len = std::min(2u, params().max_len);
  b.send(a_header(pkt::Op::result, 1, len), len);
  b.in().res_ready = true;
  b.run(8 + len);
  const uint64_t fb = params().flit_bytes();
  ASSERT_EQ(b.writes.size(), len);
  for (unsigned i = 0; i < len; ++i) {
    EXPECT_EQ(b.writes[i].addr, 0x2000 + (1 + i) * fb);
    EXPECT_FALSE(b.writes[i].add) << "a RESULT is stored";
    EXPECT_EQ(b.writes[i].data.w[0], 0x1000u + i);
  }
  ASSERT_EQ(b.results.size(), 1u);
  EXPECT_EQ(pkt::unpack(b.results[0]), a_header(pkt::Op::result, 1, len));
  EXPECT_TRUE(b.asks.empty()) << "a RESULT counts nothing";
  EXPECT_TRUE(b.out().idle);
  EXPECT_EQ(b.read_reg(T3_EP_RX_A_STAT_RESULTS), 1u);
}

TEST(EpRxCosim, APullResponseCompletingItsLineIsQueuedAndItsCounterCleared) {
  Bench b;
  b.window(0, a_window(false));
  const unsigned len = std::min(2u, params().max_len);
  b.answer_code = 0;  // DONE, the line's first contribution, now whole
  b.answer_count = 0;
  b.answer_whole = true;
  b.send(a_header(pkt::Op::pull_rsp, 1, len), len);
  b.in().fin_ready = true;
  b.run(12 + len);
  ASSERT_EQ(b.asks.size(), 2u) << "an ADD, then a CLEAR";
  EXPECT_EQ(b.asks[0].cnt_op, 1u);
  EXPECT_EQ(b.asks[0].cnt_line, 2u) << "count_base 1 + flit 1";
  EXPECT_EQ(b.asks[0].cnt_limit, 2u) << "expected 3, less the requester's own";
  EXPECT_EQ(b.asks[1].cnt_op, 2u);
  ASSERT_EQ(b.writes.size(), len);
  EXPECT_FALSE(b.writes[0].add) << "the line's first contribution is stored";
  EXPECT_EQ(b.writes[0].addr, 0x2000 + 1 * params().flit_bytes());
  ASSERT_EQ(b.fins.size(), 1u);
  EXPECT_EQ(b.fins[0].fin_src, 0x1000 + 1 * params().flit_bytes());
  EXPECT_EQ(b.fins[0].fin_dst, 0x2000 + 1 * params().flit_bytes());
  EXPECT_EQ(b.read_reg(T3_EP_RX_A_STAT_PULL_RSPS), 1u);
}

TEST(EpRxCosim, APartialForAWindowThatIsNotTheHomeIsDroppedWhole) {
  Bench b;
  b.window(0, a_window(false));
  ASSERT_TRUE(b.write_reg(T3_EP_RX_A_INTR_ENABLE, T3_EP_RX_R_INTR_STATE_DROP_MASK));
  const unsigned len = std::min(3u, params().max_len);
  b.send(a_header(pkt::Op::partial, 0, len), len);
  b.send(a_header(pkt::Op::result, 0, 1), 1);  // the stream goes on after the drop
  b.in().res_ready = true;
  b.run(12 + len);
  EXPECT_TRUE(b.asks.empty());
  ASSERT_EQ(b.writes.size(), 1u) << "only the RESULT's flit";
  EXPECT_TRUE(b.out().intr);
  EXPECT_EQ(b.read_reg(T3_EP_RX_A_STATUS) & T3_EP_RX_R_STATUS_CAUSE_MASK, 4u);
  EXPECT_EQ(b.read_reg(T3_EP_RX_A_DROP_ADDR_LO), 0x10000u);
  EXPECT_EQ(b.read_reg(T3_EP_RX_A_STAT_DROPS), 1u);
}

TEST(EpRxCosim, ConstrainedRandom) {
  RandomRun<EpRxBlock, EpRxScoreboard, EpRxStimulus, EpRxRegMap> r(the_cosim(), 0.02);
  r.run();
  const EpRxScoreboard::Counts& k = r.sb.counts();
  auto u = [](uint64_t v) { return (unsigned long long)v; };
  std::printf("random: %llu cycles (seed %llu): %llu RESULTs, %llu pulled lines, %llu home lines, %llu merged "
              "not whole; %llu writes (%llu adds); %llu holds, %llu decode waits; drops by cause 1..8: "
              "%llu %llu %llu %llu %llu %llu - %llu; %llu decodes on a table changed since their lookup\n",
              u(r.cycles), u(r.opt.seed), u(k.results), u(k.pulled), u(k.homes), u(k.merged), u(k.writes), u(k.adds),
              u(k.holds), u(k.waits), u(k.drops[1]), u(k.drops[2]), u(k.drops[3]), u(k.drops[4]), u(k.drops[5]),
              u(k.drops[6]), u(k.drops[8]), u(k.moved));
  for (unsigned cause : {1u, 2u, 3u, 5u, 6u, 8u}) EXPECT_GT(k.drops[cause], 0u) << "no drop for cause " << cause;
  EXPECT_GT(k.drops[4], 0u) << "no PARTIAL for a window that is not the home";
  EXPECT_GT(k.results, r.cycles / 200);
  EXPECT_GT(k.pulled, 0u);
  EXPECT_GT(k.homes, 0u);
  EXPECT_GT(k.adds, 0u);
  EXPECT_GT(k.holds, 0u) << "no pulled line waited for room";
  EXPECT_GT(k.waits, 0u) << "no RESULT waited for room";
  EXPECT_GT(k.moved, 0u) << "no decode on a table changed since its lookup";
}

}  // namespace
}  // namespace t3::tb
