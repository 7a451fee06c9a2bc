// An AMBA APB (APB4) protocol checker on SystemC signals: the rules of
// apb_protocol.h, sampled at every rising edge. A co-simulation fails its
// run when violations() is not 0; messages() keeps the first few, with the
// simulation time.
#pragma once

#include <cstdint>
#include <string>
#include <systemc>
#include <vector>

#include "apb_protocol.h"

namespace t3::tb {

class ApbChecker : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk_i{"clk_i"}, rst_ni{"rst_ni"};
  sc_core::sc_in<bool> psel_i{"psel_i"}, penable_i{"penable_i"}, pwrite_i{"pwrite_i"};
  sc_core::sc_in<uint32_t> paddr_i{"paddr_i"}, pwdata_i{"pwdata_i"}, pstrb_i{"pstrb_i"};
  sc_core::sc_in<bool> pready_i{"pready_i"};

  SC_HAS_PROCESS(ApbChecker);
  explicit ApbChecker(sc_core::sc_module_name name) : sc_module(name) {
    SC_METHOD(sample);
    sensitive << clk_i.pos();
    dont_initialize();
  }

  uint64_t violations() const { return rules_.violations(); }
  uint64_t transfers() const { return rules_.transfers(); }
  const std::vector<std::string>& messages() const { return rules_.messages(); }

 private:
  void sample() {
    ApbRequest p;
    p.psel = psel_i.read();
    p.penable = penable_i.read();
    p.pwrite = pwrite_i.read();
    p.paddr = paddr_i.read();
    p.pwdata = pwdata_i.read();
    p.pstrb = pstrb_i.read();
    rules_.sample(rst_ni.read(), p, pready_i.read(), [] { return sc_core::sc_time_stamp().to_string(); });
  }

  ApbProtocol rules_;
};

}  // namespace t3::tb
