// Constrained-random traffic for the DMA trigger table, phase by phase.
//
// A phase plans a GEMM output (a column-major array anywhere in the address
// space, sometimes ending at its very top) split into column chunks, one
// dma_map region each (T3 §4.4, Fig. 11-12), with a random WG/WF tiling
// (hw/common/tile_map.h), element size, tiles per block, destination and
// operation; programs the burst size and then the regions through the
// register port, as the driver does (dma_trigger_driver.h: the staging
// registers, TBL_IDX, the pulse of TBL_CMD.WRITE, STATUS polled until
// TBL_READY), at random indices; then sends Tracker triggers {wg, wf, start
// address} of random tiles, as the Tracker would (holding each until it is
// taken), mixed with triggers no region covers (outside every region, or a
// tile that spills past a region's end), table writes the table must refuse
// (each fault, an index above the table, writes to entries still busy, a
// command while a write is in progress), error clears (CTRL.ERR_CLEAR),
// pauses of CTRL.ENABLE, a refused burst size, read-back of random indices
// (TBL_IDX, TBL_RD_*) and a DMA engine that stalls in bursts. stop() tops
// every region up to whole blocks and drains. Each phase programs the whole
// table (the entries it does not use are switched off), as a driver does for
// a new collective. Its register transfers go through the ApbMaster it is
// given, one sequence at a time on an idle bus (random register traffic may
// come in between: reg_traffic.h).
//
// It works with the scoreboard: it registers each region's tiling there
// (set_map) and asks it which entries are idle or certainly busy, so that
// every write's verdict is decidable from the pins.
#pragma once

#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "apb_master.h"
#include "common/tile_map.h"
#include "dma_trigger/dma_trigger.h"
#include "dma_trigger_driver.h"
#include "dma_trigger_scoreboard.h"

namespace t3::tb {

struct DmaTraffic {
  double p_trig = 0.7;             // a trigger is presented when none waits
  double p_miss = 0.05;            // ... and no region covers it
  double p_desc_ready = 0.85;      // the DMA engine takes a descriptor
  double p_desc_stall = 0.003;     // start of a stall burst of the DMA engine
  unsigned desc_stall_len = 40;
  double p_bad_write = 0.002;      // a write the table must refuse, during traffic
  double p_busy_write = 0.002;     // a write to a busy entry, while the queue is stalled
  double p_port_busy = 0.001;      // a write commanded twice: the second while the first runs
  double p_err_clear = 0.005;      // CTRL.ERR_CLEAR
  double p_disable = 0.0005;       // CTRL.ENABLE low for a few cycles
  double p_bad_burst = 0.2;        // a phase opens with a burst size the table refuses
  double p_readback = 0.003;       // TBL_IDX moved to a random index and TBL_RD_* read
  double p_poll = 0.5;             // STATUS polled on an idle bus while a write runs
  unsigned triggers_per_phase = 300;
};

class DmaTriggerStimulus {
 public:
  DmaTriggerStimulus(const DmaTriggerParams& p, DmaTriggerScoreboard& sb, ApbMaster& apb,
                     uint64_t seed, DmaTraffic t = {});

  // Plans and programs new regions (the table keeps its other entries).
  void new_phase();
  // Tops every region up to whole blocks, then only drains.
  void stop();
  // Stopped, every trigger and write taken, the bus idle, nothing in flight.
  bool idle(const DmaTriggerOutputs& out) const;
  // What keeps idle() false, for a drain failure's message.
  std::string pending(const DmaTriggerOutputs& out) const;

  // This cycle's data pins, and register transfers queued on an idle bus
  // (the caller drives the bus: ApbMaster::drive).
  void drive(DmaTriggerInputs& in);
  void after(const DmaTriggerInputs& in, const DmaTriggerOutputs& out);

  struct Region {
    unsigned entry;
    DmaEntry f;
    TileMap map;
    uint32_t wg_first;
    uint64_t sent = 0;  // triggers taken this phase
    bool live = false;  // its write committed
  };
  const std::vector<Region>& regions() const { return regions_; }
  uint32_t burst_log2() const { return burst_log2_; }

 private:
  struct Write {
    unsigned idx;
    DmaEntry f;
    int region = -1;  // index into regions_, or -1
    bool busy = false;  // aimed at a busy entry: hold the queue until it commits
    bool twice = false;  // commanded again at once: the second is refused (port busy)
  };
  struct Trig {
    uint32_t wg, wf;
    uint64_t addr;
    int region;  // -1 for a miss
  };

  uint64_t rnd(uint64_t lo, uint64_t hi) { return std::uniform_int_distribution<uint64_t>(lo, hi)(rng_); }
  bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }
  Trig tile_trigger(int region);
  Trig miss_trigger();
  int unfinished_region() const;  // a live region not at a whole number of blocks
  DmaEntry bad_fields(unsigned& idx);
  // Queues the next register sequence, the bus being idle.
  void queue_registers();
  void queue_write(const Write& w);

  DmaTriggerParams p_;
  DmaTriggerScoreboard& sb_;
  ApbMaster& apb_;
  std::mt19937_64 rng_;
  DmaTraffic t_;
  uint32_t burst_log2_ = 0;
  std::vector<Region> regions_;
  std::vector<Write> writes_;      // waiting to be issued
  bool wr_issued_ = false;         // writes_.front() commanded, its verdict not yet in
  uint64_t verdicts_before_ = 0;   // the scoreboard's write verdicts when it was
  bool hold_queue_ = false;        // a busy write is on its way: the DMA engine waits
  std::array<RegWrite, 9> staged_; // the staging registers as last written
  bool config_due_ = false;        // the phase's BURST and CTRL are not written yet
  bool have_trig_ = false;
  bool trig_taken_ = false;  // in the last cycle: not yet in busy_o
  Trig trig_{};
  bool stopping_ = false;
  bool programming_ = false;  // the phase's table writes are not all done
  uint64_t phase_triggers_ = 0;
  unsigned stall_left_ = 0;
};

}  // namespace t3::tb
