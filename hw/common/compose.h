// What the compositions of blocks (hw/mem_subsystem, hw/innet_switch)
// share: one block in a cycle's wires, evaluated (eval(): the composition is
// const) or evaluated and clocked in one call (step(): its core decides
// once, where an eval() and a clock() each decided: the subsystem's model
// spent half its time deciding twice). A composition's wires() is a
// template on its own constness, so that eval() and step() run the same
// wiring.
#pragma once

#include <type_traits>

#include "common/apb.h"
#include "common/regs.h"

namespace t3 {

// A composition's register port, a 4 KiB window per block (`window`: the
// page number of the composition's map): the request as that block sees it
// (selected when the address is in its window, the address within it), and
// the port's answer (the selected window's, or an address error for a page
// with no window), as rtl/<composition>.sv decode them.
inline void window_request(const ApbRequest& in, unsigned window, ApbRequest& a) {
  a = in;
  a.psel = in.psel && (in.paddr >> 12) == window;
  a.paddr = in.paddr & (kRegWindowBytes - 1);
}
inline ApbResponse window_response(const ApbRequest& in, const ApbResponse* sel) {
  ApbResponse o;
  o.pready = true;
  if (sel) {
    o.prdata = sel->prdata;
    o.pslverr = sel->pslverr;
    o.pready = sel->pready;
  } else {
    o.pslverr = in.access();
  }
  return o;
}

template <class Block, class In, class Out>
void settle(Block& b, const In& i, Out& o) {
  if constexpr (std::is_const_v<Block>) b.eval(i, o);
  else b.step(i, o);
}

}  // namespace t3
