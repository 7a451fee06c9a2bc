// Address decode for a set of register windows: one TLM-2.0 target socket
// in, one initiator socket per window out. A transaction inside a window goes
// to that window's target with the window's base taken off the address (and
// put back after); any other address answers TLM_ADDRESS_ERROR_RESPONSE.
// The memory-side subsystem's APB decode (one port, every block's window)
// does the same in RTL.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>
#include <vector>

namespace t3 {

struct Window {
  std::string name;  // the block, for traces and errors
  uint64_t base, size;
};

class Router : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<Router> socket{"socket"};

  // Windows must not overlap; each gets an initiator socket, out(i), in
  // the order given.
  Router(sc_core::sc_module_name name, std::vector<Window> windows)
      : sc_module(name), windows_(std::move(windows)) {
    check(windows_);
    for (const Window& w : windows_)
      out_.push_back(std::make_unique<tlm_utils::simple_initiator_socket<Router>>(
          ("out_" + w.name).c_str()));
    socket.register_b_transport(this, &Router::b_transport);
  }

  // Throws std::invalid_argument naming the window that is empty or
  // overlaps another.
  static void check(const std::vector<Window>& windows) {
    for (size_t i = 0; i < windows.size(); ++i) {
      const Window& w = windows[i];
      if (w.size == 0) throw std::invalid_argument("Router: window " + w.name + " has size 0");
      for (size_t j = 0; j < i; ++j)
        if (w.base < windows[j].base + windows[j].size && windows[j].base < w.base + w.size)
          throw std::invalid_argument("Router: window " + w.name + " overlaps " + windows[j].name);
    }
  }

  tlm_utils::simple_initiator_socket<Router>& out(size_t i) { return *out_.at(i); }
  const std::vector<Window>& windows() const { return windows_; }

 private:
  void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
    const uint64_t a = t.get_address();
    for (size_t i = 0; i < windows_.size(); ++i) {
      const Window& w = windows_[i];
      if (a >= w.base && a - w.base < w.size) {
        t.set_address(a - w.base);
        (*out_[i])->b_transport(t, delay);
        t.set_address(a);
        return;
      }
    }
    t.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
  }

  std::vector<Window> windows_;
  std::vector<std::unique_ptr<tlm_utils::simple_initiator_socket<Router>>> out_;
};

}  // namespace t3
