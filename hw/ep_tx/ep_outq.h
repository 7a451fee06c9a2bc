// The endpoint's output queue (docs/blocks/innet_endpoint.md, "The output
// queue"), cycle model: the C++ twin of rtl/ep_outq.sv, cycle- and
// bit-exact with it. ep_tx's request queue and ep_rspq's response queue.
//
// A ring of SLOTS flits in packet order. A packet is pushed in one cycle:
// its header, ready at once, and len empty data slots after it, each filled
// by the memory's answer tagged with its slot, on one of FILLS fill ports,
// in any order; an answer for a slot that awaits none (or that a lower
// port fills in the cycle) is a stray and is written nowhere. The head
// leaves when it is there; a packet pushed with hold keeps its last flit
// until a release (one per such packet, in order).
#pragma once

#include <cstdint>
#include <vector>

#include "common/wide.h"

namespace t3 {

class EpOutq {
 public:
  static constexpr unsigned kMaxFills = 2;

  // What the queue's owner drives at an edge.
  struct Fill {
    bool valid = false;
    unsigned tag = 0;
    const Wide* data = nullptr;
  };
  struct Edge {
    bool push = false;
    const Wide* hdr = nullptr;  // the header pushed (push only)
    unsigned len = 0;           // its empty data slots, at most MAX_LEN
    bool hold = false;          // its last flit waits for a release
    bool rel = false;
    Fill fill[kMaxFills];
    bool out_ready = false;
  };

  // slots must hold a packet of max_len data flits (the owner's parameter
  // check names its own parameters); fills 1..kMaxFills.
  EpOutq(unsigned flit_w, unsigned max_len, unsigned slots, unsigned fills = 1);

  unsigned slots() const { return unsigned(slot_.size()); }
  unsigned count() const { return count_; }
  unsigned free() const { return slots() - count_; }
  // The slot of the first data flit of a packet pushed now.
  unsigned first() const { return (head_ + count_ + 1) % slots(); }
  bool out_valid() const {
    const Slot& h = slot_[head_];
    return count_ != 0 && !h.wait && (!h.held || rel_n_ != 0);
  }
  Wide out_flit() const { return out_valid() ? slot_[head_].flit : Wide{}; }
  // Fill port f's answer is a stray (given the lower ports' answers).
  bool stray(const Fill* fills, unsigned f) const { return fills[f].valid && !fills_slot(fills, f); }
  bool rel_stray(bool rel) const { return rel && rel_n_ >= held_n_; }

  void reset();
  void clock(const Edge& e);

 private:
  struct Slot {
    Wide flit;
    bool wait = false;  // a data slot pushed and not yet filled
    bool held = false;  // a held packet's last slot
  };
  bool fills_slot(const Fill* fills, unsigned f) const;
  void put(unsigned i, const Wide& f, bool wait, bool held);

  unsigned flit_w_, max_len_, fills_;
  std::vector<Slot> slot_;
  unsigned head_ = 0, count_ = 0;
  unsigned held_n_ = 0, rel_n_ = 0;  // held packets in the queue; releases not yet used
};

}  // namespace t3
