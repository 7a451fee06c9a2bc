// ep_home's scoreboard, independent of the C++ model and of the RTL: written
// from the block's rules (docs/blocks/ep_home.md, "Behaviour"). It keeps
// the home queue and the result queue as plain lists and the pending lines
// as a number, follows the sweep round the counters and each line from its
// start through the reservation, its reads (their tags), the answers and
// the copy to dst (whose data it knows from the read addresses:
// tagged_memory.h's mem_data) to its counter's CLEAR. Every cycle it
// predicts the outputs, the registers' values and the interrupt.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "complaints.h"
#include "ep_home/ep_home.h"
#include "reg_shadow.h"

namespace t3::tb {

class EpHomeScoreboard {
 public:
  explicit EpHomeScoreboard(const EpHomeParams& p) : p_(p), answered_(p.max_len) {}

  // Every cycle, with the inputs driven and the outputs shown in it: an
  // error text, or nothing.
  std::optional<std::string> observe(const EpHomeInputs& in, const EpHomeOutputs& out);

  const RegShadow<EpHomeRegMap>& regs() const { return regs_; }
  // What the traffic reached.
  struct Counts {
    uint64_t pulses = 0, to_pending = 0, det_lines = 0, swept = 0, missed = 0, sent = 0, copied = 0, strays = 0,
             bad = 0, given_up = 0;
    uint64_t max_pending = 0;
  };
  const Counts& counts() const { return n_; }

 private:
  enum Phase { kIdle, kAsk, kAnswer, kStart, kReserve, kRead, kDrain, kClear };
  struct Line {
    uint32_t win, line, len;
  };
  int awaited(const EpHomeInputs& in) const;
  bool copy_due() const;
  void reset();

  EpHomeParams p_;
  Complaints complaints_;
  RegShadow<EpHomeRegMap> regs_;
  Phase ph_ = kIdle;
  std::deque<Line> homeq_;
  std::deque<Wide> resq_;
  uint64_t pending_ = 0;
  uint32_t sweep_at_ = 0;
  // Counters the sweep has read and found nothing in since a line last
  // went to pending or was found (or seen whole but still merging): a
  // whole round of them gives the pending lines up.
  uint64_t barren_ = 0;
  Line l_{};
  Wide hdr_;
  uint64_t merge_ = 0, dst_ = 0;  // the line's first flit in each
  bool copy_ = false, res_resv_ = false;
  uint32_t first_ = 0, issued_ = 0, back_ = 0, copied_ = 0;
  std::vector<bool> answered_;
  uint64_t results_ = 0, sweeps_ = 0, strays_ = 0, bad_ = 0, lost_ = 0;  // unbounded
  Counts n_;
};

}  // namespace t3::tb
