// The in-network switch's co-simulation: the C++ composition of the two
// region tables and the reduction table with the switch's queues, against
// the RTL top, every output of every cycle compared (reset cycles
// included), and the transaction-level scoreboard (innet_switch_scoreboard.h)
// on the RTL's outputs. Regions are programmed into both region tables
// through the APB port, as the fabric manager writes them. Directed cases,
// then constrained-random traffic from every port with bubbles and
// back-pressure. Run on either engine: --engine systemc (default) or
// --engine direct.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "apb_access.h"
#include "common/packet.h"
#include "cosim_config.h"
#include "innet_switch_scoreboard.h"
#include "mcr_region.h"
#include "pkt_stream.h"
#include "t3/innet_switch_map.h"
#include "t3/mcr_table_regs.h"
#include "t3/reduction_table_regs.h"
#include "test_cosim.h"

namespace t3::tb {
namespace {

using pkt::Op;

Cosim<InnetSwitchBlock>& the_cosim() { return shared_cosim<InnetSwitchBlock>(); }
const InnetSwitchParams& params() { return the_cosim().params(); }
unsigned ports() { return params().ports; }
uint32_t all_ports() { return uint32_t(low_mask(ports())); }

constexpr uint64_t kReduce = 0x10000, kMcast = 0x20000, kSize = 0x1000;

// Region 0: every port, reduced here (the root), home port 0. Region 1:
// ports 0 and 2.. (port 1 outside it), home the last port, not reduced here.
std::vector<McrRegion> test_regions() {
  McrRegion r0;
  r0.idx = 0;
  r0.base = kReduce;
  r0.size = kSize;
  r0.ports = all_ports();
  r0.expect = ports();
  r0.home = 0;
  r0.root = true;
  r0.dtype = 2;
  McrRegion r1 = r0;
  r1.idx = 1;
  r1.base = kMcast;
  r1.ports = all_ports() & ~2u;
  r1.expect = ports() - 1;
  r1.home = ports() - 1;
  r1.root = false;
  return {r0, r1};
}

Packet packet(Op op, uint64_t addr, unsigned len, unsigned dst, uint64_t seed) {
  Packet p;
  p.h.op = uint8_t(op);
  p.h.addr = addr;
  p.h.len = uint8_t(len);
  p.h.dst = uint8_t(dst);
  p.h.count = 1;
  p.h.ctr = uint8_t(seed);
  p.h.dtype = 2;
  if (pkt::has_data(p.h.op))
    for (unsigned i = 0; i < len; ++i) {
      Wide w;
      for (unsigned j = 0; j < params().flit_w / 64; ++j) w.w[j] = (seed + i) * 0x9E3779B97F4A7C15ull ^ j;
      p.data.push_back(w);
    }
  return p;
}

// A contribution: fp32 lanes of small integers, whose sums are exact in any order.
Packet contribution(uint64_t addr, unsigned len, std::mt19937_64& rng) {
  Packet p = packet(Op::push, addr, len, 0, 0);
  for (Wide& w : p.data) {
    w = Wide{};
    for (unsigned lsb = 0; lsb < params().flit_w; lsb += 32) {
      const float v = float(int(rng() % 200) - 100);
      uint32_t b;
      std::memcpy(&b, &v, 4);
      w.set_lane(lsb, 32, b);
    }
  }
  return p;
}

class Bench : public ApbAccess<Bench> {
  friend class ApbAccess<Bench>;

 public:
  explicit Bench(uint64_t seed = 1) : c_(the_cosim()), sb_(params()), rng_(seed) {
    for (unsigned k = 0; k < 2; ++k) drv_[k].assign(ports(), PktDriver(params().flit_w));
    c_.in() = InnetSwitchInputs{};
    EXPECT_TRUE(c_.reset(2)) << c_.first_mismatch();
    sb_.reset();
    c_.in().rst_n = true;
  }
  InnetSwitchScoreboard& sb() { return sb_; }
  Cosim<InnetSwitchBlock>& cosim() { return c_; }
  std::mt19937_64& rng() { return rng_; }
  // Bubbles between a port's flits, the probability an egress is not ready,
  // and one port (or none: ports()) whose egress is ready one cycle in ten.
  void traffic_shape(double gap, double stall, unsigned slow = ~0u) {
    gap_ = gap;
    stall_ = stall;
    slow_ = slow;
  }

