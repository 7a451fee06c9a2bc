#include "dma_credit_scoreboard.h"

#include <algorithm>

#include "common/bits.h"
#include "pkt_stream.h"
#include "t3/dma_credit_regs.h"

namespace t3::tb {

namespace {
constexpr uint8_t kOpPush = 0x3, kOpPull = 0x4, kOpPullRsp = 0xA, kOpResult = 0xB;
}

DmaCreditScoreboard::DmaCreditScoreboard(const DmaCreditParams& p)
    : p_(p), b_(p.flit_w / 8), stat_mask_(low_mask(p.stat_w)), ctrs_(p.ctrs) {
  reset_state();
}

void DmaCreditScoreboard::reset_state() {
  reqs_.clear();
  last_removal_ = 0;
  go_pend_ = false;
  for (Ctr& c : ctrs_) c = Ctr{};
  cur_ = Cur{};
  cur_done_ = 0;
  alloc_pending_ = false;
  recs_.clear();
  last_pop_ = 0;
  expect_ok_.reset();
  out_total_ = 0;
  prev_pkt_valid_ = prev_pkt_taken_ = prev_inj_ok_ = false;
  prev_credits_ = prev_live_ = 0;
  prev_live_mask_ = 0;
  prev_res_done_ = false;
  prev_res_blocked_ = false;
  n_no_credit_ = n_timeouts_ = n_bytes_ = n_pkts_ = n_results_ = n_strays_ = n_bad_ = n_cpl_ok_ =
      n_refused_ = 0;
}

unsigned DmaCreditScoreboard::live() const {
  unsigned n = 0;
  for (const Ctr& c : ctrs_) n += c.live;
  return n;
}

// The refusal rule as the page states it: length 1 .. 2^LEN_W - 1, the add
// operator, a type of fp16/bf16/fp32, both addresses flit-aligned and the
// whole range below 2^48; the first broken one is the status.
uint8_t DmaCreditScoreboard::own_check(const DmaRequest& r) const {
  if (r.len < 1 || r.len > (uint64_t{1} << p_.len_w) - 1) return 3;
  if (r.red_op != 0) return 4;
  if (r.dtype == 3) return 5;
  const uint64_t end = uint64_t{1} << 48;
  const uint64_t bytes = uint64_t{r.len} * b_;
  if (r.local_addr % b_ || r.net_addr % b_ || r.local_addr + bytes > end || r.net_addr + bytes > end)
    return 6;
  return 0;
}

bool DmaCreditScoreboard::result_well_formed(const pkt::Header& h) const {
  return (h.op == kOpResult || h.op == kOpPullRsp) && h.len >= 1 && h.len <= p_.max_len &&
         h.red_op == 0 && h.dtype <= 2 && h.addr % b_ == 0;
}

void DmaCreditScoreboard::on_record(const DmaCreditOutputs& out, std::ostream& err) {
  const uint64_t t = t_;
  if (expect_ok_) {
    const Rec& e = *expect_ok_;
    if (!out.cpl_wr || out.cpl_status != 0 || out.cpl_ctr != e.ctr || out.cpl_tag != e.tag)
      err << "completion OK of counter " << unsigned(e.ctr) << " (tag " << unsigned(e.tag)
          << ") expected on cpl_* the cycle after its last result; got cpl_wr_o " << out.cpl_wr
          << " status " << unsigned(out.cpl_status) << " ctr " << unsigned(out.cpl_ctr) << " tag "
          << unsigned(out.cpl_tag) << "; ";
    expect_ok_.reset();
  } else if (!out.cpl_wr) {
    if (out.cpl_status || out.cpl_ctr || out.cpl_tag) err << "cpl_* not zero without cpl_wr_o; ";
  } else {
    record_event(out, err);
  }
  // A timeout, a refusal or a NO_CREDIT takes the completion port: results
  // wait that cycle (res_ready_o low with room), and only then.
  const bool other = out.cpl_wr && out.cpl_status != 0;
  if (other && !prev_res_blocked_)
    err << "record status " << unsigned(out.cpl_status)
        << " written though results were not held back the cycle before; ";
  if (!other && prev_res_blocked_)
    err << "res_ready_o was low with room in the completion queue, and no timeout, refusal or "
           "NO_CREDIT followed; ";
  if (!out.cpl_wr) return;
  recs_.push_back(Rec{out.cpl_status, out.cpl_ctr, out.cpl_tag, t, 0});
  regs_.set_event(unsigned(DmaCreditReg::intr_state),
                  out.cpl_status == 0 ? 1u << T3_DMA_CREDIT_R_INTR_STATE_DONE_SHIFT
                                      : 1u << T3_DMA_CREDIT_R_INTR_STATE_ERROR_SHIFT);
}

// A record no result of the last cycle called for: a timeout, a request
// given up, a refusal.
void DmaCreditScoreboard::record_event(const DmaCreditOutputs& out, std::ostream& err) {
  const uint64_t t = t_;
  switch (out.cpl_status) {
    case 0:
      err << "a completion OK (ctr " << unsigned(out.cpl_ctr) << ") no last result called for; ";
      break;
    case 1: {  // timeout
      if (out.cpl_ctr >= p_.ctrs) {
        err << "TIMEOUT of counter " << unsigned(out.cpl_ctr) << " past CTRS; ";
        break;
      }
      Ctr& c = ctrs_[out.cpl_ctr];
      if (!c.live || c.offered != c.total || c.out == 0)
        err << "TIMEOUT of counter " << unsigned(out.cpl_ctr) << " that is not waiting for results (live "
            << c.live << ", " << c.offered << "/" << c.total << " packets issued, " << c.out
            << " outstanding); ";
      // decided at t - 1 on the timer as it was at t - 2 (a registered compare)
      else if (prev2_timeout_ == 0 || t < 2 || t - 2 < c.progress + prev2_timeout_)
        err << "TIMEOUT of counter " << unsigned(out.cpl_ctr) << " decided " << (t - 1 - c.progress)
            << " cycles after its last progress; TIMEOUT was " << prev2_timeout_ << ", then "
            << prev_timeout_ << "; ";
      if (out.cpl_tag != c.tag)
        err << "TIMEOUT record tag " << unsigned(out.cpl_tag) << ", the request's is " << unsigned(c.tag) << "; ";
      out_total_ -= c.out;
      c = Ctr{};
      ++n_timeouts_;
      ++cov_.timeouts;
      break;
    }
    case 2: {  // no credit
      if (reqs_.empty() || reqs_.front().cause != 0) {
        err << "NO_CREDIT record with no good request at the head of the queue; ";
        break;
      }
      const Req& q = reqs_.front();
      if (out.cpl_tag != q.r.tag || out.cpl_ctr != 0)
        err << "NO_CREDIT record tag " << unsigned(out.cpl_tag) << " ctr " << unsigned(out.cpl_ctr)
            << ", expected the head's tag " << unsigned(q.r.tag) << " and ctr 0; ";
      if (prev_live_ != p_.ctrs || alloc_pending_)
        err << "NO_CREDIT while " << prev_live_ << " of " << p_.ctrs << " counters were live; ";
      const uint64_t visible = std::max(q.queued + 2, last_removal_ + 1);
      const uint64_t t0 = std::max(visible, cur_done_);
      const uint32_t lim = (retry_cfg_ >> 16) & low_mask(p_.retry_w);
      const uint32_t ivl = retry_cfg_ & low_mask(p_.retry_w);
      if (retry_cfg_changed_ < q.queued && t - 1 < t0 + uint64_t{lim} * (ivl + 1))
        err << "NO_CREDIT " << (t - 1 - t0) << " cycles after the first try could be made; "
            << lim << " retries " << ivl + 1 << " cycles apart take " << uint64_t{lim} * (ivl + 1) << "; ";
      reqs_.pop_front();
      last_removal_ = t - 1;
      ++n_no_credit_;
      ++cov_.no_credit;
      break;
    }
    case 3: case 4: case 5: case 6: {
      if (reqs_.empty()) {
        err << "refusal " << unsigned(out.cpl_status) << " with no request queued; ";
        break;
      }
      const Req& q = reqs_.front();
      if (q.cause != out.cpl_status || out.cpl_tag != q.r.tag || out.cpl_ctr != 0)
        err << "record status " << unsigned(out.cpl_status) << " tag " << unsigned(out.cpl_tag)
            << " ctr " << unsigned(out.cpl_ctr) << "; the head request (tag " << unsigned(q.r.tag)
            << ", len " << q.r.len << ", red_op " << unsigned(q.r.red_op) << ", dtype "
            << unsigned(q.r.dtype) << ", local 0x" << std::hex << q.r.local_addr << ", net 0x"
            << q.r.net_addr << std::dec << ") has cause " << unsigned(q.cause) << "; ";
      reqs_.pop_front();
      last_removal_ = t - 1;
      ++n_refused_;
      ++cov_.refused[out.cpl_status];
      break;
    }
    default:
      err << "cpl_status_o = " << unsigned(out.cpl_status) << " is no status; ";
  }
}

void DmaCreditScoreboard::on_packet(const DmaCreditOutputs& out, std::ostream& err) {
  const pkt::Header h = pkt::unpack(out.pkt_hdr);
  if (!prev_inj_ok_)
    err << "a packet issued while " << out_total_ << " were outstanding, INJ_LIMIT "
        << reg(DmaCreditReg::inj_limit) << " (last cycle's); ";
  if (!cur_.on) {
    err << "a packet (ctr " << unsigned(h.ctr) << ") with no request allocated; ";
    return;
  }
  if (!cur_.ctr_known) {
    if (h.ctr >= p_.ctrs || ctrs_[h.ctr].live) {
      err << "the first packet of a request names counter " << unsigned(h.ctr)
          << ", which is past CTRS or live; ";
      return;
    }
    if (h.ctr != cur_.want_ctr)
      err << "the request got counter " << unsigned(h.ctr) << "; the lowest free one was "
          << cur_.want_ctr << "; ";
    cur_.ctr = h.ctr;
    cur_.ctr_known = true;
    Ctr& c = ctrs_[h.ctr];
    c = Ctr{};
    c.live = true;
    c.tag = cur_.q.r.tag;
    c.total = (cur_.q.r.len + p_.max_len - 1) / p_.max_len;
    alloc_pending_ = false;
  }
  pkt::Header want;
  want.op = cur_.q.r.pull ? kOpPull : kOpPush;
  want.dtype = cur_.q.r.dtype;
  want.len = uint8_t(std::min<uint32_t>(cur_.left, p_.max_len));
  want.src = cur_.q.r.src;
  want.dst = cur_.q.r.dst;
  want.count = 1;
  want.ctr = uint8_t(cur_.ctr);
  want.addr = cur_.net;
  Wide above = out.pkt_hdr;
  for (unsigned i = 0; i < 2; ++i) above.w[i] = 0;
  if (h != want || above != Wide{} || out.pkt_local_addr != cur_.local)
    err << "packet " << h << " local 0x" << std::hex << out.pkt_local_addr << std::dec
        << ", expected " << want << " local 0x" << std::hex << cur_.local << std::dec << "; ";
  Ctr& c = ctrs_[cur_.ctr];
  ++c.offered;
  ++c.out;
  ++out_total_;
  ++n_pkts_;
  n_bytes_ += uint64_t{want.len} * b_;
  ++cov_.pkts;
  cov_.pull_pkts += cur_.q.r.pull;
  if (want.len == p_.max_len) ++cov_.max_len_pkts;
  else ++cov_.short_pkts;
  cur_.left -= want.len;
  cur_.local += uint64_t{want.len} * b_;
  cur_.net += uint64_t{want.len} * b_;
  if (cur_.left == 0) {
    cur_.on = false;
    cur_done_ = t_;
    c.progress = t_;
  }
}

std::optional<std::string> DmaCreditScoreboard::observe(const DmaCreditInputs& in,
                                                       const DmaCreditOutputs& out) {
  std::ostringstream& err = complaints_.fresh();
  const uint64_t t = t_;
  const bool rst = !in.rst_n;

  if (!prev_rst_) {
    // ---- what this cycle's pins tell of the last cycle's decisions
    const bool to_now = out.cpl_wr && out.cpl_status == 1;
    on_record(out, err);
    const int alloc = int(out.credits) - int(prev_credits_) + int(prev_res_done_) + int(to_now);
    if (alloc == 1) {
      if (reqs_.empty() || reqs_.front().cause != 0) {
        err << "credits_o rose with no good request queued; ";
      } else {
        const Req& q = reqs_.front();
        if (std::max(q.queued + 2, last_removal_ + 1) > t - 1)
          err << "a counter allocated to a request not yet at the head; ";
        if (cur_.on) err << "a counter allocated while the last request is still being issued; ";
        if (prev_live_ + alloc_pending_ >= p_.ctrs) err << "a counter allocated with none free; ";
        cur_ = Cur{};
        cur_.on = true;
        cur_.q = q;
        cur_.left = q.r.len;
        cur_.local = q.r.local_addr;
        cur_.net = q.r.net_addr;
        cur_.alloc = t - 1;
        cur_.want_ctr = unsigned(__builtin_ctzll(~prev_live_mask_));
        alloc_pending_ = true;
        reqs_.pop_front();
        last_removal_ = t - 1;
      }
    } else if (alloc != 0) {
      err << "credits_o went from " << prev_credits_ << " to " << unsigned(out.credits) << " ("
          << prev_res_done_ << " completed, " << to_now << " timed out); ";
    }
    // ---- the packet descriptor stream
    if (prev_pkt_valid_ && !prev_pkt_taken_ && !out.pkt_valid)
      err << "pkt_valid_o dropped before pkt_ready_i took it; ";
    if (out.pkt_valid && (!prev_pkt_valid_ || prev_pkt_taken_)) on_packet(out, err);
  } else if (out.pkt_valid) {
    err << "pkt_valid_o right after reset; ";
  }
  if (!out.pkt_valid && (out.pkt_hdr != Wide{} || out.pkt_local_addr != 0))
    err << "pkt_hdr_o / pkt_local_addr_o not zero without pkt_valid_o; ";

  // ---- pins and registers, on the state before the edge
  const unsigned live_now = live();
  uint64_t live_mask = 0;  // the counters live in this cycle, before its edge
  for (unsigned c = 0; c < p_.ctrs; ++c) live_mask |= uint64_t(ctrs_[c].live) << c;
  if (out.credits != live_now + alloc_pending_)
    err << "credits_o = " << unsigned(out.credits) << ", expected " << live_now + alloc_pending_ << "; ";
  if (out.outstanding != out_total_)
    err << "outstanding_o = " << out.outstanding << ", expected " << out_total_ << "; ";
  // the completion queue: a record is the head from max(written + 2, the
  // last pop + 1); the queue behind the head holds CPL_DEPTH records
  const bool rec_head = !recs_.empty() && recs_.front().written < t &&
                        std::max(recs_.front().written + 2, last_pop_ + 1) <= t;
  uint64_t recs_written = 0;
  for (const Rec& r : recs_) recs_written += r.written < t;
  const bool cpl_room = recs_written - rec_head + out.cpl_wr < p_.cpl_depth;
  if (!rst && !prev_rst_ && out.res_ready && !cpl_room)
    err << "res_ready_o high with the completion queue full (" << recs_written
        << " records queued, head " << rec_head << "); ";
  // the command queue: the head from max(queued + 2, last removal + 1)
  const bool cmd_head = !reqs_.empty() && std::max(reqs_.front().queued + 2, last_removal_ + 1) <= t;
  const bool cmd_room = reqs_.size() - cmd_head < p_.cmd_depth;
  const bool go_pulse = (regs_.pulses(unsigned(DmaCreditReg::cmd_go)) & 1) != 0;
  const bool go = go_pulse || go_pend_;
  if (!rst && !prev_rst_ && out.cmd_ready != (cmd_room && !go))
    err << "cmd_ready_o = " << out.cmd_ready << ", expected " << (cmd_room && !go) << " ("
        << reqs_.size() << " queued, GO " << go << "); ";

  auto ro = [&](unsigned r) -> std::optional<uint32_t> {
    const auto s = [&](uint64_t v) { return uint32_t(v & stat_mask_); };
    switch (DmaCreditReg(r)) {
      case DmaCreditReg::cpl_head: {
        if (!rec_head) return 0;
        const Rec& h = recs_.front();
        ++cov_.head_reads;
        return uint32_t(h.tag) | uint32_t(h.ctr) << 16 | uint32_t(h.status) << 24 | 1u << 31;
      }
      case DmaCreditReg::status:
        return uint32_t(live_now + alloc_pending_) | uint32_t(reqs_.size()) << 8 |
               uint32_t(recs_written) << 16 | uint32_t(go_pend_) << 24 | uint32_t(cur_.on) << 25;
      case DmaCreditReg::outstanding: return uint32_t(out_total_);
      case DmaCreditReg::stat_alloc_fail:
      case DmaCreditReg::stat_retries: return std::nullopt;  // timing of the tries: the model's
      case DmaCreditReg::stat_no_credit: return s(n_no_credit_);
      case DmaCreditReg::stat_timeouts: return s(n_timeouts_);
      case DmaCreditReg::stat_bytes: return s(n_bytes_);
      case DmaCreditReg::stat_pkts: return s(n_pkts_);
      case DmaCreditReg::stat_results: return s(n_results_);
      case DmaCreditReg::stat_strays: return s(n_strays_);
      case DmaCreditReg::stat_bad_res: return s(n_bad_);
      case DmaCreditReg::stat_cpl_ok: return s(n_cpl_ok_);
      case DmaCreditReg::stat_refused: return s(n_refused_);
      case DmaCreditReg::param_a: return p_.ctrs | p_.max_len << 8 | p_.len_w << 16 | p_.stat_w << 24;
      case DmaCreditReg::param_b:
        return p_.cmd_depth | p_.cpl_depth << 8 | p_.retry_w << 16 | p_.timeout_w << 24;
      case DmaCreditReg::param_c: return p_.flit_w;
      default: return 0;
    }
  };
  regs_.observe(in.apb, out.apb, go_pend_, ro, err);
  if (out.intr != regs_.intr()) err << "intr_o = " << out.intr << ", expected " << regs_.intr() << "; ";

  const uint32_t limit = reg(DmaCreditReg::inj_limit);
  const bool inj_ok = limit != 0 && out_total_ < limit;
  bool res_done = false;

  if (rst) {
    ++cov_.resets;
    reset_state();
    regs_.reset();
    prev_rst_ = true;
    ++t_;
    if (err.tellp() == 0) return std::nullopt;
    return err.str();
  }

  // ---- the edge: results, pops, requests
  if (in.res_valid && out.res_ready) {
    const pkt::Header h = pkt::unpack(in.res_hdr);
    bool matched = false;
    if (!result_well_formed(h)) {
      ++n_bad_;
      ++cov_.bad_res;
    } else if (h.ctr < p_.ctrs && ctrs_[h.ctr].live && ctrs_[h.ctr].out > 0) {
      Ctr& c = ctrs_[h.ctr];
      matched = true;
      --c.out;
      --out_total_;
      c.progress = t + 1;
      ++n_results_;
      ++cov_.results;
      if (c.offered == c.total && c.out == 0) {
        expect_ok_ = Rec{0, h.ctr, c.tag, 0, 0};
        res_done = true;
        ++n_cpl_ok_;
        ++cov_.cpl_ok;
        c = Ctr{};
      }
    } else {
      ++n_strays_;
      ++cov_.strays;
    }
    if (!matched)
      regs_.set_event(unsigned(DmaCreditReg::intr_state), 1u << T3_DMA_CREDIT_R_INTR_STATE_STRAY_SHIFT);
  }
  if (in.res_valid && !out.res_ready) ++cov_.res_stall_cycles;
  if (out.pkt_valid && !in.pkt_ready) ++cov_.pkt_stall_cycles;
  if (in.cmd_valid && !out.cmd_ready) ++cov_.cmd_stall_cycles;
  if (!cpl_room) ++cov_.cpl_full_cycles;
  if (cur_.on && !inj_ok) ++cov_.inj_blocked_cycles;
  if (live_now == p_.ctrs) ++cov_.all_live_cycles;
  if (go_pend_) ++cov_.go_pending_cycles;

  if ((regs_.pulses(unsigned(DmaCreditReg::cpl_pop)) & 1) && rec_head) {
    recs_.pop_front();
    last_pop_ = t;
    ++cov_.pops;
  }

  if (go) {
    if (cmd_room) {
      Req q;
      q.r.local_addr = uint64_t(reg(DmaCreditReg::cmd_local_hi) & 0xFFFF) << 32 |
                       reg(DmaCreditReg::cmd_local_lo);
      q.r.net_addr = uint64_t(reg(DmaCreditReg::cmd_net_hi) & 0xFFFF) << 32 | reg(DmaCreditReg::cmd_net_lo);
      q.r.len = reg(DmaCreditReg::cmd_len);
      const uint32_t c = reg(DmaCreditReg::cmd_ctrl);
      q.r.red_op = c & 3;
      q.r.dtype = (c >> 2) & 3;
      q.r.pull = (c >> 4) & 1;
      q.r.src = uint8_t(c >> 8);
      q.r.dst = uint8_t(c >> 16);
      q.r.tag = uint8_t(c >> 24);
      q.cause = own_check(q.r);
      q.queued = t;
      reqs_.push_back(q);
      ++cov_.requests;
      ++cov_.reg_requests;
    }
    go_pend_ = !cmd_room;
  } else if (in.cmd_valid && out.cmd_ready) {
    Req q;
    // as the wires carry them (48-bit addresses, LEN_W bits of length)
    q.r = {in.cmd_local_addr & low_mask(48), in.cmd_net_addr & low_mask(48),
           uint32_t(in.cmd_len & low_mask(p_.len_w)), uint8_t(in.cmd_red_op & 3),
           uint8_t(in.cmd_dtype & 3), in.cmd_pull, in.cmd_src, in.cmd_dst, in.cmd_tag};
    q.cause = own_check(q.r);
    q.queued = t;
    reqs_.push_back(q);
    ++cov_.requests;
  }

  // the registers as the core read them in this cycle
  const uint32_t timeout_now = reg(DmaCreditReg::timeout) & uint32_t(low_mask(p_.timeout_w));
  const uint32_t rc = reg(DmaCreditReg::retry);
  regs_.edge();
  // last cycle's view, for the next
  prev_pkt_valid_ = out.pkt_valid;
  prev_pkt_taken_ = out.pkt_valid && in.pkt_ready;
  prev_inj_ok_ = inj_ok;
  prev_credits_ = out.credits;
  prev_res_done_ = res_done;
  prev_res_blocked_ = cpl_room && !out.res_ready;
  prev_live_ = live_now;
  prev_live_mask_ = live_mask;
  prev2_timeout_ = prev_timeout_;
  prev_timeout_ = timeout_now;
  prev_rst_ = false;
  // the retry registers as the core takes them; a change is remembered so
  // that the NO_CREDIT timing is checked only for requests that saw one value
  if (rc != retry_cfg_) {
    retry_cfg_ = rc;
    retry_cfg_changed_ = t;
  }
  ++t_;
  if (err.tellp() == 0) return std::nullopt;
  return err.str();
}

std::optional<std::string> DmaCreditScoreboard::drained() const {
  std::ostringstream e;
  if (!reqs_.empty()) e << reqs_.size() << " requests still queued; ";
  if (cur_.on) e << "a request still being issued; ";
  if (live() != 0) e << live() << " counters still live; ";
  if (expect_ok_) e << "a completion still owed; ";
  if (e.tellp() == 0) return std::nullopt;
  return e.str();
}

}  // namespace t3::tb
