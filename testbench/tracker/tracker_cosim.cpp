#include "tracker_cosim.h"

#include <systemc>

#include "Vtracker.h"
#include "cycle_stepper.h"
#include "tracker/tracker_sc.h"

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

namespace {

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

template <typename Dut, typename In>
void bind(Dut& d, sc_core::sc_clock& clk, In& in, OutputPins& o) {
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

}  // namespace

struct TrackerCosim::Impl {
  struct InputPins {
    Sig<bool> rst_n{"rst_ni", false}, cfg_enable{"cfg_enable_i"}, in_valid{"in_valid_i"},
        trig_ready{"trig_ready_i"};
    Sig<uint64_t> cfg_base{"cfg_base_i"}, cfg_limit{"cfg_limit_i"}, in_addr{"in_addr_i"};
    Sig<uint32_t> cfg_tile_size{"cfg_tile_size_i"}, cfg_updates_per_elem{"cfg_updates_per_elem_i"},
        in_wg_id{"in_wg_id_i"}, in_wf_id{"in_wf_id_i"}, in_size{"in_size_i"}, in_src{"in_src_i"};
  };

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
    auto out = [this](const char* name, unsigned width, auto member) {
      compare.add_output(name, width, [this, member] { return uint64_t((model_pins.*member).read()); },
                         [this, member] { return uint64_t((rtl_pins.*member).read()); });
    };
    out("cfg_error_o", 1, &OutputPins::cfg_error);
    out("in_ready_o", 1, &OutputPins::in_ready);
    out("set_full_o", 1, &OutputPins::set_full);
    out("trig_valid_o", 1, &OutputPins::trig_valid);
    out("trig_wg_id_o", p.wg_id_w, &OutputPins::trig_wg_id);
    out("trig_wf_id_o", p.wf_id_w, &OutputPins::trig_wf_id);
    out("trig_addr_o", p.addr_w, &OutputPins::trig_addr);
    out("stat_updates_o", p.stat_w, &OutputPins::stat_updates);
    out("stat_triggers_o", p.stat_w, &OutputPins::stat_triggers);
    out("stat_stalls_o", p.stat_w, &OutputPins::stat_stalls);
    out("stat_untracked_o", p.stat_w, &OutputPins::stat_untracked);
    out("live_o", p.live_w(), &OutputPins::live);

    if (!opt.vcd.empty()) {
      std::string base = opt.vcd;
      if (base.size() > 4 && base.compare(base.size() - 4, 4, ".vcd") == 0)
        base.resize(base.size() - 4);
      trace = sc_core::sc_create_vcd_trace_file(base.c_str());
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

  void drive() {
    pins.rst_n.write(in.rst_n);
    pins.cfg_enable.write(in.cfg.enable);
    pins.cfg_base.write(in.cfg.base);
    pins.cfg_limit.write(in.cfg.limit);
    pins.cfg_tile_size.write(in.cfg.tile_size);
    pins.cfg_updates_per_elem.write(in.cfg.updates_per_elem);
    pins.in_valid.write(in.in_valid);
    pins.in_wg_id.write(in.in_wg_id);
    pins.in_wf_id.write(in.in_wf_id);
    pins.in_addr.write(in.in_addr);
    pins.in_size.write(in.in_size);
    pins.in_src.write(in.in_src);
    pins.trig_ready.write(in.trig_ready);
  }
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
