#include "mca_arbiter_scoreboard.h"

#include <sstream>

#include "t3/mca_arbiter_regs.h"

namespace t3::tb {
namespace {

uint64_t bits(unsigned w) { return w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1; }
const char* kStream[2] = {"compute", "communication"};

// A field's value placed in its register, within its bits.
uint32_t put(uint32_t v, uint32_t shift, uint32_t mask) { return (v << shift) & mask; }

}  // namespace

uint32_t ctrl_word(const McaArbiterConfig& c) {
  return put(c.policy, T3_MCA_ARBITER_R_CTRL_POLICY_SHIFT, T3_MCA_ARBITER_R_CTRL_POLICY_MASK) |
         put(c.thr_auto, T3_MCA_ARBITER_R_CTRL_THR_AUTO_SHIFT, T3_MCA_ARBITER_R_CTRL_THR_AUTO_MASK) |
         put(c.thr_sel, T3_MCA_ARBITER_R_CTRL_THR_SEL_SHIFT, T3_MCA_ARBITER_R_CTRL_THR_SEL_MASK);
}

std::vector<ApbTransfer> program_writes(const McaArbiterConfig& c) {
  std::vector<ApbTransfer> w;
  auto write = [&w](uint32_t addr, uint32_t data) { w.push_back({true, addr, data, 0xF}); };
  McaArbiterConfig fixed = c;
  fixed.thr_auto = false;
  write(T3_MCA_ARBITER_A_CTRL, ctrl_word(fixed));
  write(T3_MCA_ARBITER_A_AUTO_BOUND0,
        put(c.bound[0], T3_MCA_ARBITER_R_AUTO_BOUND0_OCC_SHIFT, T3_MCA_ARBITER_R_AUTO_BOUND0_OCC_MASK));
  write(T3_MCA_ARBITER_A_AUTO_BOUND1,
        put(c.bound[1], T3_MCA_ARBITER_R_AUTO_BOUND1_OCC_SHIFT, T3_MCA_ARBITER_R_AUTO_BOUND1_OCC_MASK));
  write(T3_MCA_ARBITER_A_AUTO_BOUND2,
        put(c.bound[2], T3_MCA_ARBITER_R_AUTO_BOUND2_OCC_SHIFT, T3_MCA_ARBITER_R_AUTO_BOUND2_OCC_MASK));
  write(T3_MCA_ARBITER_A_LEARN,
        put(c.learn_log2, T3_MCA_ARBITER_R_LEARN_LOG2_SHIFT, T3_MCA_ARBITER_R_LEARN_LOG2_MASK));
  write(T3_MCA_ARBITER_A_THR_LEVEL0,
        put(c.level[0], T3_MCA_ARBITER_R_THR_LEVEL0_OCC_SHIFT, T3_MCA_ARBITER_R_THR_LEVEL0_OCC_MASK));
  write(T3_MCA_ARBITER_A_THR_LEVEL1,
        put(c.level[1], T3_MCA_ARBITER_R_THR_LEVEL1_OCC_SHIFT, T3_MCA_ARBITER_R_THR_LEVEL1_OCC_MASK));
  write(T3_MCA_ARBITER_A_THR_LEVEL2,
        put(c.level[2], T3_MCA_ARBITER_R_THR_LEVEL2_OCC_SHIFT, T3_MCA_ARBITER_R_THR_LEVEL2_OCC_MASK));
  write(T3_MCA_ARBITER_A_STARVE_LIMIT,
        put(c.starve_limit, T3_MCA_ARBITER_R_STARVE_LIMIT_CYCLES_SHIFT,
            T3_MCA_ARBITER_R_STARVE_LIMIT_CYCLES_MASK));
  write(T3_MCA_ARBITER_A_CTRL, ctrl_word(c));
  return w;
}

void program(ApbMaster& m, const McaArbiterConfig& c) {
  for (const ApbTransfer& t : program_writes(c)) m.push(t);
}

McaScoreboard::McaScoreboard(const McaArbiterParams& p)
    : p_(p), data_mask_(bits(p.data_w)), occ_mask_(bits(p.occ_w)) {
  configure();
}

void McaScoreboard::configure() {
  auto field = [this](const char* reg, const char* name) {
    return regs_.field(McaShadow::reg(reg), name);
  };
  cfg_.policy = field("ctrl", "policy");
  cfg_.thr_auto = field("ctrl", "thr_auto") != 0;
  cfg_.thr_sel = field("ctrl", "thr_sel");
  for (unsigned i = 0; i < 3; ++i) {
    cfg_.level[i] = field(("thr_level" + std::to_string(i)).c_str(), "occ");
    cfg_.bound[i] = field(("auto_bound" + std::to_string(i)).c_str(), "occ");
  }
  cfg_.learn_log2 = field("learn", "log2");
  cfg_.starve_limit = field("starve_limit", "cycles");
}

std::optional<uint32_t> McaScoreboard::ro(unsigned r, bool bad, unsigned sel, uint64_t thr) const {
  const auto stat = [this](uint64_t count) { return uint32_t(count & bits(p_.stat_w)); };
  switch (McaArbiterReg(r)) {
    case McaArbiterReg::status:
      return uint32_t(bad) << T3_MCA_ARBITER_R_STATUS_CFG_ERROR_SHIFT |
             uint32_t(window_open_) << T3_MCA_ARBITER_R_STATUS_LEARN_BUSY_SHIFT |
             uint32_t(sel) << T3_MCA_ARBITER_R_STATUS_THR_SEL_SHIFT |
             uint32_t(thr) << T3_MCA_ARBITER_R_STATUS_THR_SHIFT;
    case McaArbiterReg::learn_avg: return uint32_t(have_avg_ ? avg_ : 0);
    case McaArbiterReg::stat_grants_cmp: return stat(grants_[kCmp]);
    case McaArbiterReg::stat_grants_com: return stat(grants_[kCom]);
    case McaArbiterReg::stat_wait_cmp: return stat(waits_[kCmp]);
    case McaArbiterReg::stat_wait_com: return stat(waits_[kCom]);
    case McaArbiterReg::stat_starved: return stat(starved_);
    case McaArbiterReg::param_widths:
      return p_.data_w << T3_MCA_ARBITER_R_PARAM_WIDTHS_DATA_W_SHIFT |
             p_.occ_w << T3_MCA_ARBITER_R_PARAM_WIDTHS_OCC_W_SHIFT |
             p_.cnt_w << T3_MCA_ARBITER_R_PARAM_WIDTHS_CNT_W_SHIFT |
             p_.learn_w << T3_MCA_ARBITER_R_PARAM_WIDTHS_LEARN_W_SHIFT;
    case McaArbiterReg::param_stat: return p_.stat_w << T3_MCA_ARBITER_R_PARAM_STAT_STAT_W_SHIFT;
    default: return 0;  // no RO field
  }
}

McaScoreboard::Cfg McaScoreboard::wired(const McaArbiterConfig& in) const {
  Cfg c;
  c.policy = in.policy & 3;
  c.sel = in.thr_sel & 3;
  c.autosel = in.thr_auto;
  for (int i = 0; i < 3; ++i) {
    c.level[i] = in.level[i] & occ_mask_;
    c.bound[i] = in.bound[i] & occ_mask_;
  }
  // The log2 pin: enough bits for 0..LEARN_W, at least one.
  unsigned log2_bits = 1;
  while ((uint64_t{1} << log2_bits) <= p_.learn_w) ++log2_bits;
  c.log2 = in.learn_log2 & bits(log2_bits);
  c.limit = in.starve_limit & bits(p_.cnt_w);
  return c;
}

unsigned McaScoreboard::refusal_causes(const Cfg& c) const {
  unsigned why = 0;
  if (c.policy == 3) why |= 1;  // only three policies exist
  // A threshold of 0 would shut communication out for good (T3 §4.5 only
  // limits it), so every finite level is at least 1.
  if (c.level[0] == 0 || c.level[1] == 0 || c.level[2] == 0) why |= 2;
  // Higher average occupancy = more memory-intensive = smaller threshold:
  // the bounds must not cross.
  if (c.autosel && !(c.bound[0] >= c.bound[1] && c.bound[1] >= c.bound[2])) why |= 4;
  if (c.log2 > p_.learn_w) why |= 8;
  return why;
}

// Fixed mode, or auto before any window completed since reset: the
// programmed level. Auto: the level the learned average maps to.
unsigned McaScoreboard::level_in_force(const Cfg& c) const {
  if (refusal_causes(c)) return kMcaUnlimited;
  if (!c.autosel || !have_avg_) return c.sel;
  for (unsigned i = 0; i < 3; ++i)
    if (avg_ >= c.bound[i]) return i;
  return kMcaUnlimited;
}

McaScoreboard::Pick McaScoreboard::rule(const Cfg& c, bool cmp, bool com, uint64_t occ,
                                        bool drain, unsigned sel, bool* by_starvation) const {
  *by_starvation = false;
  // "the communication stream is drained at the producer kernel boundary" (T3 §4.5)
  if (drain && com) return Pick::com;
  const unsigned policy = refusal_causes(c) ? 0 : c.policy;
  if (policy == 0) {
    // Round robin between the streams, falling back to the other one when
    // the stream whose turn it is has nothing (T3 §4.5, the baseline).
    const bool cmp_turn = last_grant_ != int(kCmp);
    if (cmp_turn) return cmp ? Pick::cmp : com ? Pick::com : Pick::none;
    return com ? Pick::com : cmp ? Pick::cmp : Pick::none;
  }
  if (policy == 1) return cmp ? Pick::cmp : com ? Pick::com : Pick::none;
  // MCA (T3 §4.5): communication once it has waited past the limit; else
  // compute first; else communication only below the occupancy threshold.
  if (c.limit != 0 && com_waited_ >= c.limit && com) {
    *by_starvation = true;
    return Pick::com;
  }
  if (cmp) return Pick::cmp;
  if (com && (sel == kMcaUnlimited || occ < c.level[sel])) return Pick::com;
  return Pick::none;
}

void McaScoreboard::clear() {
  slot_.clear();
  accepted_[0] = accepted_[1] = left_[0] = left_[1] = 0;
  last_grant_ = -1;
  com_waited_ = 0;
  window_open_ = have_avg_ = false;
  window_len_ = window_seen_ = window_sum_ = avg_ = 0;
  grants_[0] = grants_[1] = waits_[0] = waits_[1] = starved_ = 0;
}

std::optional<std::string> McaScoreboard::observe(const McaArbiterInputs& in,
                                                  const McaArbiterOutputs& out) {
  std::ostringstream& err = complaints_.fresh();
  const Cfg c = wired(cfg_);
  const unsigned why = refusal_causes(c);
  const bool bad = why != 0;
  const unsigned policy = bad ? 0 : c.policy;
  const unsigned sel = level_in_force(c);
  const uint64_t occ = in.occupancy & occ_mask_;
  const bool cv = in.cmp_valid, mv = in.com_valid;
  const uint64_t data[2] = {in.cmp_data & data_mask_, in.com_data & data_mask_};

  // Registers: this cycle's access, on the state before the edge (a running
  // window locks the bounds and the window); the interrupt line.
  const uint64_t thr = sel == kMcaUnlimited ? occ_mask_ : c.level[sel];
  regs_.observe(in.apb, out.apb, window_open_,
                [&](unsigned r) { return ro(r, bad, sel, thr); }, err);
  if (out.intr != regs_.intr())
    err << "intr_o = " << out.intr << ", expected " << regs_.intr() << " (INTR_STATE 0x"
        << std::hex << regs_.value(unsigned(McaArbiterReg::intr_state)) << ", INTR_ENABLE 0x"
        << regs_.value(unsigned(McaArbiterReg::intr_enable)) << ", refusal causes 0x" << why
        << std::dec << "); ";

  // Level in force, learning.
  if (out.thr_sel != sel || out.thr != thr)
    err << "level in force " << out.thr_sel << " threshold " << out.thr << ", expected " << sel
        << " threshold " << thr << "; ";
  if (out.learn_busy != window_open_)
    err << "learn_busy_o = " << out.learn_busy << ", expected " << window_open_ << "; ";
  if (out.learn_avg != (have_avg_ ? avg_ : 0))
    err << "learn_avg_o = " << out.learn_avg << ", expected " << (have_avg_ ? avg_ : 0) << "; ";

  // The output register shows the oldest accepted request that has not left.
  if (out.out_valid != !slot_.empty())
    err << "out_valid_o = " << out.out_valid << " with " << slot_.size()
        << " request(s) accepted and not left; ";
  if (out.out_valid && !slot_.empty()) {
    const Request& r = slot_.front();
    if (out.out_src != (r.stream == kCom) || out.out_data != r.data)
      err << "out shows {" << kStream[out.out_src] << ", 0x" << std::hex << out.out_data
          << "}, expected {" << kStream[r.stream] << ", 0x" << r.data << std::dec << "} ("
          << kStream[r.stream] << " request " << r.seq << "); ";
  }

  // Status counters, as counted here.
  auto stat = [&](const char* pin, uint64_t got, uint64_t count) {
    check_counter(err, pin, got, count, p_.stat_w);
  };
  stat("stat_grants_cmp_o", out.stat_grants_cmp, grants_[kCmp]);
  stat("stat_grants_com_o", out.stat_grants_com, grants_[kCom]);
  stat("stat_wait_cmp_o", out.stat_wait_cmp, waits_[kCmp]);
  stat("stat_wait_com_o", out.stat_wait_com, waits_[kCom]);
  stat("stat_starved_o", out.stat_starved, starved_);

  // The grant: exactly what the rule says, in a free slot, out of reset.
  const bool free = slot_.empty() || in.out_ready;
  bool by_starvation = false;
  const Pick want = in.rst_n && free ? rule(c, cv, mv, occ, in.drain, sel, &by_starvation)
                                     : Pick::none;
  if (!in.rst_n) by_starvation = false;
  const bool got_cmp = out.cmp_ready, got_com = out.com_ready;
  const char* want_text = want == Pick::cmp ? "compute" : want == Pick::com ? "communication"
                                                                           : "nothing";
  if ((got_cmp && want != Pick::cmp) || (got_com && want != Pick::com))
    err << "granted " << (got_cmp ? "compute" : "") << (got_cmp && got_com ? " and " : "")
        << (got_com ? "communication" : "") << " against the rule (policy " << policy << ", level "
        << sel << ", occupancy " << occ << ", drain " << in.drain << ", waited " << com_waited_
        << ", slot " << (free ? "free" : "busy") << "): expected " << want_text << "; ";
  if (!got_cmp && !got_com && want != Pick::none)
    err << "free slot left idle though the rule lets " << want_text << " in (policy " << policy
        << ", level " << sel << ", occupancy " << occ << "); ";
  if ((got_cmp && !cv) || (got_com && !mv)) err << "ready without a request; ";
  // The starvation bound on its own: under MCA communication never waits
  // past the limit for a free slot.
  if (in.rst_n && free && policy == 2 && c.limit && mv && com_waited_ >= c.limit && !got_com)
    err << "starvation bound broken: communication waited " << com_waited_ << " cycles (limit "
        << c.limit << ") and a free slot went elsewhere; ";

  if (!in.rst_n) {
    // The register still shows its request while reset is held: taken if
    // the queue is ready in that cycle, dropped by the reset otherwise.
    if (!slot_.empty()) ++cov_.resets_with_slot_full;
    if (out.out_valid && in.out_ready && !slot_.empty()) {
      ++cov_.left[slot_.front().stream];
      slot_.pop_front();
    }
    cov_.lost_in_reset += slot_.size();
    clear();
    regs_.reset();
    configure();
    if (err.tellp() == 0) return std::nullopt;
    return err.str();
  }

  // Coverage.
  for (unsigned b = 0; b < 4; ++b)
    if (why & (1u << b)) ++cov_.refused[b];
  if (out.out_valid && !in.out_ready) ++cov_.back_pressure;
  const bool granted = (got_cmp && cv) || (got_com && mv);
  if (granted) {
    ++cov_.grants_by_policy[policy];
    if (bad) ++cov_.fallback_grants;
    if (out.out_valid && in.out_ready) ++cov_.take_and_replace;
  }
  if (policy == 2) {
    ++cov_.cycles_at_level[sel];
    const bool threshold_decides = free && mv && !cv && !in.drain && !by_starvation;
    if (threshold_decides && sel != kMcaUnlimited && occ >= c.level[sel]) ++cov_.blocked_at_level[sel];
    if (threshold_decides && sel == kMcaUnlimited && got_com && occ >= (occ_mask_ + 1) / 2)
      ++cov_.unlimited_high_grants;
  }
  if (got_com && by_starvation) {
    ++cov_.starved_grants;
    if (c.limit == 1) ++cov_.starved_grants_limit1;
    if (c.limit >= 8) ++cov_.starved_grants_limit_big;
  }
  if (got_com && in.drain && cv) ++cov_.drain_grants_over_compute;

  // The request leaving, then the one entering (take and replace).
  if (out.out_valid && in.out_ready && !slot_.empty()) {
    const Request r = slot_.front();
    slot_.pop_front();
    if (r.seq != left_[r.stream])
      err << kStream[r.stream] << " request " << r.seq << " left before request "
          << left_[r.stream] << "; ";
    ++left_[r.stream];
    ++cov_.left[r.stream];
  }
  for (unsigned s : {kCmp, kCom}) {
    const bool ready = s == kCmp ? got_cmp : got_com;
    const bool valid = s == kCmp ? cv : mv;
    if (ready && valid) {
      slot_.push_back(Request{s, accepted_[s]++, data[s]});
      ++cov_.accepted[s];
      ++grants_[s];
      last_grant_ = int(s);
    } else if (valid) {
      ++waits_[s];
    }
  }
  if (slot_.size() > 1) err << "a request entered a full output register; ";
  if (got_com && mv) {
    com_waited_ = 0;
    if (by_starvation) ++starved_;
  } else if (mv) {
    ++com_waited_;
  }

  // Learning (T3 §4.5: occupancy observed while the producer runs alone):
  // the 2^log2 cycles after an accepted pulse, averaged.
  if (window_open_) {
    if (in.learn) ++cov_.ignored_pulses;
    window_sum_ += occ;
    if (++window_seen_ == window_len_) {
      window_open_ = false;
      have_avg_ = true;
      avg_ = window_sum_ / window_len_;
      ++cov_.windows;
      unsigned lvl = kMcaUnlimited;
      for (unsigned i = 3; i-- > 0;)
        if (avg_ >= c.bound[i]) lvl = i;
      if (c.autosel) ++cov_.learned_level[lvl];
    }
  } else if (in.learn && !bad) {
    window_open_ = true;
    window_len_ = uint64_t{1} << c.log2;
    window_seen_ = window_sum_ = 0;
  }

  // The edge: the interrupts' events of this cycle (CFG_ERROR is a level,
  // STARVED the starvation grant), then the configuration a register write
  // leaves for the next cycle.
  regs_.set_event(unsigned(McaArbiterReg::intr_state),
                  uint32_t(bad) << T3_MCA_ARBITER_R_INTR_STATE_CFG_ERROR_SHIFT |
                      uint32_t(got_com && mv && by_starvation)
                          << T3_MCA_ARBITER_R_INTR_STATE_STARVED_SHIFT);
  regs_.edge();
  if (regs_.written() >= 0) configure();
  if (err.tellp() == 0) return std::nullopt;
  return err.str();
}

std::optional<std::string> McaScoreboard::check_drained() const {
  std::ostringstream err;
  if (!slot_.empty()) err << slot_.size() << " request(s) never left the output register; ";
  for (unsigned s : {kCmp, kCom})
    if (accepted_[s] != left_[s])
      err << kStream[s] << ": " << accepted_[s] << " accepted since reset, " << left_[s]
          << " left; ";
  if (err.tellp() == 0) return std::nullopt;
  return err.str();
}

}  // namespace t3::tb
