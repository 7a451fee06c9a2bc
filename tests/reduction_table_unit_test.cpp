// Unit tests of the reduction table's cycle model (hw/reduction_table/reduction_table_core.h).
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "reduction_table/reduction_table.h"
#include "t3/reduction_table_regs.h"

namespace t3 {
namespace {

TEST(ReductionTableParams, OutOfRangeNamesTheParameter) {
  ReductionTableParams p;
  p.entries = 65;
  try {
    p.validate();
    FAIL() << "ENTRIES = 65 accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("entries (ENTRIES) = 65"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace t3
