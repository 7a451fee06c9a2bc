// The endpoint's co-simulation: the C++ composition of its twelve blocks
// (hw/innet_endpoint) against the RTL top (rtl/innet_endpoint.sv), every
// output of every cycle compared (reset cycles included), with the GPU
// memory behind the lanes (ep_lane_memory.h). Windows are written through
// the APB port as the endpoint driver writes them. Directed cases (the
// registers, a PUSH request's packet carrying the memory's data, a copy's
// WRITEs, a RESULT written into its buffer and completing its request),
// then constrained-random traffic on every port with bubbles,
// back-pressure and resets. Run on either engine: --engine systemc
// (default) or --engine direct.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <deque>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "apb_access.h"
#include "common/packet.h"
#include "cosim_config.h"
#include "ep_stimulus.h"
#include "ep_window/ep_window_writes.h"
#include "innet_endpoint/lane_memory.h"
#include "innet_endpoint_scoreboard.h"
#include "pkt_stream.h"
#include "t3/dma_credit_regs.h"
#include "t3/ep_count_regs.h"
#include "t3/ep_det_regs.h"
#include "t3/ep_final_regs.h"
#include "t3/ep_home_regs.h"
#include "t3/ep_mem_arb_regs.h"
#include "t3/ep_req_regs.h"
#include "t3/ep_res_regs.h"
#include "t3/ep_rspq_regs.h"
#include "t3/ep_rx_regs.h"
#include "t3/ep_tx_regs.h"
#include "t3/ep_window_regs.h"
#include "t3/innet_endpoint_map.h"
#include "test_cosim.h"

namespace t3::tb {
namespace {

using pkt::Op;

Cosim<InnetEndpointBlock>& the_cosim() { return shared_cosim<InnetEndpointBlock>(); }
const InnetEndpointParams& params() { return the_cosim().params(); }
unsigned fb() { return params().flit_bytes(); }

constexpr unsigned kMemLat = 6;
constexpr uint8_t kNode = 3;

struct Cmd {
  uint64_t local = 0, net = 0;
  uint32_t len = 0;
  uint8_t red_op = 0, dtype = 0;
  bool pull = false;
  uint8_t src = 0, dst = 0, tag = 0;
};
struct Copy {
  uint64_t local = 0, net = 0;
  uint32_t flits = 0;
  uint8_t dst = 0;
};
struct Cpl {
  uint8_t status, ctr, tag;
};

// What the blocks counted (their STAT_* registers, read through the port),
// summed over the resets of a run: what the random traffic reached.
struct Coverage {
  static constexpr const char* kNames[] = {
      "rx results",  "rx pull_rsps", "rx partials",   "rx drops",      "req pulls",     "req pushes",
      "req writes",  "req drops",    "home results",  "home sweeps",   "det lines",     "final lines",
      "rspq results", "rspq pull_rsps", "res results", "res unmatched", "count held",  "count over",
      "home lost",
      "arb waits",   "tx pushes",    "tx pulls",      "tx writes"};
  static constexpr unsigned kN = sizeof(kNames) / sizeof(kNames[0]);
  uint64_t n[kN] = {};
};
constexpr uint32_t kCoverageRegs[Coverage::kN] = {
    T3_INNET_ENDPOINT_EP_RX_BASE + T3_EP_RX_A_STAT_RESULTS,
    T3_INNET_ENDPOINT_EP_RX_BASE + T3_EP_RX_A_STAT_PULL_RSPS,
    T3_INNET_ENDPOINT_EP_RX_BASE + T3_EP_RX_A_STAT_PARTIALS,
    T3_INNET_ENDPOINT_EP_RX_BASE + T3_EP_RX_A_STAT_DROPS,
    T3_INNET_ENDPOINT_EP_REQ_BASE + T3_EP_REQ_A_STAT_PULLS,
    T3_INNET_ENDPOINT_EP_REQ_BASE + T3_EP_REQ_A_STAT_PUSHES,
    T3_INNET_ENDPOINT_EP_REQ_BASE + T3_EP_REQ_A_STAT_WRITES,
    T3_INNET_ENDPOINT_EP_REQ_BASE + T3_EP_REQ_A_STAT_DROPS,
    T3_INNET_ENDPOINT_EP_HOME_BASE + T3_EP_HOME_A_STAT_RESULTS,
    T3_INNET_ENDPOINT_EP_HOME_BASE + T3_EP_HOME_A_STAT_SWEEPS,
    T3_INNET_ENDPOINT_EP_DET_BASE + T3_EP_DET_A_STAT_LINES,
    T3_INNET_ENDPOINT_EP_FINAL_BASE + T3_EP_FINAL_A_STAT_LINES,
    T3_INNET_ENDPOINT_EP_RSPQ_BASE + T3_EP_RSPQ_A_STAT_RESULTS,
    T3_INNET_ENDPOINT_EP_RSPQ_BASE + T3_EP_RSPQ_A_STAT_PULL_RSPS,
    T3_INNET_ENDPOINT_EP_RES_BASE + T3_EP_RES_A_STAT_RESULTS,
    T3_INNET_ENDPOINT_EP_RES_BASE + T3_EP_RES_A_STAT_UNMATCHED,
    T3_INNET_ENDPOINT_EP_COUNT_BASE + T3_EP_COUNT_A_STAT_HELD,
    T3_INNET_ENDPOINT_EP_COUNT_BASE + T3_EP_COUNT_A_STAT_OVER,
    T3_INNET_ENDPOINT_EP_HOME_BASE + T3_EP_HOME_A_STAT_LOST,
    T3_INNET_ENDPOINT_EP_MEM_ARB_BASE + T3_EP_MEM_ARB_A_STAT_WAITS,
    T3_INNET_ENDPOINT_EP_TX_BASE + T3_EP_TX_A_STAT_PUSHES,
    T3_INNET_ENDPOINT_EP_TX_BASE + T3_EP_TX_A_STAT_PULLS,
    T3_INNET_ENDPOINT_EP_TX_BASE + T3_EP_TX_A_STAT_WRITES,
};

class Bench : public ApbAccess<Bench> {
  friend class ApbAccess<Bench>;

