// ep_req's scoreboard, independent of the C++ model and of the RTL: written
// from the block's rules (docs/blocks/ep_req.md, "Behaviour"). It follows
// each packet on req_in from its header (its own window lookup and checks,
// in 128-bit arithmetic) through the response queue's reservation and the
// reads of a PULL, or the counter port's request and answer and the writes
// of a PUSH or a WRITE, and keeps the staged lines' queue as a plain list.
// Every cycle it predicts the outputs, the registers' values and the
// interrupt.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>

#include "common/packet.h"
#include "complaints.h"
#include "ep_front_ref.h"
#include "ep_window_ref.h"
#include "ep_req/ep_req.h"
#include "reg_shadow.h"

namespace t3::tb {

class EpReqScoreboard {
 public:
  explicit EpReqScoreboard(const EpReqParams& p) : p_(p), front_(p.len_w(), p.stat_w) {}

  // Every cycle, with the inputs driven and the outputs shown in it: an
  // error text, or nothing.
  std::optional<std::string> observe(const EpReqInputs& in, const EpReqOutputs& out);

  const RegShadow<EpReqRegMap>& regs() const { return regs_; }
  // What the traffic reached.
  struct Counts {
    uint64_t drops[16] = {};  // by cause
    uint64_t pulls = 0, reads = 0, pushes = 0, staged = 0, holds = 0, writes = 0, adds = 0, wraps = 0;
    uint64_t moved = 0;  // decodes on a table changed since their lookup
  };
  const Counts& counts() const { return n_; }

 private:
  // The body's steps (the front end's kBody).
  enum Body { kData, kReserve, kRead };
  struct Staged {
    unsigned win;
    uint32_t line, len;
  };
  // The header against the table: the front end's judgement and where the
  // packet goes.
  struct Verdict {
    EpFrontRef::Judged j;
    unsigned win = 0;
    uint32_t dtype = 0;
    bool add = false;
    uint64_t addr = 0;
  };
  Verdict judge(const EpWinTable& tbl) const;
  Wide pull_rsp(uint8_t node) const;
  void reset();

  EpReqParams p_;
  Complaints complaints_;
  RegShadow<EpReqRegMap> regs_;
  EpFrontRef front_;
  Body body_ = kData;
  std::optional<EpWinFound> found_;  // the lookup's
  EpWinTable look_tbl_;               // the table it looked in
  Verdict v_;
  unsigned done_ = 0, tag_ = 0;  // data flits written or lines read
  bool whole_ = false, resv_ = false;
  std::deque<Staged> detq_;
  uint64_t pulls_ = 0, pushes_ = 0, writes_ = 0;  // unbounded
  Counts n_;
};

}  // namespace t3::tb
