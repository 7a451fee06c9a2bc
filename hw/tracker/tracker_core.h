// T3 Tracker core, cycle model (T3 §4.2.1, Fig. 9). Plain C++: no SystemC
// here. The block firmware programs is this core behind its registers
// (hw/tracker/tracker.h); the core takes its configuration as plain inputs.
//
// One object is one Tracker core. Per clock: eval() gives the outputs for
// the current state and inputs (in_ready depends on the presented write),
// then clock() advances the state as the rising edge of rtl/tracker_core.sv
// does. The behaviour is cycle- and bit-exact with the RTL; parameters carry
// the RTL parameter names in lower case (sets = SETS, ways = WAYS, ...).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/params.h"

namespace t3 {

struct TrackerParams {
#define T3_PARAMS_DEF "tracker/tracker_params.def"
#define T3_PARAMS_SELF TrackerParams
#include "common/param_struct.inc"

  unsigned set_w() const;
  unsigned tag_w() const { return wg_id_w - set_w() + wf_id_w; }
  unsigned entries() const { return sets * ways; }
  unsigned live_w() const;
  // Storage bits: valid + tag + start address + counter per entry.
  uint64_t storage_bits() const { return uint64_t(entries()) * (1 + tag_w() + addr_w + cnt_w); }

  // Throws std::invalid_argument naming the parameter and its allowed range.
  void validate() const;
};

enum class WriteSource : uint8_t { local = 0, remote = 1, dma = 2 };

// Why the hardware refuses a configuration (STATUS.CFG_ERROR). One
// definition: the model's per-cycle decision and TrackerConfig::check() both
// use TrackerConfig::fault(); rtl/tracker_core.sv implements the same rule.
enum class TrackerFault : uint8_t {
  none,
  threshold_zero,      // tile_size x updates_per_elem == 0
  threshold_too_wide,  // tile_size x updates_per_elem does not fit CNT_W bits
  region_empty,        // base >= limit
};

struct TrackerConfig {
  bool enable = false;
  uint64_t base = 0;   // tracked region is [base, limit)
  uint64_t limit = 0;
  uint32_t tile_size = 0;          // elements per WF tile, (M*N)/#WF (T3 §4.2.1)
  uint32_t updates_per_elem = 0;   // 2 for ring reduce-scatter

  // The hardware's verdict on the fields as its pins carry them (each
  // truncated to its pin width), whether or not enable is set.
  TrackerFault fault(const TrackerParams& p) const;
  // Why this configuration cannot be used with these parameters (names the
  // field and the allowed range), or nothing when it can. Stricter than
  // fault(): a field wider than its pin is refused here, where the hardware
  // would silently see its low bits.
  std::optional<std::string> check(const TrackerParams& p) const;
};

// The data-path pins, the same on the core and on the block.
struct TrackerDataIn {
  bool rst_n = true;
  bool in_valid = false;
  uint32_t in_wg_id = 0;
  uint32_t in_wf_id = 0;
  uint64_t in_addr = 0;
  uint32_t in_size = 0;
  uint32_t in_src = 0;
  bool trig_ready = false;
};

struct TrackerDataOut {
  bool in_ready = false;
  bool set_full = false;
  bool trig_valid = false;
  uint32_t trig_wg_id = 0;
  uint32_t trig_wf_id = 0;
  uint64_t trig_addr = 0;
  uint32_t stat_updates = 0;
  uint32_t stat_triggers = 0;
  uint32_t stat_stalls = 0;
  uint32_t stat_untracked = 0;
  uint32_t live = 0;
};

// The core's configuration inputs (the block's registers drive them).
struct TrackerCoreInputs : TrackerDataIn {
  TrackerConfig cfg;
};

struct TrackerCoreOutputs : TrackerDataOut {
  bool cfg_error = false;  // enabled with an unusable configuration
};

class TrackerCore {
 public:
  explicit TrackerCore(const TrackerParams& params);

  const TrackerParams& params() const { return p_; }
  TrackerCoreOutputs eval(const TrackerCoreInputs& in) const;
  void clock(const TrackerCoreInputs& in);
  // eval() then clock() on one decision: the cycle's outputs, then the edge.
  TrackerCoreOutputs step(const TrackerCoreInputs& in);

 private:
  struct Entry {
    bool valid = false;
    uint32_t tag = 0;
    uint64_t addr = 0;
    uint32_t cnt = 0;
  };
  // The combinational part of one cycle, shared by eval() and clock().
  struct Decision {
    bool cfg_error, tracked, hit, fire, stall, accept, set_full;
    unsigned hit_idx, free_idx;
    uint32_t tag, sum;
    uint64_t new_addr;
  };
  Decision decide(const TrackerCoreInputs& in) const;
  TrackerCoreOutputs outputs(const Decision& d) const;
  void apply(const TrackerCoreInputs& in, const Decision& d);

  TrackerParams p_;
  uint64_t addr_mask_, wg_mask_, wf_mask_, cnt_mask_, upe_mask_, stat_mask_;
  std::vector<Entry> entries_;
  bool trig_valid_ = false;
  uint32_t trig_wg_id_ = 0, trig_wf_id_ = 0;
  uint64_t trig_addr_ = 0;
  uint32_t stat_updates_ = 0, stat_triggers_ = 0, stat_stalls_ = 0, stat_untracked_ = 0;
  uint32_t live_ = 0;
};

}  // namespace t3
