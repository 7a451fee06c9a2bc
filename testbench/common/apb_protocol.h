// The AMBA APB (APB4) protocol rules, checked on a bus's pins once per
// rising edge (AMBA APB Protocol Specification, IHI 0024, §3 transfers and
// §4 operating states):
//   - PENABLE without PSEL;
//   - an access phase (PSEL and PENABLE) not right after its setup phase
//     (PSEL without PENABLE), or a setup phase not followed by its access;
//   - PADDR, PWRITE, PWDATA (writes) or PSTRB different in the access phase
//     from the setup phase, or changing while PREADY is low;
//   - PSTRB not 0 on a read (APB4).
// Plain C++: the co-simulation (cosim.h) runs it on every block's register
// port in every cycle, on both engines; ApbChecker (apb_checker.h) runs it
// on SystemC signals.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/apb.h"

namespace t3::tb {

class ApbProtocol {
 public:
  // One rising edge: the pins as they were before it; when() names it (only
  // called on a violation). Returns the number of violations this edge
  // found (messages() keeps the first few).
  template <class When>
  unsigned sample(bool rst_n, const ApbRequest& p, bool pready, const When& when) {
    if (!rst_n) {
      prev_ = ApbRequest{};
      waiting_ = false;
      return 0;
    }
    unsigned found = 0;
    auto fail = [&](const char* what) {
      ++found;
      ++violations_;
      if (messages_.size() < 10) messages_.push_back(std::string(when()) + ": " + what);
    };
    const bool setup = p.psel && !p.penable, access = p.access();
    const bool prev_setup = prev_.psel && !prev_.penable;
    if (p.penable && !p.psel) fail("PENABLE without PSEL");
    if (access && !prev_setup && !waiting_) fail("access phase without its setup phase");
    if (prev_setup && !access) fail("setup phase not followed by its access phase");
    if (access && (prev_setup || waiting_)) {
      if (p.paddr != prev_.paddr || p.pwrite != prev_.pwrite || p.pstrb != prev_.pstrb ||
          (p.pwrite && p.pwdata != prev_.pwdata))
        fail(waiting_ ? "PADDR/PWRITE/PWDATA/PSTRB changed while PREADY was low"
                      : "PADDR/PWRITE/PWDATA/PSTRB changed between setup and access phase");
    }
    if ((setup || access) && !p.pwrite && p.pstrb != 0) fail("PSTRB not 0 on a read");
    waiting_ = access && !pready;
    if (access && pready) ++transfers_;
    prev_ = p;
    return found;
  }

  uint64_t violations() const { return violations_; }
  uint64_t transfers() const { return transfers_; }
  const std::vector<std::string>& messages() const { return messages_; }

 private:
  ApbRequest prev_;
  bool waiting_ = false;
  uint64_t violations_ = 0, transfers_ = 0;
  std::vector<std::string> messages_;
};

}  // namespace t3::tb
