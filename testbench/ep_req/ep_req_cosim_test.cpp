// ep_req co-simulation tests: a PULL answered (its PULL_RSP reserved, its
// line read into the slots, the tags wrapping), a deterministic home's PUSH
// that makes its line whole (counted, stored in its contributor's stage,
// the line queued), a copy WRITE added and a PUSH from a GPU that is not a
// contributor (dropped whole, its cause and address in the registers), then
// constrained-random traffic. Every output of the C++ model is compared
// with the Verilated RTL in every cycle (the binary fails at the end if any
// cycle mismatched), and the scoreboard checks the RTL's outputs.
// --engine systemc (default) or direct.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <vector>

#include "common/packet.h"
#include "cosim_config.h"
#include "directed_bench.h"
#include "ep_req_scoreboard.h"
#include "ep_req_stimulus.h"
#include "random_run.h"
#include "reg_traffic.h"
#include "t3/ep_req_regs.h"
#include "test_cosim.h"

namespace t3::tb {
namespace {

Cosim<EpReqBlock>& the_cosim() { return shared_cosim<EpReqBlock>(); }
const EpReqParams& params() { return the_cosim().params(); }

struct Access {
  uint64_t addr;
  bool add;
  uint32_t tag;
  Wide data;
};

// The co-simulation with the scoreboard attached. Flits queued with send()
// are offered one a cycle; the counter port is answered by answer_*.
class Bench : public DirectedBench<Bench, EpReqBlock, EpReqScoreboard> {
 public:
  Bench() : DirectedBench(the_cosim()) {
    in().mw_ready = in().cnt_ready = in().mr_ready = in().rq_ready = true;
    in().node = 9;
  }

  void window(unsigned i, const EpWin& w) { pack_window(in().tbl, i, w); }
  void send(const pkt::Header& h) {
    Packet p{h, {}};
    for (unsigned i = 1; i < pkt::wire_flits(h); ++i) {
      Wide d;
      d.w[0] = 0x1000 + i - 1;
      p.data.push_back(d);
    }
    drv_.push(p);
  }

  void before() { drv_.drive(in().req_in_valid, in().req_in_flit); }
  void after(const EpReqInputs& i, const EpReqOutputs& o) {
    if (o.mw_valid && i.mw_ready) writes.push_back({o.mw_addr, o.mw_add, 0, o.mw_data});
    if (o.mr_valid && i.mr_ready) reads.push_back({o.mr_addr, false, o.mr_tag, Wide{}});
    if (o.rq_valid && i.rq_ready) reserved.push_back(o);
    if (o.cnt_valid && i.cnt_ready) asks.push_back(o);
    if (o.det_valid && i.det_ready) staged.push_back(o);
    copied += o.cp_rx;
    drv_.after(i.req_in_valid, o.req_in_ready);
    // The counter's answer, in the cycle after the grant.
    in().cnt_rsp_valid = o.cnt_valid && i.cnt_ready;
    in().cnt_rsp_code = answer_code;
    in().cnt_rsp_whole = answer_whole;
  }

  uint8_t answer_code = 0;
  bool answer_whole = false;
  std::vector<Access> writes, reads;
  std::vector<EpReqOutputs> reserved, asks, staged;
  unsigned copied = 0;

