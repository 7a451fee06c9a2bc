// ep_det's scoreboard, independent of the C++ model and of the RTL: written
// from the block's rules (docs/blocks/ep_det.md, "Behaviour"). For each line
// it lists the reads the add must make, in rank order (every contributor's
// stage, flit by flit), checks each read's address and tag as it is made,
// keeps the ring of answers by read number, and checks every write: its
// place in the merge area, store or add, and its data, which must be what
// the memory holds at the matching read's address (tagged_memory.h's
// mem_data). Every cycle it predicts the outputs, the registers' values and
// the interrupt.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "complaints.h"
#include "ep_det/ep_det.h"
#include "reg_shadow.h"

namespace t3::tb {

class EpDetScoreboard {
 public:
  explicit EpDetScoreboard(const EpDetParams& p) : p_(p) {}

  // Every cycle, with the inputs driven and the outputs shown in it: an
  // error text, or nothing.
  std::optional<std::string> observe(const EpDetInputs& in, const EpDetOutputs& out);

  const RegShadow<EpDetRegMap>& regs() const { return regs_; }
  // What the traffic reached.
  struct Counts {
    uint64_t lines = 0, empty = 0, flits = 0, adds = 0, strays = 0, ring_full = 0;
  };
  const Counts& counts() const { return n_; }

 private:
  enum Phase { kIdle, kStart, kRun, kDone };
  void reset();

  EpDetParams p_;
  Complaints complaints_;
  RegShadow<EpDetRegMap> regs_;
  Phase ph_ = kIdle;
  uint32_t win_ = 0, line_ = 0, len_ = 0, dtype_ = 0;
  uint64_t merge_ = 0;
  std::vector<uint64_t> reads_;  // the line's reads' addresses, in order
  size_t rn_ = 0, un_ = 0;       // reads made; flits written
  std::vector<bool> answered_;   // by read number
  uint64_t lines_ = 0, flits_ = 0, strays_ = 0;  // unbounded
  Counts n_;
};

}  // namespace t3::tb
