// The in-network packet format (hw/common/packet.h) and the testbench's
// packet streams (testbench/common/pkt_stream.h).
#include <gtest/gtest.h>

#include <random>
#include <sstream>

#include "common/packet.h"
#include "pkt_stream.h"

namespace t3 {
namespace {

pkt::Header random_header(std::mt19937_64& rng) {
  pkt::Header h;
  h.op = uint8_t(rng() & 0xF);
  h.red_op = uint8_t(rng() & 3);
  h.dtype = uint8_t(rng() & 3);
  h.len = uint8_t(rng());
  h.src = uint8_t(rng());
  h.dst = uint8_t(rng());
  h.count = uint8_t(rng());
  h.ctr = uint8_t(rng());
  h.addr = rng() & low_mask(pkt::kAddrW);
  h.rgn = uint8_t(rng());
  h.expect = uint8_t(rng());
  h.home = uint8_t(rng());
  h.hit = rng() & 1;
  return h;
}

TEST(Packet, PackAndUnpackAreInverseOnEveryField) {
  std::mt19937_64 rng(1);
  for (int i = 0; i < 10000; ++i) {
    const pkt::Header h = random_header(rng);
    const Wide f = pkt::pack(h);
    EXPECT_EQ(pkt::unpack(f), h);
    for (unsigned w = 2; w < Wide::kWords; ++w) EXPECT_EQ(f.w[w], 0u) << "a header lies in 128 bits";
    EXPECT_EQ(f.w[1] >> (pkt::kHitLsb - 64 + 1), 0u) << "bits 127:121 are zero";
  }
}

TEST(Packet, FieldsSitWhereThePageSays) {
  pkt::Header h;
  h.op = 0xB;
  h.len = 3;
  h.addr = 0x123456789ABC;
  h.home = 7;
  h.hit = true;
  const Wide f = pkt::pack(h);
  EXPECT_EQ(f.lane(0, 4), 0xBu);
  EXPECT_EQ(f.lane(8, 8), 3u);
  EXPECT_EQ(f.lane(48, 16), 0x9ABCu);
  EXPECT_EQ(f.lane(64, 32), 0x12345678u);
  EXPECT_EQ(f.lane(112, 8), 7u);
  EXPECT_EQ(f.lane(120, 1), 1u);
}

TEST(Packet, ClassesAndDataFlits) {
  using pkt::Op;
  for (Op op : {Op::write, Op::read, Op::push, Op::pull}) EXPECT_EQ(pkt::vc_of(unsigned(op)), pkt::Vc::req);
  for (Op op : {Op::ack, Op::read_rsp, Op::pull_rsp, Op::result, Op::partial})
    EXPECT_EQ(pkt::vc_of(unsigned(op)), pkt::Vc::rsp);
  pkt::Header h;
  h.len = 4;
  h.op = uint8_t(Op::read);
  EXPECT_EQ(pkt::wire_flits(h), 1u) << "a load asks for flits, carries none";
  h.op = uint8_t(Op::push);
  EXPECT_EQ(pkt::wire_flits(h), 5u);
  h.op = 0x7;
  EXPECT_EQ(pkt::wire_flits(h), 5u) << "an unknown opcode is dropped whole, len flits after it";
}

TEST(Packet, MalformedInTheOrderChecked) {
  using pkt::Malformed;
  pkt::Header h;
  h.op = uint8_t(pkt::Op::push);
  h.len = 2;
  h.addr = 0x40;
  EXPECT_EQ(pkt::check(h, 4, 128), Malformed::none);
  h.addr = 0x48;
  EXPECT_EQ(pkt::check(h, 4, 128), Malformed::misaligned);
  h.dtype = 3;
  EXPECT_EQ(pkt::check(h, 4, 128), Malformed::bad_dtype);
  h.red_op = 1;
  EXPECT_EQ(pkt::check(h, 4, 128), Malformed::bad_red_op);
  h.len = 5;
  EXPECT_EQ(pkt::check(h, 4, 128), Malformed::bad_len);
  h.op = 0;
  EXPECT_EQ(pkt::check(h, 4, 128), Malformed::unknown_op);
  h = pkt::Header{};
  h.op = uint8_t(pkt::Op::write);
  h.len = 1;
  h.dtype = 3;  // a plain write's type is not looked at
  h.addr = 0x20;
  EXPECT_EQ(pkt::check(h, 4, 256), Malformed::none);
  h.addr = 0x10;
  EXPECT_EQ(pkt::check(h, 4, 256), Malformed::misaligned) << "32 B flits";
  EXPECT_STREQ(pkt::name(Malformed::bad_len), "bad_len");
}

// A driver and a collector on one stream, with bubbles and back-pressure:
// the packets arrive whole and in order.
TEST(PktStream, PacketsCrossAStreamWhole) {
  std::mt19937_64 rng(7);
  tb::PktDriver d(128);
  tb::PktCollector c(128);
  std::vector<tb::Packet> sent, got;
  for (int i = 0; i < 200; ++i) {
    tb::Packet p;
    p.h.op = uint8_t(i % 3 == 0 ? pkt::Op::read : pkt::Op::write);
    p.h.len = uint8_t(1 + i % 4);
    p.h.addr = uint64_t(i) * 64;
    for (unsigned k = 0; k + 1 < pkt::wire_flits(p.h); ++k) {
      Wide w;
      w.w[0] = rng();
      w.w[1] = rng();
      p.data.push_back(w);
    }
    sent.push_back(p);
    d.push(p);
  }
  std::ostringstream err;
  for (int n = 0; n < 10000 && got.size() < sent.size(); ++n) {
    bool valid;
    Wide flit;
    d.drive(valid, flit, rng, 0.3);
    const bool ready = rng() % 3 != 0;
    if (auto p = c.observe("s", valid, ready, flit, err)) got.push_back(*p);
    d.after(valid, ready);
  }
  EXPECT_EQ(err.str(), "");
  ASSERT_EQ(got.size(), sent.size());
  for (size_t i = 0; i < sent.size(); ++i) EXPECT_EQ(got[i], sent[i]) << "packet " << i;
}

TEST(PktStream, TheCollectorNamesAProtocolViolation) {
  tb::PktCollector c(128);
  std::ostringstream err;
  Wide a, b;
  b.w[0] = 1;
  c.observe("out", true, false, a, err);
  c.observe("out", true, false, b, err);
  EXPECT_NE(err.str().find("out: flit changed while waiting for ready"), std::string::npos) << err.str();
  c.observe("out", false, false, b, err);
  EXPECT_NE(err.str().find("out: valid dropped"), std::string::npos) << err.str();
}

}  // namespace
}  // namespace t3
