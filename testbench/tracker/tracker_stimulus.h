// Constrained-random traffic for the Tracker: WF tiles of a column-major
// GEMM output (T3 §4.2.1, Fig. 9(a)), each element written updates_per_elem
// times (first by the local GEMM, then by remote or DMA updates), split into
// writes of random size, interleaved across many tiles, with untracked
// writes and a randomly ready trigger consumer mixed in.
//
// Coverage by construction: WG ids over every set and every tag bit (a
// share of the tiles crowded into a few "hot" sets so that sets fill), WF
// ids over their whole width, the array placed anywhere in the address
// space, tiles at the array's first and last element (writes at `base` and,
// when the region ends there, at `limit - 1`), untracked writes at `limit`
// and `base - 1`, and, when a tile spans whole columns, writes that run from
// one column into the next.
//
// The stimulus plays the memory-controller queue in front of the Tracker: it
// holds every pending write and presents one per cycle; a refused write stays
// pending and may be presented again later, after others (in_ready_o is a
// per-cycle accept, see rtl/tracker_core.sv).
#pragma once

#include <cstdint>
#include <random>
#include <unordered_map>
#include <vector>

#include "tracker/tracker.h"
#include "tracker_scoreboard.h"

namespace t3::tb {

struct TrackerTraffic {
  // The array: column-major m_rows x n_cols elements of elem_bytes at base.
  uint64_t base = 0x10000;
  uint32_t m_rows = 256, n_cols = 256, elem_bytes = 2;
  // limit = one past the first byte of the last element (so a write of the
  // last element starts at limit - 1), else the end of the array.
  bool limit_at_last_element = false;
  // WF tiles: tile_rows x tile_cols elements, each updated updates_per_elem times.
  uint32_t tile_rows = 4, tile_cols = 2, updates_per_elem = 2;
  // WG ids: p_hot of the tiles in one of hot_sets sets (random tags), the
  // rest uniform over every set and tag.
  unsigned hot_sets = 1;
  double p_hot = 0.5;
  uint32_t max_write = 4;         // elements per write: 1..max_write
  unsigned pending_target = 48;   // start tiles while fewer writes than this are pending
  unsigned oversubscribed_sets = 1;  // sets allowed one tile more than ways
  double p_corner = 0.05;         // a tile at the array's first or last element
  double p_valid = 0.85;          // a write is presented in a cycle
  double p_untracked = 0.05;      // the presented write lies outside the region
  double p_hold = 0.5;            // a refused write is presented again next cycle
  double p_trig_ready = 0.7;      // trigger consumer ready, outside stall bursts
  double p_trig_burst = 0.002;    // start of a burst of trigger back-pressure
  unsigned trig_burst_len = 40;

  uint64_t limit() const;
  // The configuration this traffic is meant for.
  TrackerConfig config() const;
  // A random phase that fits the parameters.
  static TrackerTraffic random(const TrackerParams& p, std::mt19937_64& rng);
};

class TrackerStimulus {
 public:
  TrackerStimulus(const TrackerParams& p, const TrackerTraffic& t, uint64_t seed);

  // Sets this cycle's write and trig_ready (not the register port or rst_n).
  void drive(TrackerInputs& in);
  // After the cycle: retire the presented write when it was accepted.
  void after(const TrackerInputs& in, const TrackerOutputs& out);

  const TileWrite& presented() const { return cur_; }
  void stop_new_tiles() { draining_ = true; }
  bool idle() const { return pending_.empty(); }

 private:
  void begin_tile();
  void add_writes(uint32_t wg, uint32_t wf, uint64_t r0, uint64_t c0);
  TileWrite untracked_write();

  TrackerParams p_;
  TrackerTraffic t_;
  std::mt19937_64 rng_;
  std::vector<unsigned> hot_;
  std::vector<TileWrite> pending_;
  std::vector<unsigned> live_per_set_;
  unsigned oversubscribed_ = 0;
  bool have_cur_ = false;
  bool cur_untracked_ = false;
  size_t cur_idx_ = 0;
  TileWrite cur_;
  unsigned burst_left_ = 0;
  bool draining_ = false;
  // Element updates still to be accepted per live tile key.
  std::unordered_map<uint64_t, uint64_t> remaining_;
  uint64_t threshold_;
};

}  // namespace t3::tb
