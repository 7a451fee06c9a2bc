// The GPU memory behind the endpoint's lanes (mem_* out, ans_* in), as the
// composition asks of it (docs/blocks/innet_endpoint.md, "The memory"):
// every lane taken in the cycle it is offered, lanes in order (a read sees
// the writes of the lanes below it in the same cycle), a read answered on
// its own lane with its lane tag after a fixed latency, an add done as the
// near-bank ALU does it. A reset drops the answers in flight.
#pragma once

#include <cstdint>
#include <deque>
#include <vector>

#include "common/local_memory.h"
#include "innet_endpoint/innet_endpoint.h"

namespace t3 {

class EpLaneMemory {
 public:
  EpLaneMemory(const InnetEndpointParams& p, unsigned latency)
      : p_(p), mem_(p.mem_bytes, p.flit_w), due_(latency) {}

  LocalMemory& mem() { return mem_; }
  const LocalMemory& mem() const { return mem_; }

  // This cycle's answers (those issued `latency` cycles ago).
  void drive(InnetEndpointInputs& in) const {
    const Answers& a = due_.front();
    in.ans_valid = a.valid;
    in.ans_tag = a.tag;
    in.ans_data = a.data;
  }

  // The lanes the endpoint drove in this cycle, done in lane order.
  void after(const InnetEndpointInputs& in, const InnetEndpointOutputs& o) {
    due_.pop_front();
    Answers next;
    if (in.rst_n) {
      const unsigned fw = p_.flit_w, lw = unsigned(p_.ltag_w());
      for (unsigned k = 0; k < p_.mem_ops; ++k) {
        if (!(o.mem_valid >> k & 1)) continue;
        const unsigned op = o.mem_op >> (2 * k) & 3;
        const uint8_t dtype = uint8_t(o.mem_dtype >> (2 * k) & 3);
        // Addresses wrap into the memory: a packet of the random traffic
        // may name any address; the windows keep the real ones inside.
        const uint64_t addr = o.mem_addr.bits(48 * k, 48) % mem_.bytes() / mem_.flit_bytes() * mem_.flit_bytes();
        Wide d;
        for (unsigned i = 0; i < fw / 64; ++i) d.w[i] = o.mem_data.w[k * fw / 64 + i];
        if (op == 0) {
          next.valid |= 1u << k;
          next.tag.set_bits(lw * k, lw, o.mem_tag.bits(lw * k, lw));
          const Wide r = mem_.read(addr);
          for (unsigned i = 0; i < fw / 64; ++i) next.data.w[k * fw / 64 + i] = r.w[i];
          ++reads_;
        } else if (op == 1) {
          mem_.write(addr, d);
          ++writes_;
        } else {
          mem_.add(addr, d, dtype > 2 ? 2 : dtype);
          ++adds_;
        }
      }
    } else {
      for (Answers& a : due_) a = Answers{};
    }
    due_.push_back(next);
  }

  // No read's answer on its way.
  bool quiet() const {
    for (const Answers& a : due_)
      if (a.valid) return false;
    return true;
  }
  uint64_t reads() const { return reads_; }
  uint64_t writes() const { return writes_; }
  uint64_t adds() const { return adds_; }

 private:
  struct Answers {
    uint32_t valid = 0;
    EpMemArbTags tag;
    EpMemArbLaneFlits data;
  };
  InnetEndpointParams p_;
  LocalMemory mem_;
  std::deque<Answers> due_;
  uint64_t reads_ = 0, writes_ = 0, adds_ = 0;
};

}  // namespace t3
