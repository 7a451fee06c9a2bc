// ep_window's scoreboard, independent of the C++ model and of the RTL:
// written from the block's rules (docs/blocks/ep_window.md) as a list of
// (cause, broken?) pairs over byte intervals in 128-bit arithmetic, not as
// check_window()'s chain. It keeps its own table from the commands it saw
// written, and every cycle predicts tbl_o (by the record layout of the
// page), the three lookups (a search of every window) and the register
// port's answers (STATUS, WIN_VALID, WIN_RD_*, PARAM_*, the interrupt).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "complaints.h"
#include "ep_window/ep_window.h"
#include "reg_shadow.h"

namespace t3::tb {

class EpWindowScoreboard {
 public:
  explicit EpWindowScoreboard(const EpWindowParams& p) : p_(p) {}

  std::optional<std::string> observe(const EpWindowInputs& in, const EpWindowOutputs& out);

  const RegShadow<EpWindowRegMap>& regs() const { return regs_; }
  uint64_t written() const { return written_; }
  uint64_t cleared() const { return cleared_; }
  uint64_t refused(unsigned cause) const { return refused_[cause]; }
  uint64_t hits() const { return hits_; }
  uint64_t counter_hits() const { return counter_hits_; }

  // The scoreboard's reading of a window (its own struct, not EpWin).
  struct Win {
    bool valid = false, home = false, det = false;
    unsigned dtype = 0, copy = 0, expected = 0, count_base = 0;
    uint64_t net = 0, bytes = 0, src = 0, dst = 0, merge = 0, stage = 0, mask = 0;
  };
  // The cause STATUS shows for writing w at index idx, and the window it
  // overlaps.
  std::pair<unsigned, unsigned> verdict(unsigned idx, const Win& w) const;

 private:
  Win staged() const;
  std::optional<unsigned> holder(uint64_t a, unsigned len) const;
  std::optional<unsigned> counter_holder(uint64_t c) const;

  EpWindowParams p_;
  Complaints complaints_;
  RegShadow<EpWindowRegMap> regs_;
  Win tbl_[16];
  unsigned cause_ = 0, with_ = 0;
  std::optional<std::pair<unsigned, Win>> pending_;  // accepted, written at the next edge
  bool refused_now_ = false;  // a command refused at the last edge: its event in this cycle
  uint64_t written_ = 0, cleared_ = 0, refused_[32] = {}, hits_ = 0, counter_hits_ = 0;
};

}  // namespace t3::tb
