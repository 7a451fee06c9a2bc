// ep_final's scoreboard, independent of the C++ model and of the RTL:
// written from the block's rules (docs/blocks/ep_final.md). It knows a line
// by its header and its two addresses: the reads it must make (src, in flit
// order, tag = the flit's number), the data each add must carry (what the
// memory answers for that flit's address, testbench/common/tagged_memory.h)
// and when each add may go (its answer in, the adds before it done).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "complaints.h"
#include "ep_final/ep_final.h"
#include "reg_shadow.h"

namespace t3::tb {

class EpFinalScoreboard {
 public:
  explicit EpFinalScoreboard(const EpFinalParams& p) : p_(p) {}

  std::optional<std::string> observe(const EpFinalInputs& in, const EpFinalOutputs& out);

  const RegShadow<EpFinalRegMap>& regs() const { return regs_; }
  uint64_t lines() const { return lines_total_; }
  uint64_t strays() const { return strays_total_; }
  uint64_t out_of_order() const { return out_of_order_; }  // answers before an earlier flit's

 private:
  EpFinalParams p_;
  Complaints complaints_;
  RegShadow<EpFinalRegMap> regs_;
  bool busy_ = false;
  uint64_t src_ = 0, dst_ = 0;
  Wide hdr_;
  unsigned len_ = 0, read_ = 0, added_ = 0;
  uint8_t dtype_ = 0;
  uint32_t waiting_ = 0, in_ = 0;  // a bit a flit: read, not answered; answered
  uint64_t lines_ = 0, flits_ = 0, strays_ = 0;  // since reset
  uint64_t lines_total_ = 0, strays_total_ = 0, out_of_order_ = 0;
};

}  // namespace t3::tb
