// What the compositions of blocks (hw/mem_subsystem, hw/innet_switch)
// share: one block in a cycle's wires, evaluated (eval(): the composition is
// const) or evaluated and clocked in one call (step(): its core decides
// once, where an eval() and a clock() each decided: the subsystem's model
// spent half its time deciding twice). A composition's wires() is a
// template on its own constness, so that eval() and step() run the same
// wiring.
#pragma once

#include <type_traits>

namespace t3 {

template <class Block, class In, class Out>
void settle(Block& b, const In& i, Out& o) {
  if constexpr (std::is_const_v<Block>) b.eval(i, o);
  else b.step(i, o);
}

}  // namespace t3
