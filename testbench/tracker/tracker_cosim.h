// Tracker co-simulation: the SystemC module around the C++ cycle model and
// the Verilated rtl/tracker.sv, on the same input signals, compared on every
// output in every cycle. Plain C++ drives it one cycle at a time:
//
//   cosim.in().in_valid = true; ...; cosim.cycle();
//   if (cosim.in().in_valid && cosim.out().in_ready) { /* accepted */ }
//
// One instance per process (SystemC elaborates once); the RTL parameters are
// fixed at Verilation time and passed here by the build (tracker_params()).
#pragma once

#include <memory>
#include <string>

#include "cycle_compare.h"
#include "run_options.h"
#include "tracker/tracker.h"

namespace t3::tb {

// The parameters this binary's RTL was Verilated with.
TrackerParams tracker_params();

class TrackerCosim {
 public:
  explicit TrackerCosim(const RunOptions& opt);
  ~TrackerCosim();

  const TrackerParams& params() const;
  // Inputs driven in the next cycle() (they persist from cycle to cycle).
  TrackerInputs& in();
  // The RTL's outputs in the last cycle (equal to the model's unless a
  // mismatch was reported).
  const TrackerOutputs& out() const;
  // The model's outputs in the last cycle.
  const TrackerOutputs& model_out() const;

  // Drives in(), lets the outputs settle, compares, clocks. Returns false on a mismatch.
  bool cycle();
  // Holds reset for n cycles (all other inputs as they are), then releases it.
  void reset(unsigned n = 2);

  uint64_t cycles() const;
  uint64_t mismatches() const;
  const std::string& first_mismatch() const;
  void flush_waveforms();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace t3::tb
