// The DMA trigger table programmed as its driver does it, through the
// register port (docs/registers/dma_trigger.md) with the generated firmware
// macros of t3/dma_trigger_regs.h; shared by the co-simulation tests, the
// constrained-random stimulus and the bench.
//
// A dma_map entry (T3 Fig. 12): the staging registers TBL_SRC_*, TBL_DST_*,
// TBL_CTRL, TBL_M, TBL_N, TBL_TILE_*, then TBL_IDX, then the pulse of
// TBL_CMD.WRITE. The write takes DIM_W + 2 cycles (STATUS.TBL_READY low);
// a command before it is over is refused (STATUS.TBL_ERR_CAUSE 8), so the
// driver polls STATUS.TBL_READY before the next command and reads its
// verdict in STATUS.TBL_ERR / TBL_ERR_CAUSE.
#pragma once

#include <array>
#include <cstdint>

#include "apb_master.h"
#include "dma_trigger/dma_trigger.h"

namespace t3::tb {

// One register write.
struct RegWrite {
  uint32_t addr, data;
};

// The staging registers' values for entry f, in the order the driver
// writes them.
std::array<RegWrite, 9> staging_writes(const DmaEntry& f);

// Queues the writes of entry f at index idx: the staging registers, TBL_IDX,
// TBL_CMD.WRITE. The caller polls STATUS.TBL_READY before the next command.
void program_entry(ApbMaster& m, unsigned idx, const DmaEntry& f);
// Queues TBL_CMD.WRITE alone (the staged entry again, at TBL_IDX).
void command_write(ApbMaster& m);
// Queues the configuration: BURST (refused while the table is busy), then
// CTRL (triggers taken or not) last.
void program_config(ApbMaster& m, bool enable, uint32_t burst_log2);
// Queues CTRL with ERR_CLEAR: the captured errors and miss are cleared.
void clear_errors(ApbMaster& m, bool enable);

// The fields of a STATUS word.
struct DmaStatus {
  bool cfg_error = false, busy = false, tbl_ready = false, tbl_err = false, miss = false;
  uint32_t cause = 0;  // DmaWriteFault of the first refusal since the last clear

  static DmaStatus of(uint32_t status);
  uint32_t word() const;
};

// The TBL_RD_* registers, in offset order (the entry TBL_IDX shows).
inline constexpr unsigned kTblRdRegs = 9;
uint32_t tbl_rd_addr(unsigned k);
// The entry and its pending tiles from the TBL_RD_* words, in offset order.
DmaEntry entry_of(const std::array<uint32_t, kTblRdRegs>& words, uint32_t* pending = nullptr);
// The TBL_RD_* words that show entry f with `pending` tiles.
std::array<uint32_t, kTblRdRegs> words_of(const DmaEntry& f, uint32_t pending);

}  // namespace t3::tb
