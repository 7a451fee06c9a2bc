// A multicast region as the fabric manager programs it into a region table
// (docs/blocks/mcr_table.md, "Registers"): the register writes that stage it
// and the command word. Shared by the testbenches that program region tables
// (the table's own, the switch's two).
#pragma once

#include <cstdint>
#include <vector>

#include "apb_master.h"
#include "t3/mcr_table_regs.h"

namespace t3::tb {

struct McrRegion {
  unsigned idx = 0;
  uint64_t base = 0, size = 0;
  uint32_t ports = 0;
  unsigned expect = 0, home = 0;
  bool root = false;
  unsigned red_op = 0, dtype = 0;
};

// The register writes that stage a region and the command word: RGN_IDX,
// RGN_BASE_*, RGN_SIZE_*, RGN_PORTS, RGN_ATTR, then RGN_CMD (add, remove or
// both bits as asked), at offsets from `base` (a window). Each field within
// its bits.
inline std::vector<ApbTransfer> region_writes(const McrRegion& r, bool add, bool remove,
                                              uint32_t base = 0) {
  auto put = [](uint64_t v, uint32_t shift, uint32_t mask) { return uint32_t(v << shift) & mask; };
  std::vector<ApbTransfer> w;
  auto write = [&w, base](uint32_t addr, uint32_t data) { w.push_back({true, base + addr, data, 0xF}); };
  write(T3_MCR_TABLE_A_RGN_IDX, put(r.idx, T3_MCR_TABLE_R_RGN_IDX_IDX_SHIFT, T3_MCR_TABLE_R_RGN_IDX_IDX_MASK));
  write(T3_MCR_TABLE_A_RGN_BASE_LO, uint32_t(r.base));
  write(T3_MCR_TABLE_A_RGN_BASE_HI,
        put(r.base >> 32, T3_MCR_TABLE_R_RGN_BASE_HI_ADDR_SHIFT, T3_MCR_TABLE_R_RGN_BASE_HI_ADDR_MASK));
  write(T3_MCR_TABLE_A_RGN_SIZE_LO, uint32_t(r.size));
  write(T3_MCR_TABLE_A_RGN_SIZE_HI,
        put(r.size >> 32, T3_MCR_TABLE_R_RGN_SIZE_HI_SIZE_SHIFT, T3_MCR_TABLE_R_RGN_SIZE_HI_SIZE_MASK));
  write(T3_MCR_TABLE_A_RGN_PORTS, r.ports);
  write(T3_MCR_TABLE_A_RGN_ATTR,
        put(r.expect, T3_MCR_TABLE_R_RGN_ATTR_EXPECT_SHIFT, T3_MCR_TABLE_R_RGN_ATTR_EXPECT_MASK) |
            put(r.home, T3_MCR_TABLE_R_RGN_ATTR_HOME_SHIFT, T3_MCR_TABLE_R_RGN_ATTR_HOME_MASK) |
            put(r.root, T3_MCR_TABLE_R_RGN_ATTR_ROOT_SHIFT, T3_MCR_TABLE_R_RGN_ATTR_ROOT_MASK) |
            put(r.red_op, T3_MCR_TABLE_R_RGN_ATTR_RED_OP_SHIFT, T3_MCR_TABLE_R_RGN_ATTR_RED_OP_MASK) |
            put(r.dtype, T3_MCR_TABLE_R_RGN_ATTR_DTYPE_SHIFT, T3_MCR_TABLE_R_RGN_ATTR_DTYPE_MASK));
  write(T3_MCR_TABLE_A_RGN_CMD, (add ? T3_MCR_TABLE_R_RGN_CMD_ADD_MASK : 0) |
                                    (remove ? T3_MCR_TABLE_R_RGN_CMD_REMOVE_MASK : 0));
  return w;
}

}  // namespace t3::tb
