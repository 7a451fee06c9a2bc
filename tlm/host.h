// The host CPU that runs the firmware: a TLM-2.0 initiator and the HAL the
// firmware is written against (firmware/include/t3/hal.h: mmio_write32,
// mmio_read32, mmio_poll32), so that firmware runs unchanged against the
// models, or the RTL through tlm_apb_bridge.h. Each access is one blocking
// transaction; its annotated delay is waited for, so that simulated time
// passes as the firmware runs. With a trace stream set, every access is a
// line of tlm/reg_trace.h's register trace.
//
// The firmware runs in a SystemC thread: run(fn) spawns one that calls fn()
// with this host bound to the HAL and records what it returned.
#pragma once

#include <cstdint>
#include <functional>
#include <ostream>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "reg_trace.h"

namespace t3 {

class Host : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<Host> socket{"socket"};

  // poll_interval: simulated time between two reads of mmio_poll32.
  Host(sc_core::sc_module_name name, RegTrace trace,
       sc_core::sc_time poll_interval = sc_core::sc_time(10, sc_core::SC_NS));

  void set_trace(std::ostream* out) { out_ = out; }
  // Spawns the firmware thread (again after the last one is done());
  // result() is fn's return value once done().
  void run(std::function<int()> fn);
  bool done() const { return done_; }
  int result() const { return result_; }
  uint64_t accesses() const { return accesses_; }
  uint64_t errors() const { return errors_; }

  // The HAL's calls, for the thread the firmware runs in.
  int write32(uint32_t addr, uint32_t value);
  int read32(uint32_t addr, uint32_t& value);
  int poll32(uint32_t addr, uint32_t mask, uint32_t want, uint32_t timeout_ns);

 private:
  int access(bool write, uint32_t addr, uint32_t& value);

  RegTrace trace_;
  sc_core::sc_time poll_interval_;
  std::ostream* out_ = nullptr;
  bool done_ = false;
  int result_ = 0;
  uint64_t accesses_ = 0, errors_ = 0;
};

}  // namespace t3
