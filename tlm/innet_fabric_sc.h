// The in-network fabric (tlm/innet_fabric.h) as a SystemC module with a
// TLM-2.0 register port per device, so that firmware runs against it on the
// same TLM host as the T3 firmware (tlm/host.h): a clock thread steps the
// fabric every period; a register access to a switch becomes an APB
// transfer on its pins in the following cycles (the transaction waits for
// its answer), one to a GPU's endpoint goes to its register side.
//
// TlmDevices gives firmware (firmware/include/t3/device.h) a handle per
// device on a host whose address map puts device d at d * kDeviceSpan (the
// switches first, then the GPUs), as innet_fabric_sc's router decodes it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>
#include <vector>

#include "host.h"
#include "innet_fabric.h"
#include "router.h"
#include "t3/device.h"

namespace t3 {

class InnetFabricSc : public sc_core::sc_module {
 public:
  static constexpr uint64_t kDeviceSpan = 0x10000;
  SC_HAS_PROCESS(InnetFabricSc);
  InnetFabricSc(sc_core::sc_module_name name, InnetFabric& fabric,
                sc_core::sc_time period = sc_core::sc_time(1, sc_core::SC_NS));

  // Device d's register port: switches 0..S-1, then GPUs.
  tlm_utils::simple_target_socket_tagged<InnetFabricSc>& socket(unsigned d) { return *sockets_.at(d); }
  unsigned devices() const { return unsigned(sockets_.size()); }
  // The host's address map: a window per device, d * kDeviceSpan.
  std::vector<Window> windows() const;
  InnetFabric& fabric() { return f_; }

 private:
  struct Access {  // a switch's register access in flight
    bool busy = false, access_phase = false, write = false, ok = false;
    uint32_t addr = 0, wdata = 0, rdata = 0;
    sc_core::sc_event done;
  };
  void clock();
  void b_transport(int id, tlm::tlm_generic_payload& t, sc_core::sc_time& delay);

  InnetFabric& f_;
  sc_core::sc_time period_;
  std::vector<std::unique_ptr<tlm_utils::simple_target_socket_tagged<InnetFabricSc>>> sockets_;
  std::vector<std::unique_ptr<Access>> sw_access_;
};

// Firmware's device handles on a Host (run the firmware in Host::run).
class TlmDevices {
 public:
  TlmDevices(Host& host, unsigned devices);
  TlmDevices(const TlmDevices&) = delete;
  TlmDevices& operator=(const TlmDevices&) = delete;
  t3_device* device(unsigned d) { return &dev_.at(d).dev; }

 private:
  struct Dev {
    t3_device dev;
    Host* host;
    uint32_t base;
  };
  std::vector<Dev> dev_;
};

// The register trace's windows of an InnetFabricSc's address map (the
// switches' three blocks, the endpoints' DMA credit controllers).
std::vector<TraceWindow> innet_trace_windows(const InnetFabric& f);

}  // namespace t3