 public:
  explicit Bench(uint64_t seed = 1)
      : c_(the_cosim()), rng_(seed), mem_(params(), kMemLat), scb_(params().flit_w), drv_{PktDriver(params().flit_w), PktDriver(params().flit_w)},
        col_{PktCollector(params().flit_w), PktCollector(params().flit_w)} {
    c_.in() = InnetEndpointInputs{};
    c_.in().node = kNode;
    EXPECT_TRUE(c_.reset(2)) << c_.first_mismatch();
    c_.in().rst_n = true;
    // The counters' reset walk (COUNT_DEPTH cycles): nothing is counted
    // before it ends.
    for (uint64_t i = 0; i < params().count_depth + 8 && !c_.out().idle; ++i) cycle();
    EXPECT_TRUE(c_.out().idle) << "the endpoint is not idle after its reset walk";
  }
  Cosim<InnetEndpointBlock>& cosim() { return c_; }
  std::mt19937_64& rng() { return rng_; }
  EpLaneMemory& memory() { return mem_; }
  const InnetEndpointScoreboard& scoreboard() const { return scb_; }
  const std::vector<Packet>& sent(unsigned k) const { return out_[k]; }
  const std::vector<Cpl>& completions() const { return cpl_; }
  void traffic_shape(double gap, double stall) {
    gap_ = gap;
    stall_ = stall;
  }
  // The fabric's stand-in: a PUSH this endpoint sends comes back, with
  // chance `rate`, as the RESULT a switch would multicast (same header,
  // other data), so that requests complete as well as time out.
  void loopback(double rate) { loopback_ = rate; }
  // The completions the processor has not popped yet, popped (CPL_POP).
  void pop_completions() {
    while (unpopped_ > 0) {
      --unpopped_;
      EXPECT_TRUE(write_reg(T3_INNET_ENDPOINT_DMA_CREDIT_BASE + T3_DMA_CREDIT_A_CPL_POP, 1));
    }
  }

  void send(unsigned k, const Packet& p) { drv_[k].push(p); }
  void send_flit(unsigned k, const Wide& f) { drv_[k].push_flit(f); }
  void command(const Cmd& c) { cmds_.push_back(c); }
  void copy(const Copy& c) { copies_.push_back(c); }

  // A window as the endpoint driver writes it (page 1).
  void set_window(unsigned i, const EpWin& w) {
    if (w.valid && !w.copy) scb_.window(w.net_base, w.bytes, w.src);
    for (const EpWinWrite& a : ep_window_writes(i, w))
      EXPECT_TRUE(write_reg(T3_INNET_ENDPOINT_EP_WINDOW_BASE + a.offset, a.data));
    for (unsigned n = 0; n < 3; ++n) cycle();
  }

