// Multicast region table co-simulation tests: directed cases for every rule
// and corner, then constrained-random traffic (mcr_table_stimulus.h) with
// random register traffic. Every output of the C++ model is compared with
// the Verilated RTL in every cycle (the binary fails at the end if any cycle
// mismatched), and the transaction-level scoreboard (mcr_table_scoreboard.h)
// checks the RTL's outputs, the register port's answers and the interrupt.
// Regions are programmed through the registers, as firmware writes them.
// Run on either engine: --engine systemc (default) or --engine direct.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "apb_access.h"
#include "common/packet.h"
#include "cosim_config.h"
#include "mcr_table_scoreboard.h"
#include "mcr_table_stimulus.h"
#include "reg_traffic.h"
#include "t3/mcr_table_regs.h"
#include "test_cosim.h"

namespace t3::tb {
namespace {

using pkt::Op;

Cosim<McrTableBlock>& the_cosim() { return shared_cosim<McrTableBlock>(); }
const McrTableParams& params() { return the_cosim().params(); }
uint64_t all_ready() { return low_mask(params().ports + 1); }
unsigned unit() { return params().ports; }
uint64_t fbytes() { return params().flit_w / 8; }

pkt::Header header(Op op, uint64_t addr, unsigned len = 1, unsigned dst = 0) {
  pkt::Header h;
  h.op = uint8_t(op);
  h.addr = addr;
  h.len = uint8_t(len);
  h.dst = uint8_t(dst);
  h.src = 0x3C;
  h.count = 1;
  h.ctr = 0x11;
  return h;
}

// A copy as it came out: its port and its flits.
struct Copy {
  unsigned port;
  pkt::Header h;
  std::vector<Wide> data;
};

// The co-simulation with the scoreboard attached: a flit queue per class in
// front of the block, the copies collected per class, register accesses
// through the APB port.
class Bench : public ApbAccess<Bench> {
  friend class ApbAccess<Bench>;

 public:
  Bench() : c_(the_cosim()) {
    c_.in() = McrTableInputs{};
    EXPECT_TRUE(c_.reset(2)) << c_.first_mismatch();
    sb_ = std::make_unique<McrTableScoreboard>(params());
    c_.in().rst_n = true;
    c_.in().req_out_ready = c_.in().rsp_out_ready = all_ready();
  }
  McrTableInputs& in() { return c_.in(); }
  const McrTableOutputs& out() const { return c_.out(); }
  McrTableScoreboard& sb() { return *sb_; }
  ApbMaster& apb() { return apb_; }
  Cosim<McrTableBlock>& cosim() { return c_; }
  // The register port is driven by the random stimulus, or by this bench.
  void apb_elsewhere(bool elsewhere) { own_apb_ = !elsewhere; }

  void send(unsigned k, const pkt::Header& h, unsigned port, unsigned data = ~0u) {
    q_[k].push_back({pkt::pack(h), port});
    const unsigned n = data != ~0u ? data : pkt::wire_flits(h) - 1;
    for (unsigned i = 0; i < n; ++i) {
      Wide w;
      for (unsigned j = 0; j < Wide::kWords; ++j) w.w[j] = (seq_ * 0x9E3779B97F4A7C15ull) ^ (uint64_t{j} << 56);
      ++seq_;
      q_[k].push_back({w, port});
    }
  }