 private:
  PktDriver drv_{params().flit_w};
};

EpWin a_window() {
  EpWin w;
  w.valid = true;
  w.dtype = 1;
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
  h.dtype = 1;
  h.len = uint8_t(len);
  h.count = 1;
  h.src = 4;
  h.ctr = 5;
  h.addr = 0x10000 + flit * params().flit_bytes();
  return h;
}

TEST(EpReqCosim, APullIsAnsweredFromSrcIntoTheReservedSlots) {
  Bench b;
  b.window(0, a_window());
  const unsigned len = std::min(3u, params().max_len);
  b.in().rq_slot = params().slots - 1;  // the tags wrap after the first
  b.send(a_header(pkt::Op::pull, 1, len));
  b.run(8 + len);
  const uint64_t fb = params().flit_bytes();
  ASSERT_EQ(b.reserved.size(), 1u);
  const pkt::Header r = pkt::unpack(b.reserved[0].rq_hdr);
  EXPECT_EQ(r.op, uint8_t(pkt::Op::pull_rsp));
  EXPECT_EQ(r.src, 9u) << "this GPU";
  EXPECT_EQ(r.dst, 4u) << "the requester";
  EXPECT_EQ(r.count, 1u) << "this GPU's own contribution";
  EXPECT_EQ(r.ctr, 5u) << "the requester's counter, echoed";
  EXPECT_EQ(r.len, len);
  EXPECT_EQ(r.addr, 0x10000 + fb);
  EXPECT_EQ(b.reserved[0].rq_len, len);
  ASSERT_EQ(b.reads.size(), len);
  for (unsigned i = 0; i < len; ++i) {
    EXPECT_EQ(b.reads[i].addr, 0x1000 + (1 + i) * fb) << "src + offset";
    EXPECT_EQ(b.reads[i].tag, (params().slots - 1 + i) % params().slots);
  }
  EXPECT_TRUE(b.writes.empty());
  EXPECT_TRUE(b.out().idle);
  EXPECT_EQ(b.read_reg(T3_EP_REQ_A_STAT_PULLS), 1u);
}

TEST(EpReqCosim, ADeterministicPushIsStagedByRankAndItsWholeLineQueued) {
  Bench b;
  EpWin w = a_window();
  w.home = w.det = true;
  w.stage = 0x100000;
  w.contrib_mask = 0x1D;  // GPUs 0, 2, 3, 4: GPU 4 is rank 3
  b.window(0, w);
  const unsigned len = std::min(2u, params().max_len);
  b.answer_code = 0;  // DONE, the line now whole
  b.answer_whole = true;
  b.send(a_header(pkt::Op::push, 1, len));
  b.run(10 + len);
  const uint64_t fb = params().flit_bytes();
  ASSERT_EQ(b.asks.size(), 1u);
  EXPECT_EQ(b.asks[0].cnt_op, 1u);
  EXPECT_EQ(b.asks[0].cnt_line, 2u) << "count_base 1 + flit 1";
  EXPECT_EQ(b.asks[0].cnt_n, 1u);
  EXPECT_EQ(b.asks[0].cnt_limit, 3u) << "expected";
  EXPECT_TRUE(b.asks[0].cnt_whole_ok);
  ASSERT_EQ(b.writes.size(), len);
  for (unsigned i = 0; i < len; ++i) {
    EXPECT_EQ(b.writes[i].addr, 0x100000 + 3 * w.bytes + (1 + i) * fb) << "stage + rank * bytes + offset";
    EXPECT_FALSE(b.writes[i].add) << "a stage is stored";
  }
  EXPECT_TRUE(b.out().det_valid) << "the whole line waits for the in-order add";
  EXPECT_EQ(b.out().det_line, 2u);
  EXPECT_EQ(b.out().det_len, len);
  EXPECT_FALSE(b.out().idle);
  b.in().det_ready = true;
  b.run(2);
  EXPECT_EQ(b.staged.size(), 1u);
  EXPECT_TRUE(b.out().idle);
  EXPECT_EQ(b.read_reg(T3_EP_REQ_A_STAT_PUSHES), 1u);
}

TEST(EpReqCosim, ACopyWriteIsAddedAndAPushFromANonContributorDropped) {
  Bench b;
  EpWin cw = a_window();
  cw.copy = EpWin::kCopyAdd;
  b.window(0, cw);
  ASSERT_TRUE(b.write_reg(T3_EP_REQ_A_INTR_ENABLE, T3_EP_REQ_R_INTR_STATE_DROP_MASK));
  const unsigned len = std::min(2u, params().max_len);
  b.send(a_header(pkt::Op::write, 0, len));
  b.run(6 + len);
  // Window 0 rewritten between packets as a deterministic home of GPUs 0
  // and 1 (one window in the small configuration): GPU 4 is not one.
  EpWin dw = a_window();
  dw.home = dw.det = true;
  dw.contrib_mask = 0x3;
  b.window(0, dw);
  b.send(a_header(pkt::Op::push, 0, len));
  b.run(6 + len);
  const uint64_t fb = params().flit_bytes();
  ASSERT_EQ(b.writes.size(), len) << "only the WRITE's flits";
  for (unsigned i = 0; i < len; ++i) {
    EXPECT_EQ(b.writes[i].addr, 0x2000 + i * fb) << "dst + offset";
    EXPECT_TRUE(b.writes[i].add) << "a copy window of kCopyAdd adds";
  }
  EXPECT_EQ(b.copied, len);
  EXPECT_TRUE(b.asks.empty());
  EXPECT_TRUE(b.out().intr);
  EXPECT_EQ(b.read_reg(T3_EP_REQ_A_STATUS) & T3_EP_REQ_R_STATUS_CAUSE_MASK, 7u);
  EXPECT_EQ(b.read_reg(T3_EP_REQ_A_DROP_ADDR_LO), 0x10000u);
  EXPECT_EQ(b.read_reg(T3_EP_REQ_A_STAT_WRITES), 1u);
  EXPECT_EQ(b.read_reg(T3_EP_REQ_A_STAT_DROPS), 1u);
}

TEST(EpReqCosim, ConstrainedRandom) {
  RandomRun<EpReqBlock, EpReqScoreboard, EpReqStimulus, EpReqRegMap> r(the_cosim(), 0.02);
  r.run();
  const EpReqScoreboard::Counts& k = r.sb.counts();
  auto u = [](uint64_t v) { return (unsigned long long)v; };
  std::printf("random: %llu cycles (seed %llu): %llu PULLs answered (%llu reads, %llu tag wraps), %llu PUSHes "
              "staged (%llu lines whole, %llu holds), %llu copy flits (%llu added); drops by cause 1..8: "
              "%llu %llu %llu - %llu %llu %llu %llu; %llu decodes on a table changed since their lookup\n",
              u(r.cycles), u(r.opt.seed), u(k.pulls), u(k.reads), u(k.wraps), u(k.pushes), u(k.staged), u(k.holds),
              u(k.writes), u(k.adds), u(k.drops[1]), u(k.drops[2]), u(k.drops[3]), u(k.drops[5]), u(k.drops[6]),
              u(k.drops[7]), u(k.drops[8]), u(k.moved));
  for (unsigned cause : {1u, 2u, 3u, 5u, 6u, 7u, 8u}) EXPECT_GT(k.drops[cause], 0u) << "no drop for cause " << cause;
  EXPECT_GT(k.pulls, r.cycles / 200);
  EXPECT_GT(k.wraps, 0u);
  EXPECT_GT(k.pushes, 0u);
  EXPECT_GT(k.staged, 0u);
  EXPECT_GT(k.holds, 0u) << "no PUSH waited for room in the staged queue";
  EXPECT_GT(k.writes, 0u);
  EXPECT_GT(k.adds, 0u);
  EXPECT_GT(k.moved, 0u) << "no decode on a table changed since its lookup";
}

}  // namespace
}  // namespace t3::tb
