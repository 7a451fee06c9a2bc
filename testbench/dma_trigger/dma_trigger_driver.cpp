#include "dma_trigger_driver.h"

#include "t3/dma_trigger_regs.h"

namespace t3::tb {
namespace {

uint32_t field(uint32_t v, uint32_t shift, uint32_t mask) { return (v << shift) & mask; }
uint32_t get(uint32_t word, uint32_t shift, uint32_t mask) { return (word & mask) >> shift; }

uint32_t ctrl_word(const DmaEntry& f) {
  return field(f.valid, T3_DMA_TRIGGER_R_TBL_CTRL_VALID_SHIFT, T3_DMA_TRIGGER_R_TBL_CTRL_VALID_MASK) |
         field(uint32_t(f.op), T3_DMA_TRIGGER_R_TBL_CTRL_OP_SHIFT,
               T3_DMA_TRIGGER_R_TBL_CTRL_OP_MASK) |
         field(f.elem_log2, T3_DMA_TRIGGER_R_TBL_CTRL_ELEM_LOG2_SHIFT,
               T3_DMA_TRIGGER_R_TBL_CTRL_ELEM_LOG2_MASK) |
         field(f.dst_gpu, T3_DMA_TRIGGER_R_TBL_CTRL_DST_GPU_SHIFT,
               T3_DMA_TRIGGER_R_TBL_CTRL_DST_GPU_MASK) |
         field(f.tiles_per_block, T3_DMA_TRIGGER_R_TBL_CTRL_TILES_PER_BLOCK_SHIFT,
               T3_DMA_TRIGGER_R_TBL_CTRL_TILES_PER_BLOCK_MASK);
}

}  // namespace

std::array<RegWrite, 9> staging_writes(const DmaEntry& f) {
  return {{{T3_DMA_TRIGGER_A_TBL_SRC_LO, uint32_t(f.src_base)},
           {T3_DMA_TRIGGER_A_TBL_SRC_HI, uint32_t(f.src_base >> 32)},
           {T3_DMA_TRIGGER_A_TBL_DST_LO, uint32_t(f.dst_base)},
           {T3_DMA_TRIGGER_A_TBL_DST_HI, uint32_t(f.dst_base >> 32)},
           {T3_DMA_TRIGGER_A_TBL_CTRL, ctrl_word(f)},
           {T3_DMA_TRIGGER_A_TBL_M, f.m & T3_DMA_TRIGGER_R_TBL_M_VALUE_MASK},
           {T3_DMA_TRIGGER_A_TBL_N, f.n & T3_DMA_TRIGGER_R_TBL_N_VALUE_MASK},
           {T3_DMA_TRIGGER_A_TBL_TILE_ROWS, f.tile_rows & T3_DMA_TRIGGER_R_TBL_TILE_ROWS_VALUE_MASK},
           {T3_DMA_TRIGGER_A_TBL_TILE_COLS, f.tile_cols & T3_DMA_TRIGGER_R_TBL_TILE_COLS_VALUE_MASK}}};
}

void program_entry(ApbMaster& m, unsigned idx, const DmaEntry& f) {
  for (const RegWrite& w : staging_writes(f)) m.write(w.addr, w.data);
  m.write(T3_DMA_TRIGGER_A_TBL_IDX,
          field(idx, T3_DMA_TRIGGER_R_TBL_IDX_IDX_SHIFT, T3_DMA_TRIGGER_R_TBL_IDX_IDX_MASK));
  command_write(m);
}

void command_write(ApbMaster& m) {
  m.write(T3_DMA_TRIGGER_A_TBL_CMD, T3_DMA_TRIGGER_R_TBL_CMD_WRITE_MASK);
}

void program_config(ApbMaster& m, bool enable, uint32_t burst_log2) {
  m.write(T3_DMA_TRIGGER_A_BURST,
          field(burst_log2, T3_DMA_TRIGGER_R_BURST_LOG2_SHIFT, T3_DMA_TRIGGER_R_BURST_LOG2_MASK));
  m.write(T3_DMA_TRIGGER_A_CTRL, enable ? T3_DMA_TRIGGER_R_CTRL_ENABLE_MASK : 0);
}

void clear_errors(ApbMaster& m, bool enable) {
  m.write(T3_DMA_TRIGGER_A_CTRL,
          (enable ? T3_DMA_TRIGGER_R_CTRL_ENABLE_MASK : 0) | T3_DMA_TRIGGER_R_CTRL_ERR_CLEAR_MASK);
}

DmaStatus DmaStatus::of(uint32_t s) {
  DmaStatus d;
  d.cfg_error = s & T3_DMA_TRIGGER_R_STATUS_CFG_ERROR_MASK;
  d.busy = s & T3_DMA_TRIGGER_R_STATUS_BUSY_MASK;
  d.tbl_ready = s & T3_DMA_TRIGGER_R_STATUS_TBL_READY_MASK;
  d.tbl_err = s & T3_DMA_TRIGGER_R_STATUS_TBL_ERR_MASK;
  d.cause = get(s, T3_DMA_TRIGGER_R_STATUS_TBL_ERR_CAUSE_SHIFT, T3_DMA_TRIGGER_R_STATUS_TBL_ERR_CAUSE_MASK);
  d.miss = s & T3_DMA_TRIGGER_R_STATUS_MISS_MASK;
  return d;
}

uint32_t DmaStatus::word() const {
  return (cfg_error ? T3_DMA_TRIGGER_R_STATUS_CFG_ERROR_MASK : 0) |
         (busy ? T3_DMA_TRIGGER_R_STATUS_BUSY_MASK : 0) |
         (tbl_ready ? T3_DMA_TRIGGER_R_STATUS_TBL_READY_MASK : 0) |
         (tbl_err ? T3_DMA_TRIGGER_R_STATUS_TBL_ERR_MASK : 0) |
         field(cause, T3_DMA_TRIGGER_R_STATUS_TBL_ERR_CAUSE_SHIFT,
               T3_DMA_TRIGGER_R_STATUS_TBL_ERR_CAUSE_MASK) |
         (miss ? T3_DMA_TRIGGER_R_STATUS_MISS_MASK : 0);
}

uint32_t tbl_rd_addr(unsigned k) {
  static const uint32_t addrs[kTblRdRegs] = {
      T3_DMA_TRIGGER_A_TBL_RD_SRC_LO, T3_DMA_TRIGGER_A_TBL_RD_SRC_HI, T3_DMA_TRIGGER_A_TBL_RD_DST_LO,
      T3_DMA_TRIGGER_A_TBL_RD_DST_HI, T3_DMA_TRIGGER_A_TBL_RD_CTRL,   T3_DMA_TRIGGER_A_TBL_RD_M,
      T3_DMA_TRIGGER_A_TBL_RD_N,      T3_DMA_TRIGGER_A_TBL_RD_TILE_ROWS,
      T3_DMA_TRIGGER_A_TBL_RD_TILE_COLS};
  return addrs[k];
}

DmaEntry entry_of(const std::array<uint32_t, kTblRdRegs>& w, uint32_t* pending) {
  DmaEntry f;
  f.src_base = uint64_t(w[1]) << 32 | w[0];
  f.dst_base = uint64_t(w[3]) << 32 | w[2];
  const uint32_t c = w[4];
  f.valid = c & T3_DMA_TRIGGER_R_TBL_RD_CTRL_VALID_MASK;
  f.op = DmaOp(get(c, T3_DMA_TRIGGER_R_TBL_RD_CTRL_OP_SHIFT, T3_DMA_TRIGGER_R_TBL_RD_CTRL_OP_MASK));
  f.elem_log2 = get(c, T3_DMA_TRIGGER_R_TBL_RD_CTRL_ELEM_LOG2_SHIFT, T3_DMA_TRIGGER_R_TBL_RD_CTRL_ELEM_LOG2_MASK);
  f.dst_gpu = get(c, T3_DMA_TRIGGER_R_TBL_RD_CTRL_DST_GPU_SHIFT, T3_DMA_TRIGGER_R_TBL_RD_CTRL_DST_GPU_MASK);
  f.tiles_per_block = get(c, T3_DMA_TRIGGER_R_TBL_RD_CTRL_TILES_PER_BLOCK_SHIFT,
                          T3_DMA_TRIGGER_R_TBL_RD_CTRL_TILES_PER_BLOCK_MASK);
  if (pending)
    *pending = get(c, T3_DMA_TRIGGER_R_TBL_RD_CTRL_PENDING_SHIFT, T3_DMA_TRIGGER_R_TBL_RD_CTRL_PENDING_MASK);
  f.m = get(w[5], T3_DMA_TRIGGER_R_TBL_RD_M_VALUE_SHIFT, T3_DMA_TRIGGER_R_TBL_RD_M_VALUE_MASK);
  f.n = get(w[6], T3_DMA_TRIGGER_R_TBL_RD_N_VALUE_SHIFT, T3_DMA_TRIGGER_R_TBL_RD_N_VALUE_MASK);
  f.tile_rows = get(w[7], T3_DMA_TRIGGER_R_TBL_RD_TILE_ROWS_VALUE_SHIFT,
                    T3_DMA_TRIGGER_R_TBL_RD_TILE_ROWS_VALUE_MASK);
  f.tile_cols = get(w[8], T3_DMA_TRIGGER_R_TBL_RD_TILE_COLS_VALUE_SHIFT,
                    T3_DMA_TRIGGER_R_TBL_RD_TILE_COLS_VALUE_MASK);
  return f;
}

std::array<uint32_t, kTblRdRegs> words_of(const DmaEntry& f, uint32_t pending) {
  std::array<uint32_t, kTblRdRegs> w{};
  w[0] = uint32_t(f.src_base);
  w[1] = uint32_t(f.src_base >> 32);
  w[2] = uint32_t(f.dst_base);
  w[3] = uint32_t(f.dst_base >> 32);
  w[4] = ctrl_word(f) | field(pending, T3_DMA_TRIGGER_R_TBL_RD_CTRL_PENDING_SHIFT,
                              T3_DMA_TRIGGER_R_TBL_RD_CTRL_PENDING_MASK);
  w[5] = f.m & T3_DMA_TRIGGER_R_TBL_RD_M_VALUE_MASK;
  w[6] = f.n & T3_DMA_TRIGGER_R_TBL_RD_N_VALUE_MASK;
  w[7] = f.tile_rows & T3_DMA_TRIGGER_R_TBL_RD_TILE_ROWS_VALUE_MASK;
  w[8] = f.tile_cols & T3_DMA_TRIGGER_R_TBL_RD_TILE_COLS_VALUE_MASK;
  return w;
}

}  // namespace t3::tb