  const McrTableOutputs& cycle() {
    McrTableInputs& in = c_.in();
    if (own_apb_) {
      for (unsigned k = 0; k < 2; ++k) {
        (k ? in.rsp_in_valid : in.req_in_valid) = !q_[k].empty();
        if (!q_[k].empty()) {
          (k ? in.rsp_in_flit : in.req_in_flit) = q_[k].front().f;
          (k ? in.rsp_in_port : in.req_in_port) = q_[k].front().port;
        }
      }
      apb_.drive(in.apb, in.rst_n);
    }
    const McrTableInputs seen = in;
    EXPECT_TRUE(c_.cycle()) << c_.first_mismatch();
    const McrTableOutputs& o = c_.out();
    if (auto err = sb_->observe(seen, o)) ADD_FAILURE() << "cycle " << c_.cycles() - 1 << ": " << *err;
    if (own_apb_) {
      if (seen.req_in_valid && o.req_in_ready) q_[0].pop_front();
      if (seen.rsp_in_valid && o.rsp_in_ready) q_[1].pop_front();
      if (auto d = apb_.after(seen.apb, o.apb)) apb_completed(*d);
    }
    if (own_apb_) {
      collect(0, seen.rst_n, o.req_out_valid, seen.req_out_ready, o.req_out_port, o.req_out_flit);
      collect(1, seen.rst_n, o.rsp_out_valid, seen.rsp_out_ready, o.rsp_out_port, o.rsp_out_flit);
    }
    return o;
  }
  // Reset for a few cycles in the middle of whatever is going on: the flits
  // still queued and a copy half collected are gone.
  void restart(unsigned cycles = 2) {
    c_.in().rst_n = false;
    for (unsigned i = 0; i < cycles; ++i) cycle();
    c_.in().rst_n = true;
    for (unsigned k = 0; k < 2; ++k) {
      q_[k].clear();
      copies_[k].clear();
      left_[k] = 0;
    }
  }
  void apb_idle_cycle() { cycle(); }
  void idle(unsigned n) {
    for (unsigned i = 0; i < n; ++i) cycle();
  }
  void drain(unsigned limit = 5000) {
    in().req_out_ready = in().rsp_out_ready = all_ready();
    for (unsigned i = 0; i < limit && !(q_[0].empty() && q_[1].empty() && sb_->idle()); ++i) cycle();
    EXPECT_TRUE(sb_->idle()) << "traffic did not drain";
    idle(2);
  }

  // A region command through the registers; its STATUS.CMD_CODE.
  unsigned command(const McrRegion& r, bool add = true, bool remove = false) {
    for (const ApbTransfer& t : region_writes(r, add, remove)) EXPECT_FALSE(access(t).err);
    cycle();  // the pulse's cycle
    return (read_reg(T3_MCR_TABLE_A_STATUS) & T3_MCR_TABLE_R_STATUS_CMD_CODE_MASK) >>
           T3_MCR_TABLE_R_STATUS_CMD_CODE_SHIFT;
  }
  unsigned add(unsigned idx, uint64_t base, uint64_t size, uint32_t ports, unsigned home = 0,
               bool root = false, unsigned dtype = 0, unsigned expect = 2) {
    McrRegion r;
    r.idx = idx;
    r.base = base;
    r.size = size;
    r.ports = ports;
    r.home = home;
    r.root = root;
    r.dtype = dtype;
    r.expect = expect;
    return command(r);
  }
  uint32_t status() { return read_reg(T3_MCR_TABLE_A_STATUS); }

  std::vector<Copy>& copies(unsigned k) { return copies_[k]; }
  std::vector<unsigned> ports(unsigned k) const {
    std::vector<unsigned> v;
    for (const Copy& c : copies_[k]) v.push_back(c.port);
    return v;
  }

 private:
  void collect(unsigned k, bool rst_n, bool valid, uint64_t ready, unsigned port, const Wide& flit) {
    if (!rst_n || !valid || !((ready >> port) & 1)) return;
    if (left_[k] == 0) {
      copies_[k].push_back({port, pkt::unpack(flit), {}});
      left_[k] = pkt::wire_flits(copies_[k].back().h) - 1;
    } else {
      copies_[k].back().data.push_back(flit);
      --left_[k];
    }
  }

