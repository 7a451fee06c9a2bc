// Writes a Value Change Dump of sampled signals, one sample per clock cycle.
// Used for the waveform window around a co-simulation mismatch, where tracing
// the whole run would cost more than the run itself.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace t3::tb {

struct VcdSignal {
  std::string scope;  // "in", "model", "rtl", ...
  std::string name;
  unsigned width;
};

// samples[i][s] is signal s in cycle first_cycle + i. A clock is added.
void write_vcd(const std::string& path, const std::vector<VcdSignal>& signals,
               uint64_t first_cycle, const std::vector<std::vector<uint64_t>>& samples,
               unsigned period_ns = 10);

}  // namespace t3::tb
