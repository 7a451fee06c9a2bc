// dma_credit's transaction-level scoreboard, independent of the C++ model and
// of the RTL: written from the block's rules (docs/blocks/dma_credit.md, the
// paper's §IV endpoint). It knows requests (the command port's handshakes and
// CMD_GO's pulses, each checked by its own reading of the refusal rule), the
// packets each must produce (addresses, lengths, op, the counter id), the
// results the network returned and the completion records, and checks:
// - every packet is the next one of the request being issued, in order, with
//   a counter id no live request holds, issued only while fewer than
//   INJ_LIMIT packets were outstanding;
// - results match the counter they name while it has packets outstanding;
//   anything else is a stray (or a bad result) and changes no counter;
// - each request gets exactly one completion record: OK the cycle after its
//   last result, TIMEOUT not before TIMEOUT cycles without progress, NO_CREDIT
//   only while every counter was live and not before its retries could have
//   run, a refusal with the cause of its own check, in queue order;
// - the completion queue as firmware reads it (CPL_HEAD, CPL_POP), the status
//   counters, STATUS, OUTSTANDING, credits_o, outstanding_o, the interrupt
//   and the register port's answers (RegShadow).
// Allocations are seen where the block shows them: credits_o rises.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "common/packet.h"
#include "complaints.h"
#include "dma_credit/dma_credit.h"
#include "reg_shadow.h"

namespace t3::tb {

// What the random test asserts happened.
struct DmaCreditCoverage {
  uint64_t requests = 0, reg_requests = 0, refused[7] = {}, pkts = 0, pull_pkts = 0, results = 0,
           strays = 0, bad_res = 0, cpl_ok = 0, timeouts = 0, no_credit = 0, pops = 0,
           all_live_cycles = 0, inj_blocked_cycles = 0, pkt_stall_cycles = 0, res_stall_cycles = 0,
           cmd_stall_cycles = 0, go_pending_cycles = 0, cpl_full_cycles = 0, resets = 0,
           max_len_pkts = 0, short_pkts = 0, head_reads = 0;
};

class DmaCreditScoreboard {
 public:
  explicit DmaCreditScoreboard(const DmaCreditParams& p);

  // Every cycle, with the inputs driven and the outputs shown in it: an
  // error text, or nothing.
  std::optional<std::string> observe(const DmaCreditInputs& in, const DmaCreditOutputs& out);
  // At the end of a test that drained the traffic: what is still owed.
  std::optional<std::string> drained() const;

  const RegShadow<DmaCreditRegMap>& regs() const { return regs_; }
  const DmaCreditCoverage& cov() const { return cov_; }
  unsigned live() const;
  std::size_t queued() const { return reqs_.size(); }
  std::size_t records() const { return recs_.size(); }
  uint64_t cycle() const { return t_; }

 private:
  struct Req {
    DmaRequest r;
    uint8_t cause = 0;     // the refusal rule, read here
    uint64_t queued = 0;   // cycle it was taken
    uint64_t visible = 0;  // first cycle it is the head
  };
  struct Ctr {
    bool live = false;
    uint8_t tag = 0;
    uint32_t total = 0, offered = 0, out = 0;
    uint64_t progress = 0;  // cycle the no-progress time counts from
  };
  struct Rec {
    uint8_t status = 0, ctr = 0, tag = 0;
    uint64_t written = 0, visible = 0;
  };
  // The request whose packets are being issued.
  struct Cur {
    bool on = false;
    Req q;
    unsigned ctr = 0;
    bool ctr_known = false;
    uint32_t left = 0;
    uint64_t local = 0, net = 0;
    uint64_t alloc = 0;
    unsigned want_ctr = 0;  // the lowest counter free when it was allocated
  };

  void reset_state();
  uint8_t own_check(const DmaRequest& r) const;
  void on_record(const DmaCreditOutputs& out, std::ostream& err);
  void record_event(const DmaCreditOutputs& out, std::ostream& err);
  void on_packet(const DmaCreditOutputs& out, std::ostream& err);
  bool result_well_formed(const pkt::Header& h) const;
  uint32_t reg(DmaCreditReg r) const { return regs_.value(unsigned(r)); }

  DmaCreditParams p_;
  uint32_t b_;  // bytes a flit
  uint64_t stat_mask_;
  Complaints complaints_;
  RegShadow<DmaCreditRegMap> regs_;
  uint64_t t_ = 0;
  std::deque<Req> reqs_;  // taken, not yet allocated / refused / given up
  uint64_t last_removal_ = 0;  // the cycle the last head left the queue
  bool go_pend_ = false;
  std::vector<Ctr> ctrs_;
  Cur cur_;
  uint64_t cur_done_ = 0;  // cycle the last request's last packet appeared
  bool alloc_pending_ = false;  // allocated, first packet not seen
  std::deque<Rec> recs_;
  uint64_t last_pop_ = 0;
  std::optional<Rec> expect_ok_;  // a request's last result came back in the last cycle
  uint64_t out_total_ = 0;
  // last cycle's view
  bool prev_pkt_valid_ = false, prev_pkt_taken_ = false, prev_inj_ok_ = false, prev_rst_ = true;
  uint32_t prev_credits_ = 0, prev_timeout_ = 0, prev2_timeout_ = 0, prev_live_ = 0;
  uint64_t prev_live_mask_ = 0;
  bool prev_res_done_ = false, prev_res_blocked_ = false;
  uint64_t retry_cfg_changed_ = 0;
  uint32_t retry_cfg_ = 0;
  // status counters, counted here
  uint64_t n_no_credit_ = 0, n_timeouts_ = 0, n_bytes_ = 0, n_pkts_ = 0, n_results_ = 0,
           n_strays_ = 0, n_bad_ = 0, n_cpl_ok_ = 0, n_refused_ = 0;
  DmaCreditCoverage cov_;
};

}  // namespace t3::tb
