// The register writes that stage window w at index idx and then write it
// (WIN_CMD.WRITE), or clear that window (WIN_CMD.CLEAR, w.valid false): the
// endpoint driver's sequence (firmware/src/innet.c, t3_ep_set_window), for
// the C++ side that writes the same registers (the endpoint's set_window,
// the block's co-simulation and stimulus). The includer has
// firmware/include on its path (t3/ep_window_regs.h).
#pragma once

#include <array>
#include <cstdint>

#include "ep_window/ep_window_core.h"
#include "t3/ep_window_regs.h"

namespace t3 {

struct EpWinWrite {
  uint32_t offset, data;  // within the block's window
};

inline std::array<EpWinWrite, 12> ep_window_writes(unsigned idx, const EpWin& w) {
  return {{
      {T3_EP_WINDOW_A_WIN_IDX, idx},
      {T3_EP_WINDOW_A_WIN_NET_LO, uint32_t(w.net_base)},
      {T3_EP_WINDOW_A_WIN_NET_HI, uint32_t(w.net_base >> 32)},
      {T3_EP_WINDOW_A_WIN_BYTES, w.bytes},
      {T3_EP_WINDOW_A_WIN_SRC, w.src},
      {T3_EP_WINDOW_A_WIN_DST, w.dst},
      {T3_EP_WINDOW_A_WIN_MERGE, w.merge},
      {T3_EP_WINDOW_A_WIN_STAGE, w.stage},
      {T3_EP_WINDOW_A_WIN_COUNT_BASE, w.count_base},
      {T3_EP_WINDOW_A_WIN_CTRL, uint32_t(w.expected) << T3_EP_WINDOW_R_WIN_CTRL_EXPECTED_SHIFT |
                                    uint32_t(w.dtype) << T3_EP_WINDOW_R_WIN_CTRL_DTYPE_SHIFT |
                                    uint32_t(w.home) << T3_EP_WINDOW_R_WIN_CTRL_HOME_SHIFT |
                                    uint32_t(w.det) << T3_EP_WINDOW_R_WIN_CTRL_DET_SHIFT |
                                    uint32_t(w.copy) << T3_EP_WINDOW_R_WIN_CTRL_COPY_SHIFT},
      {T3_EP_WINDOW_A_WIN_MASK, w.contrib_mask},
      {T3_EP_WINDOW_A_WIN_CMD, w.valid ? T3_EP_WINDOW_R_WIN_CMD_WRITE_MASK : T3_EP_WINDOW_R_WIN_CMD_CLEAR_MASK},
  }};
}

}  // namespace t3
