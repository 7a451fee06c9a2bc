// The co-simulation a test binary's tests share (SystemC elaborates once
// per process): built at the binary's parameters, with the engine, seed and
// folders of its command line. At the end of the run the binary fails if
// any cycle of it mismatched or broke the APB protocol, reset cycles
// included.
#pragma once

#include <memory>
#include <string>

#include "block_build.h"
#include "sc_test_env.h"

namespace t3::tb {

template <class Block>
Cosim<Block>& shared_cosim() {
  static const std::unique_ptr<Cosim<Block>> c = [] {
    auto made = make_cosim<Block>(test_options());
    Cosim<Block>* raw = made.get();
    at_end(std::string(Block::kName) + " co-simulation, every cycle of the run", [raw] {
      raw->flush_waveforms();
      if (raw->failures() == 0) return std::string();
      return std::to_string(raw->mismatches()) + " mismatching outputs, " +
             std::to_string(raw->apb_violations()) + " APB protocol violations; first: " +
             raw->first_failure();
    });
    return made;
  }();
  return *c;
}

}  // namespace t3::tb
