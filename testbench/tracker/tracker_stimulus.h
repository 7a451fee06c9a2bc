// Constrained-random traffic for the Tracker: WF tiles of a column-major GEMM
// output (T3 §4.2.1, Fig. 9(a)), each element written updates_per_elem times
// (first by the local GEMM, then by remote or DMA updates), split into writes
// of random size, interleaved across many tiles, with untracked writes and a
// randomly ready trigger consumer mixed in.
//
// The stimulus plays the memory-controller queue in front of the Tracker: it
// holds every pending write and presents one per cycle; a refused write stays
// pending and may be presented again later, after others (in_ready_o is a
// per-cycle accept, see rtl/tracker.sv).
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "tracker/tracker.h"
#include "tracker_scoreboard.h"

namespace t3::tb {

struct TrackerTraffic {
  TrackerConfig cfg;              // region, tile size, updates per element
  uint32_t tile_rows = 4;         // tile is tile_rows x (tile_size / tile_rows) elements
  uint64_t m_rows = 1024;         // rows of the column-major output array
  uint32_t elem_bytes = 2;        // fp16
  uint32_t wg_first = 0;          // WG ids used: wg_first + k * wg_stride, k < wg_count
  uint32_t wg_stride = 1;         // a multiple of the set count puts every WG in one set
  uint32_t wg_count = 64;
  uint32_t max_write = 4;         // elements per write: 1..max_write
  unsigned pending_target = 48;   // start tiles while fewer writes than this are pending
  unsigned oversubscribed_sets = 1;  // sets allowed one tile more than ways
  double p_valid = 0.85;          // a write is presented in a cycle
  double p_untracked = 0.05;      // the presented write lies outside the region
  double p_hold = 0.5;            // a refused write is presented again next cycle
  double p_trig_ready = 0.7;      // trigger consumer ready, outside stall bursts
  double p_trig_burst = 0.002;    // start of a burst of trigger back-pressure
  unsigned trig_burst_len = 40;
};

class TrackerStimulus {
 public:
  TrackerStimulus(const TrackerParams& p, const TrackerTraffic& t, uint64_t seed);

  // Sets this cycle's input fields (not cfg or rst_n) and tells the
  // scoreboard about tiles begun.
  void drive(TrackerInputs& in, TrackerScoreboard& sb);
  // After the cycle: retire the presented write when it was accepted.
  void after_cycle(const TrackerInputs& in, const TrackerOutputs& out);

  const TileWrite& presented() const { return cur_; }
  void stop_new_tiles() { draining_ = true; }
  bool idle() const { return pending_.empty(); }
  void reset();  // the DUT was reset: nothing is in flight any more

 private:
  void begin_tile(TrackerScoreboard& sb);
  TileWrite untracked_write();

  TrackerParams p_;
  TrackerTraffic t_;
  std::mt19937_64 rng_;
  std::vector<TileWrite> pending_;
  std::vector<unsigned> live_per_set_;
  unsigned oversubscribed_ = 0;
  bool have_cur_ = false;
  bool cur_untracked_ = false;
  size_t cur_idx_ = 0;
  TileWrite cur_;
  unsigned burst_left_ = 0;
  bool draining_ = false;
  // Element updates still to be accepted per key slot (k * wf_count + wf); 0: free.
  std::vector<uint64_t> remaining_;
  uint32_t wf_count_;
  uint64_t threshold_;
};

}  // namespace t3::tb
