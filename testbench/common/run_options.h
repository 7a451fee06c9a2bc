// Command-line options shared by the co-simulation tests, the demo and the
// benchmark: seed, cycle count, waveform file. Environment variables T3_SEED
// and T3_CYCLES set the defaults so that ctest runs can be steered too.
#pragma once

#include <cstdint>
#include <string>

namespace t3::tb {

struct RunOptions {
  uint64_t seed = 0;          // 0: pick one from the clock (printed, for reruns)
  uint64_t cycles = 0;        // 0: the program's own default
  std::string vcd;            // full-run waveform file, empty for none
  std::string out_dir = ".";  // where mismatch waveforms go
  bool help = false;
};

// Parses argv (after GoogleTest removed its own flags). Throws
// std::invalid_argument naming the bad option.
RunOptions parse_run_options(int argc, char** argv);
std::string run_options_help();
// Fills in a seed when none was given.
uint64_t resolve_seed(RunOptions& opt);

}  // namespace t3::tb
