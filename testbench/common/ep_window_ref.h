// The scoreboards' own window lookup on ep_window's table (tbl_o), written
// from the rule (docs/blocks/ep_window.md, "Lookups") in 128-bit arithmetic
// rather than with the models' find_window() or rtl/ep_win_lookup.sv: the
// lowest valid window holding a packet at net address a of len flits whole.
// The scoreboards of the engines that read the table (ep_rx, ep_req) use it.
#pragma once

#include <cstdint>
#include <optional>

#include "ep_window/ep_window_core.h"

namespace t3::tb {

struct EpWinFound {
  unsigned index = 0;
  EpWin win;
  uint64_t off = 0;  // a - net_base
};

inline std::optional<EpWinFound> ref_find_window(const EpWinTable& tbl, unsigned windows, unsigned flit_bytes,
                                                 uint64_t a, unsigned len) {
  using u128 = unsigned __int128;
  for (unsigned i = 0; i < windows; ++i) {
    const EpWin w = unpack_window(tbl, i);
    if (w.valid && a >= w.net_base && u128(a) + u128(len) * flit_bytes <= u128(w.net_base) + w.bytes)
      return EpWinFound{i, w, a - w.net_base};
  }
  return std::nullopt;
}

}  // namespace t3::tb
