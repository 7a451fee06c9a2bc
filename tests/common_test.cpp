// Unit tests of the machinery the blocks share (hw/common).
#include <gtest/gtest.h>

#include <vector>

#include "common/bits.h"
#include "common/regs.h"
#include "common/t3_mem.h"
#include "common/tile_map.h"
#include "common/wide.h"
#include "apb_protocol.h"

namespace t3 {
namespace {

TEST(Bits, MaskAndClog2AsSystemVerilog) {
  EXPECT_EQ(low_mask(0), 0u);
  EXPECT_EQ(low_mask(5), 31u);
  EXPECT_EQ(low_mask(64), ~uint64_t{0});
  EXPECT_EQ(clog2(1), 0u);
  EXPECT_EQ(clog2(2), 1u);
  EXPECT_EQ(clog2(2049), 12u);
}

TEST(Bits, PickSelectsLikeTheConditionalOperator) {
  EXPECT_EQ(pick(true, 7u, 9u), 7u);
  EXPECT_EQ(pick(false, 7u, 9u), 9u);
  EXPECT_EQ(pick(true, ~uint64_t{0}, uint64_t{0}), ~uint64_t{0});
  EXPECT_EQ(pick(false, ~uint64_t{0}, uint64_t{1} << 63), uint64_t{1} << 63);
  EXPECT_EQ(pick(true, -5, 3), -5);  // signed operands as they are
  EXPECT_EQ(pick(false, -5, -3), -3);
  static_assert(pick(true, size_t{4}, size_t{8}) == 4, "usable in constant expressions");
}

TEST(Wide, LanesBytesAndTruncation) {
  Wide w;
  w.set_lane(240, 16, 0xbeef);
  w.set_lane(32, 32, 0x12345678);
  w.set_byte(27, 0xaa);
  EXPECT_EQ(w.lane(240, 16), 0xbeefu);
  EXPECT_EQ(w.lane(32, 32), 0x12345678u);
  EXPECT_EQ(w.byte(27), 0xaa);
  EXPECT_EQ(w.byte(4), 0x78);
  EXPECT_EQ(w.byte(31), 0xbe);
  w.truncate(248);
  EXPECT_EQ(w.lane(240, 16), 0xefu);
  EXPECT_EQ(w.byte(27), 0xaa);
  w.truncate(40);
  EXPECT_EQ(w.lane(32, 32), 0x78u);
}

// T3 Fig. 9(a): WGs walk down the rows of a column-major output; a WG's WFs
// split its tile into column strips.
// A register file of more registers than take_changed() has bits: 63 and
// above share bit 63, and their pulses and set events still end and land.
TEST(RegFile, RegistersPastTheSixtyThirdShareOneChangedBit) {
  static const RegField w1c[] = {{"EVT", 0, 1, RegAccess::w1c, 0}, {"GO", 1, 1, RegAccess::w1p, 0}};
  std::vector<RegInfo> regs;
  for (unsigned r = 0; r < 70; ++r) regs.push_back(RegInfo{"R", 4 * r, false, w1c, 2});
  RegFile rf(regs.data(), unsigned(regs.size()));
  EXPECT_EQ(rf.take_changed(), ~uint64_t{0});  // after reset: everything
  EXPECT_EQ(rf.take_changed(), 0u);
  rf.hw_set(68, 1);
  rf.clock();
  EXPECT_EQ(rf.q(68), 1u);
  EXPECT_EQ(rf.take_changed(), RegFile::reg_bit(63));
  ASSERT_EQ(rf.write(4 * 66, 2, 0xF, false), RegStatus::ok);
  EXPECT_EQ(rf.take_changed(), RegFile::reg_bit(66));
  EXPECT_EQ(RegFile::reg_bit(66), uint64_t{1} << 63);
  rf.clock();
  EXPECT_EQ(rf.pulses(66), 2u);
  rf.clock();
  EXPECT_EQ(rf.pulses(66), 0u) << "a pulse of a register past bit 63 ends too";
  rf.hw_set(5, 1);
  rf.clock();
  EXPECT_EQ(rf.take_changed(), (uint64_t{1} << 63) | (uint64_t{1} << 5));
}

// rtl/t3_mem.sv's rules, which every block model's arrays follow.
TEST(Mem, ReadsOneCycleLateAndReadDuringWriteGivesTheOldWord) {
  Mem<uint32_t> m(4);
  EXPECT_EQ(m.depth(), 4u);
  EXPECT_EQ(m.rdata(), 0u);  // before the first read
  m.clock(true, 2, 7, false, 0);
  EXPECT_EQ(m.rdata(), 0u);  // no read: nothing taken
  m.clock(true, 2, 9, true, 2);
  EXPECT_EQ(m.rdata(), 7u);  // the word before the edge's write
  EXPECT_EQ(m.peek(2), 9u);
  m.clock(true, 2, 11, false, 0);
  EXPECT_EQ(m.rdata(), 7u);  // the read port holds its word across later writes
  m.clock(false, 2, 13, true, 2);
  EXPECT_EQ(m.rdata(), 11u);
  m.clock(false, 3, 13, false, 0);  // a write not enabled writes nothing
  EXPECT_EQ(m.peek(3), 0u);
}

TEST(Mem, AnAddressPastTheDepthReadsZeroAndWritesNothing) {
  Mem<uint32_t> m(3);
  m.clock(true, 1, 5, true, 1);
  m.clock(true, 3, 6, true, 3);  // both out of range
  EXPECT_EQ(m.rdata(), 0u);
  for (uint32_t a = 0; a < 3; ++a) EXPECT_EQ(m.peek(a), a == 1 ? 5u : 0u);
  m.clock(false, 0, 0, true, 1);
  EXPECT_EQ(m.rdata(), 5u);
  EXPECT_THROW(m.peek(3), std::out_of_range);
  EXPECT_THROW(m.poke(3, 1), std::out_of_range);
  EXPECT_THROW(Mem<uint32_t>(0), std::invalid_argument);
}

TEST(TileMap, WorkgroupsWalkDownRowsAndWavefrontsSplitColumns) {
  TileMap m;
  m.base = 0x1000;
  m.m = 256;
  m.first_col = 64;
  m.cols = 128;
  m.wg_rows = 64;
  m.wg_cols = 64;
  m.wfs_per_wg = 8;
  ASSERT_FALSE(m.check().has_value());
  EXPECT_EQ(m.wgs(), 4u * 2u);
  EXPECT_EQ(m.wf_cols(), 8u);
  EXPECT_EQ(m.wf_tile(), 512u);
  EXPECT_EQ(m.row0(5), 64u);       // WG 5: second row of WG tiles ...
  EXPECT_EQ(m.col0(5, 0), 128u);   // ... in the chunk's second column of WG tiles
  EXPECT_EQ(m.col0(5, 3), 152u);   // WF 3: 3 strips of 8 columns further
  EXPECT_EQ(m.tile_start(0, 0), 0x1000u + 64u * 256u * 2u);
  // Every element of every WF tile names its {wg, wf}; nothing outside the chunk does.
  for (uint32_t wg = 0; wg < m.wgs(); ++wg)
    for (uint32_t wf = 0; wf < m.wfs_per_wg; ++wf)
      for (uint32_t r = 0; r < m.wg_rows; r += 7)
        for (uint32_t c = 0; c < m.wf_cols(); ++c) {
          const auto o = m.owner(m.addr(m.row0(wg) + r, m.col0(wg, wf) + c) + 1);  // any byte of it
          ASSERT_TRUE(o.has_value());
          EXPECT_EQ(o->wg, wg);
          EXPECT_EQ(o->wf, wf);
        }
  EXPECT_FALSE(m.owner(m.addr(0, 63)).has_value());
  EXPECT_FALSE(m.owner(m.addr(255, 192)).has_value());
  EXPECT_FALSE(m.owner(0xFFF).has_value());
  m.wfs_per_wg = 5;
  EXPECT_TRUE(m.check().has_value());
}

// The APB rules every co-simulation checks (testbench/common/apb_protocol.h):
// a legal transfer with wait states passes, each broken rule counts once.
struct ApbSeq {
  tb::ApbProtocol rules;
  unsigned edge(bool sel, bool en, bool write, uint32_t addr, uint32_t strb = 0, bool ready = true,
                uint32_t wdata = 0) {
    ApbRequest p;
    p.psel = sel;
    p.penable = en;
    p.pwrite = write;
    p.paddr = addr;
    p.pstrb = strb;
    p.pwdata = wdata;
    return rules.sample(true, p, ready, [] { return "t"; });
  }
};

TEST(ApbProtocol, ALegalTransferWithWaitStatesPasses) {
  ApbSeq b;
  EXPECT_EQ(b.edge(false, false, false, 0), 0u);
  EXPECT_EQ(b.edge(true, false, true, 0x10, 0xF, true, 5), 0u);   // setup
  EXPECT_EQ(b.edge(true, true, true, 0x10, 0xF, false, 5), 0u);   // access, waits
  EXPECT_EQ(b.edge(true, true, true, 0x10, 0xF, true, 5), 0u);    // access, done
  EXPECT_EQ(b.edge(true, false, false, 0x14), 0u);                // back to back: a read
  EXPECT_EQ(b.edge(true, true, false, 0x14), 0u);
  EXPECT_EQ(b.rules.violations(), 0u);
  EXPECT_EQ(b.rules.transfers(), 2u);
}

TEST(ApbProtocol, EachBrokenRuleCounts) {
  {
    ApbSeq b;
    EXPECT_EQ(b.edge(false, true, false, 0), 1u) << "PENABLE without PSEL";
  }
  {
    ApbSeq b;
    EXPECT_EQ(b.edge(true, true, false, 0), 1u) << "access without setup";
  }
  {
    ApbSeq b;
    b.edge(true, false, false, 0);
    EXPECT_EQ(b.edge(false, false, false, 0), 1u) << "setup not followed by access";
  }
  {
    ApbSeq b;
    b.edge(true, false, true, 0x10, 0xF, true, 1);
    EXPECT_EQ(b.edge(true, true, true, 0x10, 0xF, true, 2), 1u) << "PWDATA changed";
  }
  {
    ApbSeq b;
    b.edge(true, false, true, 0x10, 0xF);
    b.edge(true, true, true, 0x10, 0xF, false);
    EXPECT_EQ(b.edge(true, true, true, 0x14, 0xF), 1u) << "PADDR changed while PREADY low";
    EXPECT_NE(b.rules.messages().back().find("PREADY"), std::string::npos);
  }
  {
    ApbSeq b;
    EXPECT_EQ(b.edge(true, false, false, 0x10, 0x3), 1u) << "PSTRB on a read";
  }
  {
    ApbSeq b;  // reset forgets a half transfer
    b.edge(true, false, false, 0x10);
    b.rules.sample(false, ApbRequest{}, true, [] { return "t"; });
    EXPECT_EQ(b.edge(false, false, false, 0), 0u);
  }
}

}  // namespace
}  // namespace t3
