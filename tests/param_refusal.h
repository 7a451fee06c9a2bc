// The check every block's unit test makes of its parameters: a set that
// validate() must refuse, with a message naming the field, the RTL's name
// and the value (docs/adding_a_block.md).
#pragma once

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace t3 {

// text: what the message must hold, e.g. "resq (RESQ) = 1".
template <class Params>
void expect_refused(const Params& p, const std::string& text) {
  try {
    p.validate();
    ADD_FAILURE() << text << " accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(text), std::string::npos) << e.what();
  }
}

}  // namespace t3
