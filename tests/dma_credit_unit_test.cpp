// dma_credit core and block unit tests: the cycle table of
// docs/blocks/dma_credit.md, the refusal rule, the retry and timeout timing,
// the injection limit, the parameter errors, the registers.
#include <gtest/gtest.h>

#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "apb_master.h"
#include "common/packet.h"
#include "dma_credit/dma_credit.h"
#include "dma_credit/dma_credit_pins.h"
#include "t3/dma_credit_regs.h"

namespace t3 {
namespace {

DmaCreditCoreInputs idle() {
  DmaCreditCoreInputs in;
  in.rst_n = true;
  in.cfg.inj_limit = 16;
  in.cfg.retry_interval = 8;
  in.cfg.retry_limit = 4;
  in.cfg.timeout = 4096;
  in.pkt_ready = true;
  return in;
}

void put_cmd(DmaCreditCoreInputs& in, uint32_t len, uint8_t tag, uint64_t net = 0x10000,
             uint64_t local = 0x2000) {
  in.cmd_valid = true;
  in.cmd_len = len;
  in.cmd_tag = tag;
  in.cmd_net_addr = net;
  in.cmd_local_addr = local;
  in.cmd_dtype = 1;
  in.cmd_src = 4;
  in.cmd_dst = 5;
}

Wide result(const pkt::Header& p) {
  pkt::Header r;
  r.op = p.op == uint8_t(pkt::Op::pull) ? uint8_t(pkt::Op::pull_rsp) : uint8_t(pkt::Op::result);
  r.len = p.len;
  r.dtype = p.dtype;
  r.ctr = p.ctr;
  r.addr = p.addr;
  return pkt::pack(r);
}

DmaCreditCore fresh(const DmaCreditParams& p = {}) {
  DmaCreditCore c{p};
  DmaCreditCoreInputs r = idle();
  r.rst_n = false;
  c.step(r);
  return c;
}

// The cycle table of docs/blocks/dma_credit.md ("Timing"): a 5-flit push
// request at the defaults (MAX_LEN 4): two packets, two results, one record.
TEST(DmaCreditCore, CycleTable) {
  DmaCreditCore c = fresh();
  struct Row {
    int cycle;
    bool cmd_valid, cmd_ready, pkt_valid;
    unsigned pkt_len;
    bool res_valid;
    unsigned credits, outstanding;
    bool cpl_wr, head_valid;
  };
  const Row rows[] = {
      //  cyc cmd_v cmd_r pkt_v len res_v crd out cpl_wr head
      {0, true, true, false, 0, false, 0, 0, false, false},   // request taken
      {1, false, true, false, 0, false, 0, 0, false, false},  // queue memory read into the head
      {2, false, true, false, 0, false, 0, 0, false, false},  // head: counter 0 allocated
      {3, false, true, false, 0, false, 1, 0, false, false},  // request generator: packet 0
      {4, false, true, true, 4, false, 1, 1, false, false},   // packet 0 offered, taken; packet 1
      {5, false, true, true, 1, false, 1, 2, false, false},   // packet 1 (last) offered, taken
      {6, false, true, false, 0, true, 1, 2, false, false},   // result of packet 0
      {7, false, true, false, 0, true, 1, 1, false, false},   // result of packet 1: the last
      {8, false, true, false, 0, false, 0, 0, true, false},   // the OK record written; counter free
      {9, false, true, false, 0, false, 0, 0, false, false},  // record read into the queue's head
      {10, false, true, false, 0, false, 0, 0, false, true},  // CPL_HEAD shows it
  };
  std::vector<pkt::Header> issued;
  for (const Row& r : rows) {
    DmaCreditCoreInputs in = idle();
    if (r.cmd_valid) put_cmd(in, 5, 0x42);
    if (r.res_valid) {
      in.res_valid = true;
      in.res_hdr = result(issued.at(r.cycle - 6));
    }
    const DmaCreditCoreOutputs o = c.step(in);
    SCOPED_TRACE("cycle " + std::to_string(r.cycle));
    EXPECT_EQ(o.cmd_ready, r.cmd_ready);
    EXPECT_EQ(o.pkt_valid, r.pkt_valid);
    EXPECT_EQ(o.credits, r.credits);
    EXPECT_EQ(o.outstanding, r.outstanding);
    EXPECT_EQ(o.cpl_wr, r.cpl_wr);
    EXPECT_EQ(o.cpl_head_valid, r.head_valid);
    if (o.pkt_valid) {
      const pkt::Header h = pkt::unpack(o.pkt_hdr);
      EXPECT_EQ(h.len, r.pkt_len);
      EXPECT_EQ(h.op, uint8_t(pkt::Op::push));
      EXPECT_EQ(h.addr, 0x10000u + 64u * issued.size());
      EXPECT_EQ(o.pkt_local_addr, 0x2000u + 64u * issued.size());
      EXPECT_EQ(h.ctr, 0u);
      EXPECT_EQ(h.count, 1u);
      issued.push_back(h);
    }
    if (o.cpl_wr) {
      EXPECT_EQ(o.cpl_status, 0u);
      EXPECT_EQ(o.cpl_tag, 0x42u);
      EXPECT_TRUE(o.ev_cpl_ok);
    }
    if (o.cpl_head_valid) {
      EXPECT_EQ(o.cpl_head_tag, 0x42u);
    }
  }
}

TEST(DmaCreditCore, RefusalRuleAndItsOrder) {
  const DmaCreditParams p;
  DmaRequest r;
  r.len = 1;
  EXPECT_EQ(dma_request_check(p, r), DmaCplStatus::ok);
  r.len = 0;
  r.red_op = 1;
  EXPECT_EQ(dma_request_check(p, r), DmaCplStatus::bad_len);
  r.len = 1u << 20;
  EXPECT_EQ(dma_request_check(p, r), DmaCplStatus::bad_len);
  r.len = (1u << 20) - 1;
  EXPECT_EQ(dma_request_check(p, r), DmaCplStatus::bad_red_op);
  r.red_op = 0;
  r.dtype = 3;
  r.local_addr = 1;
  EXPECT_EQ(dma_request_check(p, r), DmaCplStatus::bad_dtype);
  r.dtype = 2;
  EXPECT_EQ(dma_request_check(p, r), DmaCplStatus::bad_addr);
  r.local_addr = 0;
  r.len = 2;
  r.net_addr = (uint64_t{1} << 48) - 32;
  EXPECT_EQ(dma_request_check(p, r), DmaCplStatus::ok) << "ends at 2^48 exactly";
  r.len = 3;
  EXPECT_EQ(dma_request_check(p, r), DmaCplStatus::bad_addr);
  EXPECT_STREQ(name(DmaCplStatus::no_credit), "NO_CREDIT");
}

// A refused request writes a record with its cause and takes no counter.
TEST(DmaCreditCore, RefusedRequestChangesNothingElse) {
  DmaCreditCore c = fresh();
  DmaCreditCoreInputs in = idle();
  put_cmd(in, 0, 9);
  c.step(in);
  in = idle();
  c.step(in);  // the queue memory read into the head
  c.step(in);  // the head refused
  const DmaCreditCoreOutputs o = c.step(in);
  EXPECT_TRUE(o.cpl_wr);
  EXPECT_EQ(o.cpl_status, uint8_t(DmaCplStatus::bad_len));
  EXPECT_EQ(o.cpl_tag, 9u);
  EXPECT_TRUE(o.ev_cpl_err);
  EXPECT_EQ(o.credits, 0u);
  EXPECT_FALSE(o.pkt_valid);
  EXPECT_EQ(o.stat.refused, 1u);
}

// No counter free: tries at t0, t0 + I + 1, ...; after L failed retries the
// request is given up (L + 1 failed tries in all).
TEST(DmaCreditCore, RetryTiming) {
  DmaCreditParams p;
  p.ctrs = 1;
  DmaCreditCore c = fresh(p);
  DmaCreditCoreInputs in = idle();
  in.cfg.retry_interval = 3;
  in.cfg.retry_limit = 2;
  put_cmd(in, 1, 1);
  c.step(in);  // the first takes the only counter
  put_cmd(in, 1, 2);
  c.step(in);
  in.cmd_valid = false;
  std::vector<int> fails;
  int given_up = -1;
  for (int t = 2; t < 40; ++t) {
    const uint32_t before = c.eval(in).stat.alloc_fail;
    const DmaCreditCoreOutputs o = c.step(in);
    if (c.eval(in).stat.alloc_fail != before) fails.push_back(t);
    if (o.cpl_wr && o.cpl_status == uint8_t(DmaCplStatus::no_credit)) given_up = t;
  }
  ASSERT_EQ(fails.size(), 3u);
  EXPECT_EQ(fails[1] - fails[0], 4);
  EXPECT_EQ(fails[2] - fails[1], 4);
  EXPECT_EQ(given_up, fails[2] + 1) << "the record follows the last failed try";
  EXPECT_EQ(c.eval(in).stat.retries, 2u);
  EXPECT_EQ(c.eval(in).stat.no_credit, 1u);
}

// TIMEOUT cycles without a result after the last packet (+2: the registered
// compare, the record stage): the record, the
// counter free, its packets no longer outstanding.
TEST(DmaCreditCore, TimeoutAfterExactlyTimeoutCycles) {
  DmaCreditCore c = fresh();
  DmaCreditCoreInputs in = idle();
  in.cfg.timeout = 10;
  put_cmd(in, 1, 7);
  c.step(in);
  in.cmd_valid = false;
  int offered = -1, record = -1;
  for (int t = 1; t < 40; ++t) {
    const DmaCreditCoreOutputs o = c.step(in);
    if (o.pkt_valid && offered < 0) offered = t;
    if (o.cpl_wr) {
      record = t;
      EXPECT_EQ(o.cpl_status, uint8_t(DmaCplStatus::timeout));
      EXPECT_EQ(o.cpl_ctr, 0u);
      EXPECT_EQ(o.cpl_tag, 7u);
    }
  }
  EXPECT_EQ(record - offered, 12) << "the timer reaches 10 ten cycles after the last packet is "
                                     "offered; decided the cycle after (a registered compare), "
                                     "written the next";
  EXPECT_FALSE(c.ctr_live(0));
  EXPECT_EQ(c.eval(in).outstanding, 0u);
  EXPECT_EQ(c.eval(in).stat.timeouts, 1u);
}

TEST(DmaCreditCore, InjectionLimitAndPause) {
  DmaCreditCore c = fresh();
  DmaCreditCoreInputs in = idle();
  in.cfg.inj_limit = 3;
  put_cmd(in, 40, 1);
  c.step(in);
  in.cmd_valid = false;
  unsigned pkts = 0;
  for (int t = 0; t < 30; ++t) pkts += c.step(in).pkt_valid;
  EXPECT_EQ(pkts, 3u);
  EXPECT_EQ(c.eval(in).outstanding, 3u);
  in.cfg.inj_limit = 0;
  in.res_valid = true;
  pkt::Header h;
  h.op = uint8_t(pkt::Op::push);
  h.len = 4;
  h.addr = 0x10000;
  in.res_hdr = result(h);
  c.step(in);
  in.res_valid = false;
  for (int t = 0; t < 10; ++t) EXPECT_FALSE(c.step(in).pkt_valid);
}

TEST(DmaCreditParams, OutOfRangeNamesTheParameter) {
  for (auto [f, v, text] : {std::tuple{&DmaCreditParams::ctrs, 65u, "ctrs (CTRS) = 65"},
                            std::tuple{&DmaCreditParams::flit_w, 192u, "flit_w (FLIT_W) = 192"},
                            std::tuple{&DmaCreditParams::max_len, 0u, "max_len (MAX_LEN) = 0"},
                            std::tuple{&DmaCreditParams::cmd_depth, 0u, "cmd_depth (CMD_DEPTH) = 0"}}) {
    DmaCreditParams p;
    p.*f = v;
    try {
      DmaCreditCore c{p};
      FAIL() << text << " accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
    }
  }
}

// Through the block's registers: a staged request and CMD_GO, the record
// read from CPL_HEAD and popped.
TEST(DmaCreditBlock, RequestThroughTheRegisters) {
  DmaCredit b{DmaCreditParams{}};
  DmaCreditInputs in;
  b.step(in);  // reset
  in.rst_n = true;
  in.pkt_ready = true;
  ASSERT_EQ(b.tlm_write(T3_DMA_CREDIT_A_CMD_NET_LO, 0x400), RegStatus::ok);
  ASSERT_EQ(b.tlm_write(T3_DMA_CREDIT_A_CMD_LEN, 2), RegStatus::ok);
  ASSERT_EQ(b.tlm_write(T3_DMA_CREDIT_A_CMD_CTRL, 0x5Au << 24 | 1u << 4), RegStatus::ok);
  ASSERT_EQ(b.tlm_write(T3_DMA_CREDIT_A_CMD_GO, 1), RegStatus::ok);
  pkt::Header got;
  for (int t = 0; t < 10; ++t) {
    const DmaCreditOutputs o = b.step(in);
    if (o.pkt_valid) got = pkt::unpack(o.pkt_hdr);
  }
  EXPECT_EQ(got.op, uint8_t(pkt::Op::pull));
  EXPECT_EQ(got.addr, 0x400u);
  EXPECT_EQ(got.len, 2u);
  in.res_valid = true;
  in.res_hdr = result(got);
  b.step(in);
  in.res_valid = false;
  for (int t = 0; t < 5; ++t) b.step(in);
  uint32_t head = 0;
  ASSERT_EQ(b.tlm_read(T3_DMA_CREDIT_A_CPL_HEAD, head), RegStatus::ok);
  EXPECT_EQ(head, 1u << 31 | 0x5Au);
  ASSERT_EQ(b.tlm_write(T3_DMA_CREDIT_A_CPL_POP, 1), RegStatus::ok);
  b.step(in);
  b.step(in);
  ASSERT_EQ(b.tlm_read(T3_DMA_CREDIT_A_CPL_HEAD, head), RegStatus::ok);
  EXPECT_EQ(head, 0u);
  uint32_t v = 0;
  ASSERT_EQ(b.tlm_read(T3_DMA_CREDIT_A_STAT_CPL_OK, v), RegStatus::ok);
  EXPECT_EQ(v, 1u);
}

// The block's step() (hw/dma_credit/dma_credit_eval.h, a specialization of
// RegBlock's) against the generic RegBlock's on the same random traffic:
// the same outputs, register reads and PSLVERRs included, in every cycle.
// GenericGlue is the block's glue under another name, so RegBlock<GenericGlue>
// is the generic code.
struct GenericGlue : DmaCreditGlue {};

TEST(DmaCreditBlock, SameAsTheGenericRegBlock) {
  DmaCreditParams p;
  p.ctrs = 3;
  p.cpl_depth = 4;
  DmaCredit fast(p);
  RegBlock<GenericGlue> generic(p);
  std::mt19937_64 rng(11);
  const uint32_t regs[] = {T3_DMA_CREDIT_A_CMD_NET_LO,  T3_DMA_CREDIT_A_CMD_LOCAL_LO, T3_DMA_CREDIT_A_CMD_LEN,
                           T3_DMA_CREDIT_A_CMD_CTRL,    T3_DMA_CREDIT_A_CMD_GO,       T3_DMA_CREDIT_A_CPL_HEAD,
                           T3_DMA_CREDIT_A_CPL_POP,     T3_DMA_CREDIT_A_INJ_LIMIT,    T3_DMA_CREDIT_A_RETRY,
                           T3_DMA_CREDIT_A_TIMEOUT,     T3_DMA_CREDIT_A_STATUS,       T3_DMA_CREDIT_A_INTR_ENABLE,
                           T3_DMA_CREDIT_A_INTR_STATE,  T3_DMA_CREDIT_A_INTR_TEST,    T3_DMA_CREDIT_A_OUTSTANDING,
                           T3_DMA_CREDIT_A_STAT_BYTES,  T3_DMA_CREDIT_A_STAT_CPL_OK,  T3_DMA_CREDIT_A_PARAM_A,
                           0xFFCu,                      0x2u};
  constexpr unsigned kRegs = sizeof(regs) / sizeof(regs[0]);
  DmaCreditInputs in;
  std::vector<pkt::Header> sent;
  tb::ApbMaster apb;
  unsigned reads = 0, pkts = 0, cpls = 0;
  for (int c = 0; c < 100000; ++c) {
    in.rst_n = c >= 2 && rng() % 20000 != 0;
    if (apb.idle() && rng() % 3 == 0) {
      tb::ApbTransfer t;
      t.write = rng() % 2;
      t.addr = regs[rng() % kRegs];
      const uint32_t v = uint32_t(rng());
      switch (t.addr) {
        case T3_DMA_CREDIT_A_CMD_LEN: t.data = 1 + v % 9; break;
        case T3_DMA_CREDIT_A_CMD_NET_LO: t.data = v & 0xFFFF0; break;
        case T3_DMA_CREDIT_A_CMD_LOCAL_LO: t.data = v & 0xFFFF0; break;
        case T3_DMA_CREDIT_A_TIMEOUT: t.data = 20 + v % 200; break;
        case T3_DMA_CREDIT_A_INJ_LIMIT: t.data = v % 12; break;
        default: t.data = v; break;
      }
      t.strb = t.write ? (rng() % 16 ? 0xF : 0x3) : 0;
      apb.push(t);
    }
    apb.drive(in.apb, in.rst_n);
    if (!in.rst_n) sent.clear();
    in.cmd_valid = rng() % 4 == 0;
    in.cmd_len = uint32_t(rng() % 11);  // 0: refused
    in.cmd_net_addr = (rng() % 64) << 8;
    in.cmd_local_addr = (rng() % 64) << 8;
    in.cmd_red_op = rng() % 16 ? 0 : 1;
    in.cmd_dtype = uint8_t(rng() % 3);
    in.cmd_pull = rng() % 2;
    in.cmd_src = uint8_t(rng());
    in.cmd_dst = uint8_t(rng());
    in.cmd_tag = uint8_t(rng());
    in.pkt_ready = rng() % 4 != 0;
    in.res_valid = !sent.empty() && rng() % 3 == 0;
    if (in.res_valid) {
      // A result of a packet sent (now and then not yet, twice, or junk).
      const size_t k = rng() % sent.size();
      pkt::Header junk;
      junk.op = uint8_t(rng() % 16);
      junk.len = uint8_t(rng() % 8);
      junk.ctr = uint8_t(rng());
      in.res_hdr = rng() % 32 ? result(sent[k]) : pkt::pack(junk);
      if (rng() % 4 != 0) sent.erase(sent.begin() + long(k));
    }
    DmaCreditOutputs a, b;
    fast.step(in, a);
    generic.step(in, b);
#define T3_SAME_in(pin, field)
#define T3_SAME_out(pin, field) ASSERT_EQ(a.field, b.field) << "cycle " << c << " pin " #pin;
#define T3_SAME(dir, pin, width, field) T3_SAME_##dir(pin, field)
    T3_DMA_CREDIT_PINS(T3_SAME)
#undef T3_SAME
#undef T3_SAME_out
#undef T3_SAME_in
    ASSERT_EQ(a.intr, b.intr) << "cycle " << c;
    ASSERT_EQ(a.apb.prdata, b.apb.prdata) << "cycle " << c;
    ASSERT_EQ(a.apb.pready, b.apb.pready) << "cycle " << c;
    ASSERT_EQ(a.apb.pslverr, b.apb.pslverr) << "cycle " << c;
    if (in.rst_n && a.pkt_valid && in.pkt_ready) {
      sent.push_back(pkt::unpack(a.pkt_hdr));
      ++pkts;
    }
    if (const auto done = apb.after(in.apb, b.apb)) reads += !done->t.write;
    cpls += a.cpl_wr;
  }
  // The traffic reached what the specialization changes.
  EXPECT_GT(pkts, 200u);
  EXPECT_GT(cpls, 100u);
  EXPECT_GT(reads, 5000u);
}

}  // namespace
}  // namespace t3
