// T3 DMA trigger table and address generator core, cycle model (T3 §4.2.2,
// §4.4, Fig. 9(c), 11, 12). Plain C++: no SystemC here. The block firmware
// programs is this core behind its registers (hw/dma_trigger/dma_trigger.h);
// the core takes its configuration and its table-write port as plain inputs.
//
// The driver pre-programs one table entry per dma_map region: where the
// region's data lies (a column-major M x N array of 2^elem_log2-byte elements
// at src_base), where it goes (GPU dst_gpu, dst_base: the same layout),
// STORE or UPDATE, the WF tile shape (tile_rows x tile_cols elements) and how
// many WF tiles make one DMA block. A Tracker trigger {wg, wf, start address}
// finds the entry whose region holds the whole tile, and is buffered there
// with its wg/wf (the destination GPU's Tracker needs them); once an entry
// holds a block's worth of tiles, the address generator turns the block into
// burst descriptors, one per cycle, through the RTL's pipeline (pick, fetch,
// read, load, step: docs/blocks/dma_trigger.md "Pipeline"); the tiles are
// held in a t3::Mem, the RTL's storage wrapper (one cycle to read).
//
// One object is one table. Per clock: eval() gives the outputs for the
// current state and inputs (trig_ready depends on the presented trigger),
// then clock() advances the state as the rising edge of
// rtl/dma_trigger_core.sv does; the two are cycle- and bit-exact. Parameters
// carry the RTL names in lower case.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/params.h"
#include "common/t3_mem.h"

namespace t3 {

// The table index as the register TBL_IDX.IDX carries it: wide enough for
// the largest table (ENTRIES = 64), so that an index above this build's
// table reaches the core whole and is refused, never wrapped onto a live
// entry.
inline constexpr unsigned kDmaIdxBits = 6;
// The burst size as the register BURST.LOG2 carries it: every value above
// MAX_BURST_LOG2 reaches the core and is refused (cfg_error).
inline constexpr unsigned kDmaBurstLog2Bits = 5;

struct DmaTriggerParams {
#define T3_PARAMS_DEF "dma_trigger/dma_trigger_params.def"
#define T3_PARAMS_SELF DmaTriggerParams
#include "common/param_struct.inc"

  unsigned idx_w() const;    // an index into this build's table (at least 1)
  // Cycles a table write keeps the port busy: one per bit of N (the region
  // size and the tile span are multiplied bit-serially), then the sums, then
  // the checks and the commit.
  unsigned write_cycles() const { return dim_w + 2; }

  // Throws std::invalid_argument naming the parameter and its allowed range.
  void validate() const;
};

// What a table entry does with a complete block (TBL_CTRL.OP). NONE takes
// and counts a complete tile without sending it: the last stage of a
// reduce-scatter, whose result stays, tracked so that its completion is
// known (the driver's t3_track_map).
enum class DmaOp : uint8_t { store = 0, update = 1, none = 2 };

// Why the table refuses a write (tbl_err_cause_o, STATUS.TBL_ERR_CAUSE). One
// definition: the model commits or refuses by fault(), DmaEntry::check()
// reports the same causes by name, and rtl/dma_trigger_core.sv implements the
// same rule.
enum class DmaWriteFault : uint8_t {
  none = 0,
  index = 1,            // no entry of that index (>= ENTRIES)
  tiles_per_block = 2,  // 0 or more than SLOTS
  dims_zero = 3,        // M or N is 0
  tile_rows = 4,        // 0 or more than M
  tile_cols = 5,        // 0 or more than N
  region_overflow = 6,  // src_base + M x N elements passes 2^ADDR_W
  entry_busy = 7,       // the entry still holds tiles or its block is being sent
  port_busy = 8,        // commanded while the last write is still in progress
  op = 9,               // operation 3 (reserved)
};

const char* dma_write_fault_name(DmaWriteFault f);

// One dma_map region, as the driver writes it (T3 Fig. 12). All zero is the
// table's state after reset.
struct DmaEntry {
  bool valid = false;
  uint64_t src_base = 0;  // element (0, 0) of the region
  uint64_t dst_base = 0;  // where element (0, 0) goes on dst_gpu
  uint32_t dst_gpu = 0;
  DmaOp op = DmaOp::store;
  uint32_t tiles_per_block = 0;  // WF tiles per DMA block, 1..SLOTS
  uint32_t m = 0;                // rows: the column stride, in elements
  uint32_t n = 0;                // columns
  uint32_t elem_log2 = 0;        // element bytes = 2^elem_log2 (fp16: 1)
  uint32_t tile_rows = 0;        // a WF tile: tile_rows x tile_cols elements
  uint32_t tile_cols = 0;