  struct Flit {
    Wide f;
    unsigned port;
  };
  Cosim<McrTableBlock>& c_;
  std::unique_ptr<McrTableScoreboard> sb_;
  ApbMaster apb_;
  bool own_apb_ = true;
  std::deque<Flit> q_[2];
  std::vector<Copy> copies_[2];
  unsigned left_[2] = {0, 0};
  uint64_t seq_ = 1;
};

constexpr uint64_t kBase = 0x40000, kSize = 0x1000;
uint32_t some_ports() { return uint32_t(0b10110 & low_mask(params().ports)); }  // 1, 2, 4

// What firmware finds after reset; the PARAM_* registers describe the
// build; refused accesses change nothing.
TEST(McrTableCosim, RegistersAfterResetAndTheBuild) {
  const McrTableParams& p = params();
  Bench b;
  EXPECT_EQ(b.status(), 0u);
  EXPECT_EQ(b.read_reg(T3_MCR_TABLE_A_PARAM_SIZE), p.ports | p.regions << 8 | p.max_len << 16 | p.slots << 24);
  EXPECT_EQ(b.read_reg(T3_MCR_TABLE_A_PARAM_WIDTHS), p.flit_w | p.stat_w << 16);
  EXPECT_EQ(b.read_reg(T3_MCR_TABLE_A_RGN_RD_ATTR), 0u);
  EXPECT_TRUE(b.write_reg(T3_MCR_TABLE_A_RGN_PORTS, ~0u));
  EXPECT_EQ(b.read_reg(T3_MCR_TABLE_A_RGN_PORTS), ~0u);
  EXPECT_TRUE(b.write_reg(T3_MCR_TABLE_A_RGN_SIZE_HI, ~0u));
  EXPECT_EQ(b.read_reg(T3_MCR_TABLE_A_RGN_SIZE_HI), 0x1FFFFu) << "17 bits";
  EXPECT_FALSE(b.write_reg(T3_MCR_TABLE_A_STATUS, 1)) << "read-only";
  EXPECT_FALSE(b.write_reg(T3_MCR_TABLE_A_STAT_COPIES, 1)) << "read-only";
  EXPECT_TRUE(b.access({true, T3_MCR_TABLE_A_RGN_IDX, 1, 0x3}).err) << "partial write";
  EXPECT_TRUE(b.access({false, 0xFFC, 0, 0}).err) << "no register";
  EXPECT_EQ(b.read_reg(T3_MCR_TABLE_A_RGN_CMD), 0u) << "W1P reads 0";
  EXPECT_EQ(b.sb().regs().counts().read_only_errors, 2u);
}

// Every command code through the registers, STATUS and the read-back, the
// REFUSED interrupt and STAT_REFUSED; a refused command changes nothing.
TEST(McrTableCosim, EveryCommandCodeThroughTheRegisters) {
  const McrTableParams& p = params();
  Bench b;
  EXPECT_TRUE(b.write_reg(T3_MCR_TABLE_A_INTR_ENABLE, T3_MCR_TABLE_R_INTR_ENABLE_REFUSED_MASK));
  McrRegion good;
  good.idx = p.regions - 1;
  good.base = kBase;
  good.size = kSize;
  good.ports = some_ports();
  good.expect = 3;
  good.home = 1;
  good.dtype = 1;
  struct Case {
    unsigned code;
    McrRegion r;
    bool add, remove;
  };
  std::vector<Case> cases;
  auto bad = [&](unsigned code, auto edit, bool add = true, bool remove = false) {
    McrRegion r = good;
    edit(r);
    cases.push_back({code, r, add, remove});
  };
  if (p.regions < 64) {
    bad(1, [&](McrRegion& r) { r.idx = p.regions; });
    bad(1, [&](McrRegion& r) { r.idx = 63; });
  }
  bad(3, [](McrRegion&) {}, false, true);
  bad(4, [](McrRegion& r) { r.size = 0; });
  bad(4, [](McrRegion& r) { r.size = 0x1800; });
  bad(4, [](McrRegion& r) { r.size = (uint64_t{1} << 48) | 1; });
  bad(5, [](McrRegion& r) { r.base = kBase + kSize / 2; });
  bad(6, [](McrRegion& r) { r.ports = 0; });
  if (p.ports < 32) bad(7, [&](McrRegion& r) { r.ports |= 1u << p.ports; });
  bad(8, [&](McrRegion& r) { r.home = p.ports; });
  bad(9, [](McrRegion& r) { r.expect = 0; });
  bad(10, [](McrRegion& r) { r.red_op = 3; });
  bad(11, [](McrRegion& r) { r.dtype = 3; });
  bad(13, [](McrRegion&) {}, true, true);
  uint32_t refused = 0;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.code);
    EXPECT_EQ(b.command(c.r, c.add, c.remove), c.code);
    ++refused;
    EXPECT_EQ(b.read_reg(T3_MCR_TABLE_A_STAT_REFUSED), refused & low_mask(p.stat_w));
    EXPECT_TRUE(b.out().intr);
    EXPECT_TRUE(b.write_reg(T3_MCR_TABLE_A_INTR_STATE, T3_MCR_TABLE_R_INTR_STATE_REFUSED_MASK));
    b.idle(1);
    EXPECT_FALSE(b.out().intr);
    EXPECT_TRUE(b.write_reg(T3_MCR_TABLE_A_RGN_IDX, good.idx));
    EXPECT_EQ(b.read_reg(T3_MCR_TABLE_A_RGN_RD_ATTR), 0u) << "nothing added";
  }
  EXPECT_EQ(b.command(good), 0u);
  EXPECT_FALSE(b.out().intr);
  EXPECT_EQ(b.read_reg(T3_MCR_TABLE_A_RGN_RD_BASE_LO), uint32_t(kBase));
  EXPECT_EQ(b.read_reg(T3_MCR_TABLE_A_RGN_RD_SIZE_LO), uint32_t(kSize));
  EXPECT_EQ(b.read_reg(T3_MCR_TABLE_A_RGN_RD_PORTS), some_ports());
  EXPECT_EQ(b.read_reg(T3_MCR_TABLE_A_RGN_RD_ATTR), 3u | 1u << 8 | 1u << 24 | 1u << 31);
  EXPECT_EQ(b.command(good), 2u) << "the entry is in use";
  McrRegion o = good;
  o.idx = 0;
  o.base = kBase + kSize - fbytes();
  o.size = fbytes();
  if (p.regions > 1) {
    EXPECT_EQ(b.command(o), 12u) << "inside the region";
    o.base = kBase + kSize;
    EXPECT_EQ(b.command(o), 0u) << "next to it";
  }
  EXPECT_EQ((b.status() & T3_MCR_TABLE_R_STATUS_COUNT_MASK) >> T3_MCR_TABLE_R_STATUS_COUNT_SHIFT,
            p.regions > 1 ? 2u : 1u);
  EXPECT_EQ(b.command(good, false, true), 0u) << "removed";
  EXPECT_EQ(b.read_reg(T3_MCR_TABLE_A_RGN_RD_ATTR), 0u);
}

