// rtl/t3_pkt_pkg.sv against hw/common/packet.h: the two definitions of the
// packet format give the same malformed code, data flits and opcode classes
// for every opcode and random other fields, at 16 B and at 64 B flits.
#include <gtest/gtest.h>

#include <random>

#include "Vt3_pkt_pkg_tb_16.h"
#include "Vt3_pkt_pkg_tb_64.h"
#include "common/packet.h"
#include "verilated.h"

namespace t3 {
namespace {

template <class Model>
void compare(unsigned flit_w) {
  Model m;
  std::mt19937_64 rng(flit_w);
  for (int i = 0; i < 200000; ++i) {
    pkt::Header h;
    h.op = uint8_t(i & 0xF);
    h.red_op = uint8_t(rng() % 4 == 0 ? rng() & 3 : 0);
    h.dtype = uint8_t(rng() & 3);
    h.len = uint8_t(rng() % 4 == 0 ? rng() : rng() % 6);
    h.src = uint8_t(rng());
    h.count = uint8_t(rng());
    h.addr = (rng() & low_mask(pkt::kAddrW)) & ~(rng() % 2 ? low_mask(6) : 0);
    const unsigned max_len = 1 + unsigned(rng() % 8);
    const Wide f = pkt::pack(h);
    for (unsigned k = 0; k < 4; ++k) m.hdr_i[k] = uint32_t(f.w[k / 2] >> (32 * (k % 2)));
    m.max_len_i = max_len;
    m.eval();
    ASSERT_EQ(unsigned(m.malformed_o), unsigned(pkt::check(h, max_len, flit_w))) << "header " << i;
    ASSERT_EQ(unsigned(m.data_flits_o), pkt::wire_flits(h) - 1) << "header " << i;
    ASSERT_EQ(bool(m.known_op_o), pkt::known_op(h.op));
    ASSERT_EQ(bool(m.has_data_o), pkt::has_data(h.op));
    ASSERT_EQ(bool(m.is_reduction_o), pkt::is_reduction(h.op));
  }
}

TEST(PktPkgRtl, SameAsTheCxxFormatAt16ByteFlits) { compare<Vt3_pkt_pkg_tb_16>(128); }
TEST(PktPkgRtl, SameAsTheCxxFormatAt64ByteFlits) { compare<Vt3_pkt_pkg_tb_64>(512); }

}  // namespace
}  // namespace t3
