// An address or a value as error messages and reports print it: "0x" and
// lower-case hex digits.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace t3 {

inline std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

}  // namespace t3
