// mcr_table core and block unit tests: the parameters' ranges, every region
// command's answer, the routing of every opcode in and out of a region, every
// drop cause, the documented cycle table (docs/blocks/mcr_table.md), the
// throughput of the two packet slots, round robin between the ports owed, a
// reset in the middle of a packet, and the block through its registers.
#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "apb_master.h"
#include "common/packet.h"
#include "mcr_table/mcr_table.h"
#include "t3/mcr_table_regs.h"

namespace t3 {
namespace {

using mcr::Cmd;
using mcr::Drop;
using pkt::Op;

pkt::Header header(Op op, uint64_t addr, unsigned len = 1, unsigned dst = 0) {
  pkt::Header h;
  h.op = uint8_t(op);
  h.addr = addr;
  h.len = uint8_t(len);
  h.dst = uint8_t(dst);
  h.src = 0x5A;
  h.count = 1;
  h.ctr = 0x77;
  return h;
}

Wide data_flit(uint64_t seed) {
  Wide w;
  for (unsigned i = 0; i < Wide::kWords; ++i) w.w[i] = seed * 0x9E3779B97F4A7C15ull + i;
  return w;
}

// The core on its own, a flit queue per class in front of it and the flits
// it sends collected per class.
struct Rig {
  explicit Rig(McrTableParams p = McrTableParams{}) : p(p), core(p) {
    in.rst_n = false;
    core.step(in);
    in.rst_n = true;
    in.req_out_ready = in.rsp_out_ready = low_mask(p.ports + 1);
  }

  // Queues a packet (header and data flits) from an ingress port.
  void send(unsigned k, const pkt::Header& h, unsigned port, unsigned data = ~0u) {
    q[k].push_back({pkt::pack(h), port, true});
    const unsigned n = data != ~0u ? data : pkt::wire_flits(h) - 1;
    for (unsigned i = 0; i < n; ++i) q[k].push_back({data_flit(seq++), port, false});
  }
  // A region command on the staged fields; its answer.
  Cmd command(const McrRegionStage& s, bool add = true, bool remove = false) {
    in.rgn = s;
    in.cmd_add = add;
    in.cmd_remove = remove;
    cycle();  // the pulse: checked
    in.cmd_add = in.cmd_remove = false;
    const McrTableCoreOutputs o = cycle();  // answered; the table changes at this edge
    const Cmd c = Cmd(core.eval(in).cmd_code);
    EXPECT_EQ(o.refused, c != Cmd::ok);
    return c;
  }
  Cmd add(uint64_t base, uint64_t size, uint32_t ports, unsigned idx = 0, unsigned home = 0,
          bool root = false, unsigned dtype = 0, unsigned expect = 3) {
    McrRegionStage s;
    s.idx = idx;
    s.base = base;
    s.size = size;
    s.ports = ports;
    s.home = home;
    s.root = root;
    s.dtype = dtype;
    s.expect = expect;
    return command(s);
  }

  // One cycle: the queues' head flits offered, the outputs collected.
  McrTableCoreOutputs cycle() {
    in.req_in_valid = !q[0].empty();
    in.rsp_in_valid = !q[1].empty();
    if (!q[0].empty()) {
      in.req_in_flit = q[0].front().f;
      in.req_in_port = q[0].front().port;
    }
    if (!q[1].empty()) {
      in.rsp_in_flit = q[1].front().f;
      in.rsp_in_port = q[1].front().port;
    }
    const McrTableCoreOutputs o = core.step(in);
    const bool took[2] = {in.req_in_valid && o.req_in_ready, in.rsp_in_valid && o.rsp_in_ready};
    const bool v[2] = {o.req_out_valid, o.rsp_out_valid};
    const unsigned port[2] = {o.req_out_port, o.rsp_out_port};
    const uint64_t ready[2] = {in.req_out_ready, in.rsp_out_ready};
    const Wide* flit[2] = {&o.req_out_flit, &o.rsp_out_flit};
    for (unsigned k = 0; k < 2; ++k) {
      took_hdr[k] = took[k] && q[k].front().hdr;
      took_any[k] = took[k];
      if (took[k]) q[k].pop_front();
      sent_hdr[k] = false;
      if (v[k] && ((ready[k] >> port[k]) & 1)) {
        sent_hdr[k] = out_left[k] == 0;
        out_left[k] = sent_hdr[k] ? pkt::wire_flits(pkt::unpack(*flit[k])) - 1 : out_left[k] - 1;
        out[k].push_back({*flit[k], port[k], sent_hdr[k]});
      }
    }
    last = o;
    return o;
  }
  void run(unsigned n) {
    for (unsigned i = 0; i < n; ++i) cycle();
  }
  // Runs until both queues are empty and nothing comes out for a few cycles.
  void drain() {
    unsigned quiet = 0;
    for (unsigned i = 0; i < 10000 && quiet < 4; ++i) {
      const size_t before = out[0].size() + out[1].size();
      cycle();
      quiet = q[0].empty() && q[1].empty() && out[0].size() + out[1].size() == before ? quiet + 1 : 0;
    }
  }
  // The ports the copies of class k went to, in order.
  std::vector<unsigned> copy_ports(unsigned k) const {
    std::vector<unsigned> v;
    for (size_t i = 0; i < out[k].size();) {
      const pkt::Header h = pkt::unpack(out[k][i].f);
      v.push_back(out[k][i].port);
      i += pkt::wire_flits(h);
    }
    return v;
  }