// The routing rules, every opcode in a region and outside one, through the
// RTL: the ports each packet's copies go to (the scoreboard checks their
// flits and timing).
TEST(McrTableCosim, RoutingOfEveryOpcode) {
  const McrTableParams& p = params();
  Bench b;
  const uint32_t ports = some_ports();  // 1, 2, 4 (1, 2 at PORTS = 2)
  ASSERT_EQ(b.add(0, kBase, kSize, ports, 1, false, 1), 0u);
  if (p.regions > 1) {
    ASSERT_EQ(b.add(1, kBase + kSize, kSize, ports, 0, true, 2), 0u);
  }
  struct Case {
    Op op;
    uint64_t addr;
    unsigned in_port, dst;
    uint64_t want;  // the ports, as a mask
    unsigned dtype;
  };
  const uint64_t u = uint64_t{1} << unit();
  const uint64_t out = kBase + 4 * kSize;
  std::vector<Case> cases = {
      {Op::write, kBase, 1, 0, ports & ~2u, 0},       {Op::write, kBase, unit(), 0, ports, 0},
      {Op::read, kBase, 0, 1, 1, 0},                  {Op::push, kBase, 0, 1, 2, 1},
      {Op::pull, kBase, 2, 1, (ports & ~4u) | u, 1},  {Op::ack, kBase, 0, 1, 2, 0},
      {Op::read_rsp, kBase, 0, 0, 1, 0},              {Op::pull_rsp, kBase, 1, 0, u, 1},
      {Op::result, kBase, unit(), 0, ports, 1},       {Op::partial, kBase, unit(), 0, 2, 1},
      {Op::write, out, 0, 1, 2, 0},                   {Op::pull, out, 0, 0, 1, 2},
      {Op::result, out, 0, 1, 2, 1},                  {Op::pull_rsp, kBase, unit(), 1, 2, 1},
  };
  if (p.regions > 1) cases.push_back({Op::push, kBase + kSize, 1, 0, u, 2});  // the root reduces
  for (const Case& c : cases) {
    SCOPED_TRACE(std::to_string(unsigned(c.op)) + " from " + std::to_string(c.in_port));
    const unsigned k = unsigned(pkt::vc_of(uint8_t(c.op)));
    pkt::Header h = header(c.op, c.addr, std::min(2u, p.max_len), c.dst);
    h.dtype = uint8_t(c.dtype);
    b.copies(k).clear();
    b.send(k, h, c.in_port);
    b.drain();
    uint64_t got = 0;
    for (const Copy& cp : b.copies(k)) got |= uint64_t{1} << cp.port;
    EXPECT_EQ(got, c.want);
    EXPECT_EQ(b.copies(k).size(), size_t(__builtin_popcountll(c.want))) << "one copy per port";
  }
}

