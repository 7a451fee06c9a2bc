// Cycle-by-cycle comparison of a C++/SystemC model against Verilated RTL.
// Every registered output is compared in every cycle; on a mismatch the
// cycle, signal and both values are printed and a waveform of the cycles
// around it (inputs and both sets of outputs) is written.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "vcd_writer.h"

namespace t3::tb {

class CycleCompare {
 public:
  using Probe = std::function<uint64_t()>;

  struct Options {
    std::string waveform_prefix = "mismatch";  // <prefix>_cycle<N>.vcd
    unsigned cycles_before = 32;
    unsigned cycles_after = 8;
    unsigned max_reports = 10;  // printed mismatch lines
    unsigned max_waveforms = 3;
  };

  explicit CycleCompare(Options opt);

  void add_input(const std::string& name, unsigned width, Probe get);
  void add_output(const std::string& name, unsigned width, Probe model, Probe rtl);

  // Samples and compares everything for this cycle; returns false on a mismatch.
  bool check(uint64_t cycle);
  // Writes a pending waveform window (call at the end of a run).
  void flush();

  uint64_t mismatches() const { return mismatches_; }
  const std::string& first_report() const { return first_report_; }
  const std::string& last_waveform() const { return last_waveform_; }

 private:
  struct Output {
    std::string name;
    unsigned width;
    Probe model, rtl;
  };
  void write_window();

  Options opt_;
  std::vector<VcdSignal> signals_;
  std::vector<Probe> inputs_;
  std::vector<Output> outputs_;
  std::deque<std::vector<uint64_t>> history_;
  uint64_t history_first_ = 0;
  uint64_t mismatches_ = 0;
  uint64_t dump_at_ = UINT64_MAX;
  uint64_t mismatch_cycle_ = 0;
  unsigned waveforms_ = 0;
  std::string first_report_;
  std::string last_waveform_;
};

}  // namespace t3::tb