  struct Flit {
    Wide f;
    unsigned port;
    bool hdr;
  };
  bool took_hdr[2] = {}, took_any[2] = {}, sent_hdr[2] = {};
  unsigned out_left[2] = {};
  McrTableParams p;
  McrTableCore core;
  McrTableCoreInputs in;
  std::deque<Flit> q[2];
  std::vector<Flit> out[2];
  McrTableCoreOutputs last;
  uint64_t seq = 1;
};

constexpr uint64_t kBase = 0x10000, kSize = 0x1000;

TEST(McrTableParams, OutOfRangeNamesTheParameter) {
  struct Bad {
    unsigned McrTableParams::*field;
    unsigned value;
    const char* text;
  };
  const Bad bad[] = {
      {&McrTableParams::flit_w, 64, "flit_w (FLIT_W) = 64 is out of range; allowed: a power of two from 128 to 512"},
      {&McrTableParams::flit_w, 192, "flit_w (FLIT_W) = 192"},
      {&McrTableParams::flit_w, 1024, "flit_w (FLIT_W) = 1024"},
      {&McrTableParams::ports, 1, "ports (PORTS) = 1 is out of range; allowed: 2..32"},
      {&McrTableParams::ports, 33, "ports (PORTS) = 33"},
      {&McrTableParams::regions, 0, "regions (REGIONS) = 0 is out of range; allowed: 1..64"},
      {&McrTableParams::regions, 65, "regions (REGIONS) = 65"},
      {&McrTableParams::max_len, 0, "max_len (MAX_LEN) = 0 is out of range; allowed: 1..16"},
      {&McrTableParams::max_len, 17, "max_len (MAX_LEN) = 17"},
      {&McrTableParams::stat_w, 0, "stat_w (STAT_W) = 0"},
      {&McrTableParams::stat_w, 33, "stat_w (STAT_W) = 33"},
  };
  for (const Bad& b : bad) {
    McrTableParams p;
    p.*b.field = b.value;
    try {
      McrTableCore core(p);
      ADD_FAILURE() << b.text << " accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(b.text), std::string::npos) << e.what();
    }
  }
  McrTableParams edge;
  edge.flit_w = 512;
  edge.ports = 32;
  edge.regions = 64;
  edge.max_len = 16;
  edge.stat_w = 1;
  EXPECT_NO_THROW(McrTableCore{edge});
}

// Each refusal next to the same command with that one field fixed; a refused
// command changes nothing (the entry reads back as before).
TEST(McrTableCore, EveryCommandCodeAndItsNeighbour) {
  Rig r;
  McrRegionStage good;
  good.idx = 1;
  good.base = kBase;
  good.size = kSize;
  good.ports = 0b1110;
  good.expect = 3;
  good.home = 2;
  good.dtype = 2;
  struct Case {
    const char* what;
    void (*edit)(McrRegionStage&);
    Cmd want;
  };
  const Case cases[] = {
      {"index at REGIONS", [](McrRegionStage& s) { s.idx = 8; }, Cmd::idx_range},
      {"index 63", [](McrRegionStage& s) { s.idx = 63; }, Cmd::idx_range},
      {"size 0", [](McrRegionStage& s) { s.size = 0; }, Cmd::size},
      {"size 3 x 2^k", [](McrRegionStage& s) { s.size = 0x3000; }, Cmd::size},
      {"size 2^48 + 2^47", [](McrRegionStage& s) { s.size = (uint64_t{3} << 47); }, Cmd::size},
      {"base misaligned", [](McrRegionStage& s) { s.base = kBase + 0x800; }, Cmd::base_align},
      {"no port", [](McrRegionStage& s) { s.ports = 0; }, Cmd::ports_empty},
      {"port PORTS", [](McrRegionStage& s) { s.ports |= 1u << 8; }, Cmd::ports_range},
      {"port 31 only", [](McrRegionStage& s) { s.ports = 1u << 31; }, Cmd::ports_range},
      {"home PORTS", [](McrRegionStage& s) { s.home = 8; }, Cmd::home_range},
      {"home 255", [](McrRegionStage& s) { s.home = 255; }, Cmd::home_range},
      {"expect 0", [](McrRegionStage& s) { s.expect = 0; }, Cmd::expect_zero},
      {"red_op 1", [](McrRegionStage& s) { s.red_op = 1; }, Cmd::red_op},
      {"dtype 3", [](McrRegionStage& s) { s.dtype = 3; }, Cmd::dtype},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    McrRegionStage s = good;
    c.edit(s);
    const uint64_t refused = r.core.eval(r.in).stat_refused;
    const Cmd got = r.command(s);
    EXPECT_EQ(got, c.want) << mcr::name(got);
    EXPECT_EQ(r.core.eval(r.in).stat_refused, refused + 1) << "counted";
    EXPECT_FALSE(r.core.region(1).valid) << "a refused command changes nothing";
  }
  EXPECT_EQ(r.command(good), Cmd::ok);
  const McrRegionRead rd = r.core.region(1);
  EXPECT_TRUE(rd.valid);
  EXPECT_EQ(rd.base, kBase);
  EXPECT_EQ(rd.size, kSize);
  EXPECT_EQ(rd.ports, 0b1110u);
  EXPECT_EQ(rd.expect, 3u);
  EXPECT_EQ(rd.home, 2u);
  EXPECT_EQ(rd.dtype, 2u);
  EXPECT_EQ(r.core.eval(r.in).count, 1u);
  EXPECT_EQ(r.command(good), Cmd::idx_busy) << "ADD to an entry in use";
  // Overlap: inside, around, the same; touching neighbours do not overlap.
  McrRegionStage o = good;
  o.idx = 2;
  for (auto [base, size] : {std::pair<uint64_t, uint64_t>{kBase + 0x800, 0x800}, {0, 0x100000},
                            {kBase, kSize}, {kBase + kSize - 0x10, 0x10}}) {
    o.base = base;
    o.size = size;
    EXPECT_EQ(r.command(o), Cmd::overlap) << std::hex << base << " " << size;
  }
  for (auto [base, size] : {std::pair<uint64_t, uint64_t>{kBase - 0x10, 0x10}, {kBase + kSize, kSize}}) {
    o.base = base;
    o.size = size;
    EXPECT_EQ(r.command(o), Cmd::ok) << std::hex << base << " " << size;
    EXPECT_EQ(r.command(o, false, true), Cmd::ok) << "removed again";
  }
  // The whole address space: 2^48 at base 0 overlaps everything.
  o.base = 0;
  o.size = uint64_t{1} << 48;
  EXPECT_EQ(r.command(o), Cmd::overlap);
  EXPECT_EQ(r.command(o, true, true), Cmd::both);
  EXPECT_EQ(r.command(o, false, true), Cmd::idx_empty);
  o.idx = 1;
  EXPECT_EQ(r.command(o, false, true), Cmd::ok);
  o.idx = 2;
  EXPECT_EQ(r.command(o), Cmd::ok) << "alone now";
  EXPECT_EQ(r.core.region(2).size, uint64_t{1} << 48);
  EXPECT_EQ(r.core.eval(r.in).count, 1u);
}

// The routing rules of docs/blocks/mcr_table.md: every opcode in a region
// and outside of every region, with the stamped header of its copies.
TEST(McrTableCore, RoutingOfEveryOpcode) {
  struct Case {
    Op op;
    bool in_region, root;
    unsigned in_port, dst;
    std::vector<unsigned> ports;  // round robin from port 0 after reset
  };
  // Region 3: ports 1, 2, 5; home 5.
  const std::vector<Case> cases = {
      {Op::write, true, false, 2, 0, {1, 5}},
      {Op::write, true, false, 8, 0, {1, 2, 5}},   // from the reduction unit: every participant
      {Op::write, true, false, 7, 0, {1, 2, 5}},   // from a port that does not take part
      {Op::read, true, false, 2, 6, {2}},          // to the local GPU's memory
      {Op::push, true, false, 1, 0, {5}},          // towards the root
      {Op::push, true, true, 1, 0, {8}},           // this switch reduces
      {Op::pull, true, false, 1, 0, {2, 5, 8}},    // participants and the reduction unit
      {Op::ack, true, false, 1, 4, {4}},           // unicast by dst
      {Op::read_rsp, true, false, 1, 6, {6}},
      {Op::pull_rsp, true, false, 2, 0, {8}},
      {Op::pull_rsp, true, false, 8, 6, {6}},      // reduced: to its requester by dst
      {Op::result, true, false, 8, 0, {1, 2, 5}},
      {Op::result, true, false, 5, 0, {1, 2}},
      {Op::partial, true, false, 8, 0, {5}},
      {Op::write, false, false, 2, 7, {7}},
      {Op::read, false, false, 2, 0, {0}},
      {Op::push, false, true, 2, 3, {3}},
      {Op::pull, false, false, 2, 1, {1}},
      {Op::result, false, false, 2, 2, {2}},
      {Op::partial, false, false, 2, 6, {6}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(std::to_string(unsigned(c.op)) + (c.in_region ? " in region" : " outside"));
    Rig r;
    ASSERT_EQ(r.add(0, kSize, 0b100110, 2), Cmd::ok);  // region 2 below region 3
    ASSERT_EQ(r.add(kBase, kSize, 0b100110, 3, 5, c.root, 1, 4), Cmd::ok);
    const unsigned k = unsigned(pkt::vc_of(uint8_t(c.op)));
    pkt::Header h = header(c.op, c.in_region ? kBase + kSize - 16 : kBase + kSize, 2, c.dst);
    h.dtype = 1;
    r.send(k, h, c.in_port);
    r.drain();
    EXPECT_EQ(r.copy_ports(k), c.ports);
    EXPECT_TRUE(r.out[1 - k].empty());
    const unsigned flits = pkt::wire_flits(h);
    ASSERT_EQ(r.out[k].size(), flits * c.ports.size());
    pkt::Header want = h;
    if (c.in_region) {
      want.rgn = 3;
      want.expect = 4;
      want.home = 5;
      want.hit = true;
    }
    for (size_t i = 0; i < r.out[k].size(); i += flits) {
      EXPECT_EQ(pkt::unpack(r.out[k][i].f), want);
      for (unsigned j = 1; j < flits; ++j) {
        Wide want = data_flit(j);
        want.truncate(r.p.flit_w);  // the pins carry FLIT_W bits
        EXPECT_EQ(r.out[k][i + j].f, want) << "data flit " << j;
      }
    }
    const McrTableCoreOutputs o = r.core.eval(r.in);
    EXPECT_EQ(o.stat_mcast, c.in_region ? 1u : 0u);
    EXPECT_EQ(o.stat_miss, c.in_region ? 0u : 1u);
    EXPECT_EQ(o.stat_copies, c.ports.size());
  }
}

// Every drop cause: the packet is taken whole (its data flits too), nothing
// is sent, the status and counters say why; the next packet goes through.
TEST(McrTableCore, EveryDropCause) {
  struct Case {
    Drop why;
    unsigned k;
    pkt::Header h;
    unsigned port, flits;  // data flits on the wire after the header
  };
  auto h = [](Op op, uint64_t addr, unsigned len, unsigned dst = 0) { return header(op, addr, len, dst); };
  pkt::Header unknown = h(Op::write, kBase, 9);
  unknown.op = 0x7;
  pkt::Header none = h(Op::write, kBase, 3);
  none.op = 0;
  pkt::Header red = h(Op::push, kBase, 2);
  red.red_op = 2;
  pkt::Header dt = h(Op::push, kBase, 2);
  dt.dtype = 3;
  pkt::Header rdt = h(Op::push, kBase, 2);
  rdt.dtype = 2;  // the region's is fp16
  pkt::Header rdt_out = rdt;
  rdt_out.addr = kBase + kSize;  // outside every region: no region to disagree with
  rdt_out.dst = 1;
  const std::vector<Case> cases = {
      {Drop::unknown_op, 0, unknown, 0, 9},
      {Drop::unknown_op, 1, none, 0, 3},
      {Drop::bad_len, 0, h(Op::write, kBase, 5), 0, 5},
      {Drop::bad_len, 0, h(Op::read, kBase, 0), 0, 0},
      {Drop::bad_red_op, 0, red, 0, 2},
      {Drop::bad_dtype, 0, dt, 0, 2},
      {Drop::misaligned, 0, h(Op::write, kBase + 8, 1), 0, 1},
      {Drop::wrong_class, 0, h(Op::ack, kBase, 1), 0, 0},
      {Drop::wrong_class, 1, h(Op::write, kBase, 2), 0, 2},
      {Drop::bad_port, 0, h(Op::write, kBase, 1), 9, 1},
      {Drop::bad_port, 0, h(Op::write, kBase, 1), 15, 1},
      {Drop::rgn_dtype, 0, rdt, 1, 2},
      {Drop::no_route, 0, h(Op::write, kBase + kSize, 2, 8), 0, 2},
      {Drop::no_route, 1, h(Op::ack, kBase, 1, 200), 3, 0},
      {Drop::no_dest, 0, h(Op::write, kBase + 0x100, 1), 1, 1},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(mcr::name(c.why));
    Rig r;
    ASSERT_EQ(r.add(kBase, 0x100, 0b10), Cmd::ok);  // region 0: port 1 only
    ASSERT_EQ(r.add(kBase + 0x100, 0x100, 0b10, 1), Cmd::ok);
    ASSERT_EQ(r.add(kBase + 0x200, 0x100, 0b110, 2), Cmd::ok);
    pkt::Header hh = c.h;
    if (c.why == Drop::no_dest) hh.addr = kBase + 0x100;
    r.send(c.k, hh, c.port, c.flits);
    // A good packet after it: taken as a header, so the drop took exactly
    // the dropped packet's flits.
    r.send(c.k, header(c.k ? Op::ack : Op::write, kBase + kSize, 1, 4), 0);
    bool seen_event = false;
    for (int i = 0; i < 40; ++i) {
      r.cycle();
      seen_event |= mcr::malformed(c.why) ? r.last.malformed : r.last.noroute;
    }
    EXPECT_TRUE(seen_event);
    EXPECT_EQ(r.copy_ports(c.k), std::vector<unsigned>{4}) << "only the good packet came out";
    const McrTableCoreOutputs o = r.core.eval(r.in);
    EXPECT_EQ(o.drop_cause, unsigned(c.why));
    EXPECT_EQ(o.drop_class, c.k == 1);
    EXPECT_EQ(o.drop_port, c.port);
    EXPECT_EQ(o.stat_malformed, mcr::malformed(c.why) ? 1u : 0u);
    EXPECT_EQ(o.stat_noroute, mcr::no_route(c.why) ? 1u : 0u);
    EXPECT_EQ(o.stat_miss, 1u);
    EXPECT_EQ(o.stat_mcast, 0u);
  }
  // outside every region a reduction opcode's dtype is not checked
  Rig r;
  ASSERT_EQ(r.add(kBase, 0x100, 0b10), Cmd::ok);
  r.send(0, rdt_out, 0);
  r.drain();
  EXPECT_EQ(r.copy_ports(0), std::vector<unsigned>{1});
}

// The cycle table of docs/blocks/mcr_table.md ("Timing"): a WRITE of two data
// flits to a region of ports 1, 2 and 3 from port 1, port 2 blocked for a
// while, then a READ into the same region from port 1. Per cycle: the intake
// (h header, d data flit, - none), then the output: port and flit (H header,
// D data) or "." when nothing moves, "s" a replication stall.
TEST(McrTableCore, TheDocumentedCycleTable) {
  Rig r;
  ASSERT_EQ(r.add(kBase, kSize, 0b1110), Cmd::ok);
  r.send(0, header(Op::write, kBase, 2), 1);
  r.send(0, header(Op::read, kBase + 0x40, 2), 1);
  const std::vector<std::string> want = {
      "h .", "d .", "d .", "h 3H", "- 3D", "- 3D", "- s", "- 2H", "- 2D", "- 2D", "- 1H", "- .",
  };
  std::vector<std::string> got;
  for (size_t c = 0; c < want.size(); ++c) {
    // Port 2 ready from cycle 7 on; every other port always.
    r.in.req_out_ready = c < 7 ? 0b111111011 : 0b111111111;
    const McrTableCoreOutputs o = r.cycle();
    std::string s = !r.took_any[0] ? "-" : (r.took_hdr[0] ? "h" : "d");
    if (o.req_out_valid) {
      s += " " + std::to_string(o.req_out_port) + (r.sent_hdr[0] ? "H" : "D");
    } else {
      s += r.core.eval(r.in).stat_stall != o.stat_stall ? " s" : " .";
    }
    got.push_back(s);
  }
  EXPECT_EQ(got, want);
  EXPECT_EQ(r.last.stat_copies, 3u) << "the READ's copy counted at cycle 10's edge";
  EXPECT_EQ(r.core.eval(r.in).stat_stall, 1u);
}

// SLOTS = 3: unicast packets of L data flits (and header-only ones) flow at
// one flit a cycle in and out; a packet leaves in the cycle after its last
// flit, two cycles after its header at the earliest (the lookup, then its
// fate).
TEST(McrTableCore, BackToBackUnicastAtOneFlitACycle) {
  for (unsigned len : {0u, 1u, 4u}) {
    SCOPED_TRACE(len);
    Rig r;
    const unsigned n = 20;
    for (unsigned i = 0; i < n; ++i)
      r.send(0, header(len ? Op::write : Op::read, kBase + 64 * i, len ? len : 1, i % 8), 0);
    unsigned first_out = 0, cycles = 0;
    while (r.out[0].size() < n * (len + 1) && cycles < 1000) {
      r.cycle();
      ++cycles;
      if (r.out[0].size() == 1 && !first_out) first_out = cycles;
      if (cycles > 1 && !r.q[0].empty()) {
        ASSERT_TRUE(r.last.req_in_ready) << "cycle " << cycles;
      }
    }
    EXPECT_EQ(first_out, len + 2 + (len == 0))
        << "out in the cycle after the last flit, two after the header at the earliest";
    EXPECT_EQ(cycles, first_out + n * (len + 1) - 1) << "then one flit a cycle";
  }
}

// SLOTS = 2: header-only packets at two in three cycles (a slot is held for
// the header's cycle, its fate's and its copy's); packets with data still
// at one flit a cycle.
TEST(McrTableCore, TwoSlotsHeaderOnlyAtTwoInThree) {
  McrTableParams p;
  p.slots = 2;
  for (unsigned len : {0u, 2u}) {
    SCOPED_TRACE(len);
    Rig r(p);
    const unsigned n = 30;
    for (unsigned i = 0; i < n; ++i)
      r.send(0, header(len ? Op::write : Op::read, kBase + 64 * i, len ? len : 1, 1), 0);
    unsigned cycles = 0;
    while (r.out[0].size() < n * (len + 1) && cycles < 1000) {
      r.cycle();
      ++cycles;
    }
    if (len) {
      EXPECT_EQ(cycles, n * (len + 1) + len + 1);
    } else {
      EXPECT_EQ(cycles, 3 * n / 2 + 1);
    }
  }
}

// A dropped packet keeps its place: the packet behind it waits until it is
// retired at the head (one cycle, nothing sent); the drop shows in STATUS
// and the counters from the cycle after its header (its fate's edge).
TEST(McrTableCore, ADroppedPacketIsRetiredInOrder) {
  Rig r;
  r.send(0, header(Op::write, kBase, 2, 8), 0);  // no route: dst = PORTS
  r.send(0, header(Op::write, kBase + 64, 1, 3), 0);
  std::string got;
  for (int c = 0; c < 8; ++c) {
    const McrTableCoreOutputs o = r.cycle();
    got += o.req_out_valid ? char('0' + o.req_out_port) : (o.noroute ? 'x' : '.');
  }
  // 0: its header; 1: its fate (no route: the event), a data flit; 2: the
  // last, all in; 3: the drop retired, the next header; 4: its fate, its
  // data flit, all in; 5, 6: its copy to port 3.
  EXPECT_EQ(got, ".x...33.");
  EXPECT_EQ(r.core.eval(r.in).stat_noroute, 1u);
  EXPECT_EQ(r.core.eval(r.in).drop_cause, unsigned(Drop::no_route));
}

// A multicast to every other port with each port's ready toggling: every
// copy arrives whole on its port, round robin after the last port served;
// a port blocked for good holds back only its own copy.
TEST(McrTableCore, RoundRobinAndABlockedPortHoldsOnlyItsCopy) {
  Rig r;
  ASSERT_EQ(r.add(kBase, kSize, 0xFF), Cmd::ok);
  r.send(0, header(Op::write, kBase, 1), 0);
  r.send(0, header(Op::write, kBase, 1), 0);
  r.in.req_out_ready = 0x1FF & ~(1u << 4);  // port 4 blocked
  r.run(40);
  const std::vector<unsigned> got = r.copy_ports(0);
  // First packet: 1, 2, 3, 5, 6, 7 (4 blocked); the second waits for the
  // first's last copy (sequential injection, in order).
  EXPECT_EQ(got, (std::vector<unsigned>{1, 2, 3, 5, 6, 7}));
  EXPECT_GT(r.last.stat_stall, 20u);
  r.in.req_out_ready = 0x1FF;
  r.run(30);
  EXPECT_EQ(r.copy_ports(0), (std::vector<unsigned>{1, 2, 3, 5, 6, 7, 4, 5, 6, 7, 1, 2, 3, 4}))
      << "round robin after the last port served (4), then the next packet from 5";
}

// Reset in the middle of a packet: everything in flight is gone, the table
// is empty, the counters are 0; traffic after it works.
TEST(McrTableCore, ResetInTheMiddleOfAPacket) {
  Rig r;
  ASSERT_EQ(r.add(kBase, kSize, 0b110), Cmd::ok);
  r.send(0, header(Op::write, kBase, 4), 1);
  r.run(3);
  r.in.rst_n = false;
  const McrTableCoreOutputs o = r.cycle();
  EXPECT_FALSE(o.req_in_ready) << "nothing taken in a reset cycle";
  r.in.rst_n = true;
  r.q[0].clear();
  EXPECT_EQ(r.core.eval(r.in).count, 0u);
  EXPECT_EQ(r.core.eval(r.in).stat_mcast, 0u);
  r.send(0, header(Op::write, kBase, 1, 3), 1);
  r.drain();
  EXPECT_EQ(r.copy_ports(0), std::vector<unsigned>{3}) << "a miss now: unicast by dst";
}

// Responses go on while the request class is stalled (separate paths).
TEST(McrTableCore, AStalledRequestClassDoesNotBlockResponses) {
  Rig r;
  r.in.req_out_ready = 0;
  for (int i = 0; i < 4; ++i) r.send(0, header(Op::write, kBase, 1, 2), 0);
  for (int i = 0; i < 4; ++i) r.send(1, header(Op::ack, kBase, 1, 3), 0);
  r.run(30);
  EXPECT_TRUE(r.out[0].empty());
  EXPECT_EQ(r.copy_ports(1), (std::vector<unsigned>{3, 3, 3, 3}));
  EXPECT_FALSE(r.last.req_in_ready) << "the request slots full";
}

// The block: a region programmed through the registers (the staging window
// and RGN_CMD), read back, a refusal in STATUS, PARAM_* the build.
TEST(McrTableBlock, ARegionThroughTheRegisters) {
  McrTable b{McrTableParams{}};
  McrTableInputs in;
  in.rst_n = false;
  b.step(in);
  in.rst_n = true;
  auto w = [&](uint32_t a, uint32_t v) { EXPECT_EQ(b.tlm_write(a, v), RegStatus::ok) << std::hex << a; };
  auto rd = [&](uint32_t a) {
    uint32_t v = 0;
    EXPECT_EQ(b.tlm_read(a, v), RegStatus::ok) << std::hex << a;
    return v;
  };
  w(T3_MCR_TABLE_A_RGN_IDX, 5);
  w(T3_MCR_TABLE_A_RGN_BASE_LO, 0);
  w(T3_MCR_TABLE_A_RGN_BASE_HI, 0x12);
  w(T3_MCR_TABLE_A_RGN_SIZE_LO, 0);
  w(T3_MCR_TABLE_A_RGN_SIZE_HI, 0x1);  // 4 GiB
  w(T3_MCR_TABLE_A_RGN_PORTS, 0x0F);
  w(T3_MCR_TABLE_A_RGN_ATTR, 4 | 3 << 8 | 1 << 16 | 1 << 24);
  w(T3_MCR_TABLE_A_RGN_CMD, T3_MCR_TABLE_R_RGN_CMD_ADD_MASK);
  b.step(in);  // the command's pulse: checked
  b.step(in);  // answered, the table written
  EXPECT_EQ(rd(T3_MCR_TABLE_A_STATUS) & T3_MCR_TABLE_R_STATUS_CMD_CODE_MASK, 0u);
  EXPECT_EQ(rd(T3_MCR_TABLE_A_STATUS) >> T3_MCR_TABLE_R_STATUS_COUNT_SHIFT, 1u);
  EXPECT_EQ(rd(T3_MCR_TABLE_A_RGN_RD_BASE_LO), 0u);
  EXPECT_EQ(rd(T3_MCR_TABLE_A_RGN_RD_BASE_HI), 0x12u);
  EXPECT_EQ(rd(T3_MCR_TABLE_A_RGN_RD_SIZE_LO), 0u);
  EXPECT_EQ(rd(T3_MCR_TABLE_A_RGN_RD_SIZE_HI), 1u);
  EXPECT_EQ(rd(T3_MCR_TABLE_A_RGN_RD_PORTS), 0x0Fu);
  EXPECT_EQ(rd(T3_MCR_TABLE_A_RGN_RD_ATTR), 4u | 3 << 8 | 1 << 16 | 1 << 24 | 1u << 31);
  // The same again: entry in use.
  w(T3_MCR_TABLE_A_RGN_CMD, T3_MCR_TABLE_R_RGN_CMD_ADD_MASK);
  b.step(in);
  b.step(in);
  EXPECT_EQ(rd(T3_MCR_TABLE_A_STATUS) & T3_MCR_TABLE_R_STATUS_CMD_CODE_MASK, unsigned(Cmd::idx_busy));
  EXPECT_EQ(rd(T3_MCR_TABLE_A_STAT_REFUSED), 1u);
  EXPECT_EQ(rd(T3_MCR_TABLE_A_INTR_STATE), T3_MCR_TABLE_R_INTR_STATE_REFUSED_MASK);
  w(T3_MCR_TABLE_A_RGN_IDX, 6);
  EXPECT_EQ(rd(T3_MCR_TABLE_A_RGN_RD_ATTR), 0u) << "an empty entry reads 0";
  EXPECT_EQ(rd(T3_MCR_TABLE_A_PARAM_SIZE), 8u | 8u << 8 | 4u << 16 | 3u << 24);
  EXPECT_EQ(rd(T3_MCR_TABLE_A_PARAM_WIDTHS), 128u | 32u << 16);
}


// The block as hw/mcr_table/mcr_table_eval.h runs it (the core on the pins
// where they are) against the generic RegBlock of hw/common/reg_block.h: the
// same outputs, register port and interrupt included, in every cycle of
// random flits, readies and register traffic (regions added and removed),
// resets among them; and its step() (the kernel-free engine's and the
// benchmark's) the same again.
struct GenericGlue : McrTableGlue {};

TEST(McrTableBlock, SameAsTheGenericRegBlock) {
  McrTableParams p;
  p.ports = 5;
  p.regions = 3;
  p.max_len = 3;
  p.slots = 2;
  McrTable fast(p), stepped(p);
  RegBlock<GenericGlue> generic(p);
  std::mt19937_64 rng(7);
  auto same = [](const McrTableOutputs& x, const McrTableOutputs& y) {
    return x.req_in_ready == y.req_in_ready && x.req_out_valid == y.req_out_valid &&
           x.req_out_port == y.req_out_port && x.req_out_flit == y.req_out_flit &&
           x.rsp_in_ready == y.rsp_in_ready && x.rsp_out_valid == y.rsp_out_valid &&
           x.rsp_out_port == y.rsp_out_port && x.rsp_out_flit == y.rsp_out_flit &&
           x.stat_mcast == y.stat_mcast && x.stat_miss == y.stat_miss && x.stat_copies == y.stat_copies &&
           x.stat_stall == y.stat_stall && x.stat_refused == y.stat_refused &&
           x.stat_malformed == y.stat_malformed && x.stat_noroute == y.stat_noroute && x.intr == y.intr &&
           x.apb.prdata == y.apb.prdata && x.apb.pready == y.apb.pready && x.apb.pslverr == y.apb.pslverr;
  };
  // Register traffic: a write or a read every few cycles, setup then access.
  const uint32_t regs[] = {T3_MCR_TABLE_A_RGN_IDX,   T3_MCR_TABLE_A_RGN_BASE_LO, T3_MCR_TABLE_A_RGN_SIZE_LO,
                           T3_MCR_TABLE_A_RGN_PORTS, T3_MCR_TABLE_A_RGN_ATTR,    T3_MCR_TABLE_A_RGN_CMD,
                           T3_MCR_TABLE_A_STATUS,    T3_MCR_TABLE_A_INTR_ENABLE, T3_MCR_TABLE_A_INTR_STATE,
                           T3_MCR_TABLE_A_RGN_RD_ATTR};
  tb::ApbMaster apb;
  McrTableInputs in;
  unsigned hits = 0, copies = 0, accesses = 0;
  for (int c = 0; c < 60000; ++c) {
    in.rst_n = c >= 2 && rng() % 8000 != 0;
    if (apb.idle() && rng() % 4 == 0) {
      tb::ApbTransfer t;
      t.write = rng() % 2;
      t.addr = regs[rng() % 10];
      const uint32_t v = uint32_t(rng());
      switch (t.addr) {
        case T3_MCR_TABLE_A_RGN_IDX: t.data = v % 4; break;
        case T3_MCR_TABLE_A_RGN_BASE_LO: t.data = (v % 4) * 0x1000; break;
        case T3_MCR_TABLE_A_RGN_SIZE_LO: t.data = v % 8 ? 0x1000 : v; break;
        case T3_MCR_TABLE_A_RGN_ATTR: t.data = v & 0x3000107; break;
        case T3_MCR_TABLE_A_RGN_CMD: t.data = v % 3 ? 1 : 2; break;
        default: t.data = v; break;
      }
      apb.push(t);
    }
    apb.drive(in.apb, in.rst_n);
    for (unsigned k = 0; k < 2; ++k) {
      bool& valid = k ? in.rsp_in_valid : in.req_in_valid;
      Wide& flit = k ? in.rsp_in_flit : in.req_in_flit;
      valid = rng() % 3 != 0;
      pkt::Header h;
      const unsigned ops[2][4] = {{1, 2, 3, 4}, {8, 9, 11, 12}};
      h.op = uint8_t(rng() % 16 ? ops[k][rng() % 4] : rng() % 16);
      h.len = uint8_t(rng() % 4);
      h.dst = uint8_t(rng() % 7);
      h.dtype = uint8_t(rng() % 3);
      h.addr = (rng() % 0x5000) & ~uint64_t{15};
      flit = pkt::pack(h);
      for (unsigned w = 2; w < 4; ++w) flit.w[w] = rng();  // 256 bits a flit
      (k ? in.rsp_in_port : in.req_in_port) = uint32_t(rng() % 8);
      (k ? in.rsp_out_ready : in.req_out_ready) = rng() & 0x3F;
    }
    const McrTableOutputs a = fast.eval(in), b = generic.eval(in);
    ASSERT_TRUE(same(a, b)) << "eval, cycle " << c;
    McrTableOutputs o;
    stepped.step(in, o);
    ASSERT_TRUE(same(o, b)) << "step, cycle " << c;
    fast.clock(in);
    generic.clock(in);
    if (in.rst_n && apb.after(in.apb, b.apb)) ++accesses;
    hits += a.req_out_valid && ((in.req_out_ready >> a.req_out_port) & 1);
    copies = a.stat_copies;
  }
  EXPECT_GT(hits, 1000u);
  EXPECT_GT(accesses, 5000u);
  (void)copies;
}

}  // namespace
}  // namespace t3
