#include "tracker_sc.h"

#include <stdexcept>
#include <string>

namespace t3 {
namespace {

// The pins carry fixed C++ types; refuse widths Verilator would type otherwise.
void require_pin_width(const char* name, unsigned w, unsigned lo, unsigned hi) {
  if (w < lo || w > hi)
    throw std::invalid_argument(std::string("TrackerSc: ") + name + " = " + std::to_string(w) +
                                " cannot use the pin types of the Verilated RTL; allowed: " +
                                std::to_string(lo) + ".." + std::to_string(hi));
}

}  // namespace

TrackerSc::TrackerSc(const sc_core::sc_module_name& name, const TrackerParams& params)
    : sc_module(name), core_(params) {
  require_pin_width("wg_id_w (WG_ID_W)", params.wg_id_w, 2, 32);
  require_pin_width("wf_id_w (WF_ID_W)", params.wf_id_w, 2, 32);
  require_pin_width("addr_w (ADDR_W)", params.addr_w, 33, 64);
  require_pin_width("cnt_w (CNT_W)", params.cnt_w, 2, 32);
  require_pin_width("upe_w (UPE_W)", params.upe_w, 2, 32);
  require_pin_width("stat_w (STAT_W)", params.stat_w, 2, 32);
  require_pin_width("live_w (LIVE_W, derived)", params.live_w(), 2, 32);

  SC_HAS_PROCESS(TrackerSc);
  SC_METHOD(on_clock);
  sensitive << clk_i.pos();
  dont_initialize();

  SC_METHOD(drive_outputs);
  sensitive << state_changed_ << rst_ni << cfg_enable_i << cfg_base_i << cfg_limit_i
            << cfg_tile_size_i << cfg_updates_per_elem_i << in_valid_i << in_wg_id_i
            << in_wf_id_i << in_addr_i << in_size_i << in_src_i << trig_ready_i;
}

TrackerInputs TrackerSc::sample() const {
  TrackerInputs in;
  in.rst_n = rst_ni.read();
  in.cfg.enable = cfg_enable_i.read();
  in.cfg.base = cfg_base_i.read();
  in.cfg.limit = cfg_limit_i.read();
  in.cfg.tile_size = cfg_tile_size_i.read();
  in.cfg.updates_per_elem = cfg_updates_per_elem_i.read();
  in.in_valid = in_valid_i.read();
  in.in_wg_id = in_wg_id_i.read();
  in.in_wf_id = in_wf_id_i.read();
  in.in_addr = in_addr_i.read();
  in.in_size = in_size_i.read();
  in.in_src = in_src_i.read();
  in.trig_ready = trig_ready_i.read();
  return in;
}

void TrackerSc::on_clock() {
  core_.clock(sample());
  state_changed_.notify(sc_core::SC_ZERO_TIME);
}

void TrackerSc::drive_outputs() {
  const TrackerOutputs o = core_.eval(sample());
  cfg_error_o.write(o.cfg_error);
  in_ready_o.write(o.in_ready);
  set_full_o.write(o.set_full);
  trig_valid_o.write(o.trig_valid);
  trig_wg_id_o.write(o.trig_wg_id);
  trig_wf_id_o.write(o.trig_wf_id);
  trig_addr_o.write(o.trig_addr);
  stat_updates_o.write(o.stat_updates);
  stat_triggers_o.write(o.stat_triggers);
  stat_stalls_o.write(o.stat_stalls);
  stat_untracked_o.write(o.stat_untracked);
  live_o.write(o.live);
}

}  // namespace t3
