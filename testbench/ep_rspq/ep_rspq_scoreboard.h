// ep_rspq's scoreboard, independent of the C++ model and of the RTL: it
// keeps its own ring arithmetic (the slot a grant names is the one after the
// header, after every flit queued, modulo SLOTS) and the packets it saw
// granted, each flit with the data the memory answered for its slot. Every
// cycle it predicts both ports' ready and slot (the home first; a
// reservation granted when 1 + len slots are free; one of more than MAX_LEN
// data slots never, BAD once), the stream (valid exactly when the head
// flit is there and, for a RESULT's last flit, released), idle, strays (an
// answer on either port no granted slot awaits, or one the home's port
// filled in the cycle), the interrupts and the status registers. A data flit is checked against
// the answer its own slot got, so an answer written to the wrong slot, or a
// stray written anywhere, is seen on the stream.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>

#include "complaints.h"
#include "ep_rspq/ep_rspq.h"
#include "reg_shadow.h"

namespace t3::tb {

class EpRspqScoreboard {
 public:
  explicit EpRspqScoreboard(const EpRspqParams& p) : p_(p) {}

  std::optional<std::string> observe(const EpRspqInputs& in, const EpRspqOutputs& out);

  const RegShadow<EpRspqRegMap>& regs() const { return regs_; }
  struct Counts {
    uint64_t results = 0, pull_rsps = 0, flits = 0, strays = 0, bad = 0, rel_strays = 0;
    uint64_t home_blocks = 0;    // cycles the home waited for room while the pull's packet would have fit
    uint64_t held_waits = 0;     // cycles a RESULT's last flit was there, the reader ready, but not yet released
    uint64_t two_answers = 0;    // cycles both answer ports filled a slot
    uint64_t full_waits = 0;     // cycles a reservation waited for room
    uint64_t out_of_order = 0;   // answers to a slot before an earlier slot's
    uint64_t bubbles = 0;        // cycles a packet's later flit waited for its data with the reader ready
    uint64_t max_queued = 0;
  };
  const Counts& counts() const { return n_; }

 private:
  struct Flit {
    Wide data;
    bool there;         // the header, or a data flit answered
    bool held = false;  // a RESULT's last flit: leaves once released
  };
  void reset();
  unsigned slot_of(size_t i) const { return unsigned((head_ + i) % p_.slots); }

  EpRspqParams p_;
  Complaints complaints_;
  RegShadow<EpRspqRegMap> regs_;
  std::deque<Flit> q_;  // the flits queued, the head first
  uint64_t head_ = 0;   // the head's slot
  uint64_t stat_[5] = {};  // STAT_RESULTS, _PULL_RSPS, _FLITS, _STRAYS, _BAD since reset
  int64_t last_fill_ = -1;
  uint64_t held_n_ = 0, rel_n_ = 0;  // RESULTs in the queue; releases not yet used
  bool over_seen_[2] = {};
  Counts n_;
};

}  // namespace t3::tb
