// SystemC wrapper of the Tracker cycle model: pins named and typed as the
// Verilated rtl/tracker.sv (Verilator maps 1 bit to bool, 2..32 bits to
// uint32_t, 33..64 bits to uint64_t), so the two drop into the same sockets.
#pragma once

#include <systemc>

#include "tracker.h"

namespace t3 {

class TrackerSc : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk_i;
  sc_core::sc_in<bool> rst_ni;

  sc_core::sc_in<bool> cfg_enable_i;
  sc_core::sc_in<uint64_t> cfg_base_i;
  sc_core::sc_in<uint64_t> cfg_limit_i;
  sc_core::sc_in<uint32_t> cfg_tile_size_i;
  sc_core::sc_in<uint32_t> cfg_updates_per_elem_i;
  sc_core::sc_out<bool> cfg_error_o;

  sc_core::sc_in<bool> in_valid_i;
  sc_core::sc_out<bool> in_ready_o;
  sc_core::sc_in<uint32_t> in_wg_id_i;
  sc_core::sc_in<uint32_t> in_wf_id_i;
  sc_core::sc_in<uint64_t> in_addr_i;
  sc_core::sc_in<uint32_t> in_size_i;
  sc_core::sc_in<uint32_t> in_src_i;

  sc_core::sc_out<bool> trig_valid_o;
  sc_core::sc_in<bool> trig_ready_i;
  sc_core::sc_out<uint32_t> trig_wg_id_o;
  sc_core::sc_out<uint32_t> trig_wf_id_o;
  sc_core::sc_out<uint64_t> trig_addr_o;

  sc_core::sc_out<uint32_t> stat_updates_o;
  sc_core::sc_out<uint32_t> stat_triggers_o;
  sc_core::sc_out<uint32_t> stat_stalls_o;
  sc_core::sc_out<uint32_t> stat_untracked_o;
  sc_core::sc_out<uint32_t> live_o;
  sc_core::sc_out<bool> set_full_o;

  TrackerSc(const sc_core::sc_module_name& name, const TrackerParams& params);

 private:
  TrackerInputs sample() const;
  void on_clock();
  void drive_outputs();

  Tracker core_;
  sc_core::sc_event state_changed_;
};

}  // namespace t3
