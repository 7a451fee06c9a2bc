// T3 MCA arbiter core, cycle model (T3 §4.5, the T3-MCA configuration of
// §6.1.3). Plain C++: no SystemC here. The block firmware programs is this
// core behind its registers (hw/mca_arbiter/mca_arbiter.h); the core takes
// its configuration as plain inputs.
//
// One object is one arbiter in front of a DRAM command queue: two request
// streams in (compute: the producer kernel's accesses; communication: the
// DMA/collective accesses), one stream out into the queue, whose occupancy
// it watches. Per clock: eval() gives the outputs for the current state and
// inputs (the two readies depend on the presented requests), then clock()
// advances the state as the rising edge of rtl/mca_arbiter_core.sv does.
// Cycle- and bit-exact with the RTL; parameters carry the RTL names in lower
// case.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "common/params.h"

namespace t3 {

struct McaArbiterParams {
#define T3_PARAMS_DEF "mca_arbiter/mca_arbiter_params.def"
#define T3_PARAMS_SELF McaArbiterParams
#include "common/param_struct.inc"

  // Throws std::invalid_argument naming the parameter and its allowed range.
  void validate() const;
};

// CTRL.POLICY. The first two are the baselines T3 §4.5 and §6.1 compare against.
enum class McaPolicy : uint8_t {
  round_robin = 0,    // alternate, fall back to the other stream when one is empty
  compute_first = 1,  // "simply prioritizing producer kernel accesses" (§4.5)
  mca = 2,            // T3-MCA (§4.5)
};

// The threshold level index that means "no limit" (T3 §6.1.3: 5, 10, 30, or no limit).
constexpr unsigned kMcaUnlimited = 3;

// Why the hardware refuses a configuration (STATUS.CFG_ERROR, the core's
// cfg_error_o). One definition: the model's per-cycle decision and
// McaArbiterConfig::check() both use McaArbiterConfig::fault();
// rtl/mca_arbiter_core.sv implements the same rule.
enum class McaFault : uint8_t {
  none,
  policy_reserved,        // CTRL.POLICY == 3
  level_zero,             // a finite threshold of 0 would never let communication through
  bounds_not_descending,  // auto mode with bound0 >= bound1 >= bound2 violated
  learn_log2_too_big,     // LEARN.LOG2 (cut to its pin) > LEARN_W
};

// The configuration the registers hold (docs/registers/mca_arbiter.md); the
// defaults are the registers' reset values.
struct McaArbiterConfig {
  uint32_t policy = uint32_t(McaPolicy::mca);
  bool thr_auto = true;  // level from the learned occupancy (T3 §4.5)
  // The level in force in fixed mode, and in auto mode until a window has
  // completed since reset; kMcaUnlimited = no limit.
  uint32_t thr_sel = kMcaUnlimited;
  uint32_t level[3] = {5, 10, 30};  // T3 §6.1.3; each >= 1
  // Auto mode: a learned average >= bound[0] picks level 0 (memory-intensive:
  // the smallest threshold), >= bound[1] level 1, >= bound[2] level 2, else
  // unlimited. Not in the paper; documented defaults, programmable.
  uint32_t bound[3] = {20, 10, 3};
  uint32_t learn_log2 = 10;     // learning window of 2^learn_log2 cycles
  uint32_t starve_limit = 256;  // MCA only; 0 disables

  // The hardware's verdict on the fields as its pins carry them (each cut to
  // its pin width).
  McaFault fault(const McaArbiterParams& p) const;
  // Why this configuration cannot be used with these parameters (names the
  // field and the allowed range), or nothing when it can. Stricter than
  // fault(): a field wider than its pin is refused here, where the hardware
  // would silently see its low bits.
  std::optional<std::string> check(const McaArbiterParams& p) const;
};

// The data-path pins, the same on the core and on the block.
struct McaArbiterDataIn {
  bool rst_n = true;
  bool cmp_valid = false;
  uint64_t cmp_data = 0;
  bool com_valid = false;
  uint64_t com_data = 0;
  bool out_ready = false;
  uint32_t occupancy = 0;
  bool learn = false;
  bool drain = false;
};

struct McaArbiterDataOut {
  bool cmp_ready = false;
  bool com_ready = false;
  bool out_valid = false;
  uint64_t out_data = 0;
  bool out_src = false;  // 0 compute, 1 communication
  bool learn_busy = false;
  uint32_t learn_avg = 0;
  uint32_t thr_sel = 0;
  uint32_t thr = 0;  // all ones when unlimited
  uint32_t stat_grants_cmp = 0;
  uint32_t stat_grants_com = 0;
  uint32_t stat_wait_cmp = 0;
  uint32_t stat_wait_com = 0;
  uint32_t stat_starved = 0;
};

// The core's configuration inputs (the block's registers drive them).
struct McaArbiterCoreInputs : McaArbiterDataIn {
  McaArbiterConfig cfg;
};

struct McaArbiterCoreOutputs : McaArbiterDataOut {
  bool cfg_error = false;  // the configuration is refused: round robin runs
  // Communication is granted in this cycle because it reached the
  // starvation limit (a cycle stat_starved counts): the STARVED interrupt.
  bool starved = false;
};

class McaArbiterCore {
 public:
  explicit McaArbiterCore(const McaArbiterParams& params);

  const McaArbiterParams& params() const { return p_; }
  McaArbiterCoreOutputs eval(const McaArbiterCoreInputs& in) const;
  void clock(const McaArbiterCoreInputs& in);
  // eval() then clock() on one decision: the cycle's outputs, then the edge.
  McaArbiterCoreOutputs step(const McaArbiterCoreInputs& in);

 private:
  // The combinational part of one cycle, shared by eval() and clock().
  struct Decision {
    bool cfg_error;
    unsigned sel;
    uint32_t thr;
    bool free, starved, drain_com, grant_cmp, grant_com, starved_grant;
  };
  Decision decide(const McaArbiterCoreInputs& in) const;
  McaArbiterCoreOutputs outputs(const Decision& d) const;
  void apply(const McaArbiterCoreInputs& in, const Decision& d);

  McaArbiterParams p_;
  uint64_t data_mask_, occ_mask_, cnt_mask_, stat_mask_, log2_mask_;
  // The output register (one request deep).
  bool out_valid_ = false;
  uint64_t out_data_ = 0;
  bool out_src_ = false;
  bool turn_com_ = false;   // round robin: the last grant was compute's
  uint32_t com_wait_ = 0;   // communication's valid-not-granted cycles since its last grant (saturating)
  // Learning window.
  bool busy_ = false, learned_ = false;
  uint32_t win_log2_ = 0, win_left_ = 0;
  uint64_t win_sum_ = 0;
  uint32_t avg_ = 0;
  uint32_t stat_grants_cmp_ = 0, stat_grants_com_ = 0, stat_wait_cmp_ = 0, stat_wait_com_ = 0;
  uint32_t stat_starved_ = 0;
};

}  // namespace t3
