#include "cosim_hal.h"

#include <cstdio>
#include <cstdlib>

#include "t3/hal.h"

namespace t3::tb {
namespace {

CosimHal* g_hal = nullptr;

// The C firmware cannot take an exception: a HAL call without a CosimHal is
// a bug in the test, and ends here, saying why.
CosimHal& current() {
  if (!g_hal) {
    std::fprintf(stderr, "t3 HAL: mmio call with no CosimHal alive\n");
    std::abort();
  }
  return *g_hal;
}

// A transfer that never completes means the port is stuck: give up after
// this many cycles rather than hang the test.
constexpr unsigned kStuckCycles = 1000;

}  // namespace

CosimHal::CosimHal(ApbMaster& master, std::function<std::optional<ApbDone>()> cycle,
                   double ns_per_cycle)
    : master_(master), cycle_(std::move(cycle)), ns_per_cycle_(ns_per_cycle) {
  g_hal = this;
}

CosimHal::~CosimHal() {
  if (g_hal == this) g_hal = nullptr;
}

ApbDone CosimHal::transfer(const ApbTransfer& t) {
  master_.push(t);
  for (unsigned n = 0; n < kStuckCycles; ++n, ++cycles_)
    if (const std::optional<ApbDone> d = cycle_(); d && master_.idle()) {
      ++cycles_;
      log_.push_back(*d);
      errors_ += d->err;
      return *d;
    }
  ApbDone stuck{t, 0, true};
  log_.push_back(stuck);
  ++errors_;
  return stuck;
}

int CosimHal::write32(uint32_t addr, uint32_t value) {
  return transfer({true, addr, value, 0xF}).err ? T3_MMIO_ERROR : T3_MMIO_OK;
}

int CosimHal::read32(uint32_t addr, uint32_t& value) {
  const ApbDone d = transfer({false, addr, 0, 0});
  value = d.err ? 0 : d.rdata;
  return d.err ? T3_MMIO_ERROR : T3_MMIO_OK;
}

int CosimHal::poll32(uint32_t addr, uint32_t mask, uint32_t want, uint32_t timeout_ns) {
  const uint64_t end = cycles_ + uint64_t(double(timeout_ns) / ns_per_cycle_);
  for (;;) {
    uint32_t v = 0;
    if (read32(addr, v) != T3_MMIO_OK) return T3_MMIO_ERROR;
    if ((v & mask) == want) return T3_MMIO_OK;
    if (cycles_ >= end) return T3_MMIO_TIMEOUT;
  }
}

}  // namespace t3::tb

extern "C" {
int mmio_write32(uint32_t addr, uint32_t value) { return t3::tb::current().write32(addr, value); }
int mmio_read32(uint32_t addr, uint32_t* value) { return t3::tb::current().read32(addr, *value); }
int mmio_poll32(uint32_t addr, uint32_t mask, uint32_t want, uint32_t timeout_ns) {
  return t3::tb::current().poll32(addr, mask, want, timeout_ns);
}
}
