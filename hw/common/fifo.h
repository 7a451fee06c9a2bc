// The cycle models' side of rtl/t3_fifo.sv: a first-word-fall-through queue
// of `depth` words behind a t3::Mem, the head in a register (read without a
// cycle of latency), the words behind it in the array read one cycle ahead,
// and the one word the array cannot give in time (written at the edge it
// would be read) kept beside it. Same rules as the RTL, word for word, so
// that a model built on it has the RTL's state (its head register's stale
// word after a pop included). ctest fifo holds the two to each other.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "t3_mem.h"

namespace t3 {

template <class Word>
class Fifo {
 public:
  explicit Fifo(unsigned depth) : depth_(checked(depth)), mem_(depth) {}

  bool valid() const { return cnt_ != 0; }
  // The head (the old head, or Word{} before the first push, when !valid()).
  const Word& rdata() const { return hd_; }
  bool full() const { return cnt_ == depth_; }
  unsigned count() const { return cnt_; }
  unsigned depth() const { return depth_; }

  // One rising edge. push: wdata joins the tail (refused when full, unless
  // the head leaves in the same edge); pop: the head leaves (ignored when
  // empty). rst_n low empties the queue and changes nothing else.
  void clock(bool rst_n, bool push_in, const Word& wdata, bool pop_in) {
    const bool pop = pop_in && cnt_ != 0;
    const bool push = push_in && (cnt_ < depth_ || pop);
    const bool from_ram = pop && cnt_ >= 2;
    const bool to_head = push && (cnt_ == 0 || (pop && cnt_ == 1));
    const bool to_ram = push && !to_head;
    const unsigned rd_n = from_ram ? next(rd_) : rd_;
    if (!rst_n) {
      mem_.clock(false, 0, wdata, true, rd_n);
      cnt_ = rd_ = wr_ = 0;
      byp_v_ = false;
      return;
    }
    if (from_ram) hd_ = byp_v_ ? byp_ : mem_.rdata();
    else if (to_head) hd_ = wdata;
    const bool byp_v = to_ram && wr_ == rd_n;
    if (to_ram) byp_ = wdata;
    mem_.clock(to_ram, wr_, wdata, true, rd_n);
    if (to_ram) wr_ = next(wr_);
    rd_ = rd_n;
    byp_v_ = byp_v;
    cnt_ = cnt_ + unsigned(push) - unsigned(pop);
  }

 private:
  static unsigned checked(unsigned depth) {
    if (depth < 2 || depth > 4096)
      throw std::invalid_argument("t3::Fifo depth = " + std::to_string(depth) +
                                  " is out of range; allowed: 2..4096");
    return depth;
  }
  unsigned next(unsigned p) const { return p + 1 == depth_ ? 0 : p + 1; }

  unsigned depth_;
  Mem<Word> mem_;
  Word hd_{}, byp_{};
  unsigned cnt_ = 0, rd_ = 0, wr_ = 0;
  bool byp_v_ = false;
};

}  // namespace t3
