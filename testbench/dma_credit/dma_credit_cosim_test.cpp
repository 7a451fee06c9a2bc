// dma_credit co-simulation tests: directed cases for every rule and corner
// (docs/blocks/dma_credit.md), then constrained-random traffic that asserts
// its own coverage and drains at the end. Every output of the C++ model is
// compared with the Verilated RTL in every cycle (the binary fails at the
// end if any cycle mismatched), and the scoreboard checks the RTL's outputs,
// the register port's answers and the interrupt included. Run on either
// engine: --engine systemc (default) or --engine direct.
#include <gtest/gtest.h>

#include <cstdio>
#include <deque>
#include <map>
#include <random>
#include <vector>

#include "apb_access.h"
#include "common/packet.h"
#include "cosim_config.h"
#include "dma_credit_scoreboard.h"
#include "dma_credit_stimulus.h"
#include "reg_traffic.h"
#include "t3/dma_credit_regs.h"
#include "test_cosim.h"

namespace t3::tb {
namespace {

Cosim<DmaCreditBlock>& the_cosim() { return shared_cosim<DmaCreditBlock>(); }
const DmaCreditParams& params() { return the_cosim().params(); }
uint64_t fb() { return params().flit_w / 8; }

struct Rec {
  uint8_t status = 0, ctr = 0, tag = 0;
};

// The co-simulation with the scoreboard attached; register accesses go
// through the APB port. It plays the network by hand: packets taken are kept
// in `pkts` (the test returns their results with give()).
class Bench : public ApbAccess<Bench> {
  friend class ApbAccess<Bench>;

 public:
  Bench() : c_(the_cosim()), sb_(params()) {
    c_.in() = DmaCreditInputs{};
    EXPECT_TRUE(c_.reset(2)) << c_.first_mismatch();
    c_.in().rst_n = true;
    c_.in().pkt_ready = true;
  }
  ~Bench() {
    if (!testing::Test::HasFailure()) check_counts();
  }
  DmaCreditInputs& in() { return c_.in(); }
  const DmaCreditOutputs& out() const { return c_.out(); }
  DmaCreditScoreboard& sb() { return sb_; }

  void cycle() {
    apb_.drive(c_.in().apb, c_.in().rst_n);
    // results queued by the test go out one a cycle, each held until taken
    if (!c_.in().res_valid && !res_q_.empty()) {
      c_.in().res_valid = true;
      c_.in().res_hdr = pkt::pack(res_q_.front());
      res_q_.pop_front();
    }
    const DmaCreditInputs in = c_.in();
    EXPECT_TRUE(c_.cycle()) << c_.first_mismatch();
    if (auto err = sb_.observe(in, c_.out())) ADD_FAILURE() << "cycle " << c_.cycles() - 1 << ": " << *err;
    if (auto d = apb_.after(in.apb, c_.out().apb)) apb_completed(*d);
    if (in.cmd_valid && c_.out().cmd_ready) c_.in().cmd_valid = false;
    if (in.res_valid && c_.out().res_ready) c_.in().res_valid = false;
    if (in.pkt_ready && c_.out().pkt_valid)
      pkts.push_back({pkt::unpack(c_.out().pkt_hdr), c_.out().pkt_local_addr});
    if (c_.out().cpl_wr) written.push_back({c_.out().cpl_status, c_.out().cpl_ctr, c_.out().cpl_tag});
  }
  void cycles(unsigned n) {
    for (unsigned i = 0; i < n; ++i) cycle();
  }
  void apb_idle_cycle() { cycle(); }

