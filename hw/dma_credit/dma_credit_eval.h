// The DMA credit controller block's step(): hand-written specializations of
// RegBlock's (hw/common/reg_block.h), included by the generated
// hw/dma_credit/dma_credit.h (the description's core.include).
//
// The generic step() copies the data pins (res_hdr_i's 64-byte flit among
// them) into the core's input struct, has the core build all its outputs
// (the eleven status counters and the completion queue's head among them),
// copies them into the block's, and builds every register value the core
// shows from them, in every cycle. Here the core runs on the pins where they
// are and writes the data pins' outputs straight into the block's; the
// outputs only the registers read are built in the cycles of a register
// access (a read shows them; a write checks busy); every other cycle the
// registers take only the interrupt events. The register map's lookups are
// resolved once (hw/common/reg_tables.h): this block's traffic pops the
// completion queue (a W1P pulse) every few dozen cycles and reads its
// registers often. Everything else is the generic code's, step for step; the
// unit test DmaCreditBlock.SameAsTheGenericRegBlock holds the two to the
// same outputs and register values in every cycle (docs/blocks/dma_credit.md,
// Speed).
#pragma once

#include "common/reg_tables.h"
#include "dma_credit/dma_credit.h"

namespace t3 {

template <>
inline void RegBlock<DmaCreditGlue>::step(const DmaCreditInputs& in, DmaCreditOutputs& o) {
  if (!in.rst_n) {  // as the generic step(): the reset cycle's outputs, then the reset
    eval(in, o);
    clock(in);
    return;
  }
  o.apb = ApbResponse{};
  o.apb.pready = true;
  o.intr = Regs::intr(rf_);  // as the registers hold it before the edge
  if (in.apb.access()) {
    // answer() and edge() of the generic step(), the RO values through a table
    DmaCreditCoreOutputs co;
    core_.step(in, ci_, o, &co);
    const Hw2Reg h = DmaCreditGlue::hw2reg(p_, co);
    RegStatus st;
    if (in.apb.pwrite) {
      st = rf_.check_write(in.apb.paddr, in.apb.pstrb, h.busy);
    } else {  // RegFile::read() after set_ro(), the register found once
      static const RoTable<DmaCreditRegMap, DmaCreditHw2Reg> ro;
      const int r = rf_.find(in.apb.paddr);
      if (r >= 0) {
        const unsigned u = unsigned(r);
        rf_.set_ro(u, ro(h, u));
        o.apb.prdata = (rf_.q(u) & (rf_.mask(u, RegAccess::rw) | rf_.mask(u, RegAccess::w1c))) |
                       (ro(h, u) & rf_.mask(u, RegAccess::ro));
        st = RegStatus::ok;
      } else {
        o.apb.prdata = 0;
        st = RegStatus::address_error;
      }
    }
    o.apb.pslverr = st != RegStatus::ok;
    regs_edge(in, h);
    return;
  }
  // No access: at the edge the registers take the core's interrupt events
  // (what set_events() reads of hw2reg()).
  const bool stray = core_.step(in, ci_, o, nullptr);
  Hw2Reg h;
  h.intr_state_done_set = o.cpl_wr && o.cpl_status == 0;
  h.intr_state_error_set = o.cpl_wr && o.cpl_status != 0;
  h.intr_state_stray_set = stray;
  Regs::set_events(rf_, h);
  rf_.clock();
  refresh();
}

}  // namespace t3
