// Advances a SystemC simulation one clock cycle at a time from plain C++:
// inputs are driven after a rising edge, outputs are read when settled,
// just before the next rising edge.
#pragma once

#include <cstdint>
#include <systemc>

namespace t3::tb {

class CycleStepper {
 public:
  static constexpr double kPeriodNs = 10.0;
  static constexpr double kDriveNs = 2.0;   // after the rising edge
  static constexpr double kSampleNs = 8.0;  // outputs settled

  explicit CycleStepper(const char* clock_name = "clk")
      : clk(clock_name, sc_core::sc_time(kPeriodNs, sc_core::SC_NS)) {}

  sc_core::sc_clock clk;

  // From the drive point to the sample point of the same cycle.
  void settle() {
    if (!started_) {
      sc_core::sc_start(sc_core::sc_time(kDriveNs, sc_core::SC_NS));
      started_ = true;
    }
    sc_core::sc_start(sc_core::sc_time(kSampleNs - kDriveNs, sc_core::SC_NS));
  }
  // From the sample point across the rising edge to the next drive point.
  void edge() {
    sc_core::sc_start(sc_core::sc_time(kPeriodNs - kSampleNs + kDriveNs, sc_core::SC_NS));
    ++cycle_;
  }
  uint64_t cycle() const { return cycle_; }

 private:
  bool started_ = false;
  uint64_t cycle_ = 0;
};

}  // namespace t3::tb
