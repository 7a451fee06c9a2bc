// A block as firmware and the system see it: its core (the cycle model of
// the datapath, configured through plain inputs) behind its generated
// register block, with the APB port and interrupt of hw/common/apb.h. The
// same split as the RTL: rtl/<block>.sv instantiates rtl/<block>_core.sv and
// rtl/<block>_reg_top.sv, which meet only through the reg2hw and hw2reg
// structs; here the core model and the RegFile (hw/common/regs.h) meet the
// same way.
//
// A block's Glue (hw/<block>/<block>.h) says how they meet:
//   using Params, Core, Regs (the generated <Camel>Regs),
//         DataIn, DataOut (the data-path pins core and block share),
//         CoreInputs (DataIn + what the registers drive), CoreOutputs (DataOut + what
//         the registers read), Inputs (DataIn + apb), Outputs (DataOut + apb, intr);
//   static void configure(const Params&, const Reg2Hw&, CoreInputs&);  // register-driven inputs
//   static Hw2Reg hw2reg(const Params&, const CoreOutputs&);
// and rtl/<block>.sv makes the same connections. The core has eval(),
// clock() and step() (eval then clock on one decision).
//
// Cycle semantics, those of the RTL: in a cycle the core sees the registers'
// values as they were after the last edge; an APB access phase answers
// combinationally (a read shows RO values of this very cycle); a write, the
// core's W1C set events and the core's own state change at the edge.
#pragma once

#include <cstdint>

#include "common/apb.h"
#include "common/reg_tables.h"
#include "common/regs.h"

namespace t3 {

template <class Glue>
class RegBlock {
 public:
  using Params = typename Glue::Params;
  using Core = typename Glue::Core;
  using Regs = typename Glue::Regs;
  using Map = typename Regs::Map;
  using Inputs = typename Glue::Inputs;
  using Outputs = typename Glue::Outputs;
  using Reg2Hw = typename Regs::Reg2Hw;
  using Hw2Reg = typename Regs::Hw2Reg;

  explicit RegBlock(const Params& p) : p_(p), core_(p), rf_(Map::kInfo, Map::kCount) { refresh(); }

  const Params& params() const { return p_; }
  const Core& core() const { return core_; }
  const RegFile& regs() const { return rf_; }
  // The register values as the core reads them now.
  const Reg2Hw& reg2hw() const { return r2h_; }

  Outputs eval(const Inputs& in) const {
    Outputs o;
    eval(in, o);
    return o;
  }
  // The same into the caller's outputs (see step(in, o)).
  void eval(const Inputs& in, Outputs& o) const { respond(in, core_.eval(core_inputs(in)), o); }

  // eval() then clock() on the same inputs, in one pass: the core decides
  // once (the kernel-free engine and the benchmark's model form).
  Outputs step(const Inputs& in) {
    Outputs o;
    step(in, o);
    return o;
  }
  // The same into the caller's outputs: no copy of a struct just written
  // field by field (its wide loads wait on the narrow stores: store
  // forwarding, a fifth of the model's time in the benchmark).
  void step(const Inputs& in, Outputs& o) {
    if (!in.rst_n) {  // a core's step() gives no outputs in a reset cycle; eval() does
      eval(in, o);
      clock(in);
      return;
    }
    const auto co = core_.step(core_inputs(in));
    respond(in, co, o);
    edge(in, co);
  }
  // A register access from a TLM-2.0 target, between clock edges (loosely
  // timed: it takes effect at once, as if at the last edge, W1P pulses
  // included: the core takes a command at the next edge); busy and the RO
  // values as the last eval()'s inputs give them.
  RegStatus tlm_write(uint32_t offset, uint32_t data) {
    const RegStatus st = rf_.write(offset, data, 0xF, Glue::hw2reg(p_, core_.eval(ci_)).busy);
    rf_.start_pulses();
    refresh();
    return st;
  }
  RegStatus tlm_read(uint32_t offset, uint32_t& data) const {
    const int r = rf_.find(offset);
    if (r >= 0) rf_.set_ro(unsigned(r), regs_ro_value<Map>(Glue::hw2reg(p_, core_.eval(ci_)), unsigned(r)));
    return rf_.read(offset, data);
  }

  void clock(const Inputs& in) { edge(in, core_.step(core_inputs(in))); }

 private:
  using DataIn = typename Glue::DataIn;
  using DataOut = typename Glue::DataOut;
  using CoreOutputs = typename Glue::CoreOutputs;

  // The cycle's outputs from the core's: the data pins, the register
  // port's answer to an access phase, the interrupt.
  void respond(const Inputs& in, const CoreOutputs& co, Outputs& o) const {
    static_cast<DataOut&>(o) = co;
    answer(in, co, o);
  }
  // The register port's answer and the interrupt; co: what hw2reg() reads
  // of the core (a block whose core hands out its outputs otherwise
  // passes them here itself).
  template <typename Co>
  void answer(const Inputs& in, const Co& co, Outputs& o) const {
    o.apb = ApbResponse{};
    o.apb.pready = true;
    if (in.apb.access()) {
      const Hw2Reg h = Glue::hw2reg(p_, co);
      RegStatus st;
      if (in.apb.pwrite) {
        st = rf_.check_write(in.apb.paddr, in.apb.pstrb, h.busy);
      } else {
        // RO values are wires: this cycle's, for this cycle's read.
        const int r = rf_.find(in.apb.paddr);
        if (r >= 0) rf_.set_ro(unsigned(r), regs_ro_value<Map>(h, unsigned(r)));
        st = rf_.read(in.apb.paddr, o.apb.prdata);
      }
      o.apb.pslverr = st != RegStatus::ok;
    }
    o.intr = Regs::intr(rf_);
  }

  // The edge of the registers after the core's (co: the core's outputs of
  // the cycle): the access phase's write, the core's set events.
  void edge(const Inputs& in, const CoreOutputs& co) { regs_edge(in, Glue::hw2reg(p_, co)); }
  // h: what the core showed the registers in the cycle.
  void regs_edge(const Inputs& in, const Hw2Reg& h) {
    if (!in.rst_n) {
      rf_.reset();
      refresh();
      return;
    }
    if (in.apb.access() && in.apb.pwrite) rf_.write(in.apb.paddr, in.apb.pwdata, in.apb.pstrb, h.busy);
    Regs::set_events(rf_, h);
    rf_.clock();
    refresh();
  }

  // The core's inputs: this cycle's data pins, the register-driven ones as
  // the registers last changed them.
  const typename Glue::CoreInputs& core_inputs(const Inputs& in) const {
    static_cast<DataIn&>(ci_) = in;
    return ci_;
  }
  // The registers that changed repacked alone (the full regs_reg2hw() looks
  // every field of the map up: a block with heavy register traffic paid it
  // in its model's speed).
  void refresh() {
    if (!rf_.has_changed()) return;
    static const Reg2HwTable<Map, Reg2Hw> table;
    table.update(rf_, rf_.take_changed(), r2h_);
    Glue::configure(p_, r2h_, ci_);
  }

  Params p_;
  Core core_;
  mutable RegFile rf_;  // eval() refreshes the RO value a read shows
  Reg2Hw r2h_{};
  mutable typename Glue::CoreInputs ci_{};
};

}  // namespace t3
