// A block's registers behind a TLM-2.0 target socket (b_transport): the
// block's RegFile (hw/common/regs.h, tables generated from its
// <block>.yaml), alone or inside the block's model (RegBlock), answers
// one 32-bit access per transaction, with the response status the access
// rules give (docs/registers/README.md):
//
//   no register at the address (or not word-aligned) TLM_ADDRESS_ERROR_RESPONSE
//   data length or streaming width other than 4       TLM_BURST_ERROR_RESPONSE
//   byte enables that do not enable all four bytes     TLM_BYTE_ENABLE_ERROR_RESPONSE
//   a write to a register with no writable field       TLM_COMMAND_ERROR_RESPONSE
//   a write to a busy-locked register while busy       TLM_GENERIC_ERROR_RESPONSE
//
// The address is the offset in the block's 4 KiB window (a system's router
// takes the window's base off). A failed access changes nothing. Each
// access adds `access_time` to the annotated delay (an APB access: two
// clock cycles). No DMI, no debug transport.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "common/regs.h"
#include "common/tlm_word.h"

namespace t3 {

// What a target reads and writes: one register access by byte offset in
// the block's window, answered as the access rules say.
struct RegAccessFns {
  std::function<RegStatus(uint32_t offset, uint32_t data)> write;
  std::function<RegStatus(uint32_t offset, uint32_t& data)> read;
  // The bytes the target answers for: one block's window, or several
  // (a subsystem's model decodes its blocks' windows itself).
  uint64_t span_bytes = kRegWindowBytes;
};

class RegTarget : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<RegTarget> socket{"socket"};

  // A register file alone; busy(): whether the block is busy now (locks the
  // busy-locked registers).
  RegTarget(sc_core::sc_module_name name, RegFile& regs, std::function<bool()> busy,
            sc_core::sc_time access_time = sc_core::SC_ZERO_TIME)
      : RegTarget(name,
                  RegAccessFns{[&regs, busy](uint32_t o, uint32_t d) {
                                 return regs.write(o, d, 0xF, busy && busy());
                               },
                               [&regs](uint32_t o, uint32_t& d) { return regs.read(o, d); }},
                  access_time) {}

  // A block model's registers (RegBlock::tlm_write / tlm_read).
  RegTarget(sc_core::sc_module_name name, RegAccessFns fns,
            sc_core::sc_time access_time = sc_core::SC_ZERO_TIME)
      : sc_module(name), fns_(std::move(fns)), access_time_(access_time) {
    socket.register_b_transport(this, &RegTarget::b_transport);
  }

  // The time each access takes (added to the transaction's delay).
  void set_access_time(const sc_core::sc_time& t) { access_time_ = t; }

  // The status a transaction got, as RegFile says it (for logs and tests).
  RegStatus last_status() const { return last_; }

 private:
  void b_transport(tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
    t.set_response_status(answer(t));
    delay += access_time_;
  }

  tlm::tlm_response_status answer(tlm::tlm_generic_payload& t) {
    if (t.get_command() == tlm::TLM_IGNORE_COMMAND) return tlm::TLM_OK_RESPONSE;
    if (!is_word(t)) return tlm::TLM_BURST_ERROR_RESPONSE;
    if (byte_strobe(t) != 0xF) return tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE;
    const uint64_t a = t.get_address();
    // Outside the span: an offset no register has.
    const uint32_t offset = a < fns_.span_bytes ? uint32_t(a) : uint32_t(fns_.span_bytes);
    uint32_t v = 0;
    if (t.is_write()) {
      std::memcpy(&v, t.get_data_ptr(), 4);
      last_ = fns_.write(offset, v);
    } else {
      last_ = fns_.read(offset, v);
      if (last_ == RegStatus::ok) std::memcpy(t.get_data_ptr(), &v, 4);
    }
    switch (last_) {
      case RegStatus::ok: return tlm::TLM_OK_RESPONSE;
      case RegStatus::address_error: return tlm::TLM_ADDRESS_ERROR_RESPONSE;
      case RegStatus::byte_enable_error: return tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE;
      case RegStatus::command_error: return tlm::TLM_COMMAND_ERROR_RESPONSE;
      case RegStatus::busy_error: return tlm::TLM_GENERIC_ERROR_RESPONSE;
    }
    return tlm::TLM_GENERIC_ERROR_RESPONSE;
  }

  RegAccessFns fns_;
  sc_core::sc_time access_time_;
  RegStatus last_ = RegStatus::ok;
};

}  // namespace t3
