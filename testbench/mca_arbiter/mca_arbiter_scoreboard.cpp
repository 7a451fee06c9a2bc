#include "mca_arbiter_scoreboard.h"

#include <sstream>

namespace t3::tb {
namespace {

uint64_t bits(unsigned w) { return w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1; }
const char* kStream[2] = {"compute", "communication"};

}  // namespace

McaScoreboard::McaScoreboard(const McaArbiterParams& p)
    : p_(p), data_mask_(bits(p.data_w)), occ_mask_(bits(p.occ_w)) {}

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
  const Cfg c = wired(in.cfg);
  const unsigned why = refusal_causes(c);
  const bool bad = why != 0;
  const unsigned policy = bad ? 0 : c.policy;
  const unsigned sel = level_in_force(c);
  const uint64_t occ = in.occupancy & occ_mask_;
  const bool cv = in.cmp_valid, mv = in.com_valid;
  const uint64_t data[2] = {in.cmp_data & data_mask_, in.com_data & data_mask_};

  // Configuration, level in force, learning.
  if (out.cfg_error != bad)
    err << "cfg_error_o = " << out.cfg_error << ", expected " << bad << " (causes 0x" << std::hex
        << why << std::dec << "); ";
  const uint64_t thr = sel == kMcaUnlimited ? occ_mask_ : c.level[sel];
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
