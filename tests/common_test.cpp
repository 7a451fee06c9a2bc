// Unit tests of the machinery the blocks share (hw/common).
#include <gtest/gtest.h>

#include "common/bits.h"
#include "common/tile_map.h"
#include "common/wide.h"

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

}  // namespace
}  // namespace t3
