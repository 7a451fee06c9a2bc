// ep_mem_arb's scoreboard, independent of the C++ model and of the RTL:
// written from the block's rules as a list of operations, not as packed
// buses. Every cycle it makes the list of ports that ask, grants the first
// MEM_OPS of them in port order and expects lane k to carry the k-th
// granted operation whole (its op, type, address, data, and the port's
// number above its tag); it expects every answer at the port its tag
// names, unless a lower lane answered that port in the cycle (a clash) or
// the tag names no port (a stray); and it keeps the status counters and
// the LOST interrupt from those.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "complaints.h"
#include "ep_mem_arb/ep_mem_arb.h"
#include "reg_shadow.h"

namespace t3::tb {

class EpMemArbScoreboard {
 public:
  explicit EpMemArbScoreboard(const EpMemArbParams& p) : p_(p) {}

  std::optional<std::string> observe(const EpMemArbInputs& in, const EpMemArbOutputs& out);

  const RegShadow<EpMemArbRegMap>& regs() const { return regs_; }
  struct Counts {
    uint64_t reads = 0, writes = 0, adds = 0, waits = 0, strays = 0, clashes = 0, answers = 0;
    uint64_t full_cycles = 0;  // cycles every lane was granted
    uint64_t last_port_granted = 0;  // grants of the last port (the lowest priority)
  };
  const Counts& counts() const { return n_; }

 private:
  EpMemArbParams p_;
  Complaints complaints_;
  RegShadow<EpMemArbRegMap> regs_;
  uint64_t stat_[5] = {};  // STAT_READS, _WRITES, _WAITS, _STRAYS, _CLASHES since reset
  Counts n_;
};

}  // namespace t3::tb