  // A request on the command port, run until taken.
  void submit(const DmaRequest& r) {
    in().cmd_valid = true;
    in().cmd_local_addr = r.local_addr;
    in().cmd_net_addr = r.net_addr;
    in().cmd_len = r.len;
    in().cmd_red_op = r.red_op;
    in().cmd_dtype = r.dtype;
    in().cmd_pull = r.pull;
    in().cmd_src = r.src;
    in().cmd_dst = r.dst;
    in().cmd_tag = r.tag;
    for (unsigned n = 0; n < 1000 && in().cmd_valid; ++n) cycle();
    EXPECT_FALSE(in().cmd_valid) << "the command port did not take the request";
  }
  // The same through the staging registers and CMD_GO.
  bool submit_regs(const DmaRequest& r, uint32_t len32) {
    EXPECT_TRUE(write_reg(T3_DMA_CREDIT_A_CMD_LOCAL_LO, uint32_t(r.local_addr)));
    EXPECT_TRUE(write_reg(T3_DMA_CREDIT_A_CMD_LOCAL_HI, uint32_t(r.local_addr >> 32)));
    EXPECT_TRUE(write_reg(T3_DMA_CREDIT_A_CMD_NET_LO, uint32_t(r.net_addr)));
    EXPECT_TRUE(write_reg(T3_DMA_CREDIT_A_CMD_NET_HI, uint32_t(r.net_addr >> 32)));
    EXPECT_TRUE(write_reg(T3_DMA_CREDIT_A_CMD_LEN, len32));
    EXPECT_TRUE(write_reg(T3_DMA_CREDIT_A_CMD_CTRL,
                          uint32_t(r.red_op) | uint32_t(r.dtype) << 2 | uint32_t(r.pull) << 4 |
                              uint32_t(r.src) << 8 | uint32_t(r.dst) << 16 | uint32_t(r.tag) << 24));
    return write_reg(T3_DMA_CREDIT_A_CMD_GO, 1);
  }
  // The result of packet i as the network returns it.
  void give(const pkt::Header& p) {
    pkt::Header r;
    r.op = p.op == uint8_t(pkt::Op::pull) ? uint8_t(pkt::Op::pull_rsp) : uint8_t(pkt::Op::result);
    r.len = p.len;
    r.dtype = p.dtype;
    r.ctr = p.ctr;
    r.addr = p.addr;
    r.count = 2;
    res_q_.push_back(r);
  }
  void give_raw(const pkt::Header& h) { res_q_.push_back(h); }
  void give_all() {
    for (const auto& p : pkts) give(p.h);
    pkts.clear();
  }
  // Runs until every queued result is taken.
  void flush(unsigned max = 100000) {
    for (unsigned n = 0; n < max && (!res_q_.empty() || in().res_valid); ++n) cycle();
  }
  // Pops the completion queue through the registers.
  std::vector<Rec> pop_all() {
    std::vector<Rec> v;
    for (unsigned n = 0; n < 200; ++n) {
      const uint32_t h = read_reg(T3_DMA_CREDIT_A_CPL_HEAD);
      if (!(h >> 31)) break;
      v.push_back({uint8_t((h >> 24) & 7), uint8_t((h >> 16) & 0x3F), uint8_t(h)});
      EXPECT_TRUE(write_reg(T3_DMA_CREDIT_A_CPL_POP, 1));
    }
    return v;
  }
  // Plays the network and the processor until n records are popped (or
  // 100 rounds): the completion queue may be smaller than what is owed.
  std::vector<Rec> collect(std::size_t n) {
    std::vector<Rec> v;
    for (unsigned k = 0; k < 100 && v.size() < n; ++k) {
      give_all();
      flush();
      cycles(20);
      for (const Rec& x : pop_all()) v.push_back(x);
    }
    return v;
  }
  void check_counts() {
    EXPECT_EQ(read_reg(T3_DMA_CREDIT_A_PARAM_A),
              params().ctrs | params().max_len << 8 | params().len_w << 16 | params().stat_w << 24);
  }

  struct Taken {
    pkt::Header h;
    uint64_t local;
  };
  std::vector<Taken> pkts;
  std::vector<Rec> written;

