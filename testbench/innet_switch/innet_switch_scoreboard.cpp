#include "innet_switch_scoreboard.h"

#include <cmath>
#include <cstring>
#include <sstream>

namespace t3::tb {
namespace {

// docs/packet.md's opcodes, as this checker reads the table there.
constexpr unsigned kWrite = 0x1, kRead = 0x2, kPush = 0x3, kPull = 0x4, kAck = 0x8, kReadRsp = 0x9,
                   kPullRsp = 0xA, kResult = 0xB, kPartial = 0xC;

bool reduction_op(unsigned op) {
  return op == kPush || op == kPull || op == kPullRsp || op == kResult || op == kPartial;
}

double fp16(uint32_t b) {
  const double s = (b >> 15) & 1 ? -1.0 : 1.0;
  const unsigned e = (b >> 10) & 0x1F, m = b & 0x3FF;
  if (e == 0) return s * std::ldexp(double(m), -24);
  if (e == 31) return m ? NAN : s * INFINITY;
  return s * std::ldexp(double(1024 + m), int(e) - 25);
}
double fp32(uint32_t b) {
  float f;
  std::memcpy(&f, &b, sizeof f);
  return f;
}

std::string text(const Packet& p) {
  std::ostringstream s;
  s << p.h << " with " << p.data.size() << " data flits";
  return s.str();
}

}  // namespace

std::vector<double> lanes_of(const std::vector<Wide>& data, unsigned dtype, unsigned flit_w) {
  std::vector<double> v;
  const unsigned lane = dtype == 2 ? 32 : 16;
  for (const Wide& f : data)
    for (unsigned lsb = 0; lsb < flit_w; lsb += lane) {
      const uint32_t b = f.lane(lsb, lane);
      v.push_back(dtype == 0 ? fp16(b) : dtype == 1 ? fp32(b << 16) : fp32(b));
    }
  return v;
}

InnetSwitchScoreboard::InnetSwitchScoreboard(const InnetSwitchParams& p) : p_(p) {
  for (unsigned k = 0; k < 2; ++k) {
    in_[k].assign(p.ports, PktCollector(p.flit_w));
    out_[k].assign(p.ports, PktCollector(p.flit_w));
  }
}

void InnetSwitchScoreboard::reset() {
  for (unsigned k = 0; k < 2; ++k)
    for (unsigned q = 0; q < p_.ports; ++q) {
      in_[k][q].clear();
      out_[k][q].clear();
    }
  owed_.clear();
  red_.clear();
  n_ = Counts{};
}

const McrRegion* InnetSwitchScoreboard::region_of(uint64_t addr) const {
  for (const McrRegion& r : regions_)
    if (addr >= r.base && addr - r.base < r.size) return &r;
  return nullptr;
}

// docs/blocks/mcr_table.md, "Routing" and "Drops", as mcr_in applies them to
// a packet from a fabric port.
InnetSwitchScoreboard::Fate InnetSwitchScoreboard::fate(unsigned k, unsigned port,
                                                        const pkt::Header& h) const {
  Fate f;
  f.stamped = h;
  f.stamped.rgn = f.stamped.expect = f.stamped.home = 0;
  f.stamped.hit = false;
  const unsigned op = h.op;
  const bool known = op == kWrite || op == kRead || op == kPush || op == kPull || op == kAck ||
                     op == kReadRsp || op == kPullRsp || op == kResult || op == kPartial;
  const bool data = op == kWrite || op == kPush || op == kReadRsp || op == kPullRsp ||
                    op == kResult || op == kPartial;
  const bool bad_len = h.len == 0 || h.len > p_.max_len;
  const bool bad_red = reduction_op(op) && (h.red_op != 0 || h.dtype == 3);
  const bool misaligned = h.addr % (p_.flit_w / 8) != 0;
  const bool wrong_class = known && (op >= 8) != (k == 1);
  (void)data;
  if (!known || bad_len || bad_red || misaligned || wrong_class) {
    f.drop = true;
    return f;
  }
  const McrRegion* g = region_of(h.addr);
  if (g) {
    f.stamped.rgn = uint8_t(g->idx);
    f.stamped.expect = uint8_t(g->expect);
    f.stamped.home = uint8_t(g->home);
    f.stamped.hit = true;
    if (reduction_op(op) && h.dtype != g->dtype) {
      f.drop = true;
      return f;
    }
  }
  const uint32_t self = 1u << port;
  bool by_dst = !g;
  if (g) {
    switch (op) {
      case kWrite:
      case kResult: f.ports = g->ports & ~self; break;
      case kRead: f.ports = self; break;
      case kPush:
        if (g->root) f.reduce = true;
        else f.ports = 1u << g->home;
        break;
      case kPartial: f.ports = 1u << g->home; break;
      default: by_dst = true; break;  // ACK, READ_RSP (PULL, PULL_RSP: not sent by the tests)
    }
  }
  if (by_dst) f.ports = h.dst < p_.ports ? 1u << h.dst : 0;
  if (!f.reduce && f.ports == 0) f.drop = true;  // no route, no destination
  return f;
}

void InnetSwitchScoreboard::taken(unsigned k, unsigned port, const Packet& p, std::string& err) {
  ++n_.in;
  if (p.h.op == kPull || p.h.op == kPullRsp) {
    err += "a PULL or PULL_RSP went in: this scoreboard does not model pull reductions; ";
    return;
  }
  if (p.h.src != port) {
    err += "port " + std::to_string(port) + " took a packet with src " + std::to_string(p.h.src) +
           " (the tests send from port p with src p); ";
    return;
  }
  const Fate f = fate(k, port, p.h);
  if (f.drop) {
    ++n_.dropped;
    return;
  }
  if (f.reduce) {
    ++n_.pushes;
    auto [it, first] = red_.try_emplace(p.h.addr);
    Reduction& r = it->second;
    const std::vector<double> v = lanes_of(p.data, p.h.dtype, p_.flit_w);
    if (first) {
      r.dtype = p.h.dtype;
      r.len = p.h.len;
      r.sum.assign(v.size(), 0.0);
    } else if (r.dtype != p.h.dtype || r.len != p.h.len) {
      err += "the test sent PUSHes of two shapes to one address; ";
      return;
    }
    r.pushes += p.h.count;
    for (size_t i = 0; i < v.size(); ++i) r.sum[i] += v[i];
    return;
  }
  ++n_.forwarded;
  for (unsigned q = 0; q < p_.ports; ++q)
    if ((f.ports >> q) & 1) {
      owed_[{k, port, q}].push_back(Packet{f.stamped, p.data});
      ++n_.copies;
    }
}

void InnetSwitchScoreboard::given(unsigned k, unsigned port, const Packet& p, std::string& err) {
  // The reduction unit's RESULTs and PARTIALs (mcr_out), by address.
  const McrRegion* g = region_of(p.h.addr);
  const auto red = red_.find(p.h.addr);
  if (k == 1 && g && g->root && red != red_.end() && (p.h.op == kResult || p.h.op == kPartial)) {
    Reduction& r = red->second;
    if (p.h.op == kResult) {
      if (!((g->ports >> port) & 1))
        err += "a RESULT came out of port " + std::to_string(port) + ", not a participant; ";
      r.results[port].push_back(p);
      if (port == unsigned(__builtin_ctz(g->ports))) ++n_.results;
    } else {
      if (port != g->home)
        err += "a PARTIAL came out of port " + std::to_string(port) + ", not the home port " +
               std::to_string(g->home) + "; ";
      r.partials.push_back(p);
      ++n_.partials;
    }
    return;
  }
  const auto it = owed_.find({k, p.h.src, port});
  if (it == owed_.end() || it->second.empty()) {
    err += "port " + std::to_string(port) + (k ? " rsp" : " req") + " gave a packet nobody owed: " +
           text(p) + "; ";
    return;
  }
  if (it->second.front() != p) {
    err += "port " + std::to_string(port) + (k ? " rsp" : " req") + " gave " + text(p) +
           ", the next owed from port " + std::to_string(p.h.src) + " is " + text(it->second.front()) + "; ";
    return;
  }
  it->second.pop_front();
}

std::optional<std::string> InnetSwitchScoreboard::observe(const InnetSwitchInputs& in,
                                                          const InnetSwitchOutputs& out) {
  if (!in.rst_n) {
    if (out.req_in_ready || out.rsp_in_ready || out.req_out_valid || out.rsp_out_valid)
      return std::string("a stream took or gave in a reset cycle");
    reset();
    return std::nullopt;
  }
  std::ostringstream protocol;
  std::string err;
  for (unsigned k = 0; k < 2; ++k) {
    const uint32_t iv = k ? in.rsp_in_valid : in.req_in_valid, ir = k ? out.rsp_in_ready : out.req_in_ready;
    const uint32_t ov = k ? out.rsp_out_valid : out.req_out_valid, orr = k ? in.rsp_out_ready : in.req_out_ready;
    const SwitchBus& ib = k ? in.rsp_in_flit : in.req_in_flit;
    const SwitchBus& ob = k ? out.rsp_out_flit : out.req_out_flit;
    for (unsigned q = 0; q < p_.ports; ++q) {
      const bool v = (ov >> q) & 1;
      if (!v && bus_flit(ob, q, p_.flit_w) != Wide{})
        err += "port " + std::to_string(q) + " shows a flit without valid; ";
      const std::string name = std::string(k ? "rsp" : "req") + "_out port " + std::to_string(q);
      if (auto pk = out_[k][q].observe(name.c_str(), v, (orr >> q) & 1, bus_flit(ob, q, p_.flit_w), protocol))
        given(k, q, *pk, err);
    }
    // Taken after given: a packet cannot leave in the cycle it came in.
    for (unsigned q = 0; q < p_.ports; ++q) {
      std::ostringstream ignore;  // the inputs are the test's own
      if (auto pk = in_[k][q].observe("in", (iv >> q) & 1, (ir >> q) & 1, bus_flit(ib, q, p_.flit_w), ignore))
        taken(k, q, *pk, err);
    }
  }
  err += protocol.str();
  if (err.empty()) return std::nullopt;
  return err;
}

uint64_t InnetSwitchScoreboard::owed() const {
  uint64_t n = 0;
  for (const auto& [key, q] : owed_) n += q.size();
  return n;
}

bool InnetSwitchScoreboard::idle() const {
  for (const auto& [key, q] : owed_)
    if (!q.empty()) return false;
  for (unsigned k = 0; k < 2; ++k)
    for (unsigned q = 0; q < p_.ports; ++q)
      if (in_[k][q].mid_packet() || out_[k][q].mid_packet()) return false;
  return true;
}

std::optional<std::string> InnetSwitchScoreboard::check_drained() const {
  std::ostringstream err;
  for (const auto& [key, q] : owed_)
    if (!q.empty())
      err << q.size() << " packets owed from port " << key[1] << " to port " << key[2]
          << (key[0] ? " (responses)" : " (requests)") << " never came, the first " << text(q.front()) << "; ";
  for (const auto& [addr, r] : red_) {
    const McrRegion* g = region_of(addr);
    const std::vector<Packet>* events = nullptr;
    for (unsigned q = 0; q < p_.ports; ++q) {
      if (!((g->ports >> q) & 1)) continue;
      const auto it = r.results.find(q);
      static const std::vector<Packet> none;
      const std::vector<Packet>& got = it == r.results.end() ? none : it->second;
      if (!events) events = &got;
      else if (got != *events)
        err << "address 0x" << std::hex << addr << std::dec << ": participant " << q << " got "
            << got.size() << " RESULTs, another " << events->size() << " (or different ones); ";
    }
    uint64_t count = 0;
    std::vector<double> sum(r.sum.size(), 0.0);
    auto add = [&](const Packet& p, const char* what) {
      if (p.h.dtype != r.dtype || p.h.len != r.len)
        err << "address 0x" << std::hex << addr << std::dec << ": a " << what << " of another type or length; ";
      count += p.h.count;
      const std::vector<double> v = lanes_of(p.data, p.h.dtype, p_.flit_w);
      for (size_t i = 0; i < v.size() && i < sum.size(); ++i) sum[i] += v[i];
    };
    for (const Packet& p : *events) {
      if (p.h.count != g->expect)
        err << "address 0x" << std::hex << addr << std::dec << ": a RESULT carries " << unsigned(p.h.count)
            << " contributions, the region expects " << g->expect << "; ";
      add(p, "RESULT");
    }
    for (const Packet& p : r.partials) add(p, "PARTIAL");
    if (count != r.pushes)
      err << "address 0x" << std::hex << addr << std::dec << ": " << r.pushes << " contributions went in, "
          << count << " came out (RESULTs and PARTIALs); ";
    else if (sum != r.sum)
      err << "address 0x" << std::hex << addr << std::dec << ": the sums out are not the sum of the contributions; ";
  }
  const std::string e = err.str();
  if (e.empty()) return std::nullopt;
  return e;
}

}  // namespace t3::tb