// Every drop cause through the RTL: STATUS.DROP_* and the counters; the
// packet after it goes through (the drop took exactly its flits).
TEST(McrTableCosim, EveryDropCause) {
  const McrTableParams& p = params();
  Bench b;
  ASSERT_EQ(b.add(0, kBase, kSize, 0b10, 0, false, 1), 0u);  // port 1 only, bf16
  EXPECT_TRUE(b.write_reg(T3_MCR_TABLE_A_INTR_ENABLE, T3_MCR_TABLE_R_INTR_ENABLE_MALFORMED_MASK |
                                                          T3_MCR_TABLE_R_INTR_ENABLE_NOROUTE_MASK));
  struct Case {
    unsigned why, k;
    pkt::Header h;
    unsigned port;
  };
  std::vector<Case> cases;
  pkt::Header h = header(Op::write, kBase, 1);
  h.op = 0xE;
  h.len = 200;
  cases.push_back({1, 0, h, 0});
  cases.push_back({2, 1, header(Op::read_rsp, kBase, p.max_len + 1, 2), 0});
  h = header(Op::pull, kBase, 1);
  h.red_op = 1;
  cases.push_back({3, 0, h, 0});
  h = header(Op::result, kBase, 1);
  h.dtype = 3;
  cases.push_back({4, 1, h, 0});
  cases.push_back({5, 0, header(Op::write, kBase + fbytes() / 2, 1), 0});
  cases.push_back({6, 1, header(Op::write, kBase, 1), 0});
  if (low_mask(p.port_w()) > p.ports) cases.push_back({7, 0, header(Op::write, kBase, 1), p.ports + 1});
  h = header(Op::push, kBase, 1);
  h.dtype = 2;
  cases.push_back({8, 0, h, 0});
  cases.push_back({9, 0, header(Op::write, kBase + kSize, 1, p.ports), 0});
  cases.push_back({10, 0, header(Op::write, kBase, 1), 1});
  uint32_t bad = 0, lost = 0;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.why);
    b.send(c.k, c.h, c.port);
    b.send(c.k, header(c.k ? Op::ack : Op::read, kBase + kSize, 1, 0), 0);
    b.drain();
    bad += c.why <= 8;
    lost += c.why > 8;
    const uint32_t s = b.status();
    EXPECT_EQ((s & T3_MCR_TABLE_R_STATUS_DROP_CAUSE_MASK) >> T3_MCR_TABLE_R_STATUS_DROP_CAUSE_SHIFT, c.why);
    EXPECT_EQ((s & T3_MCR_TABLE_R_STATUS_DROP_CLASS_MASK) != 0, c.k == 1);
    EXPECT_EQ((s & T3_MCR_TABLE_R_STATUS_DROP_PORT_MASK) >> T3_MCR_TABLE_R_STATUS_DROP_PORT_SHIFT, c.port);
    EXPECT_EQ(b.out().stat_malformed, bad & low_mask(p.stat_w));
    EXPECT_EQ(b.out().stat_noroute, lost & low_mask(p.stat_w));
    EXPECT_TRUE(b.out().intr);
    EXPECT_TRUE(b.write_reg(T3_MCR_TABLE_A_INTR_STATE, T3_MCR_TABLE_R_INTR_STATE_MALFORMED_MASK |
                                                           T3_MCR_TABLE_R_INTR_STATE_NOROUTE_MASK));
  }
  EXPECT_EQ(b.copies(0).size() + b.copies(1).size(), cases.size()) << "only the good packets";
}

// The cycle table of docs/blocks/mcr_table.md (McrTableCore.TheDocumentedCycleTable)
// on both models: a WRITE of two data flits to ports 1, 2, 3 from port 1,
// port 2 blocked until cycle 7, then a READ from port 1.
TEST(McrTableCosim, TheDocumentedCycleTable) {
  const McrTableParams& p = params();
  if (p.ports < 4 || p.max_len < 2) GTEST_SKIP() << "the table needs 4 ports and 2 data flits";
  Bench b;
  ASSERT_EQ(b.add(0, kBase, kSize, 0b1110), 0u);
  b.send(0, header(Op::write, kBase, 2), 1);
  b.send(0, header(Op::read, kBase + 4 * fbytes(), 2), 1);
  const char* want[] = {".", ".", ".", "3", "3", "3", ".", "2", "2", "2", "1", "."};
  const uint64_t blocked = all_ready() & ~uint64_t{0b100};
  for (int c = 0; c < 12; ++c) {
    b.in().req_out_ready = c < 7 ? blocked : all_ready();
    const McrTableOutputs& o = b.cycle();
    EXPECT_EQ(o.req_out_valid ? std::to_string(o.req_out_port) : std::string("."), want[c]) << "cycle " << c;
  }
  EXPECT_EQ(b.out().stat_stall, 1u);
  b.drain();
}