 private:
  Cosim<DmaCreditBlock>& c_;
  DmaCreditScoreboard sb_;
  ApbMaster apb_;
  std::deque<pkt::Header> res_q_;
};

DmaRequest req(uint32_t len, uint8_t tag, bool pull = false) {
  DmaRequest r;
  r.local_addr = 0x1000 * fb();
  r.net_addr = 0x0000'4000'0000 + 0x10 * fb();
  r.len = len;
  r.dtype = 2;
  r.pull = pull;
  r.src = 3;
  r.dst = 9;
  r.tag = tag;
  return r;
}

TEST(DmaCreditCosim, ResetStateAndParameters) {
  Bench b;
  EXPECT_TRUE(b.out().cmd_ready);
  EXPECT_FALSE(b.out().pkt_valid);
  EXPECT_TRUE(b.out().res_ready);
  EXPECT_EQ(b.out().credits, 0u);
  EXPECT_EQ(b.read_reg(T3_DMA_CREDIT_A_INJ_LIMIT), 16u);
  EXPECT_EQ(b.read_reg(T3_DMA_CREDIT_A_RETRY), 8u | 4u << 16);
  EXPECT_EQ(b.read_reg(T3_DMA_CREDIT_A_TIMEOUT), 4096u);
  EXPECT_EQ(b.read_reg(T3_DMA_CREDIT_A_CPL_HEAD), 0u);
  EXPECT_EQ(b.read_reg(T3_DMA_CREDIT_A_PARAM_B), params().cmd_depth | params().cpl_depth << 8 |
                                                     params().retry_w << 16 | params().timeout_w << 24);
  EXPECT_EQ(b.read_reg(T3_DMA_CREDIT_A_PARAM_C), params().flit_w);
}

// A push request is split into packets of MAX_LEN flits (the last shorter),
// addresses advancing by the flits carried; its results complete it: one
// OK record with its counter and tag, the done interrupt.
TEST(DmaCreditCosim, PushRequestSplitIssuedAndCompleted) {
  Bench b;
  ASSERT_TRUE(b.write_reg(T3_DMA_CREDIT_A_INTR_ENABLE, 7));
  const uint32_t len = std::min<uint32_t>(2 * params().max_len + 1, uint32_t(low_mask(params().len_w)));
  const DmaRequest r = req(len, 0x5A);
  b.submit(r);
  b.cycles(20);
  const unsigned n = (len + params().max_len - 1) / params().max_len;
  ASSERT_EQ(b.pkts.size(), n);
  uint64_t off = 0;
  for (unsigned i = 0; i < n; ++i) {
    const pkt::Header& h = b.pkts[i].h;
    EXPECT_EQ(h.op, uint8_t(pkt::Op::push));
    EXPECT_EQ(h.len, std::min<uint32_t>(params().max_len, len - uint32_t(off)));
    EXPECT_EQ(h.addr, r.net_addr + off * fb());
    EXPECT_EQ(b.pkts[i].local, r.local_addr + off * fb());
    EXPECT_EQ(h.ctr, 0u);
    EXPECT_EQ(h.src, 3u);
    EXPECT_EQ(h.dst, 9u);
    EXPECT_EQ(h.count, 1u);
    EXPECT_EQ(h.dtype, 2u);
    off += h.len;
  }
  EXPECT_EQ(b.out().credits, 1u);
  EXPECT_EQ(b.out().outstanding, n);
  EXPECT_FALSE(b.out().intr);
  b.give_all();
  b.flush();
  b.cycles(4);
  EXPECT_EQ(b.out().credits, 0u);
  EXPECT_TRUE(b.out().intr);
  const auto recs = b.pop_all();
  ASSERT_EQ(recs.size(), 1u);
  EXPECT_EQ(recs[0].status, 0u);
  EXPECT_EQ(recs[0].tag, 0x5Au);
  EXPECT_EQ(b.read_reg(T3_DMA_CREDIT_A_STAT_PKTS), n);
  EXPECT_EQ(b.read_reg(T3_DMA_CREDIT_A_STAT_BYTES), (len * fb()) & low_mask(params().stat_w));
  EXPECT_EQ(b.read_reg(T3_DMA_CREDIT_A_STAT_CPL_OK), 1u);
}

// Pull mode through the registers: PULL packets (no data), PULL_RSPs back.
TEST(DmaCreditCosim, PullRequestThroughRegisters) {
  Bench b;
  const DmaRequest r = req(std::min<uint32_t>(3, uint32_t(low_mask(params().len_w))), 0x33, true);
  ASSERT_TRUE(b.submit_regs(r, r.len));
  b.cycles(10);
  ASSERT_FALSE(b.pkts.empty());
  for (const auto& p : b.pkts) EXPECT_EQ(p.h.op, uint8_t(pkt::Op::pull));
  b.give_all();
  b.flush();
  b.cycles(4);
  const auto recs = b.pop_all();
  ASSERT_EQ(recs.size(), 1u);
  EXPECT_EQ(recs[0].status, 0u);
  EXPECT_EQ(recs[0].tag, 0x33u);
}

// Every refusal cause, on the port and through the registers: a record with
// the cause and the request's tag, the error interrupt, nothing issued and
// no counter taken.
TEST(DmaCreditCosim, MalformedRequestsRefusedWithTheirCause) {
  Bench b;
  const uint64_t top = uint64_t{1} << 48;
  const uint32_t lmax = uint32_t(low_mask(params().len_w));
  std::vector<std::pair<DmaRequest, uint8_t>> cases;
  DmaRequest r = req(1, 1);
  r.len = 0;
  cases.push_back({r, 3});
  r = req(1, 2);
  r.red_op = 1;
  cases.push_back({r, 4});
  r = req(1, 3);
  r.red_op = 3;
  r.dtype = 3;
  cases.push_back({r, 4});  // the first cause in the order
  r = req(1, 4);
  r.dtype = 3;
  cases.push_back({r, 5});
  r = req(1, 5);
  r.local_addr += 1;
  cases.push_back({r, 6});
  r = req(1, 6);
  r.net_addr += fb() / 2;
  cases.push_back({r, 6});
  r = req(std::min<uint32_t>(2, lmax), 7);
  r.net_addr = top - fb();
  cases.push_back({r, uint8_t(r.len > 1 ? 6 : 0)});
  r = req(1, 8);
  r.local_addr = top - fb();  // ends at 2^48 exactly: accepted
  cases.push_back({r, 0});
  std::vector<Rec> got;  // popped as they come: the completion queue may be short
  for (const auto& [q, cause] : cases) {
    b.submit(q);
    b.cycles(3);
    for (const Rec& x : b.pop_all()) got.push_back(x);
  }
  for (const Rec& x : b.collect(cases.size() - got.size())) got.push_back(x);
  std::map<uint8_t, uint8_t> by_tag;
  for (const Rec& x : got) by_tag[x.tag] = x.status;
  for (const auto& [q, cause] : cases) EXPECT_EQ(by_tag[q.tag], cause) << "tag " << unsigned(q.tag);
  // the registers: a length past LEN_W bits is refused, not cut
  ASSERT_TRUE(b.submit_regs(req(1, 0x40), lmax + 1));
  ASSERT_TRUE(b.submit_regs(req(1, 0x41), 0xFFFF'FFFFu));
  b.cycles(10);
  const auto recs = b.pop_all();
  ASSERT_EQ(recs.size(), 2u);
  EXPECT_EQ(recs[0].status, 3u);
  EXPECT_EQ(recs[1].status, 3u);
  EXPECT_EQ(b.out().credits, 0u);
  EXPECT_EQ(b.read_reg(T3_DMA_CREDIT_A_STAT_REFUSED), 9u & low_mask(params().stat_w));
}

// No counter free: the head retries every RETRY.INTERVAL + 1 cycles and
// after RETRY.LIMIT failed retries it is reported NO_CREDIT and removed;
// the request behind it waits in order.
TEST(DmaCreditCosim, NoCreditRetriedThenReported) {
  Bench b;
  ASSERT_TRUE(b.write_reg(T3_DMA_CREDIT_A_RETRY, 3u | 2u << 16));  // interval 3, limit 2
  for (unsigned i = 0; i < params().ctrs; ++i) b.submit(req(1, uint8_t(i)));
  b.cycles(10);
  EXPECT_EQ(b.out().credits, params().ctrs);
  b.submit(req(1, 0xEE));
  b.cycles(40);
  const auto recs = b.pop_all();
  ASSERT_EQ(recs.size(), 1u);
  EXPECT_EQ(recs[0].status, 2u);
  EXPECT_EQ(recs[0].tag, 0xEEu);
  EXPECT_EQ(b.read_reg(T3_DMA_CREDIT_A_STAT_ALLOC_FAIL), 3u);  // the first try and 2 retries
  EXPECT_EQ(b.read_reg(T3_DMA_CREDIT_A_STAT_RETRIES), 2u);
  EXPECT_EQ(b.read_reg(T3_DMA_CREDIT_A_STAT_NO_CREDIT), 1u);
  // a counter freed during the retries is taken by the waiting head
  ASSERT_TRUE(b.write_reg(T3_DMA_CREDIT_A_RETRY, 5u | 10u << 16));
  b.submit(req(1, 0xEF));
  b.cycles(8);
  b.give(b.pkts[0].h);
  b.pkts.erase(b.pkts.begin());
  b.flush();
  b.cycles(30);
  ASSERT_FALSE(b.pkts.empty());
  EXPECT_EQ(b.pkts.back().h.ctr, 0u);
  b.give_all();
  b.flush();
  b.cycles(5);
  unsigned ok = 0;
  for (const Rec& x : b.pop_all()) ok += x.status == 0;
  EXPECT_EQ(ok, params().ctrs + 1);
  EXPECT_EQ(b.out().credits, 0u);
}

// INJ_LIMIT: never more packets outstanding; 0 pauses injection.
TEST(DmaCreditCosim, InjectionLimit) {
  Bench b;
  ASSERT_TRUE(b.write_reg(T3_DMA_CREDIT_A_INJ_LIMIT, 2));
  const uint32_t len = std::min<uint32_t>(5 * params().max_len, uint32_t(low_mask(params().len_w)));
  b.submit(req(len, 1));
  b.cycles(20);
  EXPECT_EQ(b.pkts.size(), 2u);
  EXPECT_EQ(b.out().outstanding, 2u);
  ASSERT_TRUE(b.write_reg(T3_DMA_CREDIT_A_INJ_LIMIT, 0));
  b.give_all();
  b.flush();
  b.cycles(20);
  EXPECT_TRUE(b.pkts.empty()) << "a packet issued while INJ_LIMIT is 0";
  ASSERT_TRUE(b.write_reg(T3_DMA_CREDIT_A_INJ_LIMIT, 1000));
  for (unsigned n = 0; n < 200 && b.out().credits; ++n) {
    b.give_all();
    b.cycle();
  }
  b.flush();
  b.cycles(5);
  EXPECT_EQ(b.out().credits, 0u);
  const auto recs = b.pop_all();
  ASSERT_EQ(recs.size(), 1u);
  EXPECT_EQ(recs[0].status, 0u);
}

// A request whose results do not all come back times out with its counter
// id; the counter is recovered and a late result is a stray.
TEST(DmaCreditCosim, TimeoutRecoversTheCounter) {
  Bench b;
  const uint32_t to = std::min<uint32_t>(50, uint32_t(low_mask(params().timeout_w)));
  ASSERT_TRUE(b.write_reg(T3_DMA_CREDIT_A_TIMEOUT, to));
  const uint32_t len = std::min<uint32_t>(2 * params().max_len, uint32_t(low_mask(params().len_w)));
  b.submit(req(len, 0x77));
  b.cycles(10);
  ASSERT_FALSE(b.pkts.empty());
  const pkt::Header lost = b.pkts.back().h;
  b.pkts.pop_back();
  b.give_all();
  b.flush();
  b.cycles(to + 10);
  EXPECT_EQ(b.out().credits, 0u);
  EXPECT_EQ(b.out().outstanding, 0u);
  const auto recs = b.pop_all();
  ASSERT_EQ(recs.size(), 1u);
  EXPECT_EQ(recs[0].status, 1u);
  EXPECT_EQ(recs[0].ctr, lost.ctr);
  EXPECT_EQ(recs[0].tag, 0x77u);
  b.give(lost);  // late
  b.flush();
  b.cycles(2);
  EXPECT_EQ(b.read_reg(T3_DMA_CREDIT_A_STAT_STRAYS), 1u);
  EXPECT_EQ(b.read_reg(T3_DMA_CREDIT_A_STAT_TIMEOUTS), 1u);
}

// Strays and malformed results change no counter; each is counted and
// raises the stray interrupt.
TEST(DmaCreditCosim, StraysAndBadResults) {
  Bench b;
  b.submit(req(std::min<uint32_t>(2 * params().max_len, uint32_t(low_mask(params().len_w))), 1));
  b.cycles(10);
  const pkt::Header p = b.pkts[0].h;
  pkt::Header s = p;
  s.op = uint8_t(pkt::Op::result);
  s.ctr = uint8_t(params().ctrs);  // no such counter
  b.give_raw(s);
  s.ctr = uint8_t(params().ctrs > 1 ? 1 : 200);  // a counter not live
  b.give_raw(s);
  pkt::Header bad = p;
  bad.op = 0x7;  // unknown
  b.give_raw(bad);
  bad.op = uint8_t(pkt::Op::ack);  // not a result
  b.give_raw(bad);
  bad = p;
  bad.op = uint8_t(pkt::Op::result);
  bad.len = 0;
  b.give_raw(bad);
  bad.len = 1;
  bad.dtype = 3;
  b.give_raw(bad);
  b.flush();
  b.cycles(2);
  EXPECT_EQ(b.out().outstanding, b.pkts.size());
  EXPECT_EQ(b.read_reg(T3_DMA_CREDIT_A_STAT_STRAYS), 2u);
  EXPECT_EQ(b.read_reg(T3_DMA_CREDIT_A_STAT_BAD_RES), 4u);
  EXPECT_EQ(b.read_reg(T3_DMA_CREDIT_A_INTR_STATE), 1u << T3_DMA_CREDIT_R_INTR_STATE_STRAY_SHIFT);
  // one more than issued: a stray
  const auto all = b.pkts;
  b.give_all();
  b.give(all[0].h);
  b.flush();
  b.cycles(4);
  EXPECT_EQ(b.read_reg(T3_DMA_CREDIT_A_STAT_STRAYS), 3u);
  EXPECT_EQ(b.pop_all().size(), 1u);
}

// A full completion queue holds the results back (res_ready_o low) until
// the processor pops.
TEST(DmaCreditCosim, FullCompletionQueueBackPressuresResults) {
  Bench b;
  const unsigned n = params().cpl_depth + 3;
  for (unsigned i = 0; i < n; ++i) {
    DmaRequest r = req(1, uint8_t(i));
    r.len = 0;  // refused: a record each
    b.submit(r);
  }
  b.cycles(10);
  EXPECT_EQ(b.read_reg(T3_DMA_CREDIT_A_STATUS) >> 16 & 0x7F, params().cpl_depth + 1);
  b.submit(req(1, 0x99));
  b.cycles(10);
  EXPECT_TRUE(b.pkts.empty()) << "a counter was allocated while the completion queue was full";
  const auto recs = b.pop_all();
  EXPECT_EQ(recs.size(), n);
  for (unsigned i = 0; i < recs.size(); ++i) EXPECT_EQ(recs[i].tag, i);
  b.cycles(10);
  ASSERT_EQ(b.pkts.size(), 1u);
  // fill the queue again, then the result waits
  for (unsigned i = 0; i < params().cpl_depth + 1; ++i) {
    DmaRequest r = req(1, uint8_t(i));
    r.dtype = 3;
    b.submit(r);
  }
  b.cycles(10);
  b.give_all();
  b.cycles(10);
  EXPECT_FALSE(b.out().res_ready);
  EXPECT_TRUE(b.in().res_valid);
  std::vector<Rec> all = b.pop_all();
  b.flush();
  b.cycles(5);
  for (const Rec& x : b.pop_all()) all.push_back(x);
  ASSERT_EQ(all.size(), params().cpl_depth + 2);
  EXPECT_EQ(all.back().tag, 0x99u) << "the result's record after the refusals";
  EXPECT_EQ(all.back().status, 0u);
}

// CMD_GO with the command queue full: STATUS.GO_PENDING, the CMD_*
// registers locked (PSLVERR), the command port held back; the request goes
// in once there is room.
TEST(DmaCreditCosim, GoPendingWhileTheQueueIsFull) {
  Bench b;
  ASSERT_TRUE(b.write_reg(T3_DMA_CREDIT_A_INJ_LIMIT, 0));  // nothing leaves
  const uint32_t most = uint32_t(low_mask(params().retry_w));  // retry as long as the build allows
  ASSERT_TRUE(b.write_reg(T3_DMA_CREDIT_A_RETRY, most | most << 16));
  // one in the request generator, CMD_DEPTH + 1 in the queue
  for (unsigned i = 0; i < params().cmd_depth + 2; ++i) b.submit(req(1, uint8_t(i)));
  b.cycles(5);
  EXPECT_FALSE(b.out().cmd_ready);
  ASSERT_TRUE(b.submit_regs(req(1, 0xA0), 1));
  b.cycles(2);
  EXPECT_TRUE(b.read_reg(T3_DMA_CREDIT_A_STATUS) >> 24 & 1);
  EXPECT_FALSE(b.write_reg(T3_DMA_CREDIT_A_CMD_LEN, 2)) << "CMD_LEN written while GO is pending";
  EXPECT_FALSE(b.write_reg(T3_DMA_CREDIT_A_CMD_GO, 1));
  ASSERT_TRUE(b.write_reg(T3_DMA_CREDIT_A_INJ_LIMIT, 100));
  const auto recs = b.collect(params().cmd_depth + 3);
  EXPECT_FALSE(b.read_reg(T3_DMA_CREDIT_A_STATUS) >> 24 & 1);
  EXPECT_EQ(recs.size(), params().cmd_depth + 3);
  unsigned go_recs = 0;
  for (const Rec& x : recs) go_recs += x.tag == 0xA0 && x.status == 0;
  EXPECT_EQ(go_recs, 1u) << "the request CMD_GO held completes once";
}

// The longest request, 2^LEN_W - 1 flits.
TEST(DmaCreditCosim, LongestRequest) {
  Bench b;
  ASSERT_TRUE(b.write_reg(T3_DMA_CREDIT_A_INJ_LIMIT, 64));
  DmaRequest r = req(uint32_t(low_mask(params().len_w)), 0x11);
  r.local_addr = 0;
  r.net_addr = 0;
  b.submit(r);
  const uint64_t pk = (r.len + params().max_len - 1) / params().max_len;
  uint64_t seen = 0, flits = 0;
  for (uint64_t n = 0; n < 4 * pk + 100 && b.out().credits + (seen == 0); ++n) {
    for (const auto& p : b.pkts) flits += p.h.len;
    seen += b.pkts.size();
    b.give_all();
    b.cycle();
  }
  b.flush();
  b.cycles(5);
  EXPECT_EQ(seen, pk);
  EXPECT_EQ(flits, r.len);
  const auto recs = b.pop_all();
  ASSERT_EQ(recs.size(), 1u);
  EXPECT_EQ(recs[0].status, 0u);
}

// A reset in the middle of traffic empties everything.
TEST(DmaCreditCosim, ResetMidTraffic) {
  Bench b;
  for (unsigned i = 0; i < params().ctrs + 2; ++i) b.submit(req(2, uint8_t(i)));
  b.cycles(5);
  b.in().rst_n = false;
  b.cycles(2);
  b.in().rst_n = true;
  b.pkts.clear();
  b.cycle();
  EXPECT_EQ(b.out().credits, 0u);
  EXPECT_EQ(b.out().outstanding, 0u);
  EXPECT_FALSE(b.out().pkt_valid);
  EXPECT_EQ(b.read_reg(T3_DMA_CREDIT_A_STATUS), 0u);
  EXPECT_EQ(b.read_reg(T3_DMA_CREDIT_A_CPL_HEAD), 0u);
}

TEST(DmaCreditCosim, ConstrainedRandom) {
  const RunOptions& opt = test_options();
  const uint64_t cycles = opt.cycles ? opt.cycles : T3_RANDOM_CYCLES;
  std::mt19937_64 rng(opt.seed);
  Cosim<DmaCreditBlock>& c = the_cosim();
  // The shared DUT holds the last test's state until a reset edge: reset it
  // (compared, as every cycle) before the scoreboard attaches.
  c.in() = DmaCreditInputs{};
  EXPECT_TRUE(c.reset(2)) << c.first_mismatch();
  DmaCreditScoreboard sb(params());
  DmaCreditStimulus stim(params(), rng());
  RegTraffic<DmaCreditRegMap> regs(rng(), 0.02);
  const uint64_t drain = 30000;
  uint64_t n = 0;
  for (; n < cycles + drain && !testing::Test::HasFailure(); ++n) {
    if (n == cycles) stim.drain();
    stim.drive(c.in());
    if (n < cycles) regs.maybe_queue(stim.apb(), sb.regs());
    const DmaCreditInputs in = c.in();
    EXPECT_TRUE(c.cycle()) << c.first_mismatch();
    if (auto err = sb.observe(in, c.out())) ADD_FAILURE() << "cycle " << n << ": " << *err;
    stim.after(in, c.out());
    if (n > cycles + 5000 && stim.quiet() && sb.queued() == 0 && sb.live() == 0 && sb.records() == 0) break;
  }
  const DmaCreditCoverage& v = sb.cov();
  std::printf("random: %llu cycles (seed %llu) + %llu draining: %llu requests (%llu by CMD_GO), "
              "%llu packets (%llu pull, %llu of MAX_LEN), %llu results, %llu OK, %llu timeouts, "
              "%llu NO_CREDIT, refused %llu/%llu/%llu/%llu (len/red_op/dtype/addr), %llu strays, "
              "%llu bad results, %llu pops, %llu resets\n",
              (unsigned long long)cycles, (unsigned long long)opt.seed,
              (unsigned long long)(n - std::min(n, cycles)), (unsigned long long)v.requests,
              (unsigned long long)v.reg_requests, (unsigned long long)v.pkts,
              (unsigned long long)v.pull_pkts, (unsigned long long)v.max_len_pkts,
              (unsigned long long)v.results, (unsigned long long)v.cpl_ok,
              (unsigned long long)v.timeouts, (unsigned long long)v.no_credit,
              (unsigned long long)v.refused[3], (unsigned long long)v.refused[4],
              (unsigned long long)v.refused[5], (unsigned long long)v.refused[6],
              (unsigned long long)v.strays, (unsigned long long)v.bad_res, (unsigned long long)v.pops,
              (unsigned long long)v.resets);
  std::printf("corners (cycles): all counters live %llu, injection limit %llu, pkt_ready low %llu, "
              "res_ready low %llu, cmd_ready low %llu, GO pending %llu, completion queue full %llu; "
              "register reads %llu, writes %llu, busy refusals %llu\n",
              (unsigned long long)v.all_live_cycles, (unsigned long long)v.inj_blocked_cycles,
              (unsigned long long)v.pkt_stall_cycles, (unsigned long long)v.res_stall_cycles,
              (unsigned long long)v.cmd_stall_cycles, (unsigned long long)v.go_pending_cycles,
              (unsigned long long)v.cpl_full_cycles, (unsigned long long)sb.regs().counts().reads,
              (unsigned long long)sb.regs().counts().writes,
              (unsigned long long)sb.regs().counts().busy_errors);
  EXPECT_EQ(c.failures(), 0u) << c.first_failure();
  if (auto e = sb.drained()) ADD_FAILURE() << "after draining: " << *e;
  if (cycles >= 1000000) {  // coverage the random test owes
    EXPECT_GT(v.cpl_ok, cycles / 1000);
    EXPECT_GT(v.reg_requests, 10u);
    for (unsigned s = 3; s <= 6; ++s) EXPECT_GT(v.refused[s], 0u) << "refusal " << s;
    EXPECT_GT(v.timeouts, 10u);
    EXPECT_GT(v.no_credit, 10u);
    EXPECT_GT(v.strays, 10u);
    EXPECT_GT(v.bad_res, 10u);
    EXPECT_GT(v.pull_pkts, 100u);
    EXPECT_GT(v.short_pkts, 100u);
    EXPECT_GT(v.max_len_pkts, 100u);
    EXPECT_GT(v.all_live_cycles, 1000u);
    EXPECT_GT(v.inj_blocked_cycles, 1000u);
    EXPECT_GT(v.pkt_stall_cycles, 1000u);
    EXPECT_GT(v.res_stall_cycles, 100u);
    EXPECT_GT(v.cmd_stall_cycles, 1000u);
    EXPECT_GT(v.go_pending_cycles, 0u);
    EXPECT_GT(v.cpl_full_cycles, 100u);
    EXPECT_GT(v.resets, 2u);
    EXPECT_GT(v.head_reads, 1000u);
    EXPECT_GT(sb.regs().counts().busy_errors, 0u);
  }
}

}  // namespace
}  // namespace t3::tb
