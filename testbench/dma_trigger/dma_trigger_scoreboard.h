// Transaction-level checker of the DMA trigger table, independent of the C++
// model and the RTL: it knows dma_map regions, WF tiles, DMA blocks and bytes
// (T3 §4.2.2, §4.4), not buffers, pointers or the generator's state.
//
// It keeps its own picture of the registers (reg_shadow.h) and learns the
// configuration and the table writes from the register port as firmware
// makes them: in the cycle TBL_CMD.WRITE pulses, the staged fields are the
// entry written at TBL_IDX. From that it keeps its own copy of the table
// (every write's verdict and its commit time by its own reading of the
// rules, a command while a write is in progress refused), which triggers
// are taken and by which region, and the blocks they form (tiles_per_block
// tiles of a region, in the order they were taken). It predicts every
// register access's answer (STATUS, the miss capture, the read-back of each
// entry with its pending tiles, the counters, PARAM_*; refused accesses,
// BURST locked while busy) and the interrupt line in every cycle. Each descriptor the DMA engine takes
// must belong to the block being sent, carry its tile's wg/wf, destination
// GPU and operation, map src to dst as the region says, stay inside one
// column segment and one aligned burst, and cover bytes of its tile not
// covered before; the block's last descriptor, and only it, says last.
//
// Where a region's WG/WF tiling is known (set_map(): the driver's view, the
// same TileMap the Tracker demo uses), a tile's bytes are computed from its
// {wg, wf} alone, not from the trigger's start address. It reads the outputs
// it is given (the co-simulation gives it the RTL's, equal to the model's in
// every cycle or the run fails on the compare).
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/tile_map.h"
#include "complaints.h"
#include "dma_trigger/dma_trigger.h"
#include "reg_shadow.h"

namespace t3::tb {

using DmaTriggerShadow = RegShadow<DmaTriggerRegMap>;

class DmaTriggerScoreboard {
 public:
  // A table after reset: registers at their reset values, every entry off.
  explicit DmaTriggerScoreboard(const DmaTriggerParams& p);

  const DmaTriggerShadow& regs() const { return regs_; }
  // The configuration in force in this cycle, as the registers hold it.
  bool enabled() const { return enable_; }
  uint32_t burst_log2() const { return burst_log2_; }
  bool cfg_error() const { return burst_log2_ > p_.max_burst_log2; }

  // The driver's tiling of region `entry`: the trigger {wg, wf} of a tile
  // has wg = wg_first + (the WG's index in the map).
  void set_map(unsigned entry, const TileMap& map, uint32_t wg_first);

  // Every cycle, inputs and outputs as the pins carried them (the register
  // port's access phase included).
  std::optional<std::string> observe(const DmaTriggerInputs& in, const DmaTriggerOutputs& out);
  // Reset of the DUT: everything in flight and the table are gone.
  void reset();
  // After the stimulus has drained: every whole block sent, none half sent.
  std::optional<std::string> check_drained() const;

  // Whether the table would take a write of these fields at `entry` when it
  // is idle (the scoreboard's own reading of the rules; fields as the core
  // takes them).
  DmaWriteFault write_fault(unsigned entry, const DmaEntry& f) const;
  // The region (if any) whose tile starting at addr it would take.
  std::optional<unsigned> covering(uint64_t addr) const;
  const DmaEntry& entry(unsigned e) const { return table_[e].f; }
  // Tiles taken into entry e and not yet completely sent.
  uint64_t unsent(unsigned e) const { return table_[e].accepted - table_[e].sent; }
  // A lower bound on the descriptors entry e has still to send (one per
  // column segment not yet begun). Above DESC_DEPTH, the entry is certainly
  // busy: not all of them can be in the queue.
  uint64_t descs_left(unsigned e) const;
  bool write_in_progress() const { return wr_pending_; }

  struct Counts {
    uint64_t triggers = 0, misses = 0, descs = 0, blocks = 0, stalls = 0;
    uint64_t none_triggers = 0;  // taken by a NONE entry: counted, not sent
    // writes: verdicts on writes taken; refused[cause], port_busy and op included.
    uint64_t writes = 0, refused[10] = {}, split_bursts = 0, multi_tile_blocks = 0;
    uint64_t pending_reads = 0;  // reads of TBL_RD_CTRL of an entry holding tiles
  };
  const Counts& counts() const { return n_; }
  // The longest wait of a whole block seen over the run (resets included),
  // in blocks of other entries started meanwhile.
  uint32_t most_passed_over() const { return most_passed_over_; }

 private:
  Complaints complaints_;  // observe()'s text
  struct Interval {
    uint64_t begin, end;
  };
  struct Tile {
    uint32_t wg, wf;
    uint64_t addr;
    std::vector<Interval> segments;       // bytes the tile must send, one per column
    std::map<uint64_t, uint64_t> covered;  // begin -> end of bytes sent
    uint64_t left = 0;                     // bytes not yet sent
  };
  struct Block {
    unsigned entry;
    std::vector<Tile> tiles;
  };
  struct Region {
    DmaEntry f;
    bool has_map = false;
    TileMap map;
    uint32_t wg_first = 0;
    std::deque<Tile> queued;   // taken, not yet in a block
    std::deque<Block> blocks;  // whole blocks waiting to be sent
    uint64_t accepted = 0, sent = 0;
    // Blocks of other entries started while this one had a whole block
    // waiting: entries take turns (round robin), so this stays bounded.
    uint32_t passed_over = 0;
  };

  std::vector<Interval> tile_bytes(const Region& r, uint32_t wg, uint32_t wf, uint64_t addr,
                                   std::string& err) const;
  void check_desc(const DmaTriggerOutputs& out, std::ostream& err);
  uint64_t wire_addr(uint64_t a) const { return a & addr_mask_; }
  // The configuration the registers hold (after a write to them).
  void configure();
  // The staged entry, as the core's write port takes it.
  DmaEntry staged() const;
  // The RO bits of register r in this cycle; out: this cycle's outputs (a
  // TBL_RD_CTRL read's pending tiles are checked against bounds here and
  // taken as read).
  std::optional<uint32_t> ro(unsigned r, bool busy, const DmaTriggerOutputs& out,
                             std::ostream& err);
  void refuse(DmaWriteFault f);

  DmaTriggerParams p_;
  uint64_t addr_mask_;
  DmaTriggerShadow regs_;
  bool enable_ = false;
  uint32_t burst_log2_ = 0;
  std::vector<Region> table_;
  // A write in flight: its fields and the cycles until it commits.
  bool wr_pending_ = false;
  unsigned wr_left_ = 0, wr_idx_ = 0;
  // The trigger port's rule (T3 leaves it open; docs/blocks/dma_trigger.md
  // "Pipeline"): a trigger is taken at the earliest in the cycle after it
  // first shows, and not in the cycle after a table write's verdict.
  bool trig_seen_ = false;  // a trigger was presented, not taken, in the last cycle
  bool wr_ended_ = false;   // a table write's verdict at the last edge
  DmaEntry wr_;
  std::optional<DmaWriteFault> wr_verdict_;  // shown by tbl_err_o from the next cycle
  bool err_ = false, miss_ = false;
  uint32_t err_cause_ = 0;
  uint32_t miss_wg_ = 0, miss_wf_ = 0;
  uint64_t miss_addr_ = 0;
  std::optional<Block> sending_;  // the block whose descriptors are arriving
  size_t sending_tile_ = 0;
  uint64_t accepted_ = 0, sent_ = 0;  // tiles, over every region
  Counts n_;
  uint32_t most_passed_over_ = 0;
};

}  // namespace t3::tb
