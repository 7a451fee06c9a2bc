// @name@ core and block unit tests (stamped by scripts/new_block.py).
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "@name@/@name@.h"
#include "t3/@name@_regs.h"

namespace t3 {
namespace {

TEST(@Camel@Core, AWordTakenShowsInTheNextCycle) {
  @Camel@Core core{@Camel@Params{}};
  @Camel@CoreInputs in;
  in.rst_n = true;
  in.cfg_enable = true;
  in.in_valid = true;
  in.in_data = 0x1234;
  EXPECT_TRUE(core.eval(in).in_ready);
  EXPECT_FALSE(core.step(in).out_valid);
  in.in_valid = false;
  const @Camel@CoreOutputs o = core.eval(in);
  EXPECT_TRUE(o.out_valid);
  EXPECT_EQ(o.out_data, 0x1234u);
  EXPECT_EQ(o.stat_count, 1u);
  EXPECT_FALSE(o.in_ready) << "full, and the word does not leave";
}

TEST(@Camel@Core, TheCounterWrapsAtStatW) {
  @Camel@Params p;
  p.stat_w = 2;
  @Camel@Core core{p};
  @Camel@CoreInputs in;
  in.rst_n = in.cfg_enable = in.in_valid = in.out_ready = true;
  unsigned wraps = 0;
  for (int i = 0; i < 8; ++i) wraps += core.step(in).wrap;
  EXPECT_EQ(wraps, 2u);
  EXPECT_EQ(core.eval(in).stat_count, 0u);
}

TEST(@Camel@Params, OutOfRangeNamesTheParameter) {
  @Camel@Params p;
  p.data_w = 65;
  try {
    p.validate();
    FAIL() << "DATA_W = 65 accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("data_w (DATA_W) = 65"), std::string::npos) << e.what();
  }
}

// The register-driven input and the status, through the block's registers.
TEST(@Camel@Block, EnableThroughTheRegisters) {
  @Camel@ b{@Camel@Params{}};
  @Camel@Inputs in;
  b.step(in);  // reset
  in.rst_n = true;
  in.in_valid = true;
  EXPECT_FALSE(b.eval(in).in_ready);
  EXPECT_EQ(b.tlm_write(T3_@NAME@_A_CTRL, T3_@NAME@_R_CTRL_ENABLE_MASK), RegStatus::ok);
  EXPECT_TRUE(b.eval(in).in_ready);
  b.step(in);
  uint32_t v = 0;
  EXPECT_EQ(b.tlm_read(T3_@NAME@_A_STATUS, v), RegStatus::ok);
  EXPECT_EQ(v, T3_@NAME@_R_STATUS_FULL_MASK);
}

}  // namespace
}  // namespace t3