  void send(unsigned k, unsigned port, Packet p) {
    p.h.src = uint8_t(port);
    drv_[k][port].push(p);
  }
  // Flits as they are, for a packet sent in parts.
  void send_flit(unsigned k, unsigned port, const Wide& f) { drv_[k][port].push_flit(f); }

  // Reset in the middle of whatever goes on (the scoreboard sees the reset
  // cycles: nothing taken or given in them); what was queued is gone, and
  // the registers are at their reset values.
  void restart() {
    c_.in().rst_n = false;
    for (unsigned k = 0; k < 2; ++k)
      for (PktDriver& d : drv_[k]) d.clear();
    apb_.clear();
    for (unsigned i = 0; i < 2; ++i) cycle();
    c_.in().rst_n = true;
    sb_.set_regions({});
  }

  void cycle() {
    InnetSwitchInputs& in = c_.in();
    for (unsigned k = 0; k < 2; ++k) {
      uint32_t valid = 0, ready = 0;
      SwitchBus& bus = k ? in.rsp_in_flit : in.req_in_flit;
      for (unsigned q = 0; q < ports(); ++q) {
        bool v = false;
        Wide f;
        drv_[k][q].drive(v, f, rng_, gap_);
        valid |= uint32_t(v) << q;
        set_bus_flit(bus, q, params().flit_w, f);
        const double stall = q == slow_ ? 0.9 : stall_;
        const bool r = stall <= 0.0 || std::uniform_real_distribution<double>(0, 1)(rng_) >= stall;
        ready |= uint32_t(r) << q;
      }
      (k ? in.rsp_in_valid : in.req_in_valid) = valid;
      (k ? in.rsp_out_ready : in.req_out_ready) = ready;
    }
    apb_.drive(in.apb, in.rst_n);
    const InnetSwitchInputs seen = in;
    EXPECT_TRUE(c_.cycle()) << c_.first_mismatch();
    const InnetSwitchOutputs& o = c_.out();
    if (auto e = sb_.observe(seen, o)) ADD_FAILURE() << "cycle " << c_.cycles() - 1 << ": " << *e;
    for (unsigned k = 0; k < 2; ++k) {
      const uint32_t v = k ? seen.rsp_in_valid : seen.req_in_valid, r = k ? o.rsp_in_ready : o.req_in_ready;
      for (unsigned q = 0; q < ports(); ++q) drv_[k][q].after((v >> q) & 1, (r >> q) & 1);
    }
    if (auto d = apb_.after(seen.apb, o.apb)) apb_completed(*d);
  }
  void apb_idle_cycle() { cycle(); }

  // Both region tables, as the fabric manager programs them.
  void program(const std::vector<McrRegion>& rs) {
    for (const McrRegion& r : rs)
      for (uint32_t base : {T3_INNET_SWITCH_MCR_IN_BASE, T3_INNET_SWITCH_MCR_OUT_BASE})
        for (const ApbTransfer& t : region_writes(r, true, false, base)) EXPECT_FALSE(access(t).err);
    sb_.set_regions(rs);
  }
  // The reduction table's idle timeout, at most what its counters hold.
  void set_timeout(uint32_t cycles) {
    cycles = uint32_t(std::min<uint64_t>(cycles, low_mask(params().timeout_w)));
    EXPECT_TRUE(write_reg(T3_INNET_SWITCH_REDUCTION_TABLE_BASE + T3_REDUCTION_TABLE_A_TIMEOUT, cycles));
  }

  bool drivers_idle() const {
    for (unsigned k = 0; k < 2; ++k)
      for (const PktDriver& d : drv_[k])
        if (!d.idle()) return false;
    return true;
  }
  // Everything sent is taken and everything owed has come out; then `flush`
  // cycles more (entries to time out), then the reductions add up.
  void drain(uint64_t limit, uint64_t flush = 0) {
    uint64_t n = 0;
    for (; n < limit && !(drivers_idle() && sb_.idle()); ++n) cycle();
    EXPECT_LT(n, limit) << "traffic did not drain in " << limit << " cycles: deadlock; in_ready req 0x" << std::hex
                        << c_.out().req_in_ready << " rsp 0x" << c_.out().rsp_in_ready << ", in_valid req 0x"
                        << c_.in().req_in_valid << " rsp 0x" << c_.in().rsp_in_valid << ", out_valid req 0x"
                        << c_.out().req_out_valid << " rsp 0x" << c_.out().rsp_out_valid << std::dec;
    for (uint64_t i = 0; i < flush; ++i) cycle();
    if (auto e = sb_.check_drained()) ADD_FAILURE() << *e;
  }