  uint64_t column_bytes() const { return uint64_t(m) << elem_log2; }
  uint64_t segment_bytes() const { return uint64_t(tile_rows) << elem_log2; }
  uint64_t region_bytes() const { return uint64_t(n) * column_bytes(); }

  // The table's verdict on these fields (the index and the state of the
  // port and the entry aside). Fields are taken as the write port carries
  // them: each cut to its width (ADDR_W, GPU_W, log2(SLOTS + 1), DIM_W, 2).
  DmaWriteFault fault(const DmaTriggerParams& p) const;
  // Why the driver must not write this (names the field and the allowed
  // range), or nothing. Stricter than fault(): a field wider than the core
  // takes is refused here, where the hardware would see its low bits.
  std::optional<std::string> check(const DmaTriggerParams& p) const;
};

// The data-path pins, the same on the core and on the block.
struct DmaTriggerDataIn {
  bool rst_n = true;
  // Triggers from the Tracker.
  bool trig_valid = false;
  uint32_t trig_wg_id = 0, trig_wf_id = 0;
  uint64_t trig_addr = 0;
  // The DMA engine takes descriptors.
  bool desc_ready = false;
};

struct DmaTriggerDataOut {
  bool trig_ready = false;
  bool desc_valid = false;
  uint64_t desc_src = 0, desc_dst = 0;
  uint32_t desc_gpu = 0, desc_bytes = 0;
  bool desc_op = false;  // DmaOp::update
  uint32_t desc_wg = 0, desc_wf = 0;
  bool desc_last = false;  // the block's last descriptor
  bool tbl_err = false;    // sticky: a write was refused
  uint32_t tbl_err_cause = 0;  // DmaWriteFault of the first refusal since err_clear
  bool miss = false;       // sticky: a trigger no entry covers
  uint32_t miss_wg = 0, miss_wf = 0;
  uint64_t miss_addr = 0;  // the first such trigger since err_clear
  uint32_t stat_triggers = 0, stat_miss = 0, stat_descs = 0, stat_blocks = 0, stat_stalls = 0;
  bool busy = false;  // a block is being sent, a tile waits, or a write is in progress
};

// The core's configuration and table ports (the block's registers drive them).
struct DmaTriggerCoreInputs : DmaTriggerDataIn {
  bool cfg_enable = false;
  uint32_t cfg_burst_log2 = 0;  // bursts stay inside 2^cfg_burst_log2-byte aligned blocks
  // Table write port (T3 Fig. 12's dma_map): a write of `tbl` at tbl_idx
  // (kDmaIdxBits wide) in the cycle tbl_we is set.
  bool tbl_we = false;
  uint32_t tbl_idx = 0;
  DmaEntry tbl;
  // Read back of entry tbl_rd_idx (kDmaIdxBits wide; above the table: zeros).
  uint32_t tbl_rd_idx = 0;
  bool err_clear = false;
};

struct DmaTriggerCoreOutputs : DmaTriggerDataOut {
  bool cfg_error = false;  // cfg_burst_log2 > MAX_BURST_LOG2
  bool tbl_ready = false;  // no write in progress: one commanded now is taken
  DmaEntry tbl_rd;
  uint32_t tbl_rd_pending = 0;  // tiles entry tbl_rd_idx buffers
};

class DmaTriggerCore {
 public:
  explicit DmaTriggerCore(const DmaTriggerParams& params);

  const DmaTriggerParams& params() const { return p_; }
  DmaTriggerCoreOutputs eval(const DmaTriggerCoreInputs& in) const;
  void clock(const DmaTriggerCoreInputs& in);
  // eval() then clock() on one decision: the cycle's outputs, then the edge.
  DmaTriggerCoreOutputs step(const DmaTriggerCoreInputs& in);

