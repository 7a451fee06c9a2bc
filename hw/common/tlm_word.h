// One 32-bit register access as a TLM-2.0 generic payload: what every
// initiator of register traffic here builds (the host, the tests).
#pragma once

#include <cstdint>
#include <tlm>

namespace t3 {

// t reads or writes the 4 bytes at buf (little-endian) at addr; be, if not
// null, holds 4 byte enables.
inline void word_payload(tlm::tlm_generic_payload& t, bool write, uint64_t addr, unsigned char* buf,
                         const unsigned char* be = nullptr, unsigned length = 4) {
  t.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  t.set_address(addr);
  t.set_data_ptr(buf);
  t.set_data_length(length);
  t.set_streaming_width(length);
  t.set_byte_enable_ptr(const_cast<unsigned char*>(be));
  t.set_byte_enable_length(be ? 4 : 0);
  t.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
}

}  // namespace t3
