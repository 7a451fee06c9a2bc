// ep_count's scoreboard, independent of the C++ model and of the RTL:
// written from the block's rules (docs/blocks/ep_count.md). It keeps every
// line's count and length as plain arrays and applies each request granted,
// in grant order, to them: no read port, no forwarding, no pipeline. Every
// cycle it predicts the grant, the answer of the request granted a cycle
// before, the clearing after a reset, the interrupts and the register
// port's answers.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "complaints.h"
#include "ep_count/ep_count.h"
#include "reg_shadow.h"

namespace t3::tb {

class EpCountScoreboard {
 public:
  explicit EpCountScoreboard(const EpCountParams& p);

  // Every cycle, with the inputs driven and the outputs shown in it: an
  // error text, or nothing.
  std::optional<std::string> observe(const EpCountInputs& in, const EpCountOutputs& out);

  const RegShadow<EpCountRegMap>& regs() const { return regs_; }
  // What the traffic reached: answers per code, answers whole, and grants
  // of the line whose answer (a write) was given in the same cycle.
  uint64_t answers(EpCountCode c) const { return codes_[unsigned(c)]; }
  uint64_t wholes() const { return wholes_; }
  uint64_t same_line() const { return same_line_; }
  uint64_t resets() const { return resets_; }
  uint32_t count(uint32_t line) const { return cnt_.at(line); }

 private:
  struct Expect {
    unsigned port = 0;
    EpCountCode code = EpCountCode::done;
    uint32_t count = 0, len = 0, line = 0;
    bool whole = false, wrote = false;
  };
  Expect apply(unsigned port, const EpCountInputs& in);

  EpCountParams p_;
  Complaints complaints_;
  RegShadow<EpCountRegMap> regs_;
  std::vector<uint32_t> cnt_, len_;
  uint64_t clearing_left_;
  std::optional<Expect> pending_;
  uint64_t ops_ = 0, over_ = 0, held_ = 0, bad_ = 0;  // unbounded
  uint32_t last_ = 0;                                  // LAST as read
  uint64_t codes_[4] = {}, wholes_ = 0, same_line_ = 0, resets_ = 0;
};

}  // namespace t3::tb
