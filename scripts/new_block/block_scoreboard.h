// @name@'s transaction-level scoreboard, independent of the C++ model and of
// the RTL: written from the block's rules (stamped by scripts/new_block.py
// for the one-entry stage; replace the rules with the block's). Every cycle
// it predicts the outputs and the register port's answers from the words it
// saw taken and the registers it saw written.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>

#include "@name@/@name@.h"
#include "complaints.h"
#include "reg_shadow.h"

namespace t3::tb {

class @Camel@Scoreboard {
 public:
  explicit @Camel@Scoreboard(const @Camel@Params& p) : p_(p) {}

  // Every cycle, with the inputs driven and the outputs shown in it: an
  // error text, or nothing.
  std::optional<std::string> observe(const @Camel@Inputs& in, const @Camel@Outputs& out);

  const RegShadow<@Camel@RegMap>& regs() const { return regs_; }
  uint64_t taken() const { return taken_; }
  uint64_t left() const { return left_; }
  uint64_t wraps() const { return wraps_; }
  bool idle() const { return held_.empty(); }

 private:
  @Camel@Params p_;
  Complaints complaints_;
  RegShadow<@Camel@RegMap> regs_;
  std::deque<uint64_t> held_;  // words taken, not yet left
  uint64_t count_ = 0;         // words taken since reset (unbounded)
  uint64_t taken_ = 0, left_ = 0, wraps_ = 0;
};

}  // namespace t3::tb
