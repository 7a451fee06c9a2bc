// Transaction-level checker of the Tracker, independent of both the C++
// model and the RTL: it knows tiles (which writes belong to which WF tile)
// and the configuration rules of T3 §4.2.1, written here on their own, not
// sets' ways or counters, and it keeps its own picture of the registers
// (reg_shadow.h). From that it predicts, every cycle, every register
// access's answer (the configuration read back, STATUS with its CFG_ERROR,
// the counters; refused accesses, the region locked while a tile is live),
// the interrupt line, which writes are tracked, which triggers must appear
// in which order with which start address, how many entries are live, every
// status counter, and when a write must, may or must not be refused.
//
// The Tracker is pipelined (docs/blocks/tracker.md): what a write accepted in
// cycle c does to the trigger output, live_o and stat_triggers_o shows from
// cycle c + kLatency on (stat_updates_o, stat_stalls_o and stat_untracked_o
// count a write from cycle c + 2); its refusal rule, on tiles alone:
// - must refuse: a write that would need a way of a set whose ways all hold
//   other tiles, or that completes a tile while kTrigQueue triggers are due
//   (one the consumer takes in this cycle still counts: in_ready_o does not
//   depend on trig_ready_i);
// - must accept: any other write when it was presented (the same WG, WF,
//   size, under the same TILE fields) two cycles before and no tracked write
//   was accepted in those two cycles (the Tracker decides it exactly), and
//   every untracked write;
// - otherwise it may refuse (it could not tell from its flops), never drop.
//
// It reads the outputs it is given: the co-simulation gives it the RTL's,
// which equal the model's in every cycle or the run fails on the compare.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <unordered_map>

#include "apb_master.h"
#include "complaints.h"
#include "reg_shadow.h"
#include "tracker/tracker.h"

namespace t3::tb {

struct TileWrite {
  uint32_t wg_id = 0, wf_id = 0;
  uint64_t addr = 0;
  uint32_t size = 0;
  uint32_t src = 0;
};

// Puts w on the Tracker's write port (in_valid_i = valid).
inline void present(TrackerDataIn& in, const TileWrite& w, bool valid) {
  in.in_valid = valid;
  in.in_wg_id = w.wg_id;
  in.in_wf_id = w.wf_id;
  in.in_addr = w.addr;
  in.in_size = w.size;
  in.in_src = w.src;
}

// The write on the port in this cycle (whether or not in_valid_i is set).
TileWrite presented_write(const TrackerDataIn& in);

// Queues the register writes that program cfg, as the driver does: the
// region and the threshold, then CTRL (tracking on or off) last.
void program(ApbMaster& m, const TrackerConfig& cfg);

using TrackerShadow = RegShadow<TrackerRegMap>;

class TrackerScoreboard {
 public:
  // A Tracker after reset: registers at their reset values, nothing tracked.
  explicit TrackerScoreboard(const TrackerParams& p);

  // The configuration in force in this cycle, as the core sees it: the
  // registers' values of the cycle before.
  const TrackerConfig& config() const { return cfg_; }
  const TrackerShadow& regs() const { return regs_; }

  // Whether the configuration is usable (by this checker's own reading of T3
  // §4.2.1: a threshold tile_size x updates_per_elem of 1..2^CNT_W-1 and a
  // non-empty region [base, limit)).
  bool config_valid() const { return valid_; }
  // Whether a write counts: enabled, valid, inside [base, limit).
  bool tracked(const TileWrite& w) const;
  // Cycles from a write's acceptance to its effect on the trigger output,
  // live_o and stat_triggers_o (1 in a one-cycle Tracker).
  static constexpr unsigned kLatency = 3;
  // Whether the write must be refused because it would need a way of a set
  // whose ways all hold other tiles.
  bool needs_full_set(const TileWrite& w) const;
  // Whether the write must be refused.
  bool must_refuse(const TileWrite& w) const;

  // Every cycle, from what the DUT was given and showed: returns an error
  // text or nothing.
  std::optional<std::string> observe(const TrackerInputs& in, const TrackerOutputs& out);

  // Reset of the DUT: everything in flight is gone, the registers are at
  // their reset values.
  void reset();
  // After the stimulus has drained: every completed tile triggered, none left open.
  std::optional<std::string> check_drained() const;

  uint64_t tiles_completed() const { return completed_; }
  uint64_t triggers_seen() const { return triggers_; }
  uint64_t stalls() const { return stalls_; }
  uint64_t set_full_stalls() const { return set_full_stalls_; }
  uint64_t output_stalls() const { return output_stalls_; }
  uint64_t untracked() const { return untracked_; }
  // Refusals the rule allowed but did not require (the Tracker waited for its lookup).
  uint64_t lookup_stalls() const { return lookup_stalls_; }
  // Completed tiles whose trigger has not been taken yet.
  size_t triggers_due() const { return expected_.size(); }

 private:
  Complaints complaints_;  // observe()'s text
  struct Tile {
    uint64_t got = 0;
    uint64_t min_addr = UINT64_MAX;
    bool has_entry = false;  // holds one of its set's ways
  };
  struct Expected {
    uint32_t wg_id, wf_id;
    uint64_t addr;
    uint64_t at;  // the cycle it shows on the output from
  };
  // A tile taking or giving back an entry, shown on live_o from cycle `at`.
  struct EntryEvent {
    uint64_t at;
    int delta;
  };
  // What was presented in an earlier cycle.
  struct Past {
    bool tracked = false, accepted = false;
    TileWrite w;
    uint32_t tile = 0, upe = 0;  // the TILE fields as the core takes them
  };
  // As the pins carry it.
  TileWrite wired(const TileWrite& w) const;
  uint64_t key(const TileWrite& w) const { return (uint64_t(w.wg_id) << 32) | w.wf_id; }
  unsigned set_of(uint32_t wg) const { return wg % p_.sets; }
  const Tile* find(const TileWrite& w) const;
  bool fires(const TileWrite& w) const;
  // The RO bits of register r in this cycle (STATUS, the counters, PARAM_*).
  std::optional<uint32_t> ro(unsigned r, bool set_full) const;
  // The configuration the registers hold, and the one the core works on.
  TrackerConfig from_regs() const;
  void configure(const TrackerConfig& c);

  TrackerParams p_;
  TrackerShadow regs_;
  TrackerConfig cfg_;     // as the core sees it in this cycle
  TrackerConfig staged_;  // the registers' values: the core's in the next cycle
  uint64_t base_ = 0, limit_ = 0, threshold_ = 0;
  bool enable_ = false, valid_ = false;
  std::unordered_map<uint64_t, Tile> tiles_;
  std::unordered_map<unsigned, unsigned> entries_per_set_;
  std::deque<Expected> expected_;  // completion order = trigger order
  std::deque<EntryEvent> entry_events_;
  Past past_[3];
  // The write port's counters after the last cycle and the one before: the
  // outputs show them two cycles after the decision.
  struct Counts {
    uint64_t updates = 0, untracked = 0, stalls = 0;
  };
  Counts lagged_[2];                   // the last cycle, the one before, the one before that
  uint64_t cycle_ = 0;
  uint64_t completed_ = 0, triggers_ = 0, updates_ = 0, untracked_ = 0, stalls_ = 0;
  uint64_t set_full_stalls_ = 0, output_stalls_ = 0, lookup_stalls_ = 0, entries_ = 0;
  uint64_t shown_entries_ = 0, shown_completed_ = 0;  // as the outputs show them now
};

}  // namespace t3::tb