// A blocked port holds back only its own copy: every other owed port gets
// its copy, then the blocked one once it is ready; meanwhile the other
// class goes on, and the path takes SLOTS packets and then refuses.
TEST(McrTableCosim, ABlockedPortHoldsOnlyItsCopy) {
  const McrTableParams& p = params();
  Bench b;
  const uint32_t all = uint32_t(low_mask(p.ports));
  ASSERT_EQ(b.add(0, kBase, kSize, all), 0u);
  for (unsigned i = 0; i <= p.slots; ++i) b.send(0, header(Op::write, kBase, 1), 0);
  for (int i = 0; i < 3; ++i) b.send(1, header(Op::ack, kBase + kSize, 1, p.ports - 1), 0);
  b.in().req_out_ready = all_ready() & ~uint64_t{2};  // port 1 blocked
  b.idle(60);
  std::vector<unsigned> want;
  for (unsigned port = 2; port < p.ports; ++port) want.push_back(port);
  EXPECT_EQ(b.ports(0), want);
  EXPECT_EQ(b.copies(1).size(), 3u) << "responses are not held back";
  EXPECT_FALSE(b.out().req_in_ready) << "SLOTS packets held";
  EXPECT_EQ(b.sb().held(0), p.slots);
  EXPECT_GE(b.sb().coverage().stall_cycles, 40u);
  b.drain();
  EXPECT_EQ(b.copies(0).size(), (p.slots + 1) * (p.ports - 1));
}

// A packet looks the table up once, in the cycle its header is taken. A
// command is checked in the cycle of its pulse and changes the table at the
// next edge: headers in the pulse's cycle and the next see the table
// before it. A packet held when its region is removed keeps its copies.
TEST(McrTableCosim, TheTableIsReadOnceAtTheHeader) {
  const McrTableParams& p = params();
  Bench b;
  McrRegion r;
  r.idx = 0;
  r.base = kBase;
  r.size = kSize;
  r.ports = 0b110;
  r.expect = 2;
  // Stage the region, then the command write; READs from port 1 (to dst 0)
  // from the pulse's cycle on.
  const std::vector<ApbTransfer> w = region_writes(r, true, false);
  for (size_t i = 0; i + 1 < w.size(); ++i) EXPECT_FALSE(b.access(w[i]).err);
  b.apb().push(w.back());
  b.cycle();  // setup
  b.cycle();  // access: the write's edge
  for (int i = 0; i < 3; ++i) b.send(0, header(Op::read, kBase, 1, 0), 1);
  b.drain();
  ASSERT_EQ(b.copies(0).size(), 3u);
  EXPECT_EQ(b.ports(0), (std::vector<unsigned>{0, 0, 1}))
      << "the pulse's cycle and the next: a miss, by dst; then in the region: the ingress port";
  EXPECT_FALSE(b.copies(0)[1].h.hit);
  EXPECT_TRUE(b.copies(0)[2].h.hit);
  b.copies(0).clear();
  b.send(0, header(Op::write, kBase, 1, 0), 0);
  b.drain();
  EXPECT_EQ(b.ports(0), (std::vector<unsigned>{2, 1})) << "round robin: after port 1, the last served";
  // Held, then removed: its copies still go out.
  b.copies(0).clear();
  b.in().req_out_ready = 0;
  b.send(0, header(Op::write, kBase, std::min(3u, p.max_len), 0), 0);
  b.idle(8);
  EXPECT_EQ(b.command(r, false, true), 0u);
  b.drain();
  EXPECT_EQ(b.ports(0), (std::vector<unsigned>{2, 1}));
}

