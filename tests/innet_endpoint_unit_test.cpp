// Unit tests of the endpoint composition's cycle model (no SystemC, no
// RTL): its parameters, the wires settling within the passes eval() runs,
// eval() against step(), and the path of a PUSH request from the command
// port to the fabric (the cycle table in docs/blocks/innet_endpoint.md).
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "common/packet.h"
#include "ep_window/ep_window_writes.h"
#include "innet_endpoint/innet_endpoint.h"
#include "innet_endpoint/innet_endpoint_pins.h"
#include "innet_endpoint/lane_memory.h"
#include "param_refusal.h"
#include "t3/ep_window_regs.h"
#include "t3/innet_endpoint_map.h"

namespace t3 {
namespace {

TEST(InnetEndpointParams, EveryRangeAndTheComposedRules) {
  InnetEndpointParams p;
  EXPECT_NO_THROW(p.validate());
  p.flit_w = 512;
  expect_refused(p, "flit_w (FLIT_W) = 512");
  p = InnetEndpointParams{};
  p.max_len = 17;  // the DMA credit controller alone allows 255
  expect_refused(p, "max_len (MAX_LEN) = 17");
  p = InnetEndpointParams{};
  p.count_depth = 65537;  // ep_window alone allows 2^20
  expect_refused(p, "count_depth (COUNT_DEPTH) = 65537");
  p = InnetEndpointParams{};
  p.in_depth = p.max_len;
  expect_refused(p, "in_depth (IN_DEPTH) = 4");
  p = InnetEndpointParams{};
  p.slots = p.max_len;
  expect_refused(p, "slots (SLOTS) = 4");
  p = InnetEndpointParams{};
  p.detq = 17;
  expect_refused(p, "detq (DETQ) = 17");
  EXPECT_THROW(InnetEndpoint{p}, std::invalid_argument);
  // The memory arbiter's tag: the widest engine's.
  p = InnetEndpointParams{};
  EXPECT_EQ(p.arb_tag_w(), 4u);  // ep_tx's 10 slots and the response queue's 10
  p.max_len = 16;
  p.slots = 37;
  p.buf = 32;
  EXPECT_EQ(p.arb_tag_w(), 6u);
  EXPECT_EQ(p.ep_mem_arb().tag_w, 6u);
}

// The endpoint with its memory, one cycle at a time.
struct Rig {
  explicit Rig(const InnetEndpointParams& p = small()) : e(p), mem(p, 4) {
    in.node = 2;
    in.rst_n = false;
    step();
    step();
    in.rst_n = true;
    for (unsigned i = 0; i < p.count_depth + 4 && !out.idle; ++i) step();
  }
  static InnetEndpointParams small() {
    InnetEndpointParams p;
    p.count_depth = 64;
    return p;
  }
  const InnetEndpointOutputs& step() {
    mem.drive(in);
    e.step(in, out);
    mem.after(in, out);
    return out;
  }
  InnetEndpoint e;
  EpLaneMemory mem;
  InnetEndpointInputs in;
  InnetEndpointOutputs out;
};

// Random inputs on every port (a stand-in for traffic: headers of every
// kind, requests, copies, readies), and at each cycle the passes the wires
// take to settle: a few, well inside the bound past which eval() and
// step() call it a combinational loop.
TEST(InnetEndpoint, TheWiresSettle) {
  Rig r;
  std::mt19937_64 rng(7);
  auto u = [&] { return std::uniform_real_distribution<double>(0, 1)(rng); };
  const unsigned fb = r.e.params().flit_bytes();
  EpWin w;
  w.valid = true;
  w.home = true;
  w.dtype = 2;
  w.expected = 2;
  w.net_base = 0x10000;
  w.bytes = 32 * fb;
  w.src = 0x1000;
  w.dst = 0x4000;
  w.merge = 0x8000;
  w.stage = 0xC000;
  for (const EpWinWrite& a : ep_window_writes(0, w))
    ASSERT_EQ(r.e.tlm_write(T3_INNET_ENDPOINT_EP_WINDOW_BASE + a.offset, a.data), RegStatus::ok);
  unsigned most = 0;
  for (unsigned c = 0; c < 20000; ++c) {
    InnetEndpointInputs& in = r.in;
    const pkt::Op ops[] = {pkt::Op::result, pkt::Op::pull_rsp, pkt::Op::partial, pkt::Op::write, pkt::Op::pull,
                           pkt::Op::push};
    auto flit = [&](bool rsp) {
      pkt::Header h;
      h.op = uint8_t(ops[(rsp ? 0 : 3) + rng() % 3]);
      h.len = uint8_t(1 + rng() % 4);
      h.addr = w.net_base + (rng() % 28) * fb;
      h.count = 1;
      h.dtype = 2;
      h.src = uint8_t(rng() % 4);
      h.dst = 2;
      Wide f = pkt::pack(h);
      if (u() < 0.5)
        for (unsigned j = 0; j < 2; ++j) f.w[j] = rng() & 0x3F803F803F803F80ull;
      return f;
    };
    in.req_in_valid = u() < 0.5;
    in.req_in_flit = flit(false);
    in.rsp_in_valid = u() < 0.5;
    in.rsp_in_flit = flit(true);
    in.req_out_ready = u() < 0.7;
    in.rsp_out_ready = u() < 0.7;
    in.cmd_valid = u() < 0.05;
    in.cmd_local_addr = w.src;
    in.cmd_net_addr = w.net_base + (rng() % 16) * fb;
    in.cmd_len = uint32_t(1 + rng() % 8);
    in.cmd_pull = u() < 0.3;
    in.cmd_dtype = 2;
    in.cp_valid = u() < 0.02;
    in.cp_local = 0x2000;
    in.cp_net = 0x90000;
    in.cp_flits = 3;
    r.mem.drive(in);
    const unsigned n = r.e.settle_passes(in);
    most = std::max(most, n);
    ASSERT_LT(n, InnetEndpoint::kMostPasses) << "cycle " << c;
    InnetEndpointOutputs o;
    r.e.step(in, o);
    r.mem.after(in, o);
  }
  // A cycle whose second pass evaluated a block again (its inputs moved)
  // runs a third that changes nothing.
  EXPECT_GE(most, 3u) << "no cycle had a wire that needed a second pass: the check checks nothing";
}

// eval() gives what step() gives, and changes nothing.
TEST(InnetEndpoint, EvalIsStepWithoutTheEdge) {
  Rig a;
  std::mt19937_64 rng(3);
  for (unsigned c = 0; c < 3000; ++c) {
    InnetEndpointInputs in = a.in;
    in.rsp_in_valid = rng() % 2;
    in.rsp_in_flit.w[0] = rng();
    in.req_in_valid = rng() % 2;
    in.req_in_flit.w[0] = rng();
    in.req_out_ready = rng() % 2;
    in.rsp_out_ready = rng() % 2;
    a.in = in;
    a.mem.drive(a.in);
    const InnetEndpointOutputs e1 = a.e.eval(a.in);
    const InnetEndpointOutputs e2 = a.e.eval(a.in);
    a.e.step(a.in, a.out);
    ASSERT_TRUE(outputs_equal<InnetEndpointBlock>(a.e.params(), e1, e2)) << "cycle " << c;
    ASSERT_TRUE(outputs_equal<InnetEndpointBlock>(a.e.params(), e1, a.out)) << "cycle " << c;
    a.mem.after(a.in, a.out);
  }
}


// The TLM-2.0 path decodes the pages as the APB port does.
TEST(InnetEndpoint, RegistersThroughTheTlmPathByPage) {
  Rig r;
  uint32_t v = 0;
  EXPECT_EQ(r.e.tlm_read(T3_INNET_ENDPOINT_EP_WINDOW_BASE + T3_EP_WINDOW_A_PARAM_A, v), RegStatus::ok);
  EXPECT_NE(v, 0u);
  EXPECT_EQ(r.e.tlm_write(T3_INNET_ENDPOINT_EP_TX_BASE + 0x4, 1), RegStatus::ok);  // INTR_ENABLE
  EXPECT_EQ(r.e.tlm_read(T3_INNET_ENDPOINT_EP_TX_BASE + 0x4, v), RegStatus::ok);
  EXPECT_EQ(v, 1u);
  EXPECT_EQ(r.e.tlm_read(T3_INNET_ENDPOINT_EP_RX_BASE + 0x4, v), RegStatus::ok);
  EXPECT_EQ(v, 0u) << "another block's register";
  EXPECT_EQ(r.e.tlm_read(12u << 12, v), RegStatus::address_error);
  EXPECT_EQ(r.e.tlm_write(15u << 12, 1), RegStatus::address_error);
}

// The path of a PUSH request of one flit (the cycle table in
// docs/blocks/innet_endpoint.md): the command taken, the DMA credit
// controller's descriptor taken by ep_tx, ep_tx's read on its memory port
// granted onto a lane, the memory's answer LAT cycles later, the packet's
// header and data flit on req_out. Cycles count from the command's.
TEST(InnetEndpoint, CycleTableOfAPushRequest) {
  Rig r;
  const unsigned fb = r.e.params().flit_bytes();
  Wide d;
  d.w[0] = 0x1234;
  r.mem.mem().write(0x100 * fb, d);
  r.in.req_out_ready = true;
  r.in.cmd_valid = true;
  r.in.cmd_local_addr = 0x100 * fb;
  r.in.cmd_net_addr = 0x4000;
  r.in.cmd_len = 1;
  r.in.cmd_dtype = 2;
  r.in.cmd_src = 2;
  r.in.cmd_dst = 1;
  int cmd = -1, lane = -1, ans = -1, hdr = -1, data = -1;
  for (int c = 0; c < 40; ++c) {
    r.mem.drive(r.in);
    r.e.step(r.in, r.out);
    if (r.in.cmd_valid && r.out.cmd_ready && cmd < 0) cmd = c;
    if (r.out.mem_valid && lane < 0) lane = c;
    if (r.in.ans_valid && ans < 0) ans = c;
    if (r.out.req_out_valid && hdr < 0) hdr = c;
    else if (r.out.req_out_valid && hdr >= 0 && data < 0) {
      data = c;
      EXPECT_EQ(r.out.req_out_flit.w[0], 0x1234u);
    }
    r.mem.after(r.in, r.out);
    if (cmd >= 0) r.in.cmd_valid = false;
  }
  ASSERT_EQ(cmd, 0);
  EXPECT_EQ(hdr, 5) << "the packet's header on req_out";
  EXPECT_EQ(lane, 5) << "ep_tx's read on a lane";
  EXPECT_EQ(ans, 9) << "the memory's answer (latency 4)";
  EXPECT_EQ(data, 10) << "the data flit on req_out";
}

}  // namespace
}  // namespace t3
