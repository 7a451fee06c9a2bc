// ep_res's scoreboard, independent of the C++ model and of the RTL: it
// keeps, for each counter, the list of the spans its descriptors covered
// since its range began (not a joined range), and finds a RESULT's counter
// by asking which live counters have a span's hull around its address. Every
// cycle it predicts the three readies (ep_rx first, then ep_home, then
// ep_final), the header handed on (a RESULT's ctr replaced by the lowest
// matching counter or 0xFF, a PULL_RSP's untouched), the live counters,
// the UNMATCHED interrupt and the status registers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "complaints.h"
#include "ep_res/ep_res.h"
#include "reg_shadow.h"

namespace t3::tb {

class EpResScoreboard {
 public:
  explicit EpResScoreboard(const EpResParams& p) : p_(p), spans_(p.ctrs) {}

  std::optional<std::string> observe(const EpResInputs& in, const EpResOutputs& out);

  const RegShadow<EpResRegMap>& regs() const { return regs_; }
  struct Counts {
    uint64_t from[3] = {};   // headers handed on from ep_rx, ep_home, ep_final
    uint64_t matched = 0, unmatched = 0;
    uint64_t waits = 0;      // cycles a source waited for a higher one
    uint64_t joined = 0;     // descriptors that joined a live range
    uint64_t ended = 0;      // completions that ended a live range
    uint64_t not_lowest = 0; // RESULTs whose address was in two live ranges (the lowest counter chosen)
  };
  const Counts& counts() const { return n_; }

 private:
  void reset();

  EpResParams p_;
  Complaints complaints_;
  RegShadow<EpResRegMap> regs_;
  std::vector<std::vector<std::pair<uint64_t, uint64_t>>> spans_;  // per counter; empty: no range
  uint64_t stat_[2] = {};  // STAT_RESULTS, STAT_UNMATCHED since reset
  Counts n_;
};

}  // namespace t3::tb