// Reset in the middle of traffic: nothing is taken or sent in a reset
// cycle, everything in flight is gone, the table and the counters are
// empty; traffic after it works.
TEST(McrTableCosim, ResetInTheMiddleOfTraffic) {
  Bench b;
  ASSERT_EQ(b.add(0, kBase, kSize, 0b110), 0u);
  const unsigned n = params().slots;
  for (unsigned i = 0; i < n; ++i) b.send(0, header(Op::write, kBase, params().max_len), 0);
  b.in().req_out_ready = 0b10;
  b.idle(n * (params().max_len + 1) + 3);
  EXPECT_EQ(b.sb().held(0), n);
  b.restart(1);
  EXPECT_FALSE(b.out().req_in_ready) << "nothing taken in a reset cycle";
  EXPECT_FALSE(b.out().req_out_valid) << "nothing sent in a reset cycle";
  EXPECT_EQ(b.sb().held(0), 0u);
  b.idle(1);
  EXPECT_EQ(b.out().stat_mcast, 0u);
  EXPECT_EQ(b.read_reg(T3_MCR_TABLE_A_RGN_RD_ATTR), 0u);
  EXPECT_EQ(b.status() & T3_MCR_TABLE_R_STATUS_COUNT_MASK, 0u) << "the table is empty";
  b.send(0, header(Op::write, kBase, 1, 3 % params().ports), 0);
  b.drain();
  ASSERT_EQ(b.copies(0).size(), 1u) << "a miss now: unicast by dst";
  EXPECT_EQ(b.copies(0)[0].port, 3 % params().ports);
}

// Interrupts: INTR_TEST sets each, the line follows INTR_ENABLE, a W1C write
// clears; an event and a clear in the same cycle leave it set.
TEST(McrTableCosim, InterruptsSetClearAndTest) {
  Bench b;
  const uint32_t all = T3_MCR_TABLE_R_INTR_STATE_REFUSED_MASK | T3_MCR_TABLE_R_INTR_STATE_MALFORMED_MASK |
                       T3_MCR_TABLE_R_INTR_STATE_NOROUTE_MASK;
  EXPECT_TRUE(b.write_reg(T3_MCR_TABLE_A_INTR_TEST, all));
  b.idle(1);
  EXPECT_EQ(b.read_reg(T3_MCR_TABLE_A_INTR_STATE), all);
  EXPECT_FALSE(b.out().intr);
  EXPECT_TRUE(b.write_reg(T3_MCR_TABLE_A_INTR_ENABLE, T3_MCR_TABLE_R_INTR_ENABLE_NOROUTE_MASK));
  b.idle(1);
  EXPECT_TRUE(b.out().intr);
  EXPECT_TRUE(b.write_reg(T3_MCR_TABLE_A_INTR_STATE, all));
  b.idle(1);
  EXPECT_FALSE(b.out().intr);
  // A no-route drop: the line again.
  b.send(0, header(Op::write, kBase, 1, params().ports), 0);
  b.drain();
  EXPECT_TRUE(b.out().intr);
  EXPECT_EQ(b.read_reg(T3_MCR_TABLE_A_INTR_STATE), T3_MCR_TABLE_R_INTR_STATE_NOROUTE_MASK);
}

