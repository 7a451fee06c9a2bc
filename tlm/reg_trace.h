// A readable register trace: each access a line with the simulated time, the
// access, the address, block.REGISTER and the value with its fields named,
// and the answer, e.g.
//
//   120 ns  W 0x00001008 dma_trigger.BURST      = 0x00000006  LOG2=6
//   160 ns  R 0x00000024 tracker.STATUS         = 0x00000100  CFG_ERROR=0 SET_FULL=0 LIVE=1
//   200 ns  W 0x00000028 tracker.STAT_UPDATES   = 0x00000001  ERROR (TLM_COMMAND_ERROR_RESPONSE)
//
// Names come from the generated register tables (hw/<block>/<block>_regs.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/regs.h"

namespace t3 {

struct TraceWindow {
  std::string block;
  uint64_t base;
  const RegInfo* regs;
  unsigned n_regs;
};

class RegTrace {
 public:
  explicit RegTrace(std::vector<TraceWindow> windows) : windows_(std::move(windows)) {}
  // "block.REGISTER" for an address, or "unmapped".
  std::string name(uint64_t addr) const;
  // One line (no newline): time, W/R, address, name, value, fields, answer.
  std::string line(const std::string& time, bool write, uint64_t addr, uint32_t value,
                   const std::string& error) const;

 private:
  const RegInfo* find(uint64_t addr, const TraceWindow** w) const;
  std::vector<TraceWindow> windows_;
};

// Golden traces (a configuration's writes written by hand, one a line):
// a line's first five words, "W <address> <block.REGISTER> = <value>" (a
// trace line's time before them and its field decode after them, and a
// golden line's comment after '#', are left out); the write lines of a
// trace; the write lines of a golden file (throws std::runtime_error naming
// a file it cannot read).
std::string trace_write_words(const std::string& line);
std::vector<std::string> trace_writes(const std::string& trace);
std::vector<std::string> golden_writes(const std::string& path);

}  // namespace t3
