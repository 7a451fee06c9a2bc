// The in-network packet format (ISCA 2020 in-network collectives paper,
// ../shared/seeds/002: lean packets on a memory fabric, a header flit and
// data flits; requests and responses in separate virtual channels), the one
// definition the C++ models and testbenches use. rtl/t3_pkt_pkg.sv is the
// same layout for the RTL; docs/packet.md is the page.
//
// A packet is one header flit followed by `len` data flits when its opcode
// carries data (WRITE, PUSH and the data responses), by none otherwise (a
// READ or PULL asks for `len` flits). A flit is FLIT_W bits (16 B by
// default; 128, 256 or 512). The header's fields sit in its low 128 bits:
//
//   bits      field   meaning
//   [3:0]     op      opcode (Op); op[3] is the class: 0 request, 1 response
//   [5:4]     red_op  reduction operator (RedOp: 0 add)
//   [7:6]     dtype   element type (Dtype: 0 fp16, 1 bf16, 2 fp32)
//   [15:8]    len     data flits carried (or asked for)
//   [23:16]   src     source endpoint
//   [31:24]   dst     destination endpoint (unicast)
//   [39:32]   count   contributions the data already holds (1 from a GPU)
//   [47:40]   ctr     the sender's counter id (DMA credit controller), echoed
//   [95:48]   addr    byte address of the first data byte, flit-aligned
//   [103:96]  rgn     switch-internal: the multicast region index
//   [111:104] expect  switch-internal: contributions the region expects
//   [119:112] home    switch-internal: the region's home port
//   [120]     hit     switch-internal: addr falls in region rgn
//   [127:121] -       zero
//
// The switch-internal fields are stamped by the multicast region table when
// a packet enters a switch (what the reduction table needs to know of the
// region travels with the packet, not on side pins); endpoints send them as
// zero and ignore them.
#pragma once

#include <cstdint>

#include "common/bits.h"
#include "common/wide.h"

namespace t3::pkt {

// Opcodes. 0 is no packet (an idle bus of zeros), and every value not named
// here is malformed.
enum class Op : uint8_t {
  write = 0x1,     // plain write (request, data)
  read = 0x2,      // plain load (request, no data; len flits asked for)
  push = 0x3,      // reduction write: a contribution (request, data)
  pull = 0x4,      // load-reduce request (request, no data)
  ack = 0x8,       // write acknowledgement (response, no data)
  read_rsp = 0x9,  // load response (response, data)
  pull_rsp = 0xA,  // load-reduce response, reduced on its way (response, data)
  result = 0xB,    // a complete reduction, to every participant (response, data)
  partial = 0xC,   // an evicted incomplete reduction, to the home (response, data)
};

enum class RedOp : uint8_t { add = 0 };
enum class Dtype : uint8_t { fp16 = 0, bf16 = 1, fp32 = 2 };

// The two classes (virtual channels): a stalled request class never blocks
// a response (deadlock avoidance, paper §IV).
enum class Vc : uint8_t { req = 0, rsp = 1 };

// Field positions and widths, as in rtl/t3_pkt_pkg.sv.
inline constexpr unsigned kHeaderBits = 128;  // the fields fit a 16 B flit
inline constexpr unsigned kOpLsb = 0, kOpW = 4;
inline constexpr unsigned kRedOpLsb = 4, kRedOpW = 2;
inline constexpr unsigned kDtypeLsb = 6, kDtypeW = 2;
inline constexpr unsigned kLenLsb = 8, kLenW = 8;
inline constexpr unsigned kSrcLsb = 16, kSrcW = 8;
inline constexpr unsigned kDstLsb = 24, kDstW = 8;
inline constexpr unsigned kCountLsb = 32, kCountW = 8;
inline constexpr unsigned kCtrLsb = 40, kCtrW = 8;
inline constexpr unsigned kAddrLsb = 48, kAddrW = 48;
inline constexpr unsigned kRgnLsb = 96, kRgnW = 8;
inline constexpr unsigned kExpectLsb = 104, kExpectW = 8;
inline constexpr unsigned kHomeLsb = 112, kHomeW = 8;
inline constexpr unsigned kHitLsb = 120;

// Flit widths the format allows (FLIT_W, a power of two): a header needs 128
// bits; a flit is one t3::Wide (512 bits).
inline constexpr unsigned kFlitWMin = 128, kFlitWMax = 512;

struct Header {
  uint8_t op = 0;
  uint8_t red_op = 0;
  uint8_t dtype = 0;
  uint8_t len = 0;
  uint8_t src = 0;
  uint8_t dst = 0;
  uint8_t count = 0;
  uint8_t ctr = 0;
  uint64_t addr = 0;  // kAddrW bits
  uint8_t rgn = 0;
  uint8_t expect = 0;
  uint8_t home = 0;
  bool hit = false;

