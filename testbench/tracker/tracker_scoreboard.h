// Transaction-level checker of the Tracker, independent of both the C++
// model and the RTL: it knows tiles (which writes belong to which WF tile),
// not sets, ways or counters. From that it predicts which triggers must
// appear, in which order and with which start address, how many entries are
// live, and when a write may be refused.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <unordered_map>

#include "tracker/tracker.h"

namespace t3::tb {

struct TileWrite {
  uint32_t wg_id = 0, wf_id = 0;
  uint64_t addr = 0;
  uint32_t size = 0;
  uint32_t src = 0;
  bool tracked = true;  // inside the region of an enabled, valid configuration
};

// Puts w on the Tracker's write port (in_valid_i = valid).
inline void present(TrackerInputs& in, const TileWrite& w, bool valid) {
  in.in_valid = valid;
  in.in_wg_id = w.wg_id;
  in.in_wf_id = w.wf_id;
  in.in_addr = w.addr;
  in.in_size = w.size;
  in.in_src = w.src;
}

class TrackerScoreboard {
 public:
  TrackerScoreboard(const TrackerParams& p, uint64_t threshold);

  // A new tile with this key begins; the key must not be live.
  void begin_tile(uint32_t wg_id, uint32_t wf_id);
  bool live(uint32_t wg_id, uint32_t wf_id) const { return tiles_.count(key(wg_id, wf_id)) != 0; }

  // The expected in_ready for this write, given the trigger output's state.
  bool expect_ready(const TileWrite& w, bool trig_valid, bool trig_ready) const;
  // Whether the write waits for a free way (expected set_full_o).
  bool expect_set_full(const TileWrite& w) const;

  // Every cycle, from what the DUT showed: returns an error text or nothing.
  std::optional<std::string> observe(bool in_valid, const TileWrite& w, bool trig_ready,
                                     const TrackerOutputs& out);

  // Reset of the DUT: everything in flight is gone.
  void reset();
  // After the stimulus has drained: every completed tile triggered.
  std::optional<std::string> check_drained() const;

  uint64_t tiles_completed() const { return completed_; }
  uint64_t triggers_seen() const { return triggers_; }
  uint64_t stalls() const { return stalls_; }
  uint64_t set_full_stalls() const { return set_full_stalls_; }
  uint64_t output_stalls() const { return output_stalls_; }
  // Completed tiles whose trigger has not been taken yet.
  size_t triggers_due() const { return expected_.size(); }

 private:
  struct Tile {
    uint64_t got = 0;
    uint64_t min_addr = UINT64_MAX;
  };
  struct Expected {
    uint32_t wg_id, wf_id;
    uint64_t addr;
  };
  static uint64_t key(uint32_t wg, uint32_t wf) { return (uint64_t(wg) << 32) | wf; }
  unsigned set_of(uint32_t wg) const { return wg & (p_.sets - 1); }
  bool allocated(uint32_t wg, uint32_t wf) const;

  TrackerParams p_;
  uint64_t threshold_;
  std::unordered_map<uint64_t, Tile> tiles_;
  std::unordered_map<unsigned, unsigned> allocated_per_set_;
  std::deque<Expected> expected_;  // completion order = trigger order
  uint64_t completed_ = 0, triggers_ = 0, updates_ = 0, untracked_ = 0, stalls_ = 0;
  uint64_t set_full_stalls_ = 0, output_stalls_ = 0, allocated_ = 0;
  uint64_t stat_mask_;
};

}  // namespace t3::tb
