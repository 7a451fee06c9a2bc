// The text a scoreboard builds in each cycle it checks. One std::ostringstream
// is kept and emptied per cycle: building a new one (its locale) costs about
// as much as a cycle of a small block's models, and it would weigh on the
// co-simulation speed of both engines alike.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>

#include "common/bits.h"

namespace t3::tb {

class Complaints {
 public:
  // The stream, emptied; a scoreboard's observe() writes this cycle's text to it.
  std::ostringstream& fresh() {
    s_.str(std::string());
    s_.clear();
    return s_;
  }
  // This cycle's text, or nothing if the cycle was clean.
  std::optional<std::string> result() {
    if (s_.tellp() == 0) return std::nullopt;
    return s_.str();
  }

 private:
  std::ostringstream s_;
};

// A pin's value against the scoreboard's, the difference written in hex.
inline void want_pin(std::ostream& err, const char* pin, uint64_t got, uint64_t exp) {
  if (got != exp) err << pin << " = 0x" << std::hex << got << ", expected 0x" << exp << std::dec << "; ";
}

// A status counter the hardware keeps in `width` bits (it wraps): the pin's
// value against the count the scoreboard kept itself.
inline void check_counter(std::ostream& err, const char* pin, uint64_t got, uint64_t count,
                          unsigned width) {
  const uint64_t want = count & low_mask(width);
  if (got != want) err << pin << " = " << got << ", expected " << want << " (" << count << " counted); ";
}

}  // namespace t3::tb
