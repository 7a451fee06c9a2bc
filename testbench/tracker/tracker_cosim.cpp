#include "tracker_cosim.h"

#include <systemc>

#include "Vtracker.h"
#include "cycle_stepper.h"
#include "tracker/tracker_sc.h"
#include "tracker_pins.h"

namespace t3::tb {

TrackerParams tracker_params() {
  TrackerParams p;
  p.sets = T3_TRACKER_SETS;
  p.ways = T3_TRACKER_WAYS;
  p.wg_id_w = T3_TRACKER_WG_ID_W;
  p.wf_id_w = T3_TRACKER_WF_ID_W;
  p.addr_w = T3_TRACKER_ADDR_W;
  p.cnt_w = T3_TRACKER_CNT_W;
  return p;
}

struct TrackerCosim::Impl {
  TrackerParams params = tracker_params();
  CycleStepper stepper;
  InputPins pins;
  OutputPins model_pins, rtl_pins;
  TrackerSc model{"model", params};
  Vtracker rtl{"rtl"};
  CycleCompare compare;
  sc_core::sc_trace_file* trace = nullptr;
  TrackerInputs in;
  TrackerOutputs out, model_out;

  explicit Impl(const RunOptions& opt)
      : compare(CycleCompare::Options{opt.out_dir + "/tracker_mismatch", 32, 8, 10, 3}) {
    in.rst_n = false;
    bind(model, stepper.clk, pins, model_pins);
    bind(rtl, stepper.clk, pins, rtl_pins);
    const TrackerParams& p = params;
    compare.add_input("rst_ni", 1, [this] { return pins.rst_n.read(); });
    compare.add_input("cfg_enable_i", 1, [this] { return pins.cfg_enable.read(); });
    compare.add_input("cfg_base_i", p.addr_w, [this] { return pins.cfg_base.read(); });
    compare.add_input("cfg_limit_i", p.addr_w, [this] { return pins.cfg_limit.read(); });
    compare.add_input("cfg_tile_size_i", p.cnt_w, [this] { return pins.cfg_tile_size.read(); });
    compare.add_input("cfg_updates_per_elem_i", p.upe_w,
                      [this] { return pins.cfg_updates_per_elem.read(); });
    compare.add_input("in_valid_i", 1, [this] { return pins.in_valid.read(); });
    compare.add_input("in_wg_id_i", p.wg_id_w, [this] { return pins.in_wg_id.read(); });
    compare.add_input("in_wf_id_i", p.wf_id_w, [this] { return pins.in_wf_id.read(); });
    compare.add_input("in_addr_i", p.addr_w, [this] { return pins.in_addr.read(); });
    compare.add_input("in_size_i", p.cnt_w, [this] { return pins.in_size.read(); });
    compare.add_input("in_src_i", 2, [this] { return pins.in_src.read(); });
    compare.add_input("trig_ready_i", 1, [this] { return pins.trig_ready.read(); });
    auto add_out = [this](const char* name, unsigned width, auto member) {
      compare.add_output(name, width, [this, member] { return uint64_t((model_pins.*member).read()); },
                         [this, member] { return uint64_t((rtl_pins.*member).read()); });
    };
    add_out("cfg_error_o", 1, &OutputPins::cfg_error);
    add_out("in_ready_o", 1, &OutputPins::in_ready);
    add_out("set_full_o", 1, &OutputPins::set_full);
    add_out("trig_valid_o", 1, &OutputPins::trig_valid);
    add_out("trig_wg_id_o", p.wg_id_w, &OutputPins::trig_wg_id);
    add_out("trig_wf_id_o", p.wf_id_w, &OutputPins::trig_wf_id);
    add_out("trig_addr_o", p.addr_w, &OutputPins::trig_addr);
    add_out("stat_updates_o", p.stat_w, &OutputPins::stat_updates);
    add_out("stat_triggers_o", p.stat_w, &OutputPins::stat_triggers);
    add_out("stat_stalls_o", p.stat_w, &OutputPins::stat_stalls);
    add_out("stat_untracked_o", p.stat_w, &OutputPins::stat_untracked);
    add_out("live_o", p.live_w(), &OutputPins::live);

    if (!opt.vcd.empty()) {
      std::string base = opt.vcd;
      if (base.size() > 4 && base.compare(base.size() - 4, 4, ".vcd") == 0)
        base.resize(base.size() - 4);
      trace = sc_core::sc_create_vcd_trace_file(base.c_str());
      trace->set_time_unit(1, sc_core::SC_NS);
      trace_all();
    }
  }

