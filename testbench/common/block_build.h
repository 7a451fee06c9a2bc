// What one co-simulation build of a block is: the block, the parameters its
// RTL was Verilated with, and how to make its engines. The definitions come
// from a file CMake generates per configuration (cosim_config.cpp.in, by
// t3_block_cosim() in testbench/CMakeLists.txt); code includes the generated
// "cosim_config.h", which declares them for its block.
#pragma once

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "common/pins.h"
#include "cosim.h"
#include "run_options.h"

namespace t3::tb {

// The parameters this binary's RTL was Verilated with (every one of the
// block's list, from hw/<block>/<block>_params.def and the configuration).
template <class Block>
typename Block::Params built_params();

template <class Block>
std::unique_ptr<Engine<Block>> make_engine(EngineKind kind, const typename Block::Params& p);

// One form of the block alone, stepped one cycle at a time (the benchmark).
template <class Block>
class Form {
 public:
  virtual ~Form() = default;
  virtual void step(const typename Block::Inputs& in, typename Block::Outputs& out) = 0;
};
// kind: core, systemc (the model's module in the kernel), rtl_systemc, rtl_c.
template <class Block>
std::unique_ptr<Form<Block>> make_form(const std::string& kind, const typename Block::Params& p);

struct BuildInfo {
  std::string block, config, params;
  std::vector<PinInfo> pins;
};
// The build this binary was linked with.
const BuildInfo& this_build();

// --list-params and --list-pins: prints what they ask for and returns true
// (the program then stops); false when neither was given.
inline bool print_build_info(const RunOptions& opt) {
  const BuildInfo& build = this_build();
  if (opt.list_params) std::printf("%s\n", build.params.c_str());
  if (opt.list_pins)
    for (const PinInfo& p : build.pins)
      std::printf("%s %s %u\n", p.dir == PinDir::in ? "in" : "out", p.name, p.width);
  return opt.list_params || opt.list_pins;
}

// A program's run options from what its own options left (rest); true when
// the program is to stop now: --help printed (usage, then the run options'
// help), or --list-params / --list-pins answered.
inline bool parse_program_options(std::vector<char*>& rest, const char* usage, RunOptions& opt) {
  opt = parse_run_options(int(rest.size()), rest.data());
  if (opt.help) {
    std::printf("%s%s", usage, run_options_help().c_str());
    return true;
  }
  return print_build_info(opt);
}

// A co-simulation of the built RTL at the built parameters, engine and
// waveforms as the options say; mismatch waveforms go to
// <out>/<block>_mismatch_cycle<N>.vcd.
template <class Block>
std::unique_ptr<Cosim<Block>> make_cosim(const RunOptions& opt) {
  const typename Block::Params p = built_params<Block>();
  CosimOptions c;
  c.mismatch_prefix = opt.out_dir + "/" + Block::kName + "_mismatch";
  c.vcd = opt.vcd;
  return std::make_unique<Cosim<Block>>(p, make_engine<Block>(opt.engine, p), c);
}

}  // namespace t3::tb
