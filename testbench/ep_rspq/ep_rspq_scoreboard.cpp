#include "ep_rspq_scoreboard.h"

#include <algorithm>

#include "common/bits.h"
#include "common/hex.h"
#include "t3/ep_rspq_regs.h"

namespace t3::tb {

void EpRspqScoreboard::reset() {
  q_.clear();
  head_ = 0;
  last_fill_ = -1;
  held_n_ = rel_n_ = 0;
  over_seen_[0] = over_seen_[1] = false;
  regs_.reset();
  for (uint64_t& c : stat_) c = 0;
}

std::optional<std::string> EpRspqScoreboard::observe(const EpRspqInputs& in, const EpRspqOutputs& out) {
  std::ostringstream& err = complaints_.fresh();
  const uint64_t m = low_mask(p_.stat_w);
  const unsigned lm = unsigned(low_mask(p_.len_w()));

  auto ro = [&](unsigned r) -> std::optional<uint32_t> {
    switch (EpRspqReg(r)) {
      case EpRspqReg::status: return uint32_t(q_.size()) | uint32_t(q_.empty()) << 8;
      case EpRspqReg::stat_results: return uint32_t(stat_[0] & m);
      case EpRspqReg::stat_pull_rsps: return uint32_t(stat_[1] & m);
      case EpRspqReg::stat_flits: return uint32_t(stat_[2] & m);
      case EpRspqReg::stat_strays: return uint32_t(stat_[3] & m);
      case EpRspqReg::stat_bad: return uint32_t(stat_[4] & m);
      case EpRspqReg::param: return p_.flit_w | p_.max_len << 11 | p_.slots << 16 | p_.stat_w << 24;
      default: return 0;
    }
  };
  regs_.observe(in.apb, out.apb, false, ro, err);
  if (out.intr != regs_.intr()) err << "intr_o = " << out.intr << ", expected " << regs_.intr() << "; ";

  // ---- the rules, on the state before the edge
  const unsigned free = unsigned(p_.slots - q_.size());
  const unsigned hlen = in.hrq_len & lm, plen = in.prq_len & lm;
  const bool h_over = in.hrq_valid && hlen > p_.max_len, p_over = in.prq_valid && plen > p_.max_len;
  const bool h_grant = in.hrq_valid && !h_over && free >= 1 + hlen;
  const bool p_grant = in.prq_valid && !in.hrq_valid && !p_over && free >= 1 + plen;  // the home first
  const unsigned first = slot_of(q_.size() + 1);
  const bool valid = !q_.empty() && q_.front().there && (!q_.front().held || rel_n_ != 0);
  want_pin(err, "hrq_ready_o", out.hrq_ready, h_grant);
  want_pin(err, "prq_ready_o", out.prq_ready, p_grant);
  want_pin(err, "hrq_slot_o", unsigned(out.hrq_slot), first);
  want_pin(err, "prq_slot_o", unsigned(out.prq_slot), first);
  want_pin(err, "rsp_out_valid_o", out.rsp_out_valid, valid);
  if (valid && out.rsp_out_flit != q_.front().data)
    err << "rsp_out_flit_o = " << hex(out.rsp_out_flit, p_.flit_w) << ", expected "
        << hex(q_.front().data, p_.flit_w) << " (slot " << head_ << "); ";
  if (!out.rsp_out_valid && out.rsp_out_flit != Wide{}) err << "rsp_out_flit_o not 0 while rsp_out_valid_o is low; ";
  want_pin(err, "idle_o", out.idle, q_.empty());

  // ---- the edge
  if (!in.rst_n) {
    reset();
    return complaints_.result();
  }
  uint32_t events = 0;
  // The answers, the home's port first: each fills the slot it names if a
  // granted data flit not yet answered holds it.
  unsigned filled = 0;
  const struct {
    bool valid;
    uint8_t tag;
    const Wide* data;
  } ans[2] = {{in.hmd_valid, in.hmd_tag, &in.hmd_data}, {in.pmd_valid, in.pmd_tag, &in.pmd_data}};
  for (const auto& a : ans) {
    if (!a.valid) continue;
    const unsigned tag = a.tag & unsigned(low_mask(p_.slot_w()));
    const uint64_t at = (tag + p_.slots - head_) % p_.slots;
    if (tag < p_.slots && at < q_.size() && !q_[size_t(at)].there) {
      Wide d = *a.data;
      d.truncate(p_.flit_w);
      q_[size_t(at)].data = d;
      q_[size_t(at)].there = true;
      ++filled;
      // Slots in the order they were granted (from the head).
      if (last_fill_ >= 0 && int64_t(at) < last_fill_) ++n_.out_of_order;
      last_fill_ = int64_t(at);
    } else {
      ++n_.strays;
      ++stat_[3];
      events |= T3_EP_RSPQ_R_INTR_STATE_STRAY_MASK;
    }
  }
  if (filled == 2) ++n_.two_answers;
  const bool pop_held = valid && in.rsp_out_ready && q_.front().held;
  if (!q_.empty() && q_.front().there && q_.front().held && rel_n_ == 0 && in.rsp_out_ready) ++n_.held_waits;
  if (valid && in.rsp_out_ready) {
    q_.pop_front();
    head_ = (head_ + 1) % p_.slots;
    if (last_fill_ >= 0) --last_fill_;
    ++n_.flits;
    ++stat_[2];
  } else if (!valid && !q_.empty() && in.rsp_out_ready && !q_.front().there) {
    ++n_.bubbles;
  }
  // A release: the oldest RESULT's last flit may leave; one with no
  // RESULT held is BAD.
  const bool rel_ok = in.hrel && rel_n_ < held_n_;
  if (in.hrel && !rel_ok) {
    ++n_.rel_strays;
    ++stat_[4];
    events |= T3_EP_RSPQ_R_INTR_STATE_BAD_MASK;
  }
  rel_n_ = rel_n_ - pop_held + rel_ok;
  held_n_ -= pop_held;
  for (unsigned k = 0; k < 2; ++k) {
    const bool over = k == 0 ? h_over : p_over;
    if (over && !over_seen_[k]) {
      ++n_.bad;
      ++stat_[4];
      events |= T3_EP_RSPQ_R_INTR_STATE_BAD_MASK;
    }
    over_seen_[k] = over;
  }
  if (in.hrq_valid && !h_over && !h_grant) ++n_.full_waits;
  if (in.prq_valid && !in.hrq_valid && !p_over && !p_grant) ++n_.full_waits;
  if (in.hrq_valid && !h_grant && in.prq_valid && !p_over && free >= 1 + plen) ++n_.home_blocks;
  if (h_grant || p_grant) {
    Wide h = h_grant ? in.hrq_hdr : in.prq_hdr;
    h.truncate(p_.flit_w);
    const unsigned len = h_grant ? hlen : plen;
    q_.push_back({h, true, h_grant && len == 0});
    for (unsigned i = 1; i <= len; ++i) q_.push_back({Wide{}, false, h_grant && i == len});
    held_n_ += h_grant;
    ++(h_grant ? n_.results : n_.pull_rsps);
    ++stat_[h_grant ? 0 : 1];
  }
  if (events) regs_.set_event(unsigned(EpRspqReg::intr_state), events);
  n_.max_queued = std::max<uint64_t>(n_.max_queued, q_.size());
  regs_.edge();
  return complaints_.result();
}

}  // namespace t3::tb