  ~Impl() {
    if (trace) sc_core::sc_close_vcd_trace_file(trace);
  }

  void trace_all() {
    sc_core::sc_trace(trace, stepper.clk, "clk_i");
    sc_core::sc_trace(trace, pins.rst_n, "rst_ni");
    sc_core::sc_trace(trace, pins.cfg_enable, "cfg_enable_i");
    sc_core::sc_trace(trace, pins.cfg_base, "cfg_base_i");
    sc_core::sc_trace(trace, pins.cfg_limit, "cfg_limit_i");
    sc_core::sc_trace(trace, pins.cfg_tile_size, "cfg_tile_size_i");
    sc_core::sc_trace(trace, pins.cfg_updates_per_elem, "cfg_updates_per_elem_i");
    sc_core::sc_trace(trace, pins.in_valid, "in_valid_i");
    sc_core::sc_trace(trace, pins.in_wg_id, "in_wg_id_i");
    sc_core::sc_trace(trace, pins.in_wf_id, "in_wf_id_i");
    sc_core::sc_trace(trace, pins.in_addr, "in_addr_i");
    sc_core::sc_trace(trace, pins.in_size, "in_size_i");
    sc_core::sc_trace(trace, pins.in_src, "in_src_i");
    sc_core::sc_trace(trace, pins.trig_ready, "trig_ready_i");
    for (auto [prefix, o] : {std::pair<const char*, OutputPins*>{"model.", &model_pins},
                             std::pair<const char*, OutputPins*>{"rtl.", &rtl_pins}}) {
      const std::string s = prefix;
      sc_core::sc_trace(trace, o->in_ready, s + "in_ready_o");
      sc_core::sc_trace(trace, o->set_full, s + "set_full_o");
      sc_core::sc_trace(trace, o->cfg_error, s + "cfg_error_o");
      sc_core::sc_trace(trace, o->trig_valid, s + "trig_valid_o");
      sc_core::sc_trace(trace, o->trig_wg_id, s + "trig_wg_id_o");
      sc_core::sc_trace(trace, o->trig_wf_id, s + "trig_wf_id_o");
      sc_core::sc_trace(trace, o->trig_addr, s + "trig_addr_o");
      sc_core::sc_trace(trace, o->stat_updates, s + "stat_updates_o");
      sc_core::sc_trace(trace, o->stat_triggers, s + "stat_triggers_o");
      sc_core::sc_trace(trace, o->stat_stalls, s + "stat_stalls_o");
      sc_core::sc_trace(trace, o->stat_untracked, s + "stat_untracked_o");
      sc_core::sc_trace(trace, o->live, s + "live_o");
    }
  }

  void drive() { pins.drive(in); }
};

TrackerCosim::TrackerCosim(const RunOptions& opt) : impl_(std::make_unique<Impl>(opt)) {}
TrackerCosim::~TrackerCosim() = default;

const TrackerParams& TrackerCosim::params() const { return impl_->params; }
TrackerInputs& TrackerCosim::in() { return impl_->in; }
const TrackerOutputs& TrackerCosim::out() const { return impl_->out; }
const TrackerOutputs& TrackerCosim::model_out() const { return impl_->model_out; }

bool TrackerCosim::cycle() {
  Impl& m = *impl_;
  m.drive();
  m.stepper.settle();
  const bool ok = m.compare.check(m.stepper.cycle());
  m.out = m.rtl_pins.read();
  m.model_out = m.model_pins.read();
  m.stepper.edge();
  return ok;
}

void TrackerCosim::reset(unsigned n) {
  impl_->in.rst_n = false;
  for (unsigned i = 0; i < n; ++i) cycle();
  impl_->in.rst_n = true;
}

uint64_t TrackerCosim::cycles() const { return impl_->stepper.cycle(); }
uint64_t TrackerCosim::mismatches() const { return impl_->compare.mismatches(); }
const std::string& TrackerCosim::first_mismatch() const { return impl_->compare.first_report(); }
void TrackerCosim::flush_waveforms() { impl_->compare.flush(); }

}  // namespace t3::tb
