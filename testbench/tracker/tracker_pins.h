// The Tracker's pins as SystemC signals: one set of inputs shared by every
// model under test, one set of outputs per model, and the binding of either
// the SystemC module or the Verilated RTL to them (their ports are named and
// typed alike).
#pragma once

#include <systemc>

#include "tracker/tracker.h"

namespace t3::tb {

template <typename T>
using Sig = sc_core::sc_signal<T>;

// One set of output signals; the model and the RTL each drive one.
struct OutputPins {
  Sig<bool> cfg_error, in_ready, set_full, trig_valid;
  Sig<uint32_t> trig_wg_id, trig_wf_id;
  Sig<uint64_t> trig_addr;
  Sig<uint32_t> stat_updates, stat_triggers, stat_stalls, stat_untracked, live;

  TrackerOutputs read() const {
    TrackerOutputs o;
    o.cfg_error = cfg_error.read();
    o.in_ready = in_ready.read();
    o.set_full = set_full.read();
    o.trig_valid = trig_valid.read();
    o.trig_wg_id = trig_wg_id.read();
    o.trig_wf_id = trig_wf_id.read();
    o.trig_addr = trig_addr.read();
    o.stat_updates = stat_updates.read();
    o.stat_triggers = stat_triggers.read();
    o.stat_stalls = stat_stalls.read();
    o.stat_untracked = stat_untracked.read();
    o.live = live.read();
    return o;
  }
};

// Inputs, shared by every model under test.
struct InputPins {
  Sig<bool> rst_n{"rst_ni", false}, cfg_enable{"cfg_enable_i"}, in_valid{"in_valid_i"},
      trig_ready{"trig_ready_i"};
  Sig<uint64_t> cfg_base{"cfg_base_i"}, cfg_limit{"cfg_limit_i"}, in_addr{"in_addr_i"};
  Sig<uint32_t> cfg_tile_size{"cfg_tile_size_i"}, cfg_updates_per_elem{"cfg_updates_per_elem_i"},
      in_wg_id{"in_wg_id_i"}, in_wf_id{"in_wf_id_i"}, in_size{"in_size_i"}, in_src{"in_src_i"};

  void drive(const TrackerInputs& in) {
    rst_n.write(in.rst_n);
    cfg_enable.write(in.cfg.enable);
    cfg_base.write(in.cfg.base);
    cfg_limit.write(in.cfg.limit);
    cfg_tile_size.write(in.cfg.tile_size);
    cfg_updates_per_elem.write(in.cfg.updates_per_elem);
    in_valid.write(in.in_valid);
    in_wg_id.write(in.in_wg_id);
    in_wf_id.write(in.in_wf_id);
    in_addr.write(in.in_addr);
    in_size.write(in.in_size);
    in_src.write(in.in_src);
    trig_ready.write(in.trig_ready);
  }
};

// Binds the SystemC module (TrackerSc) or the Verilated RTL (Vtracker).
template <typename Dut>
void bind(Dut& d, sc_core::sc_clock& clk, InputPins& in, OutputPins& o) {
  d.clk_i(clk);
  d.rst_ni(in.rst_n);
  d.cfg_enable_i(in.cfg_enable);
  d.cfg_base_i(in.cfg_base);
  d.cfg_limit_i(in.cfg_limit);
  d.cfg_tile_size_i(in.cfg_tile_size);
  d.cfg_updates_per_elem_i(in.cfg_updates_per_elem);
  d.cfg_error_o(o.cfg_error);
  d.in_valid_i(in.in_valid);
  d.in_ready_o(o.in_ready);
  d.in_wg_id_i(in.in_wg_id);
  d.in_wf_id_i(in.in_wf_id);
  d.in_addr_i(in.in_addr);
  d.in_size_i(in.in_size);
  d.in_src_i(in.in_src);
  d.trig_valid_o(o.trig_valid);
  d.trig_ready_i(in.trig_ready);
  d.trig_wg_id_o(o.trig_wg_id);
  d.trig_wf_id_o(o.trig_wf_id);
  d.trig_addr_o(o.trig_addr);
  d.stat_updates_o(o.stat_updates);
  d.stat_triggers_o(o.stat_triggers);
  d.stat_stalls_o(o.stat_stalls);
  d.stat_untracked_o(o.stat_untracked);
  d.live_o(o.live);
  d.set_full_o(o.set_full);
}


}  // namespace t3::tb