  bool operator==(const Header& o) const {
    return op == o.op && red_op == o.red_op && dtype == o.dtype && len == o.len && src == o.src &&
           dst == o.dst && count == o.count && ctr == o.ctr && addr == o.addr && rgn == o.rgn &&
           expect == o.expect && home == o.home && hit == o.hit;
  }
  bool operator!=(const Header& o) const { return !(*this == o); }
};

constexpr bool known_op(unsigned op) {
  return (op >= 0x1 && op <= 0x4) || (op >= 0x8 && op <= 0xC);
}
// Data flits follow the header (for a known opcode).
constexpr bool has_data(unsigned op) {
  return op == 0x1 || op == 0x3 || (op >= 0x9 && op <= 0xC);
}
constexpr Vc vc_of(unsigned op) { return Vc((op >> 3) & 1); }
// Flits on the wire: the header and its data flits. An unknown opcode is
// taken to carry `len` flits so that a receiver drops the whole packet.
constexpr unsigned wire_flits(const Header& h) {
  return 1u + ((has_data(h.op) || !known_op(h.op)) ? h.len : 0u);
}

inline Wide pack(const Header& h) {
  Wide f;
  f.w[0] = uint64_t(h.op & 0xF) | uint64_t(h.red_op & 0x3) << kRedOpLsb |
           uint64_t(h.dtype & 0x3) << kDtypeLsb | uint64_t(h.len) << kLenLsb |
           uint64_t(h.src) << kSrcLsb | uint64_t(h.dst) << kDstLsb | uint64_t(h.count) << kCountLsb |
           uint64_t(h.ctr) << kCtrLsb | (h.addr & 0xFFFF) << kAddrLsb;
  f.w[1] = (h.addr & low_mask(kAddrW)) >> 16 | uint64_t(h.rgn) << (kRgnLsb - 64) |
           uint64_t(h.expect) << (kExpectLsb - 64) | uint64_t(h.home) << (kHomeLsb - 64) |
           uint64_t(h.hit) << (kHitLsb - 64);
  return f;
}

// A header flit as a receiver keeps it: its low kHeaderBits, the rest 0
// (a wider flit's upper bits carry nothing in a header).
inline Wide header_bits(const Wide& f) {
  Wide h;
  h.w[0] = f.w[0];
  h.w[1] = f.w[1];
  return h;
}

inline Header unpack(const Wide& f) {
  Header h;
  const uint64_t a = f.w[0], b = f.w[1];
  h.op = uint8_t(a & 0xF);
  h.red_op = uint8_t((a >> kRedOpLsb) & 0x3);
  h.dtype = uint8_t((a >> kDtypeLsb) & 0x3);
  h.len = uint8_t(a >> kLenLsb);
  h.src = uint8_t(a >> kSrcLsb);
  h.dst = uint8_t(a >> kDstLsb);
  h.count = uint8_t(a >> kCountLsb);
  h.ctr = uint8_t(a >> kCtrLsb);
  h.addr = (a >> kAddrLsb) | (b & 0xFFFFFFFF) << 16;
  h.rgn = uint8_t(b >> (kRgnLsb - 64));
  h.expect = uint8_t(b >> (kExpectLsb - 64));
  h.home = uint8_t(b >> (kHomeLsb - 64));
  h.hit = (b >> (kHitLsb - 64)) & 1;
  return h;
}

// Why a header is malformed, checked in this order (the first that holds
// is the one reported); rtl/t3_pkt_pkg.sv's pkt_check gives the same code.
enum class Malformed : uint8_t {
  none = 0,
  unknown_op = 1,    // op is not an Op
  bad_len = 2,       // len is 0 or above the receiver's max_len
  bad_red_op = 3,    // red_op is not a RedOp (reduction opcodes only)
  bad_dtype = 4,     // dtype is not a Dtype (reduction opcodes only)
  misaligned = 5,    // addr is not a multiple of the flit's bytes
};

inline const char* name(Malformed m) {
  switch (m) {
    case Malformed::none: return "none";
    case Malformed::unknown_op: return "unknown_op";
    case Malformed::bad_len: return "bad_len";
    case Malformed::bad_red_op: return "bad_red_op";
    case Malformed::bad_dtype: return "bad_dtype";
    case Malformed::misaligned: return "misaligned";
  }
  return "?";
}

// Opcodes whose data is reduced (the reduction operator and type matter).
constexpr bool is_reduction(unsigned op) {
  return op == 0x3 || op == 0x4 || op == 0xA || op == 0xB || op == 0xC;
}

// The checks every receiver makes (a block adds its own, such as a type
// the region does not allow): max_len data flits at most, flit_w bits a flit.
inline Malformed check(const Header& h, unsigned max_len, unsigned flit_w) {
  if (!known_op(h.op)) return Malformed::unknown_op;
  if (h.len == 0 || h.len > max_len) return Malformed::bad_len;
  if (is_reduction(h.op) && h.red_op != uint8_t(RedOp::add)) return Malformed::bad_red_op;
  if (is_reduction(h.op) && h.dtype > uint8_t(Dtype::fp32)) return Malformed::bad_dtype;
  if ((h.addr & low_mask(clog2(flit_w / 8))) != 0) return Malformed::misaligned;
  return Malformed::none;
}

}  // namespace t3::pkt
