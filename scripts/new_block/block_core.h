// @name@ core, cycle model (stamped by scripts/new_block.py: a one-entry
// register stage with a transfer counter; replace it with the block). Plain
// C++, no SystemC. Per clock: eval() gives the outputs for the current state
// and inputs, clock() advances the state as the rising edge of
// rtl/@name@_core.sv does; the two are cycle- and bit-exact. The block
// firmware programs is this core behind its registers (the generated
// hw/@name@/@name@.h).
#pragma once

#include <cstdint>

#include "common/params.h"

namespace t3 {

struct @Camel@Params {
#define T3_PARAMS_DEF "@name@/@name@_params.def"
#define T3_PARAMS_SELF @Camel@Params
#include "common/param_struct.inc"

  // Throws std::invalid_argument naming the parameter and its allowed range.
  void validate() const;
};

// The data pins core and block share (hw/@name@/@name@.yaml, pins).
struct @Camel@DataIn {
  bool rst_n = false;
  bool in_valid = false;
  uint64_t in_data = 0;
  bool out_ready = false;
};

struct @Camel@DataOut {
  bool in_ready = false;
  bool out_valid = false;
  uint64_t out_data = 0;
  uint32_t stat_count = 0;
};

// What the registers drive and read (the description's core section).
struct @Camel@CoreInputs : @Camel@DataIn {
  bool cfg_enable = false;
};

struct @Camel@CoreOutputs : @Camel@DataOut {
  bool busy = false;  // the stage holds a word
  bool wrap = false;  // a word taken in this cycle wraps the counter
};

class @Camel@Core {
 public:
  explicit @Camel@Core(const @Camel@Params& p);

  const @Camel@Params& params() const { return p_; }
  @Camel@CoreOutputs eval(const @Camel@CoreInputs& in) const;
  void clock(const @Camel@CoreInputs& in);
  // eval() then clock() on one decision.
  @Camel@CoreOutputs step(const @Camel@CoreInputs& in) {
    const @Camel@CoreOutputs o = eval(in);
    clock(in);
    return o;
  }

 private:
  @Camel@Params p_;
  bool full_ = false;
  uint64_t data_ = 0;
  uint32_t count_ = 0;
};

}  // namespace t3