  // The blocks' counts since the last reset, added to cov (STAT_W bits: a
  // run reads them before they wrap, at every reset and at its end).
  void add_coverage(Coverage& cov) {
    for (unsigned i = 0; i < Coverage::kN; ++i) cov.n[i] += read_reg(kCoverageRegs[i]);
  }

  // The engines not idle (their STATUS.IDLE, read through the port), and
  // the input queues' and counters' part of idle_o.
  std::string busy() {
    struct Idle {
      const char* name;
      uint32_t addr, mask;
    };
    const Idle idle[] = {
        {"ep_tx", T3_INNET_ENDPOINT_EP_TX_BASE + T3_EP_TX_A_STATUS, T3_EP_TX_R_STATUS_IDLE_MASK},
        {"ep_rx", T3_INNET_ENDPOINT_EP_RX_BASE + T3_EP_RX_A_STATUS, T3_EP_RX_R_STATUS_IDLE_MASK},
        {"ep_final", T3_INNET_ENDPOINT_EP_FINAL_BASE + T3_EP_FINAL_A_STATUS, T3_EP_FINAL_R_STATUS_IDLE_MASK},
        {"ep_req", T3_INNET_ENDPOINT_EP_REQ_BASE + T3_EP_REQ_A_STATUS, T3_EP_REQ_R_STATUS_IDLE_MASK},
        {"ep_home", T3_INNET_ENDPOINT_EP_HOME_BASE + T3_EP_HOME_A_STATUS, T3_EP_HOME_R_STATUS_IDLE_MASK},
        {"ep_det", T3_INNET_ENDPOINT_EP_DET_BASE + T3_EP_DET_A_STATUS, T3_EP_DET_R_STATUS_IDLE_MASK},
        {"ep_rspq", T3_INNET_ENDPOINT_EP_RSPQ_BASE + T3_EP_RSPQ_A_STATUS, T3_EP_RSPQ_R_STATUS_IDLE_MASK},
    };
    std::string s = "busy:";
    for (const Idle& i : idle)
      if (!(read_reg(i.addr) & i.mask)) s += std::string(" ") + i.name;
    s += c_.out().idle ? " (idle_o high)" : " (idle_o low)";
    char h[64];
    std::snprintf(h, sizeof h, "; ep_home STATUS 0x%08x", read_reg(T3_INNET_ENDPOINT_EP_HOME_BASE + T3_EP_HOME_A_STATUS));
    s += h;
    return s;
  }

  void set_timeout(uint32_t cycles) {
    EXPECT_TRUE(write_reg(T3_INNET_ENDPOINT_DMA_CREDIT_BASE + T3_DMA_CREDIT_A_TIMEOUT, cycles));
  }

  void restart() {
    c_.in().rst_n = false;
    for (PktDriver& d : drv_) d.clear();
    for (PktCollector& cl : col_) cl.clear();
    cmds_.clear();
    copies_.clear();
    copy_told_ = false;
    scb_.reset();
    apb_.clear();
    unpopped_ = 0;
    for (unsigned i = 0; i < 2; ++i) cycle();
    c_.in().rst_n = true;
  }

