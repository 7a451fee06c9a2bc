#include "mca_arbiter/mca_arbiter_core.h"

#include "common/bits.h"

namespace t3 {

void McaArbiterParams::validate() const { validate_param_ranges(*this, "mca_arbiter"); }

McaFault McaArbiterConfig::fault(const McaArbiterParams& p) const {
  const uint64_t occ = low_mask(p.occ_w);
  const uint64_t b0 = bound[0] & occ, b1 = bound[1] & occ, b2 = bound[2] & occ;
  if ((policy & 3) == 3) return McaFault::policy_reserved;
  if ((level[0] & occ) == 0 || (level[1] & occ) == 0 || (level[2] & occ) == 0)
    return McaFault::level_zero;
  if (thr_auto && (b0 < b1 || b1 < b2)) return McaFault::bounds_not_descending;
  if ((learn_log2 & low_mask(p.log2_w())) > p.learn_w) return McaFault::learn_log2_too_big;
  return McaFault::none;
}

std::optional<std::string> McaArbiterConfig::check(const McaArbiterParams& p) const {
  const uint64_t occ_max = low_mask(p.occ_w);
  auto out_of_range = [](const std::string& field, uint64_t v, const std::string& allowed) {
    return field + " = " + std::to_string(v) + " is out of range; allowed: " + allowed;
  };
  if (policy > 3) return out_of_range("policy", policy, "0..2");
  if (thr_sel > 3) return out_of_range("thr_sel", thr_sel, "0..3");
  for (int i = 0; i < 3; ++i) {
    if (level[i] > occ_max)
      return out_of_range("level[" + std::to_string(i) + "]", level[i],
                          "1.." + std::to_string(occ_max) + " (OCC_W = " + std::to_string(p.occ_w) + ")");
    if (bound[i] > occ_max)
      return out_of_range("bound[" + std::to_string(i) + "]", bound[i],
                          "0.." + std::to_string(occ_max) + " (OCC_W = " + std::to_string(p.occ_w) + ")");
  }
  if (starve_limit > low_mask(p.cnt_w))
    return out_of_range("starve_limit", starve_limit, "0.." + std::to_string(low_mask(p.cnt_w)));
  if (learn_log2 > low_mask(p.log2_w()))  // wider than the pin; fault() below names the range
    return out_of_range("learn_log2", learn_log2, "0.." + std::to_string(p.learn_w));
  switch (fault(p)) {
    case McaFault::none:
      return std::nullopt;
    case McaFault::policy_reserved:
      return out_of_range("policy", policy, "0 (round robin), 1 (compute first), 2 (MCA)");
    case McaFault::level_zero:
      for (int i = 0; i < 3; ++i)
        if (level[i] == 0)
          return out_of_range("level[" + std::to_string(i) + "]", 0, "1.." + std::to_string(occ_max));
      return std::string("a threshold level is 0");  // unreachable: fields fit their pins here
    case McaFault::bounds_not_descending:
      return "bounds " + std::to_string(bound[0]) + ", " + std::to_string(bound[1]) + ", " +
             std::to_string(bound[2]) + " are not descending; allowed: bound[0] >= bound[1] >= "
             "bound[2] in auto mode";
    case McaFault::learn_log2_too_big:
      return out_of_range("learn_log2", learn_log2, "0.." + std::to_string(p.learn_w) +
                                                        " (LEARN_W = " + std::to_string(p.learn_w) + ")");
  }
  return std::nullopt;
}

McaArbiterCore::McaArbiterCore(const McaArbiterParams& params) : p_(params) {
  p_.validate();
  data_mask_ = low_mask(p_.data_w);
  occ_mask_ = low_mask(p_.occ_w);
  cnt_mask_ = low_mask(p_.cnt_w);
  stat_mask_ = low_mask(p_.stat_w);
  log2_mask_ = low_mask(p_.log2_w());
}

// Mirrors the always_comb blocks of rtl/mca_arbiter_core.sv.
McaArbiterCore::Decision McaArbiterCore::decide(const McaArbiterCoreInputs& in) const {
  Decision d{};
  const McaArbiterConfig& c = in.cfg;
  d.cfg_error = c.fault(p_) != McaFault::none;
  // A refused configuration is never half-applied: the paper's baseline runs.
  const unsigned policy = d.cfg_error ? unsigned(McaPolicy::round_robin) : (c.policy & 3);

  // The level the occupancy of the isolated producer maps to (T3 §4.5).
  unsigned learned_sel = kMcaUnlimited;
  for (unsigned i = 3; i-- > 0;)
    if (avg_ >= (c.bound[i] & occ_mask_)) learned_sel = i;
  if (d.cfg_error) d.sel = kMcaUnlimited;
  else if (c.thr_auto && learned_) d.sel = learned_sel;
  else d.sel = c.thr_sel & 3;
  d.thr = d.sel == kMcaUnlimited ? uint32_t(occ_mask_) : uint32_t(c.level[d.sel] & occ_mask_);

  const bool cv = in.cmp_valid, mv = in.com_valid;
  const uint32_t occ = uint32_t(in.occupancy & occ_mask_);
  const uint32_t limit = uint32_t(c.starve_limit & cnt_mask_);
  d.free = !out_valid_ || in.out_ready;
  d.drain_com = in.drain && mv;  // T3 §4.5: drained at the producer kernel boundary
  d.starved = policy == unsigned(McaPolicy::mca) && limit != 0 && com_wait_ >= limit && mv;
  const bool under_thr = d.sel == kMcaUnlimited || occ < d.thr;

  bool com_wins;
  switch (policy) {
    case unsigned(McaPolicy::round_robin):
      com_wins = d.drain_com || (turn_com_ ? mv : mv && !cv);
      break;
    case unsigned(McaPolicy::compute_first):
      com_wins = d.drain_com || (mv && !cv);
      break;
    default:
      com_wins = d.drain_com || d.starved || (mv && !cv && under_thr);
      break;
  }
  const bool cmp_wins = cv && !com_wins;
  const bool grant = in.rst_n && d.free;
  d.grant_cmp = grant && cmp_wins;
  d.grant_com = grant && com_wins;
  // A grant the starvation rule decided (a drain would have let it in anyway).
  d.starved_grant = d.grant_com && d.starved && !d.drain_com;
  return d;
}

McaArbiterCoreOutputs McaArbiterCore::eval(const McaArbiterCoreInputs& in) const {
  return outputs(decide(in));
}

void McaArbiterCore::clock(const McaArbiterCoreInputs& in) { apply(in, decide(in)); }

McaArbiterCoreOutputs McaArbiterCore::step(const McaArbiterCoreInputs& in) {
  const Decision d = decide(in);
  const McaArbiterCoreOutputs o = outputs(d);
  apply(in, d);
  return o;
}

McaArbiterCoreOutputs McaArbiterCore::outputs(const Decision& d) const {
  McaArbiterCoreOutputs o;
  o.cfg_error = d.cfg_error;
  o.starved = d.starved_grant;
  o.cmp_ready = d.grant_cmp;
  o.com_ready = d.grant_com;
  o.out_valid = out_valid_;
  o.out_data = out_data_;
  o.out_src = out_src_;
  o.learn_busy = busy_;
  o.learn_avg = avg_;
  o.thr_sel = d.sel;
  o.thr = d.thr;
  o.stat_grants_cmp = stat_grants_cmp_;
  o.stat_grants_com = stat_grants_com_;
  o.stat_wait_cmp = stat_wait_cmp_;
  o.stat_wait_com = stat_wait_com_;
  o.stat_starved = stat_starved_;
  return o;
}

void McaArbiterCore::apply(const McaArbiterCoreInputs& in, const Decision& d) {
  if (!in.rst_n) {
    out_valid_ = false;
    out_data_ = 0;
    out_src_ = false;
    turn_com_ = false;
    com_wait_ = 0;
    busy_ = learned_ = false;
    win_log2_ = win_left_ = 0;
    win_sum_ = 0;
    avg_ = 0;
    stat_grants_cmp_ = stat_grants_com_ = stat_wait_cmp_ = stat_wait_com_ = stat_starved_ = 0;
    return;
  }
  auto bump = [this](uint32_t& c) { c = uint32_t((c + 1) & stat_mask_); };

  if (d.free) {
    out_valid_ = d.grant_cmp || d.grant_com;
    if (d.grant_cmp) {
      out_data_ = in.cmp_data & data_mask_;
      out_src_ = false;
    } else if (d.grant_com) {
      out_data_ = in.com_data & data_mask_;
      out_src_ = true;
    }
  }
  if (d.grant_cmp) turn_com_ = true;
  else if (d.grant_com) turn_com_ = false;
  if (d.grant_com) com_wait_ = 0;
  else if (in.com_valid && com_wait_ != cnt_mask_) ++com_wait_;

  if (d.grant_cmp) bump(stat_grants_cmp_);
  if (d.grant_com) bump(stat_grants_com_);
  if (in.cmp_valid && !d.grant_cmp) bump(stat_wait_cmp_);
  if (in.com_valid && !d.grant_com) bump(stat_wait_com_);
  if (d.starved_grant) bump(stat_starved_);

  // The window covers the 2^log2 cycles after the pulse; its log2 is latched
  // at the start, so a configuration change mid-window does not bend it.
  if (busy_) {
    const uint64_t sum = win_sum_ + (in.occupancy & occ_mask_);
    if (win_left_ == 0) {
      busy_ = false;
      learned_ = true;
      avg_ = uint32_t((sum >> win_log2_) & occ_mask_);
    } else {
      --win_left_;
      win_sum_ = sum;
    }
  } else if (in.learn && !d.cfg_error) {
    busy_ = true;
    win_log2_ = uint32_t(in.cfg.learn_log2 & log2_mask_);
    win_left_ = uint32_t((uint64_t{1} << win_log2_) - 1);
    win_sum_ = 0;
  }
}

}  // namespace t3