 private:
  Cosim<InnetSwitchBlock>& c_;
  InnetSwitchScoreboard sb_;
  std::mt19937_64 rng_;
  ApbMaster apb_;
  std::vector<PktDriver> drv_[2];
  double gap_ = 0.0, stall_ = 0.0;
  unsigned slow_ = ~0u;
};

TEST(InnetSwitch, TheWindowsAndTheirRegistersAfterReset) {
  Bench b;
  // Both region tables show the build's region count; the reduction table
  // takes headers after reset; page 3 is no window.
  const uint32_t mi = b.read_reg(T3_INNET_SWITCH_MCR_IN_BASE + T3_MCR_TABLE_A_PARAM_SIZE);
  const uint32_t mo = b.read_reg(T3_INNET_SWITCH_MCR_OUT_BASE + T3_MCR_TABLE_A_PARAM_SIZE);
  EXPECT_NE(mi, 0u);
  EXPECT_EQ(mi, mo);
  EXPECT_EQ(b.read_reg(T3_INNET_SWITCH_REDUCTION_TABLE_BASE + T3_REDUCTION_TABLE_A_CTRL) &
                T3_REDUCTION_TABLE_R_CTRL_ENABLE_MASK,
            T3_REDUCTION_TABLE_R_CTRL_ENABLE_MASK);
  EXPECT_TRUE(b.access({false, 0x3000, 0, 0}).err) << "a read of page 3 is an address error";
  EXPECT_TRUE(b.access({true, 0x3FFC, 1, 0xF}).err) << "a write of page 3 is an address error";
  EXPECT_FALSE(b.cosim().out().intr);
  // A region written into mcr_in is not in mcr_out: the windows are apart.
  McrRegion r = test_regions()[0];
  for (const ApbTransfer& t : region_writes(r, true, false, T3_INNET_SWITCH_MCR_IN_BASE))
    EXPECT_FALSE(b.access(t).err);
  b.write_reg(T3_INNET_SWITCH_MCR_IN_BASE + T3_MCR_TABLE_A_RGN_IDX, 0);
  b.write_reg(T3_INNET_SWITCH_MCR_OUT_BASE + T3_MCR_TABLE_A_RGN_IDX, 0);
  EXPECT_EQ(b.read_reg(T3_INNET_SWITCH_MCR_IN_BASE + T3_MCR_TABLE_A_RGN_RD_BASE_LO), uint32_t(kReduce));
  EXPECT_EQ(b.read_reg(T3_INNET_SWITCH_MCR_OUT_BASE + T3_MCR_TABLE_A_RGN_RD_BASE_LO), 0u);
}

// Each block's interrupt reaches intr_o, through the block's own window.
TEST(InnetSwitch, EachBlocksInterruptReachesIntr) {
  Bench b;
  for (uint32_t base : {T3_INNET_SWITCH_MCR_IN_BASE, T3_INNET_SWITCH_REDUCTION_TABLE_BASE,
                        T3_INNET_SWITCH_MCR_OUT_BASE}) {
    SCOPED_TRACE("window 0x" + std::to_string(base));
    EXPECT_FALSE(b.cosim().out().intr);
    EXPECT_TRUE(b.write_reg(base + T3_MCR_TABLE_A_INTR_ENABLE, 1));
    EXPECT_TRUE(b.write_reg(base + T3_MCR_TABLE_A_INTR_TEST, 1));
    for (unsigned i = 0; i < 3 && !b.cosim().out().intr; ++i) b.cycle();
    EXPECT_TRUE(b.cosim().out().intr);
    EXPECT_TRUE(b.write_reg(base + T3_MCR_TABLE_A_INTR_STATE, 1));
    EXPECT_TRUE(b.write_reg(base + T3_MCR_TABLE_A_INTR_ENABLE, 0));
    for (unsigned i = 0; i < 3; ++i) b.cycle();
    EXPECT_FALSE(b.cosim().out().intr);
  }
}

// A port competes only once its whole packet is in: a header whose data
// flits are slow to come does not hold the path; another port's packet
// goes past it.
TEST(InnetSwitch, APacketNotAllInDoesNotHoldThePath) {
  Bench b(6);
  const unsigned len = params().max_len;
  Packet slow = packet(Op::write, 0x500000, len, 1, 7);
  slow.h.src = 0;
  b.send_flit(0, 0, pkt::pack(slow.h));  // its data flits later
  for (unsigned i = 0; i < 5; ++i) b.cycle();
  b.send(0, 1 % ports(), packet(Op::write, 0x500040, 1, 0, 8));
  for (unsigned i = 0; i < 40; ++i) b.cycle();
  EXPECT_EQ(b.sb().counts().in, 1u) << "the whole packet from port 1 went in";
  EXPECT_EQ(b.sb().counts().forwarded, 1u);
  EXPECT_EQ(b.sb().owed(), 0u) << "and came out while port 0's packet was not all in";
  for (const Wide& f : slow.data) b.send_flit(0, 0, f);
  b.drain(2000);
  EXPECT_EQ(b.sb().counts().forwarded, 2u);
}

TEST(InnetSwitch, UnicastFromEveryPortToEveryPort) {
  Bench b(2);
  uint64_t seed = 1;
  for (unsigned s = 0; s < ports(); ++s)
    for (unsigned d = 0; d < ports(); ++d) {
      const unsigned len = 1 + (s + d) % params().max_len;
      b.send(0, s, packet(Op::write, 0x100000 + 64 * (s * 16 + d), len, d, seed++));
      b.send(0, s, packet(Op::read, 0x100000, 1, d, seed++));
      b.send(1, s, packet(Op::ack, 0x100040, 1, d, seed++));
      b.send(1, s, packet(Op::read_rsp, 0x100040, len, d, seed++));
    }
  b.drain(20000);
  EXPECT_EQ(b.sb().counts().forwarded, 4u * ports() * ports());
  EXPECT_EQ(b.sb().counts().copies, 4u * ports() * ports());
  EXPECT_EQ(b.sb().counts().dropped, 0u);
}

TEST(InnetSwitch, RegionsMulticastReturnAndSendHome) {
  Bench b(3);
  b.program(test_regions());
  const unsigned last = ports() - 1;
  uint64_t seed = 100;
  b.send(0, 0, packet(Op::write, kMcast, 2 % params().max_len + 1, 0, seed++));   // to the others
  b.send(0, 1, packet(Op::write, kMcast + 64, 1, 0, seed++));                     // from outside it: to all
  b.send(0, 2 % ports(), packet(Op::read, kMcast, 1, last, seed++));             // back to its port
  b.send(0, 0, packet(Op::push, kMcast + 128, 1, 0, seed++));                    // not reduced here: home
  b.send(1, 0, packet(Op::result, kMcast + 192, 1, 0, seed++));                  // to the others
  b.send(1, 1, packet(Op::partial, kMcast + 256, 1, 0, seed++));                 // home
  b.send(1, 0, packet(Op::ack, kMcast, 1, 1, seed++));                           // by dst, in a region too
  // Dropped: a length past MAX_LEN (longer than an ingress queue in the small
  // build: it goes through as it comes), a request on the response class, no route.
  b.send(0, 0, packet(Op::write, 0x300000, params().max_len + 1, 1, seed++));
  b.send(1, 0, packet(Op::write, 0x300000, 1, 1, seed++));
  b.send(0, 0, packet(Op::write, 0x300000, 1, ports(), seed++));
  b.drain(20000);
  EXPECT_EQ(b.sb().counts().dropped, 3u);
  EXPECT_EQ(b.sb().counts().forwarded, 7u);
}

TEST(InnetSwitch, PushAllReduceFromEveryPort) {
  Bench b(4);
  b.program(test_regions());
  std::mt19937_64& rng = b.rng();
  const unsigned addrs = 8;
  for (unsigned a = 0; a < addrs; ++a)
    for (unsigned q = 0; q < ports(); ++q)
      b.send(0, q, contribution(kReduce + a * 64, 1 + a % params().max_len, rng));
  b.drain(50000, 200);
  EXPECT_EQ(b.sb().counts().pushes, uint64_t(addrs) * ports());
  EXPECT_EQ(b.sb().counts().results, addrs) << "every address complete, once";
  EXPECT_EQ(b.sb().counts().partials, 0u);
}

TEST(InnetSwitch, EvictionsAndTimeoutsLoseNothing) {
  Bench b(5);
  b.program(test_regions());
  b.set_timeout(40);
  std::mt19937_64& rng = b.rng();
  // More addresses in flight than entries, each port's contributions in its
  // own order: entries are evicted (LRU) and time out as PARTIALs.
  const unsigned addrs = 3 * params().entries;
  std::vector<unsigned> order(addrs);
  for (unsigned q = 0; q < ports(); ++q) {
    for (unsigned a = 0; a < addrs; ++a) order[a] = a;
    std::shuffle(order.begin(), order.end(), rng);
    for (unsigned a : order) b.send(0, q, contribution(kReduce + a * 64, 1, rng));
  }
  b.traffic_shape(0.3, 0.2);
  b.drain(200000, 400);
  EXPECT_EQ(b.sb().counts().pushes, uint64_t(addrs) * ports());
  EXPECT_GT(b.sb().counts().partials, 0u) << "no entry was evicted";
}

TEST(InnetSwitch, RandomTraffic) {
  const uint64_t cycles = test_options().cycles ? test_options().cycles : T3_RANDOM_CYCLES;
  Bench b(test_options().seed);
  b.program(test_regions());
  b.set_timeout(64);
  std::mt19937_64& rng = b.rng();
  uint64_t seed = 1000, sent = 0;
  const Op req_ops[] = {Op::write, Op::read, Op::push};
  const Op rsp_ops[] = {Op::ack, Op::read_rsp, Op::result, Op::partial};
  uint64_t done = 0, resets = 0;
  while (done < cycles) {
    // A round: packets from every port into the queues of its drivers, then
    // the traffic with bubbles and back-pressure, then a drain and its checks.
    const unsigned per_round = 2 + rng() % 24;
    for (unsigned i = 0; i < per_round; ++i) {
      const unsigned q = rng() % ports(), k = rng() % 2;
      const unsigned len = 1 + rng() % params().max_len;
      const unsigned where = rng() % 8;
      // Reductions over few addresses (most complete) or many (most are
      // evicted or time out).
      const unsigned spread = rng() % 2 ? 2 * params().entries : 2;
      const uint64_t addr = where < 3 ? kReduce + 64 * (rng() % spread)
                            : where < 5 ? kMcast + 64 * (rng() % 16)
                                        : 0x400000 + 64 * (rng() % 64);
      Op op = k ? rsp_ops[rng() % 4] : req_ops[rng() % 3];
      if (addr >= kReduce && addr < kReduce + kSize) {
        // The reduced region takes PUSHes only, one length per address.
        b.send(0, q, contribution(addr, 1 + (addr / 64) % params().max_len, rng));
      } else {
        // Now and then a length past MAX_LEN (malformed; its flits all on the wire).
        const unsigned l = rng() % 64 == 0 ? params().max_len + 1 : len;
        b.send(k, q, packet(op, addr, l, rng() % (ports() + 1), seed++));
      }
      ++sent;
    }
    b.traffic_shape(double(rng() % 50) / 100, double(rng() % 60) / 100,
                    rng() % 2 ? unsigned(rng() % ports()) : ~0u);
    const uint64_t start = b.cosim().cycles();
    for (unsigned i = 0; i < 200 + rng() % 800 && !b.drivers_idle(); ++i) b.cycle();
    if (rng() % 4 == 0) {
      b.traffic_shape(0.0, 0.0);
      b.drain(100000, 300);  // and every reduction so far adds up
    } else if (rng() % 64 == 0) {
      b.restart();  // with packets in flight
      b.program(test_regions());
      b.set_timeout(64);
      ++resets;
    }
    done += b.cosim().cycles() - start;
    if (testing::Test::HasFailure()) break;
  }
  b.traffic_shape(0.0, 0.0);
  b.drain(100000, 300);
  EXPECT_GT(resets, 0u);
  std::printf("innet_switch random: %llu cycles, %llu resets, %llu packets; since the last reset: in %llu, forwarded %llu, copies %llu, "
              "dropped %llu, pushes %llu, results %llu, partials %llu\n",
              (unsigned long long)done, (unsigned long long)resets, (unsigned long long)sent,
              (unsigned long long)b.sb().counts().in, (unsigned long long)b.sb().counts().forwarded,
              (unsigned long long)b.sb().counts().copies, (unsigned long long)b.sb().counts().dropped,
              (unsigned long long)b.sb().counts().pushes, (unsigned long long)b.sb().counts().results,
              (unsigned long long)b.sb().counts().partials);
}

}  // namespace
}  // namespace t3::tb
