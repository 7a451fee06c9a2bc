// The endpoint's output queue (docs/blocks/innet_endpoint.md, "The output
// queue"), cycle model: the C++ twin of rtl/ep_outq.sv, cycle- and
// bit-exact with it. ep_tx's request queue and the response queue.
//
// A ring of SLOTS flits in packet order. A packet is pushed in one cycle:
// its header, ready at once, and len empty data slots after it, each filled
// by the memory's answer tagged with its slot, in any order; an answer for a
// slot that awaits none is a stray and is written nowhere. The head leaves
// when it is there.
#pragma once

#include <cstdint>
#include <vector>

#include "common/wide.h"

namespace t3 {

class EpOutq {
 public:
  // What the queue's owner drives at an edge.
  struct Edge {
    bool push = false;
    const Wide* hdr = nullptr;  // the header pushed (push only)
    unsigned len = 0;           // its empty data slots, at most MAX_LEN
    bool fill = false;
    unsigned tag = 0;
    const Wide* data = nullptr; // the answer (fill only)
    bool out_ready = false;
  };

  // slots must hold a packet of max_len data flits (the owner's parameter
  // check names its own parameters).
  EpOutq(unsigned flit_w, unsigned max_len, unsigned slots);

  unsigned slots() const { return unsigned(slot_.size()); }
  unsigned count() const { return count_; }
  unsigned free() const { return slots() - count_; }
  // The slot of the first data flit of a packet pushed now.
  unsigned first() const { return (head_ + count_ + 1) % slots(); }
  bool out_valid() const { return count_ != 0 && !slot_[head_].wait; }
  Wide out_flit() const { return out_valid() ? slot_[head_].flit : Wide{}; }
  bool stray(bool fill, unsigned tag) const { return fill && !awaited(tag); }

  void reset();
  void clock(const Edge& e);

 private:
  struct Slot {
    Wide flit;
    bool wait = false;  // a data slot pushed and not yet filled
  };
  bool awaited(unsigned tag) const { return tag < slots() && slot_[tag].wait; }
  void put(unsigned i, const Wide& f, bool wait);

  unsigned flit_w_, max_len_;
  std::vector<Slot> slot_;
  unsigned head_ = 0, count_ = 0;
};

}  // namespace t3
