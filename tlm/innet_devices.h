// The devices of an in-network fabric as firmware reaches them
// (firmware/include/t3/device.h): each switch's register port, driven as
// APB cycles on its pins by the fabric, and each GPU endpoint's, reached on its
// register side between clock edges (as a TLM access is). A poll's wait
// lets the fabric run (a cycle a nanosecond: the switch's clock at 1 GHz).
// Every access is traced (tlm/reg_trace.h's lines, the time in cycles).
#pragma once

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "innet_fabric.h"
#include "reg_trace.h"
#include "t3/device.h"

namespace t3 {

class InnetDevices {
 public:
  explicit InnetDevices(InnetFabric& f);
  InnetDevices(const InnetDevices&) = delete;
  InnetDevices& operator=(const InnetDevices&) = delete;

  t3_device* sw(unsigned s = 0) { return &dev_.at(s).dev; }
  t3_device* ep(unsigned g) { return &dev_.at(f_.switches() + g).dev; }
  std::string trace() const { return trace_.str(); }
  void clear_trace() { trace_.str(""); }

 private:
  struct Dev {
    t3_device dev;
    InnetDevices* self;
    int gpu;      // -1: a switch
    unsigned sw;  // which
  };
  static int write32(t3_device* d, uint32_t off, uint32_t v);
  static int read32(t3_device* d, uint32_t off, uint32_t* v);
  static void wait_ns(t3_device* d, uint32_t ns);
  void log(const Dev& d, bool write, uint32_t off, uint32_t v, bool ok);

  InnetFabric& f_;
  std::vector<Dev> dev_;
  RegTrace sw_names_, ep_names_;
  std::ostringstream trace_;
};

}  // namespace t3
