// The firmware's HAL (firmware/include/t3/hal.h) on a co-simulated register
// port, so that a co-simulation programs its block with the firmware driver
// itself: each mmio call is one APB transfer on the test's ApbMaster, and
// cycles of the co-simulation run until it completes; a poll reads until
// the value comes or its time runs out (cycles at ns_per_cycle).
//
// While a CosimHal lives, the HAL's C functions go to it (one at a time).
// Link t3_cosim_hal; a binary with the TLM host (tlm/host.cpp, the other
// HAL) must not.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "apb_master.h"

namespace t3::tb {

class CosimHal {
 public:
  // cycle(): runs one cycle of the co-simulation (the test's own step, which
  // drives the master and checks the cycle) and returns the transfer that
  // cycle completed, if any.
  CosimHal(ApbMaster& master, std::function<std::optional<ApbDone>()> cycle,
           double ns_per_cycle = 1.0);
  ~CosimHal();
  CosimHal(const CosimHal&) = delete;
  CosimHal& operator=(const CosimHal&) = delete;

  int write32(uint32_t addr, uint32_t value);
  int read32(uint32_t addr, uint32_t& value);
  int poll32(uint32_t addr, uint32_t mask, uint32_t want, uint32_t timeout_ns);

  // Every transfer the firmware made, in order, with its answer.
  const std::vector<ApbDone>& log() const { return log_; }
  uint64_t errors() const { return errors_; }

 private:
  ApbDone transfer(const ApbTransfer& t);

  ApbMaster& master_;
  std::function<std::optional<ApbDone>()> cycle_;
  double ns_per_cycle_;
  std::vector<ApbDone> log_;
  uint64_t errors_ = 0, cycles_ = 0;
};

}  // namespace t3::tb
