// TLM-2.0 to AMBA APB (APB4): a target socket in, APB master pins out, so
// that one initiator programs either a block's TLM register model
// (hw/common/reg_target.h) or its RTL register block (rtl/<block>_reg_top.sv,
// Verilated for SystemC) with the same transactions.
//
// Each transaction is one APB transfer: a setup phase (psel_o), an access
// phase (penable_o) held until pready_i, then the bus is idle for a cycle.
// Pins change just after a rising edge of clk_i and are sampled at the edge
// that ends a phase. Answers:
//   data length or streaming width other than 4   TLM_BURST_ERROR_RESPONSE (no transfer)
//   an address beyond the window                  TLM_ADDRESS_ERROR_RESPONSE (no transfer)
//   a read with byte enables not all set          TLM_BYTE_ENABLE_ERROR_RESPONSE (no
//                                                 transfer: APB4 reads have no strobes)
//   pslverr_i at the end of the access phase      TLM_GENERIC_ERROR_RESPONSE (APB does
//                                                 not say which rule the access broke)
// A write's byte enables become pstrb_o (the register block refuses a
// partial one). b_transport waits: call it from a thread.
// The annotated delay is waited for first, then the transfer's own time
// passes in simulation (the delay comes back zero).
#pragma once

#include <cstdint>
#include <cstring>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "common/tlm_word.h"

namespace t3 {

class TlmApbBridge : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<TlmApbBridge> socket{"socket"};
  sc_core::sc_in<bool> clk_i{"clk_i"};
  sc_core::sc_out<bool> psel_o{"psel_o"}, penable_o{"penable_o"}, pwrite_o{"pwrite_o"};
  sc_core::sc_out<uint32_t> paddr_o{"paddr_o"}, pwdata_o{"pwdata_o"}, pstrb_o{"pstrb_o"};
  sc_core::sc_in<uint32_t> prdata_i{"prdata_i"};
  sc_core::sc_in<bool> pready_i{"pready_i"}, pslverr_i{"pslverr_i"};

  // window_bytes: the APB address space behind it (one block's 4 KiB, or a
  // subsystem's several windows).
  explicit TlmApbBridge(sc_core::sc_module_name name, uint64_t window_bytes = 0x1000)
      : sc_module(name), window_(window_bytes) {
    socket.register_b_transport(this, &TlmApbBridge::b_transport);
  }

  uint64_t transfers() const { return transfers_; }

 private:

  void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
    wait(delay);
    delay = sc_core::SC_ZERO_TIME;
    if (t.get_command() == tlm::TLM_IGNORE_COMMAND) {
      t.set_response_status(tlm::TLM_OK_RESPONSE);
      return;
    }
    if (const tlm::tlm_response_status st = apb_word_check(t, window_); st != tlm::TLM_OK_RESPONSE) {
      t.set_response_status(st);
      return;
    }
    const uint32_t strb = byte_strobe(t);
    uint32_t wdata = 0;
    if (t.is_write()) std::memcpy(&wdata, t.get_data_ptr(), 4);

    bus_.lock();  // one transfer at a time
    // Setup phase.
    psel_o.write(true);
    penable_o.write(false);
    pwrite_o.write(t.is_write());
    paddr_o.write(uint32_t(t.get_address()));
    pwdata_o.write(t.is_write() ? wdata : 0);
    pstrb_o.write(t.is_write() ? strb : 0);  // APB4: no strobes on reads
    wait(clk_i.posedge_event());
    // Access phase, until the slave is ready at an edge.
    penable_o.write(true);
    do {
      wait(clk_i.posedge_event());
    } while (!pready_i.read());
    const bool err = pslverr_i.read();
    const uint32_t rdata = prdata_i.read();
    psel_o.write(false);
    penable_o.write(false);
    pwrite_o.write(false);
    paddr_o.write(0);
    pwdata_o.write(0);
    pstrb_o.write(0);
    wait(clk_i.posedge_event());  // the idle cycle
    bus_.unlock();
    ++transfers_;

    if (!err && t.is_read()) std::memcpy(t.get_data_ptr(), &rdata, 4);
    t.set_response_status(err ? tlm::TLM_GENERIC_ERROR_RESPONSE : tlm::TLM_OK_RESPONSE);
  }

  uint64_t window_;
  sc_core::sc_mutex bus_;
  uint64_t transfers_ = 0;
};

}  // namespace t3