  void cycle() {
    InnetEndpointInputs& in = c_.in();
    auto ready = [&] { return stall_ <= 0.0 || std::uniform_real_distribution<double>(0, 1)(rng_) >= stall_; };
    drv_[0].drive(in.req_in_valid, in.req_in_flit, rng_, gap_);
    drv_[1].drive(in.rsp_in_valid, in.rsp_in_flit, rng_, gap_);
    in.req_out_ready = ready();
    in.rsp_out_ready = ready();
    in.cmd_valid = !cmds_.empty();
    if (in.cmd_valid) {
      const Cmd& m = cmds_.front();
      in.cmd_local_addr = m.local;
      in.cmd_net_addr = m.net;
      in.cmd_len = m.len;
      in.cmd_red_op = m.red_op;
      in.cmd_dtype = m.dtype;
      in.cmd_pull = m.pull;
      in.cmd_src = m.src;
      in.cmd_dst = m.dst;
      in.cmd_tag = m.tag;
    }
    in.cp_valid = !copies_.empty();
    if (in.cp_valid) {
      const Copy& m = copies_.front();
      in.cp_local = m.local;
      in.cp_net = m.net;
      in.cp_flits = m.flits;
      in.cp_dst = m.dst;
    }
    mem_.drive(in);
    apb_.drive(in.apb, in.rst_n);
    const InnetEndpointInputs seen = in;
    EXPECT_TRUE(c_.cycle()) << c_.first_mismatch();
    const InnetEndpointOutputs& o = c_.out();
    mem_.after(seen, o);
    drv_[0].after(seen.req_in_valid, o.req_in_ready);
    drv_[1].after(seen.rsp_in_valid, o.rsp_in_ready);
    if (seen.rst_n) {
      if (seen.cmd_valid && o.cmd_ready) {
        scb_.request(seen.cmd_local_addr, seen.cmd_net_addr, seen.cmd_len, seen.cmd_dtype, seen.cmd_pull);
        cmds_.pop_front();
      }
      if (seen.cp_valid && !copy_told_) {
        scb_.copy(seen.cp_local, seen.cp_net, seen.cp_flits, seen.cp_dst);
        copy_told_ = true;
      }
      if (seen.cp_valid && o.cp_done) {
        copies_.pop_front();
        copy_told_ = false;
      }
      if (o.cpl_wr) {
        cpl_.push_back({o.cpl_status, o.cpl_ctr, o.cpl_tag});
        ++unpopped_;
      }
      std::ostringstream err;
      if (auto p = col_[0].observe("req_out", o.req_out_valid, seen.req_out_ready, o.req_out_flit, err)) {
        out_[0].push_back(*p);
        scb_.sent(0, *p, mem_.mem(), err);
        if (p->h.op == uint8_t(Op::push) && std::uniform_real_distribution<double>(0, 1)(rng_) < loopback_) {
          Packet r = *p;
          r.h.op = uint8_t(Op::result);
          r.h.src = uint8_t(rng_() % 8);
          for (Wide& d : r.data) d.w[0] ^= rng_() & 0x3F803F80ull;
          drv_[1].push(r);
        }
      }
      if (auto p = col_[1].observe("rsp_out", o.rsp_out_valid, seen.rsp_out_ready, o.rsp_out_flit, err)) {
        out_[1].push_back(*p);
        scb_.sent(1, *p, mem_.mem(), err);
      }
      if (!err.str().empty()) ADD_FAILURE() << "cycle " << c_.cycles() - 1 << ": " << err.str();
    }
    if (auto d = apb_.after(seen.apb, o.apb)) apb_completed(*d);
  }
  void apb_idle_cycle() { cycle(); }

  bool drivers_idle() const { return drv_[0].idle() && drv_[1].idle() && cmds_.empty() && copies_.empty(); }
  // Everything offered taken and the endpoint idle, within limit cycles.
  void drain(uint64_t limit) {
    uint64_t n = 0;
    for (; n < limit && !(drivers_idle() && c_.out().idle); ++n) {
      if (unpopped_ && n % 64 == 0) pop_completions();
      cycle();
    }
    EXPECT_LT(n, limit) << "the endpoint did not drain in " << limit << " cycles: commands " << cmds_.size()
                        << ", copies " << copies_.size() << ", flits to send req " << drv_[0].queued_flits() << " rsp "
                        << drv_[1].queued_flits() << "; " << busy();
    for (unsigned i = 0; i < 2 * kMemLat; ++i) cycle();
  }

