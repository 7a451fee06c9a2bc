// The multicast region table block's eval(), clock() and step():
// hand-written specializations of RegBlock (hw/common/reg_block.h), included
// by the generated hw/mcr_table/mcr_table.h (the description's
// core.include). They run the core on the data pins where they are (the
// block's inputs) with the register-driven inputs apart, and take its
// outputs where it keeps them: the generic members copy the pins (two
// flits) into the core's input struct every cycle and build a zeroed
// outputs struct (two more flits) every cycle, which cost this model a
// third of its speed (docs/blocks/mcr_table.md, Speed). Everything else is
// the generic code's, step for step; the unit test
// McrTableBlock.SameAsTheGenericRegBlock holds the two to the same outputs
// in every cycle.
#pragma once

#include "mcr_table/mcr_table.h"

namespace t3 {

template <>
inline void RegBlock<McrTableGlue>::eval(const McrTableInputs& in, McrTableOutputs& o) const {
  respond(in, core_.eval(in, ci_), o);
}

template <>
inline void RegBlock<McrTableGlue>::clock(const McrTableInputs& in) {
  edge(in, core_.step(in, ci_));
}

// The core's step() gives the cycle's outputs in a reset cycle too (the
// generic step() takes eval() then clock() there), so one pass serves.
template <>
inline void RegBlock<McrTableGlue>::step(const McrTableInputs& in, McrTableOutputs& o) {
  const McrTableCoreOutputs& co = core_.step(in, ci_);
  respond(in, co, o);
  edge(in, co);
}

}  // namespace t3
