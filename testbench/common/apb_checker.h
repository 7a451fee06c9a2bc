// An AMBA APB (APB4) protocol checker: watches a bus's pins at every rising
// edge and counts what breaks the protocol (AMBA APB Protocol Specification,
// IHI 0024, §3 transfers and §4 operating states):
//   - PENABLE without PSEL;
//   - an access phase (PSEL and PENABLE) not right after its setup phase
//     (PSEL without PENABLE), or a setup phase not followed by its access;
//   - PADDR, PWRITE, PWDATA (writes) or PSTRB different in the access phase
//     from the setup phase, or changing while PREADY is low;
//   - PSTRB not 0 on a read (APB4).
// A co-simulation fails its run when violations() is not 0; messages() keeps
// the first few, with the simulation time.
#pragma once

#include <cstdint>
#include <string>
#include <systemc>
#include <vector>

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

  uint64_t violations() const { return violations_; }
  uint64_t transfers() const { return transfers_; }
  const std::vector<std::string>& messages() const { return messages_; }

 private:
  struct Pins {
    bool sel = false, en = false, write = false;
    uint32_t addr = 0, wdata = 0, strb = 0;
  };

  void fail(const std::string& what) {
    ++violations_;
    if (messages_.size() < 10) messages_.push_back(sc_core::sc_time_stamp().to_string() + ": " + what);
  }

  void sample() {
    const Pins p{psel_i.read(), penable_i.read(), pwrite_i.read(), paddr_i.read(), pwdata_i.read(),
                 pstrb_i.read()};
    if (!rst_ni.read()) {
      prev_ = Pins{};
      waiting_ = false;
      return;
    }
    const bool setup = p.sel && !p.en, access = p.sel && p.en;
    const bool prev_setup = prev_.sel && !prev_.en;
    if (p.en && !p.sel) fail("PENABLE without PSEL");
    if (access && !prev_setup && !waiting_) fail("access phase without its setup phase");
    if (prev_setup && !access) fail("setup phase not followed by its access phase");
    if (access && (prev_setup || waiting_)) {
      if (p.addr != prev_.addr || p.write != prev_.write || p.strb != prev_.strb ||
          (p.write && p.wdata != prev_.wdata))
        fail(waiting_ ? "PADDR/PWRITE/PWDATA/PSTRB changed while PREADY was low"
                      : "PADDR/PWRITE/PWDATA/PSTRB changed between setup and access phase");
    }
    if ((setup || access) && !p.write && p.strb != 0) fail("PSTRB not 0 on a read");
    waiting_ = access && !pready_i.read();
    if (access && pready_i.read()) ++transfers_;
    prev_ = p;
  }

  Pins prev_;
  bool waiting_ = false;
  uint64_t violations_ = 0, transfers_ = 0;
  std::vector<std::string> messages_;
};

}  // namespace t3::tb
