// One 32-bit register access as a TLM-2.0 generic payload: what every
// initiator of register traffic builds (the host, the tests), and what every
// target of it checks (reg_target.h, tlm_apb_bridge.h).
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

// Whether t moves exactly one 32-bit word (length 4, streaming width 4 or
// none): anything else is a burst the register blocks do not take.
inline bool is_word(const tlm::tlm_generic_payload& t) {
  return t.get_data_length() == 4 && (t.get_streaming_width() == 0 || t.get_streaming_width() == 4);
}

// The 4-bit byte strobe of t's byte enables (0xF without any).
inline uint32_t byte_strobe(const tlm::tlm_generic_payload& t) {
  const unsigned char* be = t.get_byte_enable_ptr();
  if (!be) return 0xF;
  const unsigned n = t.get_byte_enable_length();
  uint32_t strb = 0;
  for (unsigned i = 0; i < 4; ++i)
    if (n && be[i % n] == TLM_BYTE_ENABLED) strb |= 1u << i;
  return strb;
}

// What a bus port that moves whole words over an APB window answers
// without a transfer: TLM_OK_RESPONSE when the access may go on to the bus,
// else the error (a burst, an address beyond the window, a read with byte
// enables not all set: APB4 reads have no strobes).
inline tlm::tlm_response_status apb_word_check(const tlm::tlm_generic_payload& t,
                                               uint64_t window_bytes) {
  if (!is_word(t)) return tlm::TLM_BURST_ERROR_RESPONSE;
  if (t.get_address() >= window_bytes) return tlm::TLM_ADDRESS_ERROR_RESPONSE;
  if (t.is_read() && byte_strobe(t) != 0xF) return tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE;
  return tlm::TLM_OK_RESPONSE;
}

}  // namespace t3
