// End-to-end checker of the memory-side subsystem, independent of the
// blocks' models and RTL: it knows the configuration as the firmware
// driver recorded it (the maps of t3/driver.h: which chunk of the output is
// tracked, DMA'd where and how), the WF tiles of each chunk (TileMap, the one
// {wg, wf} -> elements mapping), and a golden copy of the DRAM contents
// (every write applied in the order the streams' requests were taken, ADD
// lanes by GNU MPFR). From the requests taken and what comes out it checks:
//   - every tile of a dma_map'ed chunk leaves, once it has all its updates
//     and not before, as burst descriptors that cover exactly its bytes,
//     each once, to the peer and address its map says, with its operation
//     and the {wg, wf} it was written with; no burst crosses a column
//     segment or a 2^burst_log2-byte boundary;
//   - nothing else leaves: no descriptor for a tracked-only chunk, a
//     remote-mapped one, or memory outside the buffer;
//   - every READ returns the golden burst as of its turn (so the DMA engine
//     reads a tile only with all its updates in);
//   - the interrupt line stays low (no block finds an error);
//   - an access to an address that holds no register answers PSLVERR: any
//     window without a block (0x4000-0xFFFF), and in a block's window an
//     offset its register description does not name (or not a word); such
//     an access also reads 0 where no block is.
// It reads the outputs it is given: the co-simulation gives it the RTL's,
// which equal the model's in every cycle or the run fails on the compare.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/tile_map.h"
#include "complaints.h"
#include "mem_subsystem/mem_subsystem.h"
#include "t3/driver.h"

namespace t3::tb {

// A block's window as its register description gives it
// (hw/<block>/<block>.yaml): window 0 the Tracker, 1 the DMA trigger
// table, 2 the MCA arbiter, 3 the near-bank ALU.
struct MemWindowMap {
  const RegInfo* info;
  unsigned count;
  bool holds(uint32_t offset) const;  // a register at this byte offset
};
const MemWindowMap& mem_window_map(unsigned window);  // window < kMemSubsystemWindows

class MemSubsystemScoreboard {
 public:
  // golden: the DRAM contents the scoreboard starts from (read_burst(burst
  // index) gives any burst it has not seen written).
  MemSubsystemScoreboard(const MemSubsystemParams& p, std::function<Wide(uint64_t)> read_burst);

  // The configuration from now on (a committed t3_ctx); tiles of the last
  // one are forgotten.
  void configure(const t3_ctx& cfg);
  // A reset of the subsystem: what was in flight is lost; the DRAM keeps
  // what was written (the golden copy restarts from the array).
  void reset();

  // Whether intr_o must be low (the default: no block finds an error) or
  // may be anything (a test raising interrupts on purpose checks it itself).
  void expect_no_interrupt(bool on) { no_intr_ = on; }

  // Every cycle, from what the subsystem was given and showed.
  std::optional<std::string> observe(const MemSubsystemInputs& in, const MemSubsystemOutputs& out);
  // Once the traffic is over: every complete DMA tile sent in full, every
  // READ answered.
  std::optional<std::string> check_drained() const;

  uint64_t tiles_completed() const { return completed_; }
  uint64_t tiles_sent() const { return sent_; }
  uint64_t descriptors() const { return descs_; }
  uint64_t reads_checked() const { return reads_; }
  uint64_t writes() const { return writes_; }
  // Complete DMA tiles of this configuration whose bytes have not all left yet.
  uint64_t tiles_due() const;
  size_t reads_due() const { return pending_reads_.size(); }

 private:
  struct Tile {
    uint32_t map = 0;             // index into maps_
    uint32_t wg = 0, wf = 0;      // as the writes carried them
    bool seen = false;            // written at least once
    uint64_t updates = 0;         // element updates counted
    bool complete = false;
    std::vector<bool> covered;    // bytes sent, by offset in the tile's rows x columns
    uint64_t covered_bytes = 0;
  };
  struct Chunk {
    t3_map map;
    TileMap tiles;
  };
  // The tracked chunk and tile holding a byte address, if any.
  std::optional<std::pair<uint32_t, TileMap::Owner>> locate(uint64_t addr) const;
  Tile& tile(uint32_t chunk, TileMap::Owner o);
  uint64_t tile_elems() const;
  Wide& golden(uint64_t burst);
  void apply(const MemRequest& r, std::ostream& err);
  void request(const MemRequest& r, std::ostream& err);
  void descriptor(const MemSubsystemOutputs& o, std::ostream& err);

  MemSubsystemParams p_;
  std::function<Wide(uint64_t)> read_burst_;
  Complaints complaints_;
  std::vector<Chunk> chunks_;
  t3_buffer buf_{};
  uint32_t upe_ = 0, burst_log2_ = 0;
  std::map<uint64_t, Tile> tiles_;  // key: chunk << 48 | wg << 16 | wf
  std::map<uint64_t, Wide> golden_;
  std::deque<Wide> pending_reads_;
  uint64_t completed_ = 0, sent_ = 0, descs_ = 0, reads_ = 0, writes_ = 0;
  bool no_intr_ = true;
};

}  // namespace t3::tb
