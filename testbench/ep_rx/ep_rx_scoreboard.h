// ep_rx's scoreboard, independent of the C++ model and of the RTL: written
// from the block's rules (docs/blocks/ep_rx.md, "Behaviour"). It follows
// each packet on rsp_in from its header (its own window lookup and checks,
// in 128-bit arithmetic; the front end it shares with ep_req's scoreboard,
// testbench/common/ep_front_ref.h) through the counter port's request and answer to
// the writes its data flits must make and what its end must hand on, and
// keeps the two output queues as plain lists. Every cycle it predicts the
// outputs, the registers' values and the interrupt.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "common/packet.h"
#include "complaints.h"
#include "ep_front_ref.h"
#include "ep_window_ref.h"
#include "ep_rx/ep_rx.h"
#include "reg_shadow.h"

namespace t3::tb {

class EpRxScoreboard {
 public:
  explicit EpRxScoreboard(const EpRxParams& p) : p_(p), front_(p.len_w(), p.stat_w) {}

  // Every cycle, with the inputs driven and the outputs shown in it: an
  // error text, or nothing.
  std::optional<std::string> observe(const EpRxInputs& in, const EpRxOutputs& out);

  const RegShadow<EpRxRegMap>& regs() const { return regs_; }
  // What the traffic reached.
  struct Counts {
    uint64_t drops[16] = {};  // by cause
    uint64_t results = 0, pulled = 0, homes = 0, merged = 0, holds = 0, waits = 0, writes = 0, adds = 0;
    uint64_t moved = 0;  // decodes on a table changed since their lookup
  };
  const Counts& counts() const { return n_; }

 private:
  // The body's steps (the front end's kBody).
  enum Body { kData, kClear };
  struct Fin {
    uint64_t src, dst;
    Wide hdr;
  };
  struct Home {
    unsigned win;
    uint32_t line, len;
  };
  // The header against the table: the front end's judgement and where the
  // packet goes.
  struct Verdict {
    EpFrontRef::Judged j;
    unsigned win = 0;
    uint64_t dst = 0, merge = 0, src = 0;  // the packet's place in each area
  };
  Verdict judge(const EpWinTable& tbl, bool res_room) const;
  void reset();

  EpRxParams p_;
  Complaints complaints_;
  RegShadow<EpRxRegMap> regs_;
  EpFrontRef front_;
  Body body_ = kData;
  std::optional<EpWinFound> found_;  // the lookup's
  EpWinTable look_tbl_;               // the table it looked in
  Verdict v_;
  unsigned done_ = 0;  // data flits written
  bool first_ = false, whole_ = false, res_resv_ = false, fin_resv_ = false;
  std::deque<Wide> resq_;
  std::deque<Fin> finq_;
  std::optional<Home> home_;
  uint64_t results_ = 0, pull_rsps_ = 0, partials_ = 0;  // unbounded
  Counts n_;
};

}  // namespace t3::tb
