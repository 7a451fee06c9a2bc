// Unit tests of the in-network switch's cycle model (no SystemC, no RTL):
// its parameters, the path of one packet from an ingress to an egress (the
// cycle table in docs/blocks/innet_switch.md), a PUSH from every port
// reduced to one RESULT at every port, and eval() against step().
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "innet_switch/innet_switch.h"
#include "innet_switch/innet_switch_pins.h"
#include "t3/innet_switch_map.h"
#include "t3/mcr_table_regs.h"

namespace t3 {
namespace {

std::string message(const InnetSwitchParams& p) {
  try {
    p.validate();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no error";
}

TEST(InnetSwitchParams, EveryRangeAndTheQueuesHoldAPacket) {
  InnetSwitchParams p;
  EXPECT_EQ(message(p), "no error");
  p.ports = 17;
  EXPECT_NE(message(p).find("PORTS"), std::string::npos) << message(p);
  EXPECT_NE(message(p).find("2..16"), std::string::npos) << message(p);
  p = InnetSwitchParams{};
  p.flit_w = 512;
  EXPECT_NE(message(p).find("FLIT_W"), std::string::npos) << message(p);
  p = InnetSwitchParams{};
  p.in_depth = p.max_len;  // one flit short of a whole packet
  EXPECT_NE(message(p).find("in_depth (IN_DEPTH) = 4"), std::string::npos) << message(p);
  EXPECT_NE(message(p).find("5..64 (a whole packet: 1 + MAX_LEN)"), std::string::npos) << message(p);
  p = InnetSwitchParams{};
  p.out_depth = 3;
  EXPECT_NE(message(p).find("OUT_DEPTH"), std::string::npos) << message(p);
  p = InnetSwitchParams{};
  p.entries = 1;  // the reduction table's own check, by its name
  EXPECT_NE(message(p).find("ENTRIES"), std::string::npos) << message(p);
  EXPECT_THROW(InnetSwitch{p}, std::invalid_argument);
}

// One cycle of the model, its outputs.
struct Rig {
  explicit Rig(const InnetSwitchParams& p = InnetSwitchParams{}) : s(p), p(p) {
    in.rst_n = false;
    step();
    step();
    in.rst_n = true;
    in.req_out_ready = in.rsp_out_ready = uint32_t(low_mask(p.ports));
  }
  const InnetSwitchOutputs& step() {
    s.step(in, out);
    return out;
  }
  InnetSwitch s;
  InnetSwitchParams p;
  InnetSwitchInputs in;
  InnetSwitchOutputs out;
};

pkt::Header header(pkt::Op op, uint64_t addr, unsigned len, unsigned src, unsigned dst) {
  pkt::Header h;
  h.op = uint8_t(op);
  h.addr = addr;
  h.len = uint8_t(len);
  h.src = uint8_t(src);
  h.dst = uint8_t(dst);
  h.count = 1;
  h.dtype = 2;
  return h;
}

// docs/blocks/innet_switch.md, "Timing": a WRITE of two data flits from
// port 0 to port 3, outside every region, nothing else going on. Cycle 0:
// its header on the pins of port 0.
TEST(InnetSwitchCycleTable, OneWriteFromPort0ToPort3) {
  Rig r;
  const pkt::Header h = header(pkt::Op::write, 0x1000, 2, 0, 3);
  std::vector<Wide> flits = {pkt::pack(h), Wide{}, Wide{}};
  flits[1].w[0] = 0xD0;
  flits[2].w[0] = 0xD1;
  std::vector<int> in_at, out_at;  // the cycle each flit went in, came out
  std::vector<unsigned> iq, eq;     // the queues' flits after each cycle's edge
  std::vector<Wide> out_flits;
  for (int c = 0; c < 30; ++c) {
    const unsigned i = unsigned(in_at.size());
    r.in.req_in_valid = i < flits.size() ? 1u : 0u;
    set_bus_flit(r.in.req_in_flit, 0, r.p.flit_w, i < flits.size() ? flits[i] : Wide{});
    const InnetSwitchOutputs& o = r.step();
    if ((r.in.req_in_valid & o.req_in_ready) & 1) in_at.push_back(c);
    if ((o.req_out_valid >> 3) & 1) {
      out_at.push_back(c);
      out_flits.push_back(bus_flit(o.req_out_flit, 3, r.p.flit_w));
    }
    EXPECT_EQ(o.req_out_valid & ~(1u << 3), 0u) << "only port 3 gives, cycle " << c;
    if (c < 10) {
      iq.push_back(r.s.ingress_count(0, 0));
      eq.push_back(r.s.egress_count(0, 3));
    }
  }
  // The table's queue rows: ingress 0 holds 1..3 flits after cycles 0..2
  // and gives one a cycle into mcr_in in cycles 3..5; mcr_in's copy enters
  // egress 3 in cycles 6..8, each flit leaving the cycle after.
  EXPECT_EQ(iq, (std::vector<unsigned>{1, 2, 3, 2, 1, 0, 0, 0, 0, 0}));
  EXPECT_EQ(eq, (std::vector<unsigned>{0, 0, 0, 0, 0, 0, 1, 1, 1, 0}));
  ASSERT_EQ(in_at, (std::vector<int>{0, 1, 2}));
  // The packet is all in the ingress queue after cycle 2; granted and taken
  // into mcr_in in cycles 3 to 5; mcr_in's copy (store and forward: from the
  // cycle after its last flit) into the egress queue in cycles 6 to 8; out of
  // port 3 in cycles 7 to 9.
  ASSERT_EQ(out_at, (std::vector<int>{7, 8, 9}));
  pkt::Header got = pkt::unpack(out_flits[0]);
  EXPECT_EQ(got, h);
  EXPECT_EQ(out_flits[1].w[0], 0xD0u);
  EXPECT_EQ(out_flits[2].w[0], 0xD1u);
}

// A region rooted here: a PUSH from every port, one RESULT to every port
// with the sum, from the model alone (the registers written through its
// TLM side, as a fabric manager's host would).
TEST(InnetSwitch, APushFromEveryPortIsOneResultAtEveryPort) {
  InnetSwitchParams p;
  p.ports = 4;
  Rig r(p);
  auto w = [&](uint32_t base, uint32_t a, uint32_t d) { ASSERT_EQ(r.s.tlm_write(base + a, d), RegStatus::ok); };
  for (uint32_t base : {T3_INNET_SWITCH_MCR_IN_BASE, T3_INNET_SWITCH_MCR_OUT_BASE}) {
    w(base, T3_MCR_TABLE_A_RGN_IDX, 0);
    w(base, T3_MCR_TABLE_A_RGN_BASE_LO, 0x10000);
    w(base, T3_MCR_TABLE_A_RGN_SIZE_LO, 0x1000);
    w(base, T3_MCR_TABLE_A_RGN_PORTS, 0xF);
    w(base, T3_MCR_TABLE_A_RGN_ATTR, 4u << T3_MCR_TABLE_R_RGN_ATTR_EXPECT_SHIFT |
                                         1u << T3_MCR_TABLE_R_RGN_ATTR_ROOT_SHIFT |
                                         2u << T3_MCR_TABLE_R_RGN_ATTR_DTYPE_SHIFT);
    w(base, T3_MCR_TABLE_A_RGN_CMD, T3_MCR_TABLE_R_RGN_CMD_ADD_MASK);
  }
  r.step();
  // Port q contributes q + 1 in every fp32 lane: the sum is 10.
  std::vector<std::vector<Wide>> pkts(4);
  for (unsigned q = 0; q < 4; ++q) {
    Wide d;
    const float v = float(q + 1);
    uint32_t b;
    std::memcpy(&b, &v, 4);
    for (unsigned l = 0; l < 4; ++l) d.set_lane(32 * l, 32, b);
    pkts[q] = {pkt::pack(header(pkt::Op::push, 0x10040, 1, q, 0)), d};
  }
  std::vector<unsigned> sent(4, 0);
  std::vector<std::vector<Wide>> got(4);
  for (int c = 0; c < 100; ++c) {
    r.in.req_in_valid = 0;
    for (unsigned q = 0; q < 4; ++q)
      if (sent[q] < 2) {
        r.in.req_in_valid |= 1u << q;
        set_bus_flit(r.in.req_in_flit, q, p.flit_w, pkts[q][sent[q]]);
      }
    const InnetSwitchInputs seen = r.in;
    const InnetSwitchOutputs& o = r.step();
    for (unsigned q = 0; q < 4; ++q) {
      if ((seen.req_in_valid & o.req_in_ready) >> q & 1) ++sent[q];
      if (o.rsp_out_valid >> q & 1) got[q].push_back(bus_flit(o.rsp_out_flit, q, p.flit_w));
    }
  }
  const float ten = 10.0f;
  uint32_t tb;
  std::memcpy(&tb, &ten, 4);
  for (unsigned q = 0; q < 4; ++q) {
    ASSERT_EQ(got[q].size(), 2u) << "port " << q << ": one RESULT of one data flit";
    const pkt::Header h = pkt::unpack(got[q][0]);
    EXPECT_EQ(h.op, uint8_t(pkt::Op::result));
    EXPECT_EQ(h.count, 4u);
    for (unsigned l = 0; l < 4; ++l) EXPECT_EQ(got[q][1].lane(32 * l, 32), tb) << "lane " << l;
  }
}

// The outputs whose pins differ between two output structs.
struct OutputDiff {
  const InnetSwitchOutputs& x;
  const InnetSwitchOutputs& y;
  std::string diff;
  template <class F, class P>
  void in(const PinInfo&, F, P) {}
  template <class F, class P>
  void out(const PinInfo& pin, F f, P) {
    if (!(f(x) == f(y))) diff += std::string(pin.name) + " ";
  }
};

// eval() (the SystemC module's path) gives what step() gives, every output,
// on random traffic of every kind at the packed pins.
TEST(InnetSwitch, EvalGivesStepsOutputs) {
  InnetSwitchParams p;
  p.ports = 3;
  p.max_len = 2;
  p.in_depth = p.out_depth = 3;
  InnetSwitch a(p), b(p);
  std::mt19937_64 rng(5);
  InnetSwitchInputs in;
  for (int c = 0; c < 20000; ++c) {
    in.rst_n = c > 1 && rng() % 1000 != 0;
    for (unsigned k = 0; k < 2; ++k) {
      (k ? in.rsp_in_valid : in.req_in_valid) = uint32_t(rng() & 7);
      (k ? in.rsp_out_ready : in.req_out_ready) = uint32_t(rng() & 7);
      SwitchBus& bus = k ? in.rsp_in_flit : in.req_in_flit;
      for (unsigned q = 0; q < 3; ++q) {
        pkt::Header h = header(pkt::Op(k ? 8 + rng() % 5 : 1 + rng() % 4), 0x40 * (rng() % 8),
                               1 + rng() % 2, q, rng() % 3);
        set_bus_flit(bus, q, p.flit_w, rng() % 2 ? pkt::pack(h) : Wide{});
      }
    }
    const InnetSwitchOutputs e = a.eval(in);
    a.clock(in);
    InnetSwitchOutputs s;
    b.step(in, s);
    OutputDiff cmp{e, s, ""};
    InnetSwitchBlock::pins(p, cmp);
    ASSERT_EQ(cmp.diff, "") << "cycle " << c;
  }
}

}  // namespace
}  // namespace t3
