// sc_spawn (the firmware thread) needs SystemC's dynamic processes.
#define SC_INCLUDE_DYNAMIC_PROCESSES
#include "host.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>

#include "common/tlm_word.h"
#include "t3/hal.h"

namespace t3 {
namespace {
// The host each firmware thread's HAL calls go to: several hosts may run
// firmware at once (SystemC threads take turns in one OS thread).
std::map<const sc_core::sc_process_b*, Host*>& hosts() {
  static std::map<const sc_core::sc_process_b*, Host*> m;
  return m;
}

// A HAL call from outside a firmware thread is a bug in the caller; the C
// firmware cannot take an exception, so it ends here, saying why.
Host& current() {
  const auto it = hosts().find(sc_core::sc_get_current_process_b());
  if (it == hosts().end()) {
    std::fprintf(stderr, "t3 HAL: mmio call outside Host::run(): no host runs firmware\n");
    std::abort();
  }
  return *it->second;
}
}  // namespace

Host::Host(sc_core::sc_module_name name, RegTrace trace, sc_core::sc_time poll_interval)
    : sc_module(name), trace_(std::move(trace)), poll_interval_(poll_interval) {}

void Host::run(std::function<int()> fn) {
  done_ = false;
  sc_core::sc_spawn([this, fn] {
    hosts()[sc_core::sc_get_current_process_b()] = this;
    result_ = fn();
    hosts().erase(sc_core::sc_get_current_process_b());
    done_ = true;
  });
}

int Host::access(bool write, uint32_t addr, uint32_t& value) {
  unsigned char buf[4];
  std::memcpy(buf, &value, 4);
  tlm::tlm_generic_payload t;
  word_payload(t, write, addr, buf);
  sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
  const std::string when = sc_core::sc_time_stamp().to_string();
  socket->b_transport(t, delay);
  wait(delay);
  ++accesses_;
  const bool ok = t.is_response_ok();
  if (!write && ok) std::memcpy(&value, buf, 4);
  if (!ok) ++errors_;
  if (out_)
    *out_ << trace_.line(when, write, addr, value, ok ? "" : t.get_response_string()) << "\n";
  return ok ? T3_MMIO_OK : T3_MMIO_ERROR;
}

int Host::write32(uint32_t addr, uint32_t value) { return access(true, addr, value); }

int Host::read32(uint32_t addr, uint32_t& value) {
  value = 0;
  return access(false, addr, value);
}

int Host::poll32(uint32_t addr, uint32_t mask, uint32_t want, uint32_t timeout_ns) {
  const sc_core::sc_time end = sc_core::sc_time_stamp() + sc_core::sc_time(timeout_ns, sc_core::SC_NS);
  for (;;) {
    uint32_t v = 0;
    if (read32(addr, v) != T3_MMIO_OK) return T3_MMIO_ERROR;
    if ((v & mask) == want) return T3_MMIO_OK;
    if (sc_core::sc_time_stamp() >= end) return T3_MMIO_TIMEOUT;
    wait(poll_interval_);
  }
}

}  // namespace t3

extern "C" {
int mmio_write32(uint32_t addr, uint32_t value) { return t3::current().write32(addr, value); }
int mmio_read32(uint32_t addr, uint32_t* value) { return t3::current().read32(addr, *value); }
int mmio_poll32(uint32_t addr, uint32_t mask, uint32_t want, uint32_t timeout_ns) {
  return t3::current().poll32(addr, mask, want, timeout_ns);
}
}
