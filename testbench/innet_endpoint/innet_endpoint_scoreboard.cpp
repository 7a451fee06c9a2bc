#include "innet_endpoint_scoreboard.h"

namespace t3::tb {

void InnetEndpointScoreboard::request(uint64_t local, uint64_t net, uint32_t len, uint8_t dtype, bool pull) {
  reqs_.push_back(Req{local, net, uint64_t(len) * fb_, dtype, pull});
}

void InnetEndpointScoreboard::copy(uint64_t local, uint64_t net, uint32_t flits, uint8_t dst) {
  copies_.push_back(Copy{local, net, uint64_t(flits) * fb_, dst});
}

bool InnetEndpointScoreboard::carries(const Packet& p, uint64_t local, const LocalMemory& mem) const {
  for (size_t i = 0; i < p.data.size(); ++i) {
    const uint64_t a = local + i * fb_;
    if (a + fb_ > mem.bytes() || mem.read(a) != p.data[i]) return false;
  }
  return true;
}

void InnetEndpointScoreboard::sent(unsigned k, const Packet& p, const LocalMemory& mem, std::ostream& err) {
  const pkt::Op op = pkt::Op(p.h.op);
  const uint64_t a = p.h.addr, n = uint64_t(p.h.len) * fb_;
  if (k == 0 && (op == pkt::Op::push || op == pkt::Op::pull)) {
    const bool pull = op == pkt::Op::pull;
    bool inside = false, same = false;
    for (const Req& r : reqs_) {
      if (r.pull != pull || a < r.net || a + n > r.net + r.bytes || p.h.dtype != r.dtype) continue;
      inside = true;
      if (pull ? p.data.empty() : carries(p, r.local + (a - r.net), mem)) {
        same = true;
        break;
      }
    }
    if (!inside)
      err << "req_out: a " << (pull ? "PULL" : "PUSH") << " of " << unsigned(p.h.len) << " flits at 0x" << std::hex << a
          << std::dec << " (dtype " << unsigned(p.h.dtype) << ") inside no request of its kind taken; ";
    else if (!same)
      err << "req_out: the PUSH at 0x" << std::hex << a << std::dec
          << " does not carry its request's source data (the memory at the request's local address); ";
    (pull ? pulls_ : pushes_) += 1;
  } else if (k == 0 && op == pkt::Op::write) {
    bool inside = false, same = false;
    for (const Copy& c : copies_) {
      if (a < c.net || a + n > c.net + c.bytes || p.h.dst != c.dst) continue;
      inside = true;
      if (carries(p, c.local + (a - c.net), mem)) {
        same = true;
        break;
      }
    }
    if (!inside)
      err << "req_out: a WRITE of " << unsigned(p.h.len) << " flits at 0x" << std::hex << a << std::dec << " to GPU "
          << unsigned(p.h.dst) << " inside no copy taken; ";
    else if (!same)
      err << "req_out: the WRITE at 0x" << std::hex << a << std::dec << " does not carry its copy's source data; ";
    ++writes_;
  } else if (k == 0) {
    err << "req_out: opcode " << unsigned(p.h.op) << ": the endpoint sends PUSH, PULL and WRITE requests only; ";
  } else if (op == pkt::Op::pull_rsp) {
    bool inside = false, same = false;
    for (const Win& w : wins_) {
      if (a < w.net || a + n > w.net + w.bytes) continue;
      inside = true;
      if (carries(p, w.src + (a - w.net), mem)) {
        same = true;
        break;
      }
    }
    if (!inside)
      err << "rsp_out: a PULL_RSP at 0x" << std::hex << a << std::dec << " inside no window written; ";
    else if (!same)
      err << "rsp_out: the PULL_RSP at 0x" << std::hex << a << std::dec
          << " does not carry this GPU's source data (its window's src); ";
    ++pull_rsps_;
  } else if (op != pkt::Op::result) {
    err << "rsp_out: opcode " << unsigned(p.h.op) << ": the endpoint sends RESULT and PULL_RSP responses only; ";
  }
}

}  // namespace t3::tb
