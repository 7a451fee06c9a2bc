// Command-line options shared by the co-simulation tests, the demo and the
// benchmark: seed, cycle count, engine, waveform file. Environment variables
// T3_SEED, T3_CYCLES and T3_ENGINE set the defaults so that ctest runs can be
// steered too.
#pragma once

#include <cstdint>
#include <string>

namespace t3::tb {

// How a co-simulation runs model and RTL in lock-step:
//   systemc  the model's SystemC module against Verilator's SystemC output,
//            clocked by the SystemC kernel (the reference; what integration uses)
//   direct   the C++ model against Verilator's plain C++ output, no kernel
//            (same pins, checks and scoreboard; for long regressions)
enum class EngineKind { systemc, direct };

const char* engine_name(EngineKind k);

struct RunOptions {
  uint64_t seed = 0;          // 0: pick one from the clock (printed, for reruns)
  uint64_t cycles = 0;        // 0: the program's own default
  EngineKind engine = EngineKind::systemc;
  std::string vcd;            // full-run waveform file, empty for none
  std::string out_dir = ".";  // where mismatch waveforms go
  bool help = false;
  bool list_pins = false;     // print the pin list at the built parameters and exit
  bool list_params = false;   // print the built parameters and exit
};

// Parses argv (after GoogleTest removed its own flags). Throws
// std::invalid_argument naming the bad option.
RunOptions parse_run_options(int argc, char** argv);
std::string run_options_help();
// A program's own numeric option (a demo's --gpus, --m, ...): decimal,
// lo..hi, or std::invalid_argument naming the option and the range.
uint32_t parse_option_in_range(const std::string& option, const char* text, uint32_t lo,
                               uint32_t hi);
// Fills in a seed when none was given.
uint64_t resolve_seed(RunOptions& opt);

}  // namespace t3::tb