 private:
  Cosim<InnetEndpointBlock>& c_;
  std::mt19937_64 rng_;
  ApbMaster apb_;
  EpLaneMemory mem_;
  InnetEndpointScoreboard scb_;
  bool copy_told_ = false;  // the head copy told to the scoreboard
  PktDriver drv_[2];
  PktCollector col_[2];
  std::vector<Packet> out_[2];
  std::deque<Cmd> cmds_;
  std::deque<Copy> copies_;
  std::vector<Cpl> cpl_;
  double gap_ = 0.0, stall_ = 0.0, loopback_ = 0.0;
  unsigned unpopped_ = 0;
};

Wide pattern(uint64_t seed) {
  Wide w;
  for (unsigned j = 0; j < params().flit_w / 64; ++j) w.w[j] = (seed + j) * 0x9E3779B97F4A7C15ull;
  return w;
}

TEST(InnetEndpoint, EveryWindowAnswersAndPagesPastThemAreErrors) {
  Bench b;
  // dma_credit's PARAM and ep_window's PARAM_A show the build; pages 12..15
  // are no window.
  EXPECT_NE(b.read_reg(T3_INNET_ENDPOINT_EP_WINDOW_BASE + T3_EP_WINDOW_A_PARAM_A), 0u);
  for (uint32_t page = 0; page < 12; ++page) EXPECT_FALSE(b.access({false, page << 12, 0, 0}).err) << "page " << page;
  for (uint32_t page = 12; page < 16; ++page) {
    EXPECT_TRUE(b.access({false, page << 12, 0, 0}).err) << "page " << page;
    EXPECT_TRUE(b.access({true, (page << 12) + 4, 1, 0xF}).err) << "page " << page;
  }
  EXPECT_FALSE(b.cosim().out().intr);
}

// Each block's interrupt reaches intr_o, through the block's own window
// (INTR_STATE, INTR_ENABLE, INTR_TEST at 0x0, 0x4, 0x8 in every block).
TEST(InnetEndpoint, EachBlocksInterruptReachesIntr) {
  Bench b;
  for (uint32_t page = 0; page < 12; ++page) {
    SCOPED_TRACE("page " + std::to_string(page));
    const uint32_t base = page << 12;
    EXPECT_FALSE(b.cosim().out().intr);
    EXPECT_TRUE(b.write_reg(base + 0x4, 1));
    EXPECT_TRUE(b.write_reg(base + 0x8, 1));
    for (unsigned i = 0; i < 3 && !b.cosim().out().intr; ++i) b.cycle();
    EXPECT_TRUE(b.cosim().out().intr);
    EXPECT_TRUE(b.write_reg(base + 0x0, 1));
    EXPECT_TRUE(b.write_reg(base + 0x4, 0));
    for (unsigned i = 0; i < 3; ++i) b.cycle();
    EXPECT_FALSE(b.cosim().out().intr);
  }
}

// A PUSH request: the DMA credit controller's descriptors become packets
// whose data flits are the memory's at the request's local address.
TEST(InnetEndpoint, APushRequestSendsTheMemorysData) {
  Bench b(2);
  const unsigned len = 2 * params().max_len + 1;
  for (unsigned i = 0; i < len; ++i) b.memory().mem().write(0x1000 + i * fb(), pattern(i));
  Cmd m;
  m.local = 0x1000;
  m.net = 0x40000;
  m.len = len;
  m.dtype = 2;
  m.src = kNode;
  m.dst = 1;
  m.tag = 9;
  b.command(m);
  b.traffic_shape(0.0, 0.0);
  for (unsigned i = 0; i < 400; ++i) b.cycle();
  ASSERT_EQ(b.sent(0).size(), (len + params().max_len - 1) / params().max_len);
  unsigned flit = 0;
  for (const Packet& p : b.sent(0)) {
    EXPECT_EQ(p.h.op, uint8_t(Op::push));
    EXPECT_EQ(p.h.addr, m.net + uint64_t(flit) * fb());
    for (const Wide& d : p.data) EXPECT_EQ(d, pattern(flit++));
  }
  EXPECT_EQ(flit, len);
}

// A copy: WRITE packets of MAX_LEN flits from local memory.
TEST(InnetEndpoint, ACopySendsWrites) {
  Bench b(3);
  const unsigned flits = params().max_len + 1;
  for (unsigned i = 0; i < flits; ++i) b.memory().mem().write(0x2000 + i * fb(), pattern(100 + i));
  b.copy({0x2000, 0x80000, flits, 2});
  for (unsigned i = 0; i < 400; ++i) b.cycle();
  ASSERT_EQ(b.sent(0).size(), 2u);
  unsigned flit = 0;
  for (const Packet& p : b.sent(0)) {
    EXPECT_EQ(p.h.op, uint8_t(Op::write));
    EXPECT_EQ(p.h.dst, 2u);
    for (const Wide& d : p.data) EXPECT_EQ(d, pattern(100 + flit++));
  }
  EXPECT_EQ(flit, flits);
}

// A RESULT for this GPU's own request: its data written into the window's
// dst buffer, and the request completed (a PUSH of len flits: one RESULT
// per packet, the last completes it).
TEST(InnetEndpoint, AResultIsWrittenAndCompletesItsRequest) {
  Bench b(4);
  EpWin w;
  w.valid = true;
  w.dtype = 2;
  w.expected = 2;
  w.net_base = 0x40000;
  w.bytes = uint32_t(std::min<uint64_t>(64, params().count_depth) * fb());
  w.src = 0x1000;
  w.dst = 0x8000;
  w.merge = 0x10000;
  w.count_base = 0;
  b.set_window(0, w);
  const unsigned len = params().max_len;
  Cmd m;
  m.local = w.src;
  m.net = w.net_base;
  m.len = len;
  m.dtype = 2;
  m.src = kNode;
  m.dst = 0;
  m.tag = 5;
  b.command(m);
  for (unsigned i = 0; i < 200; ++i) b.cycle();
  ASSERT_EQ(b.sent(0).size(), 1u);
  Packet r;
  r.h = b.sent(0)[0].h;
  r.h.op = uint8_t(Op::result);
  r.h.src = 0;
  for (unsigned i = 0; i < len; ++i) r.data.push_back(pattern(200 + i));
  b.send(1, r);
  b.drain(2000);
  for (unsigned i = 0; i < len; ++i) EXPECT_EQ(b.memory().mem().read(w.dst + i * fb()), pattern(200 + i)) << "flit " << i;
  ASSERT_EQ(b.completions().size(), 1u);
  EXPECT_EQ(b.completions()[0].status, 0u);
  EXPECT_EQ(b.completions()[0].tag, 5u);
}

// Two PARTIALs of a line at its home: the first stored into the merge
// area, the second added (fp32 lanes), the line whole, sent as a RESULT
// from this GPU with the sum, copied to dst; its last flit leaves once
// the counter is cleared, and the line can be merged again.
TEST(InnetEndpoint, TwoPartialsAtTheHomeLeaveAsOneResultWithTheirSum) {
  Bench b(5);
  EpWin w;
  w.valid = true;
  w.home = true;
  w.dtype = 2;
  w.expected = 2;
  w.net_base = 0x40000;
  w.bytes = uint32_t(std::min<uint64_t>(16, params().count_depth) * fb());
  w.src = 0x1000;
  w.dst = 0x8000;
  w.merge = 0x10000;
  b.set_window(0, w);
  const unsigned len = std::min(2u, params().max_len);
  auto fp32 = [&](float base, unsigned i) {
    Wide d;
    for (unsigned lsb = 0; lsb < params().flit_w; lsb += 32) {
      const float v = base + float(i) + float(lsb / 32);
      uint32_t bits;
      std::memcpy(&bits, &v, 4);
      d.set_lane(lsb, 32, bits);
    }
    return d;
  };
  for (unsigned round = 0; round < 2; ++round) {
    for (unsigned k = 0; k < 2; ++k) {
      Packet p;
      p.h.op = uint8_t(Op::partial);
      p.h.addr = w.net_base + fb();
      p.h.len = uint8_t(len);
      p.h.count = 1;
      p.h.dtype = 2;
      p.h.src = uint8_t(k);
      p.h.dst = kNode;
      for (unsigned i = 0; i < len; ++i) p.data.push_back(fp32(k ? 100.0f : 1.0f, i + round));
      b.send(1, p);
    }
    b.drain(5000);
    ASSERT_EQ(b.sent(1).size(), round + 1u) << "one RESULT on the response stream";
    const Packet& r = b.sent(1)[round];
    EXPECT_EQ(r.h.op, uint8_t(Op::result));
    EXPECT_EQ(r.h.src, kNode);
    EXPECT_EQ(r.h.addr, w.net_base + fb());
    EXPECT_EQ(r.h.count, 2u);
    ASSERT_EQ(r.data.size(), len);
    for (unsigned i = 0; i < len; ++i) {
      Wide sum;
      for (unsigned lsb = 0; lsb < params().flit_w; lsb += 32) {
        const float v = 1.0f + 100.0f + 2.0f * (float(i + round) + float(lsb / 32));
        uint32_t bits;
        std::memcpy(&bits, &v, 4);
        sum.set_lane(lsb, 32, bits);
      }
      EXPECT_EQ(r.data[i], sum) << "round " << round << " flit " << i;
      EXPECT_EQ(b.memory().mem().read(w.dst + (1 + i) * fb()), sum) << "the copy to dst";
    }
  }
}

// Random traffic: windows of every kind programmed through the registers,
// packets of every kind on both streams (most in a window), requests and
// copies from the processor's side, readies at random, resets now and then.
TEST(InnetEndpoint, RandomTraffic) {
  const uint64_t cycles = test_options().cycles ? test_options().cycles : T3_RANDOM_CYCLES;
  Bench b(test_options().seed);
  std::mt19937_64& rng = b.rng();
  auto pick = [&](uint64_t n) { return n ? rng() % n : 0; };
  auto u = [&] { return std::uniform_real_distribution<double>(0, 1)(rng); };
  const InnetEndpointParams& p = params();
  std::vector<EpWin> wins(p.windows);
  auto new_windows = [&] {
    uint64_t base = 0x100000;
    for (unsigned i = 0; i < p.windows; ++i) {
      EpWin w;
      w.valid = u() < 0.9;
      w.copy = u() < 0.15 ? uint8_t(1 + pick(2)) : 0;
      w.home = !w.copy && u() < 0.5;
      w.det = w.home && u() < 0.3;
      w.dtype = uint8_t(pick(3));
      w.expected = uint8_t(2 + pick(3));
      const uint64_t lines = 1 + pick(std::min<uint64_t>(32, p.count_depth / p.windows));
      w.bytes = uint32_t(lines * fb());
      w.net_base = base;
      base += w.bytes + pick(4) * fb();
      w.count_base = uint32_t(i * (p.count_depth / p.windows));
      const uint64_t slot = p.mem_bytes / 16 / fb() * fb();  // each buffer in its sixteenth of memory
      w.src = uint32_t((4 * i + 0) % 16 * slot);
      w.dst = uint32_t((4 * i + 1) % 16 * slot);
      w.merge = uint32_t((4 * i + 2) % 16 * slot);
      w.stage = uint32_t((4 * i + 3) % 16 * slot);
      // A deterministic home's contributors: `expected` of the 32 ranks.
      w.contrib_mask = 0;
      while (unsigned(__builtin_popcount(w.contrib_mask)) < w.expected) w.contrib_mask |= 1u << pick(32);
      wins[i] = w;
    }
    // The old windows cleared first: a new range may overlap an old one.
    for (unsigned i = 0; i < p.windows; ++i) b.set_window(i, EpWin{});
    for (unsigned i = 0; i < p.windows; ++i) b.set_window(i, wins[i]);
  };
  // The source buffers (each window's src, a sixteenth of memory apart
  // from its other buffers) hold a pattern, never written by the endpoint:
  // what the scoreboard holds the PUSHes and copies' WRITEs to.
  const uint64_t slot = p.mem_bytes / 16 / fb() * fb();
  for (unsigned i = 0; i < 4; ++i)
    for (uint64_t a = 0; a < std::min<uint64_t>(slot, 8192); a += fb())
      b.memory().mem().write(4 * i * slot + a, pattern(4 * i * slot + a));
  new_windows();
  b.set_timeout(600);
  b.loopback(0.6);
  Coverage cov;
  uint64_t done = 0, resets = 0, sent = 0;
  while (done < cycles) {
    const uint64_t start = b.cosim().cycles();
    const unsigned per_round = 2 + unsigned(pick(16));
    for (unsigned i = 0; i < per_round; ++i) {
      const unsigned kind = unsigned(pick(10));
      if (kind < 6) {
        // A packet on one of the streams, to a window of the kind its
        // opcode asks for (9 times in 10), or anywhere.
        const bool rsp = kind < 4;
        pkt::Header h;
        const Op req_ops[] = {Op::write, Op::pull, Op::push};
        const Op rsp_ops[] = {Op::result, Op::pull_rsp, Op::partial};
        const Op op = rsp ? rsp_ops[pick(3)] : req_ops[pick(3)];
        h.op = uint8_t(op);
        h.len = uint8_t(1 + pick(p.max_len));
        h.count = uint8_t(1 + pick(2));
        h.src = uint8_t(pick(32));
        h.dst = kNode;
        h.ctr = uint8_t(pick(p.ctrs + 1));
        std::vector<const EpWin*> fit;
        for (const EpWin& w : wins) {
          // A home's counters count its region's PARTIALs (push mode), a
          // deterministic home's its PUSHes; a pulled line's are cleared
          // by ep_rx once final. The other tenth goes anywhere: mixed, a
          // line the home's sweep looks for is lost, and given up (choice 5).
          const bool kind_ok = op == Op::write      ? w.copy != 0
                               : op == Op::partial  ? w.home && !w.det
                               : op == Op::push     ? w.det
                               : op == Op::pull_rsp ? w.copy == 0 && !w.home
                                                    : w.copy == 0;
          if (w.valid && kind_ok && w.bytes >= h.len * fb()) fit.push_back(&w);
        }
        if (!fit.empty() && u() < 0.9) {
          const EpWin& w = *fit[pick(fit.size())];
          h.addr = w.net_base + pick(w.bytes / fb() - h.len + 1) * fb();
          h.dtype = w.dtype;
          if (op == Op::push) {
            h.count = 1;
            do h.src = uint8_t(pick(32));
            while (!(w.contrib_mask >> h.src & 1));
          }
        } else {
          ep_place_packet(h, wins, 0x140000, fb(), rng);
        }
        Packet pk;
        pk.h = h;
        if (pkt::has_data(h.op))
          for (unsigned f = 0; f < h.len; ++f) {
            Wide d;
            for (unsigned j = 0; j < p.flit_w / 64; ++j) d.w[j] = rng() & 0x3F803F803F803F80ull;  // small, finite values
            pk.data.push_back(d);
          }
        b.send(rsp ? 1 : 0, pk);
      } else if (kind < 8) {
        // A request from the processor: in a window (its src buffer) or not.
        const EpWin& w = wins[pick(wins.size())];
        Cmd m;
        const uint32_t len = uint32_t(1 + pick(3 * p.max_len));
        m.net = w.net_base + pick(w.bytes / fb()) * fb();
        m.local = (w.src + (m.net - w.net_base)) % (p.mem_bytes - 64 * fb());
        m.len = len;
        m.pull = u() < 0.3;
        m.dtype = w.dtype;
        m.src = kNode;
        m.dst = uint8_t(pick(4));
        m.tag = uint8_t(rng());
        b.command(m);
      } else if (kind < 9) {
        b.copy({4 * pick(4) * slot + pick(64) * fb(), 0x200000 + pick(64) * fb(), uint32_t(1 + pick(2 * p.max_len)),
                uint8_t(pick(4))});
      }
      ++sent;
    }
    b.traffic_shape(double(pick(50)) / 100, double(pick(60)) / 100);
    for (unsigned i = 0; i < 200 + pick(800) && !b.drivers_idle(); ++i) b.cycle();
    b.pop_completions();
    if (pick(4) == 0) {
      b.traffic_shape(0.0, 0.0);
      b.drain(200000);
      if (pick(8) == 0) new_windows();
    } else if (pick(256) == 0) {
      b.add_coverage(cov);
      b.restart();
      for (uint64_t i = 0; i < p.count_depth + 8 && !b.cosim().out().idle; ++i) b.cycle();
      new_windows();
      b.set_timeout(600);
      ++resets;
    } else if (pick(32) == 0) {
      new_windows();  // with traffic in flight (choice 5)
    }
    done += b.cosim().cycles() - start;
    if (testing::Test::HasFailure()) break;
  }
  b.traffic_shape(0.0, 0.0);
  b.drain(200000);
  b.add_coverage(cov);
  std::printf("innet_endpoint random: %llu cycles, %llu resets, %llu items; out req %zu rsp %zu packets, %zu completions, "
              "memory reads %llu writes %llu adds %llu\n",
              (unsigned long long)done, (unsigned long long)resets, (unsigned long long)sent, b.sent(0).size(),
              b.sent(1).size(), b.completions().size(), (unsigned long long)b.memory().reads(),
              (unsigned long long)b.memory().writes(), (unsigned long long)b.memory().adds());
  for (unsigned i = 0; i < Coverage::kN; ++i) std::printf("  %s %llu\n", Coverage::kNames[i], (unsigned long long)cov.n[i]);
  const InnetEndpointScoreboard& scb = b.scoreboard();
  std::printf("  scoreboard: %llu PUSHes, %llu PULLs, %llu WRITEs, %llu PULL_RSPs checked\n",
              (unsigned long long)scb.pushes_checked(), (unsigned long long)scb.pulls_checked(),
              (unsigned long long)scb.writes_checked(), (unsigned long long)scb.pull_rsps_checked());
  EXPECT_GT(scb.pushes_checked(), 0u);
  EXPECT_GT(scb.pulls_checked(), 0u);
  EXPECT_GT(scb.writes_checked(), 0u);
  EXPECT_GT(scb.pull_rsps_checked(), 0u);
}

}  // namespace
}  // namespace t3::tb