// Constrained-random traffic (mcr_table_stimulus.h) with random register
// traffic (reg_traffic.h): reads of every register, refused writes,
// interrupt enables, clears and tests, the staged fields rewritten as they
// are. Asserts its own coverage at the end.
TEST(McrTableCosim, ConstrainedRandom) {
  const RunOptions& opt = test_options();
  const McrTableParams& p = params();
  const uint64_t cycles = opt.cycles ? opt.cycles : T3_RANDOM_CYCLES;
  Bench b;
  b.apb_elsewhere(true);
  McrTableStimulus stim(p, opt.seed);
  RegTraffic<McrTableRegMap> regs(opt.seed ^ 0x5bd1e995u, 0.03);
  bool reg_traffic = true;
  auto run_cycle = [&] {
    if (reg_traffic) regs.maybe_queue(stim.apb(), b.sb().regs());
    stim.drive(b.in());
    b.cycle();
    stim.after(b.in(), b.out());
  };
  const uint64_t report = std::max<uint64_t>(cycles / 4, 1);
  for (uint64_t i = 0; i < cycles && !HasFailure(); ++i) {
    run_cycle();
    if ((i + 1) % report == 0 && i + 1 < cycles)
      std::printf("random: %llu of %llu cycles\n", (unsigned long long)(i + 1), (unsigned long long)cycles);
  }
  stim.stop();
  reg_traffic = false;
  for (unsigned i = 0; i < 100000 && !(stim.idle() && b.sb().idle()) && !HasFailure(); ++i) run_cycle();
  EXPECT_TRUE(stim.idle() && b.sb().idle()) << "traffic did not drain: deadlock";

  const McrCoverage& cv = b.sb().coverage();
  const RegAccessCounts& rc = b.sb().regs().counts();
  auto u = [](uint64_t v) { return static_cast<unsigned long long>(v); };
  std::string ops, drops, cmds, fan;
  for (unsigned op : {0x1, 0x2, 0x3, 0x4, 0x8, 0x9, 0xA, 0xB, 0xC})
    ops += " " + std::to_string(op) + ":" + std::to_string(cv.kept_hit[op]) + "/" + std::to_string(cv.kept_miss[op]);
  for (unsigned d = 1; d <= 10; ++d) drops += " " + std::to_string(cv.drops[d]);
  for (unsigned c = 0; c <= 13; ++c) cmds += " " + std::to_string(cv.cmds[c]);
  for (unsigned n = 1; n <= p.ports; ++n) fan += " " + std::to_string(cv.copies[n]);
  std::printf("random: %llu cycles (seed %llu), %llu phases, %llu resets (%llu with traffic in flight); "
              "packets taken %llu/%llu (req/rsp); by opcode (in a region/outside):%s; drops by cause:%s "
              "(%llu longer than MAX_LEN); commands by code:%s (%llu on a full table); packets by "
              "copies:%s; copies %llu, stall cycles %llu, data flits waiting %llu, headers refused %llu, "
              "around a blocked port %llu; from the reduction unit %llu; at a region's edge %llu; "
              "counter wraps %llu; register reads %llu, writes %llu, refused %llu\n",
              u(cycles), u(opt.seed), u(stim.phases()), u(cv.resets), u(cv.resets_busy), u(b.sb().taken(0)),
              u(b.sb().taken(1)), ops.c_str(), drops.c_str(), u(cv.long_drops), cmds.c_str(),
              u(cv.table_full), fan.c_str(), u(cv.copies_sent), u(cv.stall_cycles), u(cv.mid_copy_waits),
              u(cv.full_refusals), u(cv.rr_skips), u(cv.from_unit), u(cv.region_edges), u(cv.wraps),
              u(rc.reads), u(rc.writes),
              u(rc.address_errors + rc.strobe_errors + rc.read_only_errors));
  EXPECT_EQ(b.cosim().failures(), 0u) << b.cosim().first_failure();
  // Coverage the run must reach (1,000,000 cycles reach it at any seed tried).
  if (cycles >= 500000) {
    for (unsigned op : {0x1, 0x2, 0x3, 0x4, 0x8, 0x9, 0xA, 0xB, 0xC}) {
      EXPECT_GT(cv.kept_hit[op], 0u) << "opcode " << op << " in a region";
      EXPECT_GT(cv.kept_miss[op], 0u) << "opcode " << op << " outside";
    }
    for (unsigned d = 1; d <= 10; ++d)
      if (d != 7 || low_mask(p.port_w()) > p.ports) {
        EXPECT_GT(cv.drops[d], 0u) << "drop cause " << d;
      }
    for (unsigned c = 0; c <= 13; ++c)
      if (c != 7 || p.ports < 32) {
        EXPECT_GT(cv.cmds[c], 0u) << "command code " << c;
      }
    EXPECT_GT(cv.copies[p.ports], 0u) << "a packet to every port";
    EXPECT_GT(cv.long_drops, 0u);
    EXPECT_GT(cv.table_full, 0u);
    EXPECT_GT(cv.resets_busy, 0u);
    EXPECT_GT(cv.stall_cycles, 0u);
    EXPECT_GT(cv.mid_copy_waits, 0u);
    EXPECT_GT(cv.full_refusals, 0u);
    EXPECT_GT(cv.rr_skips, 0u);
    EXPECT_GT(cv.from_unit, 0u);
    EXPECT_GT(cv.region_edges, 0u);
    if (p.stat_w < 12) {
      EXPECT_GT(cv.wraps, 0u);
    }
    EXPECT_GT(rc.reads, 0u);
    EXPECT_GT(rc.read_only_errors, 0u);
  }
}

}  // namespace
}  // namespace t3::tb
