// T3 Tracker core, cycle model (T3 §4.2.1, Fig. 9). Plain C++: no SystemC
// here. The block firmware programs is this core behind its registers
// (hw/tracker/tracker.h); the core takes its configuration as plain inputs.
//
// One object is one Tracker core. Per clock: eval() gives the outputs for
// the current state and inputs (in_ready depends on the presented write),
// then clock() advances the state as the rising edge of rtl/tracker_core.sv
// does. The behaviour is cycle- and bit-exact with the RTL; parameters carry
// the RTL parameter names in lower case (sets = SETS, ways = WAYS, ...).
//
// The pipeline is the RTL's (docs/blocks/tracker.md, "Pipeline"): P decides
// in_ready from state in flops; S1 looks the write up in its set's rows as
// they are after WB's write lands (the RTL reads them a cycle earlier from
// t3_mem and forwards the two writes not yet in them: the same words); WB
// writes the row and the valid bit, pushes the trigger into the output
// queue and moves live. A write's trigger is on trig_valid_o two cycles
// later than in the one-cycle Tracker.
// The configuration is registered before P: the core sees a register write
// one cycle later than the register block holds it.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/params.h"
#include "common/t3_mem.h"

namespace t3 {

struct TrackerParams {
#define T3_PARAMS_DEF "tracker/tracker_params.def"
#define T3_PARAMS_SELF TrackerParams
#include "common/param_struct.inc"

  unsigned set_w() const;
  unsigned tag_w() const { return wg_id_w - set_w() + wf_id_w; }
  unsigned entries() const { return sets * ways; }
  // WF ids the per-set owner summary covers: min(2^WF_ID_W, WAYS) (a set
  // holds at most WAYS tiles of one WG).
  unsigned own_wf_n() const;
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
  bool busy = false;       // a tile live or a write in flight: region and threshold locked
};

class TrackerCore {
 public:
  explicit TrackerCore(const TrackerParams& params);

  const TrackerParams& params() const { return p_; }
  TrackerCoreOutputs eval(const TrackerCoreInputs& in) const;
  void clock(const TrackerCoreInputs& in);
  // eval() then clock() on one decision: the cycle's outputs, then the edge.
  TrackerCoreOutputs step(const TrackerCoreInputs& in);

 // Triggers the output queue holds (the RTL's TQ_N): room for the triggers
  // of the writes in flight while the consumer waits.
  static constexpr unsigned kTrigQueue = 6;
  // Tiles known to hold a way (the RTL's KN_N), from the writes WB wrote.
  static constexpr unsigned kKnown = 8;

 private:
  // One way's row in its t3_mem (TAG_W + ADDR_W + CNT_W bits).
  struct Row {
    uint32_t tag = 0;
    uint64_t addr = 0;
    uint32_t cnt = 0;
  };
  struct Trig {
    uint32_t wg = 0, wf = 0;
    uint64_t addr = 0;
  };
  // The write presented in the last cycle (rtl s1_*_q).
  struct S1 {
    bool valid = false, acc = false;
    unsigned set = 0;
    uint32_t tag = 0, wg = 0, wf = 0, size = 0, tile = 0, upe = 0;
    uint32_t rem = 0;        // threshold - size (mod 2^CNT_W)
    bool done = false;       // size >= threshold
    uint64_t addr = 0;
  };
  // A way's change (rtl wb_*_q).
  struct WayWrite {
    bool chg = false, vnew = false;
    unsigned set = 0, way = 0;
    Row row;
  };
  struct Wb : WayWrite {
    bool valid = false, push = false, alloc = false, free = false;
    Trig trig;
  };
  struct Lookup {
    bool valid = false, hit = false, fire = false, free = false;
    unsigned set = 0;
    uint32_t tag = 0, size = 0, tile = 0, upe = 0;  // the write, and the threshold's fields
  };
  // P: the decision on the presented write, from flops only.
  struct Decision {
    bool cfg_error, tracked, accept, in_ready, set_full;
    unsigned set;
    uint32_t tag, size, tile, upe;
  };
  // S1: the lookup of the write presented in the last cycle.
  struct S1Result {
    bool hit, fire, has_free;
    unsigned way;
    uint32_t sum;
    uint64_t new_addr;
  };
  // The reference stays valid until the next decide() on other inputs.
  const Decision& decide(const TrackerCoreInputs& in) const;
  uint64_t threshold_of(const TrackerConfig& c) const;
  S1Result lookup() const;
  TrackerCoreOutputs outputs(const Decision& d) const;
  void apply(const TrackerCoreInputs& in, const Decision& d);

  TrackerParams p_;
  uint64_t addr_mask_, wg_mask_, wf_mask_, cnt_mask_, upe_mask_, stat_mask_, ways_mask_;
  // The rows (rtl: one t3_mem per way), set s way w at s * ways + w: a
  // set's ways side by side, as S1 reads them.
  std::vector<Row> rows_;
  size_t scratch_row_ = 0;
  std::vector<uint64_t> valid_;     // per set, a bit per way
  // The configuration register (rtl cfg_en_q, base_q, ..., fault_q, thr_q):
  // the core works on the register block's values of the last cycle.
  bool en_q_ = false;
  bool fault_q_ = false;
  uint32_t thr_ = 0;
  S1 s1_;
  Wb wb_;
  Lookup lk_;
  // The known tiles (rtl kn_q, kn_set_q, kn_tag_q): valid, set and tag as
  // one key (0: not valid), compared whole.
  static uint64_t known_key(unsigned set, uint32_t tag) {
    return uint64_t{1} << 63 | uint64_t(set) << 47 | tag;
  }
  bool known_listed(uint64_t key) const {
    bool any = false;
    for (unsigned k = 0; k < kKnown; ++k) any |= kn_key_[k] == key;
    return any;
  }
  uint64_t kn_key_[kKnown + 1] = {};
  unsigned kn_rr_ = 0;
  // Each set's owner summary (rtl own_wg_q, own_wf_q): the WG-id MSBs of
  // the set's owner and a bit per WF id (below own_wf_n_) of its tiles live
  // in the set. A set bit means that tile holds a way.
  std::vector<uint32_t> own_wg_;
  std::vector<uint64_t> own_wf_;
  unsigned own_wf_n_ = 0;
  Trig tq_[kTrigQueue + 1];
  unsigned tq_head_ = 0, tq_cnt_ = 0;
  uint32_t stat_updates_ = 0, stat_triggers_ = 0, stat_stalls_ = 0, stat_untracked_ = 0;
  // What P decided, counted at the next edge (rtl inc_*_q).
  bool inc_upd_ = false, inc_stall_ = false, inc_untr_ = false;
  uint32_t live_ = 0;
  // The model's own caches (no hardware): the last decision and its inputs;
  // the verdict on the last configuration fields seen.
  mutable Decision dc_{};
  mutable TrackerDataIn dc_in_{};
  mutable bool dc_valid_ = false;
  // The register's other fields as P reads them (rtl base_q, limit_q,
  // tile_q, upe_q), log2(sets), and the fields they were made from (the
  // model's own: to see a change).
  uint64_t base_q_ = 0, limit_q_ = 0;
  uint32_t tile_q_ = 0, upe_q_ = 0;
  unsigned set_w_ = 0;
  TrackerConfig cfg_in_;
  bool cfg_seen_ = false;
};

}  // namespace t3
