// An address or a value as error messages and reports print it: "0x" and
// lower-case hex digits.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

#include "common/wide.h"

namespace t3 {

inline std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

// A wide pin's low `bits` (a multiple of 8): "0x" and every byte, most
// significant first.
template <unsigned Bits>
std::string hex(const WideN<Bits>& w, unsigned bits) {
  std::string s = "0x";
  char b[4];
  for (unsigned i = bits / 8; i-- > 0;) {
    std::snprintf(b, sizeof b, "%02x", unsigned(w.byte(i)));
    s += b;
  }
  return s;
}

}  // namespace t3
