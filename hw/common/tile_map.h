// Which output elements a {WG, WF} of a tiled GEMM writes (T3 §4.2.1,
// Fig. 9(a)): the one definition, used by the Tracker demo, the DMA trigger
// table's scoreboard and the system model.
//
// The output is an M x N column-major array (as BLAS stores it) of
// elem_bytes elements at `base`. A chunk of it (columns first_col.. of width
// `cols`) is produced by WGs that each write one wg_rows x wg_cols tile;
// the WGs of a chunk walk down the rows first (row-major scheduling of a
// column-major array, Fig. 9(a)), and a WG's wfs_per_wg WFs split its tile
// into column strips of wg_cols / wfs_per_wg columns: a WF tile is wg_rows
// contiguous elements in each of its columns.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace t3 {

struct TileMap {
  uint64_t base = 0;       // address of element (0, 0)
  uint32_t m = 512;        // rows (the column stride, in elements)
  uint32_t first_col = 0;  // the chunk's first column
  uint32_t cols = 512;     // the chunk's columns
  uint32_t elem_bytes = 2;
  uint32_t wg_rows = 64, wg_cols = 64;
  uint32_t wfs_per_wg = 8;  // T3 §4.2.1: at most 8 WFs per WG

  uint32_t wf_cols() const { return wg_cols / wfs_per_wg; }
  uint32_t wf_tile() const { return wg_rows * wf_cols(); }  // elements
  uint32_t wgs_per_column() const { return m / wg_rows; }
  uint32_t wgs() const { return wgs_per_column() * (cols / wg_cols); }
  uint64_t column_bytes() const { return uint64_t(m) * elem_bytes; }

  // First row and column of WF wf of the chunk's wg-th WG.
  uint32_t row0(uint32_t wg) const { return (wg % wgs_per_column()) * wg_rows; }
  uint32_t col0(uint32_t wg, uint32_t wf) const {
    return first_col + (wg / wgs_per_column()) * wg_cols + wf * wf_cols();
  }
  uint64_t addr(uint32_t row, uint32_t col) const {
    return base + (uint64_t(col) * m + row) * elem_bytes;
  }
  // The lowest address the WF tile holds: what the Tracker reports as its start.
  uint64_t tile_start(uint32_t wg, uint32_t wf) const { return addr(row0(wg), col0(wg, wf)); }

  // The {wg, wf} whose WF tile holds the element at byte address a, if the
  // chunk holds it (the inverse of addr(row0(wg) + r, col0(wg, wf) + c)).
  struct Owner {
    uint32_t wg, wf;
  };
  std::optional<Owner> owner(uint64_t a) const {
    if (a < base) return std::nullopt;
    const uint64_t elem = (a - base) / elem_bytes;
    const uint64_t col = elem / m, row = elem % m;
    if (col < first_col || col >= uint64_t(first_col) + cols) return std::nullopt;
    const uint32_t c = uint32_t(col - first_col);
    return Owner{(c / wg_cols) * wgs_per_column() + uint32_t(row) / wg_rows, (c % wg_cols) / wf_cols()};
  }

  // Why the shape cannot tile the chunk (names the field), or nothing.
  std::optional<std::string> check() const {
    auto bad = [](const char* what) { return std::optional<std::string>(what); };
    if (m == 0 || cols == 0 || elem_bytes == 0) return bad("m, cols and elem_bytes must be > 0");
    if (wg_rows == 0 || m % wg_rows) return bad("m must be a multiple of wg_rows");
    if (wg_cols == 0 || cols % wg_cols) return bad("cols must be a multiple of wg_cols");
    if (wfs_per_wg == 0 || wg_cols % wfs_per_wg)
      return bad("wg_cols must be a multiple of wfs_per_wg");
    return std::nullopt;
  }
};

}  // namespace t3
