// Transaction-level checker of the MCA arbiter, independent of both the C++
// model and the RTL: it knows requests (which were presented, which were
// granted, which left, in what order, with what payload) and the rules of
// T3 §4.5 and of the paper's two baselines, written here on their own from
// the specification, not from the model's registers, and it keeps its own
// picture of the registers (reg_shadow.h), from which it takes the
// configuration in force (a write changes it at the edge that ends the
// write's access phase, so firmware may change policy or threshold at run
// time). Every cycle it decides which stream the rule lets into a free
// output slot and checks the readies against that (no grant against the
// rule, no free slot left idle while the rule allows a grant), holds the
// starvation bound, checks that every accepted request leaves exactly once,
// in its stream's order and with its payload unchanged, and predicts the
// level and threshold in force, the learning window and its average, every
// status counter, every register access's answer (the configuration read
// back; STATUS with its CFG_ERROR, LEARN_AVG, STAT_*, PARAM_*; refused
// accesses, the auto bounds and the window locked while a window runs) and
// the interrupt line (CFG_ERROR in every cycle the configuration is refused,
// STARVED at each starvation grant).
//
// It reads the inputs as driven (it cuts the data pins and the configuration
// to the build's widths itself) and the outputs it is given: the
// co-simulation gives it the RTL's, which equal the model's in every cycle or
// the run fails on the compare. Reset is seen on rst_ni: requests in flight
// are then gone (counted as lost), the registers back at their reset values.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "apb_master.h"
#include "complaints.h"
#include "mca_arbiter/mca_arbiter.h"
#include "reg_shadow.h"

namespace t3::tb {

enum McaStream : unsigned { kCmp = 0, kCom = 1 };

// The register writes that program cfg, as the driver does
// (docs/blocks/mca_arbiter.md, "Registers"): CTRL first with the threshold
// fixed (the bounds are checked only in auto mode, so no set of bounds half
// written is refused on the way), the bounds and the window (the registers
// a learning window locks), the levels and the starvation limit, then CTRL
// as cfg has it. Each field as cfg gives it, within the field's bits (the
// hardware cuts it to the build's width).
std::vector<ApbTransfer> program_writes(const McaArbiterConfig& cfg);
// Queues them.
void program(ApbMaster& m, const McaArbiterConfig& cfg);
// The CTRL word of cfg.
uint32_t ctrl_word(const McaArbiterConfig& cfg);

using McaShadow = RegShadow<McaArbiterRegMap>;

// What the scoreboard saw, for the tests' own coverage checks.
struct McaCoverage {
  std::array<uint64_t, 3> grants_by_policy{};  // grants under each policy actually run
  std::array<uint64_t, 4> cycles_at_level{};   // MCA cycles with each level in force
  std::array<uint64_t, 3> blocked_at_level{};  // MCA: communication held back by the threshold
  uint64_t unlimited_high_grants = 0;          // MCA, no limit: communication let in at occupancy >= 2^(OCC_W-1)
  std::array<uint64_t, 4> learned_level{};     // windows completed in auto mode, by the level picked
  uint64_t windows = 0, ignored_pulses = 0;
  uint64_t starved_grants = 0, starved_grants_limit1 = 0, starved_grants_limit_big = 0;
  uint64_t drain_grants_over_compute = 0;      // drain let communication in ahead of valid compute
  std::array<uint64_t, 4> refused{};           // cycles refused, by cause (bit of refusal_causes())
  uint64_t fallback_grants = 0;                // grants under the round-robin fall-back
  uint64_t resets_with_slot_full = 0;
  uint64_t back_pressure = 0, take_and_replace = 0;
  uint64_t accepted[2] = {0, 0}, left[2] = {0, 0};  // over the whole run
  uint64_t lost_in_reset = 0;
};

class McaScoreboard {
 public:
  // An arbiter after reset: registers at their reset values, nothing learned.
  explicit McaScoreboard(const McaArbiterParams& p);

  // Every cycle, with the inputs driven and the outputs shown in it: an
  // error text, or nothing.
  std::optional<std::string> observe(const McaArbiterInputs& in, const McaArbiterOutputs& out);
  // After the traffic has drained: the slot is empty, and every request
  // accepted since the last reset has left.
  std::optional<std::string> check_drained() const;

  // The configuration in force in this cycle, as the registers hold it
  // (whole fields).
  const McaArbiterConfig& config() const { return cfg_; }
  const McaShadow& regs() const { return regs_; }
  // Whether the configuration in force is refused (STATUS.CFG_ERROR).
  bool refused() const { return refusal_causes(wired(cfg_)) != 0; }
  // Whether a learning window runs (busy: the bounds and the window locked).
  bool learning() const { return window_open_; }

  // The configuration as the core takes it (each field cut to the build's
  // width), by this checker's own reading.
  struct Cfg {
    unsigned policy, sel;
    bool autosel;
    uint64_t level[3], bound[3], log2, limit;
  };
  Cfg wired(const McaArbiterConfig& c) const;
  // Why the configuration is refused, one bit per cause: 1 policy 3, 2 a
  // level of 0, 4 auto mode with bounds not descending, 8 a window longer
  // than LEARN_W allows; 0 when it is usable.
  unsigned refusal_causes(const Cfg& c) const;

  const McaCoverage& coverage() const { return cov_; }
  uint64_t accepted(unsigned stream) const { return accepted_[stream]; }
  uint64_t left(unsigned stream) const { return left_[stream]; }
  uint64_t lost() const { return cov_.lost_in_reset; }

 private:
  Complaints complaints_;  // observe()'s text
  struct Request {
    unsigned stream;
    uint64_t seq;  // its number in its stream since reset
    uint64_t data;
  };
  enum class Pick { none, cmp, com };
  // The rule: who enters a free slot this cycle.
  Pick rule(const Cfg& c, bool cmp, bool com, uint64_t occ, bool drain, unsigned sel,
            bool* by_starvation) const;
  unsigned level_in_force(const Cfg& c) const;
  // The RO bits of register r in this cycle (STATUS, LEARN_AVG, STAT_*,
  // PARAM_*), given the refusal, level and threshold in force.
  std::optional<uint32_t> ro(unsigned r, bool bad, unsigned sel, uint64_t thr) const;
  // The configuration the registers hold (after a write or a reset).
  void configure();
  void clear();

  McaArbiterParams p_;
  McaShadow regs_;
  McaArbiterConfig cfg_;
  uint64_t data_mask_, occ_mask_;
  std::deque<Request> slot_;   // accepted, not yet left (the register holds one)
  uint64_t accepted_[2] = {0, 0}, left_[2] = {0, 0};
  int last_grant_ = -1;        // stream of the last grant since reset, -1 none
  uint64_t com_waited_ = 0;    // cycles communication waited since its last grant (unbounded)
  // Learning: the occupancies of the open window.
  bool window_open_ = false;
  uint64_t window_len_ = 0, window_seen_ = 0, window_sum_ = 0;
  bool have_avg_ = false;
  uint64_t avg_ = 0;
  // Status counters, unbounded (compared modulo 2^STAT_W).
  uint64_t grants_[2] = {0, 0}, waits_[2] = {0, 0}, starved_ = 0;
  McaCoverage cov_;
};

}  // namespace t3::tb