 private:
  struct Tile {
    uint32_t wg = 0, wf = 0;
    uint64_t addr = 0;
  };
  struct Slot {
    DmaEntry f;
    uint64_t last_start = 0;  // the highest start address whose tile fits the region
    uint32_t head = 0, count = 0;  // the entry's circular buffer of SLOTS tiles in buf_
  };
  struct Desc {
    uint64_t src, dst;
    uint32_t gpu, bytes;
    bool op;
    uint32_t wg, wf;
    bool last;
  };
  // The combinational part of a cycle, shared by eval() and clock().
  struct Decision {
    bool active, cfg_error, hit, look, accept, ready;
    unsigned entry;
  };
  Decision decide(const DmaTriggerCoreInputs& in) const;
  DmaTriggerCoreOutputs outputs(const DmaTriggerCoreInputs& in, const Decision& d) const;
  void apply(const DmaTriggerCoreInputs& in, const Decision& d);
  std::optional<unsigned> lookup(uint64_t addr) const;
  bool entry_busy(unsigned e) const;
  // The address generator's edge (pick, read, load, step); sets the tile
  // buffer's read port for this edge.
  void generate(uint32_t burst_log2, bool pop, bool active, bool& re, uint32_t& raddr);
  void refuse(DmaWriteFault f);

  DmaTriggerParams p_;
  uint64_t addr_mask_, stat_mask_;
  std::vector<Slot> entries_;
  // The triggered tiles, entry e's SLOTS at [e * SLOTS, (e + 1) * SLOTS):
  // rtl/dma_trigger_core.sv's t3_mem u_buf, one synchronous read port.
  Mem<Tile> buf_;
  // Its write, one edge after the trigger was taken (the RTL's bw_*_q).
  bool bw_ = false;
  uint32_t bw_addr_ = 0;
  Tile bw_tile_;
  // The valid entries in index order (the lookup's candidates) and the tiles
  // buffered over all entries: kept as the table changes, for speed.
  std::vector<unsigned> valid_;
  uint64_t pending_ = 0;
  // The lookup of the trigger presented in the last cycle (the RTL's cov_q,
  // as the lowest covering entry), whether that trigger was there and not
  // taken (seen_q: the port holds it, so it is the one presented now), and
  // whether a table write ended at the last edge (wr_end_q: the lookup
  // predates it).
  bool lk_hit_ = false;
  unsigned lk_entry_ = 0;
  bool seen_ = false, wr_end_ = false;
  // Table write in progress.
  unsigned wr_left_ = 0, wr_idx_ = 0;
  DmaEntry wr_;
  // Address generator, the RTL's registers (rtl/dma_trigger_core.sv):
  // pick (the entry), fetch (its fields), read (the tile buffer), load (the
  // tile's column registers), step (a descriptor a cycle). rr_ is the RTL's
  // one-hot mask of the entries above the last picked, as an index.
  bool blk_ = false;  // a block is picked and not yet all in the queue
  bool pk_ = false;   // picked, its fields not yet fetched
  unsigned g_e_ = 0, rr_ = 0;
  uint32_t g_rd_slot_ = 0, g_rd_left_ = 0, g_left_ = 0;
  uint64_t g_src_ = 0, g_dst_ = 0, g_delta_ = 0;
  uint32_t g_gpu_ = 0;
  bool g_op_ = false;
  uint32_t g_tr_ = 0, g_m_ = 0, g_tc_ = 0, g_eb_ = 0;  // as fetched
  uint64_t g_seg_ = 0, g_colb_ = 0;  // from them, the cycle after
  uint32_t g_tcm1_ = 0;
  bool rd_full_ = false;  // buf_.rdata() holds the block's next tile, not yet loaded
  bool t_ = false;        // a tile is loaded
  uint32_t t_cleft_ = 0;  // the tile's columns after this one
  // The next burst's offset in the column segment, the segment's bytes from
  // there and the bytes to the next aligned boundary; the column's first
  // byte on both sides.
  uint64_t t_off_ = 0, t_rem_ = 0, t_tob_ = 0, col_src_ = 0, col_dst_ = 0;
  uint32_t t_wg_ = 0, t_wf_ = 0;
  // Descriptor queue.
  std::vector<Desc> fifo_;
  unsigned fifo_head_ = 0, fifo_count_ = 0;
  // Errors and status.
  bool tbl_err_ = false, miss_ = false;
  uint32_t tbl_err_cause_ = 0;
  Tile miss_tile_;
  uint32_t stat_triggers_ = 0, stat_miss_ = 0, stat_descs_ = 0, stat_blocks_ = 0, stat_stalls_ = 0;
};

}  // namespace t3
