#include "mcr_table_stimulus.h"

#include <algorithm>

#include "common/bits.h"

namespace t3::tb {
namespace {

constexpr unsigned kReqOps[] = {0x1, 0x2, 0x3, 0x4};
constexpr unsigned kRspOps[] = {0x8, 0x9, 0xA, 0xB, 0xC};
constexpr unsigned kUnknownOps[] = {0x0, 0x5, 0x6, 0x7, 0xD, 0xE, 0xF};
constexpr uint64_t kAddrMask = low_mask(48);

bool reduces(unsigned op) { return op == 0x3 || op == 0x4 || op == 0xA || op == 0xB || op == 0xC; }

}  // namespace

McrTableStimulus::McrTableStimulus(const McrTableParams& p, uint64_t seed)
    : McrTableStimulus(p, seed, Options{}) {}

McrTableStimulus::McrTableStimulus(const McrTableParams& p, uint64_t seed, Options opt)
    : p_(p), opt_(opt), rng_(seed), mine_(p.regions), used_(p.regions, false) {
  new_phase(true);
}

void McrTableStimulus::stop() {
  stopped_ = true;
  reset_left_ = 0;
  mid_reset_at_ = 0;
}

void McrTableStimulus::new_phase(bool first) {
  ++phases_;
  phase_left_ = pick(opt_.phase_min, opt_.phase_max);
  if (first || u() < opt_.p_reset) {
    reset_left_ = unsigned(pick(1, 3));
    ++resets_;
  }
  // Every twentieth phase has one for certain (a million cycles hold about
  // ninety phases), so that no seed misses a reset with traffic in flight.
  mid_reset_at_ = phases_ % 20 == 10 || u() < opt_.p_mid_reset ? pick(1, phase_left_) : 0;
  Phase& ph = ph_;
  const double rate = u();
  for (unsigned k = 0; k < 2; ++k) ph.p_packet[k] = rate < 0.2 ? 0.02 + 0.1 * u() : 0.2 + 0.8 * u();
  ph.p_gap = u() < 0.4 ? 0 : 0.5 * u();
  ph.p_region = 0.3 + 0.65 * u();
  ph.p_bad = u() < 0.3 ? 0.002 : 0.1 * u();
  ph.p_unit = 0.1 * u();
  ph.p_hdr_junk = u() < 0.5 ? 0 : 0.3 * u();
  // Now and then a class blocked on every port for the phase: the other
  // class must go on (separate paths).
  const int stall_class = u() < 0.06 ? int(pick(0, 1)) : -1;
  for (unsigned k = 0; k < 2; ++k)
    for (unsigned port = 0; port <= p_.ports; ++port) {
      const double m = u();
      ph.ready_mode[k][port] = int(k) == stall_class ? 3 : m < 0.5 ? 0 : m < 0.8 ? 1 : m < 0.96 ? 2 : 3;
      ph.ready_p[k][port] = 0.1 + 0.9 * u();
      burst_left_[k][port] = 0;
      // A blocked port stays blocked for a stretch of the phase, then is always ready.
      block_left_[k][port] = pick(50, 3000);
    }
  const double c = u();
  ph.cmd_every = c < 0.3 ? 0 : c < 0.6 ? pick(20, 200) : pick(200, 3000);
  ph.bad_cmd = u() < 0.5 ? unsigned(pick(2, 5)) : 0;
  ph.fill = u() < 0.15;
  cmd_left_ = ph.cmd_every ? pick(1, ph.cmd_every) : 0;
}

bool McrTableStimulus::overlaps(const McrRegion& r) const {
  for (unsigned i = 0; i < p_.regions; ++i)
    if (used_[i] && r.base < mine_[i].base + mine_[i].size && mine_[i].base < r.base + r.size) return true;
  return false;
}

McrRegion McrTableStimulus::random_region(unsigned idx) {
  const unsigned fb_log2 = clog2(p_.flit_w / 8);
  McrRegion r;
  r.idx = idx;
  const double s = u();
  const unsigned szl = s < 0.03 ? 48                                      // the whole address space
                       : s < 0.08 ? unsigned(pick(0, fb_log2 - 1))        // smaller than a flit
                       : s < 0.75 ? unsigned(pick(fb_log2, fb_log2 + 6))  // a few flits
                       : s < 0.92 ? unsigned(pick(fb_log2 + 7, 24))
                                  : unsigned(pick(25, 47));
  r.size = uint64_t{1} << szl;
  r.base = (u() < 0.3 ? pick(0, 0xFFFFF) : rng_()) & kAddrMask & ~(r.size - 1);
  const uint32_t all = uint32_t(low_mask(p_.ports));
  const double q = u();
  r.ports = q < 0.2 ? all : q < 0.35 ? 1u << pick(0, p_.ports - 1) : uint32_t(rng_()) & all;
  if (!r.ports) r.ports = 1u << pick(0, p_.ports - 1);
  r.home = unsigned(pick(0, p_.ports - 1));
  r.root = u() < 0.5;
  r.dtype = unsigned(pick(0, 2));
  r.expect = unsigned(u() < 0.5 ? __builtin_popcount(r.ports) : pick(1, 255));
  return r;
}

void McrTableStimulus::queue_command() {
  std::vector<unsigned> free, used;
  for (unsigned i = 0; i < p_.regions; ++i) (used_[i] ? used : free).push_back(i);
  McrRegion r;
  bool add = true, remove = false;
  ++commands_;
  if (ph_.bad_cmd && commands_ % ph_.bad_cmd == 0) {
    // A command the table refuses: each cause in turn (a cause the build
    // cannot show falls through to an index out of range).
    const unsigned cause = unsigned(bad_cmds_++ % 13) + 1;
    r = random_region(free.empty() ? 0 : free[pick(0, free.size() - 1)]);
    switch (cause) {
      case 2:
        if (used.empty()) goto range;
        r.idx = used[pick(0, used.size() - 1)];
        break;
      case 3:
        if (free.empty()) goto range;
        add = false;
        remove = true;
        break;
      case 4: r.size = u() < 0.3 ? 0 : (r.size | (uint64_t{1} << pick(0, 48))) | 3; break;
      case 5: r.size = std::max<uint64_t>(r.size, 2); r.base |= r.size >> 1; break;
      case 6: r.ports = 0; break;
      case 7:
        if (p_.ports == 32) goto range;
        r.ports |= 1u << pick(p_.ports, 31);
        break;
      case 8: r.home = unsigned(pick(p_.ports, 255)); break;
      case 9: r.expect = 0; break;
      case 10: r.red_op = unsigned(pick(1, 3)); break;
      case 11: r.dtype = 3; break;
      case 12:
        if (used.empty()) goto range;
        {
          const McrRegion& o = mine_[used[pick(0, used.size() - 1)]];
          r.size = o.size;
          r.base = o.base;
          if (u() < 0.5 && o.size < (uint64_t{1} << 48)) {  // a region around it
            r.size = o.size << pick(1, 3);
            r.base = o.base & ~(r.size - 1) & kAddrMask;
          }
        }
        break;
      case 13: remove = true; break;
      default:
      range:
        r.idx = unsigned(pick(p_.regions, 63));
        if (p_.regions == 64) r.size = 0;  // every index is in range: a size of 0 instead
        break;
    }
  } else if (ph_.fill || (!free.empty() && (used.empty() || u() < 0.6))) {
    if (free.empty()) {  // full: take one out
      add = false;
      remove = true;
      r.idx = used[pick(0, used.size() - 1)];
      used_[r.idx] = false;
    } else {
      r.idx = free[ph_.fill ? 0 : pick(0, free.size() - 1)];
      bool ok = false;
      for (int tries = 0; tries < 8 && !ok; ++tries) {
        r = random_region(r.idx);
        ok = !overlaps(r);
      }
      if (!ok) return;
      mine_[r.idx] = r;
      used_[r.idx] = true;
    }
  } else {
    add = false;
    remove = true;
    if (used.empty() || u() < 0.1) {
      r.idx = unsigned(pick(0, p_.regions - 1));  // maybe empty: refused
      if (used_[r.idx]) used_[r.idx] = false;
    } else {
      r.idx = used[pick(0, used.size() - 1)];
      used_[r.idx] = false;
    }
  }
  for (const ApbTransfer& t : region_writes(r, add, remove)) prog_.push_back(t);
}

uint64_t McrTableStimulus::address(bool* in_region) {
  const uint64_t fb = p_.flit_w / 8;
  std::vector<unsigned> used;
  for (unsigned i = 0; i < p_.regions; ++i)
    if (used_[i]) used.push_back(i);
  *in_region = false;
  if (!used.empty()) {
    const McrRegion& r = mine_[used[pick(0, used.size() - 1)]];
    const double w = u();
    if (w < ph_.p_region) {
      *in_region = true;
      const double e = u();
      if (r.size <= fb || e < 0.2) return r.base & ~(fb - 1);
      if (e < 0.4) return r.base + r.size - fb;
      return (r.base + (rng_() & (r.size - 1))) & ~(fb - 1);
    }
    if (w < ph_.p_region + 0.5 * (1 - ph_.p_region))  // next to it
      return (u() < 0.5 ? r.base - fb : r.base + r.size) & kAddrMask & ~(fb - 1);
  }
  return rng_() & kAddrMask & ~(fb - 1);
}

void McrTableStimulus::queue_packet(unsigned k) {
  ++packets_;
  pkt::Header h;
  bool in_region = false;
  h.op = uint8_t(k ? kRspOps[pick(0, 4)] : kReqOps[pick(0, 3)]);
  h.addr = address(&in_region);
  h.len = uint8_t(pick(1, p_.max_len));
  h.src = uint8_t(rng_());
  h.dst = uint8_t(u() < 0.9 ? pick(0, p_.ports - 1) : pick(p_.ports, 255));
  h.count = uint8_t(rng_());
  h.ctr = uint8_t(rng_());
  h.dtype = uint8_t(pick(0, 2));
  // A reduction in a region mostly carries its region's type.
  if (in_region && reduces(h.op) && u() < 0.9)
    for (unsigned i = 0; i < p_.regions; ++i)
      if (used_[i] && h.addr >= mine_[i].base && h.addr - mine_[i].base < mine_[i].size)
        h.dtype = uint8_t(mine_[i].dtype);
  unsigned port = unsigned(u() < ph_.p_unit ? p_.ports : pick(0, p_.ports - 1));
  const unsigned port_max = unsigned(low_mask(p_.port_w()));
  if (u() < ph_.p_bad) {
    switch (pick(0, 7)) {
      case 0: h.op = uint8_t(kUnknownOps[pick(0, 6)]); break;
      case 1: h.op = uint8_t(k ? kReqOps[pick(0, 3)] : kRspOps[pick(0, 4)]); break;  // the other class
      case 2: h.len = uint8_t(u() < 0.3 ? 0 : u() < 0.7 ? p_.max_len + 1 : pick(p_.max_len + 1, 255)); break;
      case 3:
        h.op = uint8_t(k ? 0xB : 0x3);
        h.red_op = uint8_t(pick(1, 3));
        break;
      case 4:
        h.op = uint8_t(k ? 0xA : 0x4);
        h.dtype = 3;
        break;
      case 5: h.addr |= pick(1, p_.flit_w / 8 - 1); break;
      case 6:
        if (port_max > p_.ports) port = unsigned(pick(p_.ports + 1, port_max));
        break;
      default:  // another type than the region's (if the address is in one)
        h.op = uint8_t(k ? 0xC : 0x3);
        h.dtype = uint8_t((h.dtype + pick(1, 2)) % 3);
        break;
    }
  }
  Wide f = pkt::pack(h);
  if (u() < ph_.p_hdr_junk) {  // the switch-internal fields and the bits above them: not the sender's
    f.w[1] |= rng_() & ~uint64_t{0xFFFFFFFF};
    for (unsigned i = 2; i < Wide::kWords; ++i) f.w[i] = rng_();
  }
  q_[k].push_back({f, port});
  const unsigned data = pkt::wire_flits(h) - 1;
  for (unsigned i = 0; i < data; ++i) {
    Flit d;
    for (uint64_t& w : d.f.w) w = rng_();
    d.port = unsigned(pick(0, port_max));  // the port pin is read with the header only
    q_[k].push_back(d);
  }
}

void McrTableStimulus::drive(McrTableInputs& in) {
  if (!stopped_ && phase_left_-- == 0) new_phase(false);
  if (!stopped_ && mid_reset_at_ && --mid_reset_at_ == 0) {
    reset_left_ = unsigned(pick(1, 3));
    ++resets_;
  }
  in.rst_n = reset_left_ == 0;
  if (reset_left_) {
    --reset_left_;
    // Everything in flight is gone; the table is empty.
    for (unsigned k = 0; k < 2; ++k) {
      q_[k].clear();
      offering_[k] = false;
    }
    std::fill(used_.begin(), used_.end(), false);
    prog_.clear();
    apb_.clear();
  }

  // Region commands, their writes one after the other on the register port.
  if (!stopped_ && in.rst_n && ph_.cmd_every && prog_.empty() && --cmd_left_ == 0) {
    cmd_left_ = pick(1, ph_.cmd_every);
    queue_command();
  }
  if (!prog_.empty() && apb_.idle()) {
    apb_.push(prog_.front());
    prog_.pop_front();
  }
  apb_.drive(in.apb, in.rst_n);

  // Packets.
  const size_t room = 2 * (p_.max_len + 1);
  for (unsigned k = 0; k < 2; ++k) {
    if (!stopped_ && in.rst_n && q_[k].size() < room && u() < ph_.p_packet[k]) queue_packet(k);
    if (!offering_[k] && !q_[k].empty() && (ph_.p_gap == 0 || u() >= ph_.p_gap)) {
      cur_[k] = q_[k].front();
      q_[k].pop_front();
      offering_[k] = true;
    }
    bool& valid = k ? in.rsp_in_valid : in.req_in_valid;
    Wide& flit = k ? in.rsp_in_flit : in.req_in_flit;
    uint32_t& port = k ? in.rsp_in_port : in.req_in_port;
    valid = offering_[k];
    if (offering_[k]) {
      flit = cur_[k].f;
      port = cur_[k].port;
    }
    // Readies: per port as the phase says.
    uint64_t ready = 0;
    for (unsigned o = 0; o <= p_.ports; ++o) {
      bool r = true;
      if (!stopped_) {
        switch (ph_.ready_mode[k][o]) {
          case 0: r = true; break;
          case 1: r = u() < ph_.ready_p[k][o]; break;
          case 2:
            if (burst_left_[k][o] == 0) {
              burst_on_[k][o] = !burst_on_[k][o];
              burst_left_[k][o] = unsigned(pick(1, burst_on_[k][o] ? 40 : 200));
            }
            --burst_left_[k][o];
            r = burst_on_[k][o];
            break;
          default:
            if (block_left_[k][o]) --block_left_[k][o];
            r = block_left_[k][o] == 0;
            break;
        }
      }
      ready |= uint64_t(r) << o;
    }
    (k ? in.rsp_out_ready : in.req_out_ready) = ready;
  }
}

void McrTableStimulus::after(const McrTableInputs& in, const McrTableOutputs& out) {
  if (in.req_in_valid && out.req_in_ready) offering_[0] = false;
  if (in.rsp_in_valid && out.rsp_in_ready) offering_[1] = false;
  apb_.after(in.apb, out.apb);
}

}  // namespace t3::tb
