// The text a scoreboard builds in each cycle it checks. One std::ostringstream
// is kept and emptied per cycle: building a new one (its locale) costs about
// as much as a cycle of a small block's models, and it would weigh on the
// co-simulation speed of both engines alike.
#pragma once

#include <sstream>
#include <string>

namespace t3::tb {

class Complaints {
 public:
  // The stream, emptied; a scoreboard's observe() writes this cycle's text to it.
  std::ostringstream& fresh() {
    s_.str(std::string());
    s_.clear();
    return s_;
  }

 private:
  std::ostringstream s_;
};

}  // namespace t3::tb
