// A co-simulated register port as a TLM-2.0 target, so that the host model
// (tlm/host.h) runs its firmware against a co-simulation, model and RTL
// alike: each transaction becomes one APB transfer on the test's ApbMaster,
// and b_transport waits, in SystemC time, until the cycle loop reports the
// transfer's answer. Answers as tlm_apb_bridge.h: PSLVERR is
// TLM_GENERIC_ERROR_RESPONSE; bursts, addresses beyond the window and reads
// with partial byte enables are answered without a transfer.
//
// The cycle loop hands it every transfer its cycle completed (completed())
// and lets the SystemC kernel run a clock period a cycle: the SystemC engine
// does that itself, with the kernel-free engine the loop calls sc_start.
#pragma once

#include <cstdint>
#include <cstring>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "apb_master.h"
#include "common/tlm_word.h"

namespace t3::tb {

class CosimTlmPort : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<CosimTlmPort> socket{"socket"};

  CosimTlmPort(sc_core::sc_module_name name, ApbMaster& master, uint64_t window_bytes)
      : sc_module(name), master_(master), window_(window_bytes) {
    socket.register_b_transport(this, &CosimTlmPort::b_transport);
  }

  // From the cycle loop: a transfer has completed.
  void completed(const ApbDone& d) {
    last_ = d;
    done_.notify(sc_core::SC_ZERO_TIME);
  }

 private:
  void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
    wait(delay);
    delay = sc_core::SC_ZERO_TIME;
    if (const tlm::tlm_response_status st = apb_word_check(t, window_); st != tlm::TLM_OK_RESPONSE) {
      t.set_response_status(st);
      return;
    }
    ApbTransfer x;
    x.write = t.is_write();
    x.addr = uint32_t(t.get_address());
    x.strb = x.write ? byte_strobe(t) : 0;
    if (x.write) std::memcpy(&x.data, t.get_data_ptr(), 4);
    master_.push(x);
    wait(done_);
    if (!last_.err && !x.write) std::memcpy(t.get_data_ptr(), &last_.rdata, 4);
    t.set_response_status(last_.err ? tlm::TLM_GENERIC_ERROR_RESPONSE : tlm::TLM_OK_RESPONSE);
  }

  ApbMaster& master_;
  uint64_t window_;
  sc_core::sc_event done_;
  ApbDone last_;
};

}  // namespace t3::tb
