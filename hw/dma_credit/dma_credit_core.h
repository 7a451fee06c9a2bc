// The endpoint's DMA credit controller, cycle model (ISCA 2020 in-network
// collectives paper, §IV "endpoint", the figure of the DMA and its
// controller: request generator, credit counter array, injection limit).
// Plain C++, no SystemC. Per clock: eval() gives the outputs for the current
// state and inputs, clock() advances the state as the rising edge of
// rtl/dma_credit_core.sv does; the two are cycle- and bit-exact. The block
// firmware programs is this core behind its registers (the generated
// hw/dma_credit/dma_credit.h). docs/blocks/dma_credit.md has the rules and
// the cycle table.
//
// Data path, one request at a time through each stage:
//   command port / CMD_GO -> command queue (t3_mem, CMD_DEPTH + head)
//   -> head: refused (bad field) | counter allocated | retried | NO_CREDIT
//   -> request generator: PUSH/PULL packets of <= MAX_LEN flits on pkt_*,
//      while fewer than INJ_LIMIT packets are outstanding
//   results on res_* matched to their counter by ctr; last result, or a
//   timeout -> completion stage -> completion queue (t3_mem, CPL_DEPTH + head)
#pragma once

#include <cstdint>
#include <vector>

#include "common/packet.h"
#include "common/params.h"
#include "common/t3_mem.h"
#include "common/wide.h"

namespace t3 {

struct DmaCreditParams {
#define T3_PARAMS_DEF "dma_credit/dma_credit_params.def"
#define T3_PARAMS_SELF DmaCreditParams
#include "common/param_struct.inc"

  // Throws std::invalid_argument naming the parameter and its allowed range.
  void validate() const;
  unsigned flit_bytes() const { return flit_w / 8; }
};

// Completion status codes (CPL_HEAD.STATUS, cpl_status_o).
enum class DmaCplStatus : uint8_t {
  ok = 0,          // every result of the request came back
  timeout = 1,     // no result for TIMEOUT cycles: the counter was recovered
  no_credit = 2,   // no counter after RETRY.LIMIT retries: the request was removed
  bad_len = 3,     // length 0 or above 2^LEN_W - 1
  bad_red_op = 4,  // reduction operator not add
  bad_dtype = 5,   // dtype 3
  bad_addr = 6,    // an address not a multiple of FLIT_W/8, or the range past 2^48
};
const char* name(DmaCplStatus s);

// A request as the command port or the CMD_* registers give it.
struct DmaRequest {
  uint64_t local_addr = 0;  // 48 bits: where the endpoint's DMA reads (push) or writes (pull)
  uint64_t net_addr = 0;    // 48 bits: the network (region) address
  uint32_t len = 0;         // flits
  uint8_t red_op = 0;
  uint8_t dtype = 0;
  bool pull = false;
  uint8_t src = 0, dst = 0, tag = 0;
};

// The refusal rule, checked in this order (the first that holds is the
// status): BAD_LEN, BAD_RED_OP, BAD_DTYPE, BAD_ADDR; ok when none.
DmaCplStatus dma_request_check(const DmaCreditParams& p, const DmaRequest& r);

// The data pins core and block share (hw/dma_credit/dma_credit.yaml, pins).
struct DmaCreditDataIn {
  bool rst_n = false;
  bool cmd_valid = false;
  uint64_t cmd_local_addr = 0;
  uint64_t cmd_net_addr = 0;
  uint32_t cmd_len = 0;
  uint8_t cmd_red_op = 0;
  uint8_t cmd_dtype = 0;
  bool cmd_pull = false;
  uint8_t cmd_src = 0;
  uint8_t cmd_dst = 0;
  uint8_t cmd_tag = 0;
  bool pkt_ready = false;
  bool res_valid = false;
  Wide res_hdr;
};

struct DmaCreditDataOut {
  bool cmd_ready = false;
  bool pkt_valid = false;
  Wide pkt_hdr;
  uint64_t pkt_local_addr = 0;
  bool res_ready = false;
  bool cpl_wr = false;
  uint8_t cpl_status = 0;
  uint8_t cpl_ctr = 0;
  uint8_t cpl_tag = 0;
  uint8_t credits = 0;
  uint32_t outstanding = 0;
};

// What the registers drive and read (the description's core section).
struct DmaCreditCfg {
  uint32_t inj_limit = 0;       // 0 pauses injection
  uint32_t retry_interval = 0;  // RETRY_W bits
  uint32_t retry_limit = 0;     // RETRY_W bits
  uint32_t timeout = 0;         // TIMEOUT_W bits; 0 disables
};
struct DmaCreditRegCmd {
  uint64_t local_addr = 0, net_addr = 0;
  uint32_t len = 0;  // 32 bits: a length past LEN_W bits is refused, not cut
  uint8_t red_op = 0, dtype = 0;
  bool pull = false;
  uint8_t src = 0, dst = 0, tag = 0;
  bool go = false;  // CMD_GO's pulse
};
struct DmaCreditStats {
  uint32_t alloc_fail = 0, retries = 0, no_credit = 0, timeouts = 0, bytes = 0, pkts = 0,
           results = 0, strays = 0, bad_res = 0, cpl_ok = 0, refused = 0;
};

struct DmaCreditCoreInputs : DmaCreditDataIn {
  DmaCreditCfg cfg;
  DmaCreditRegCmd reg;
  bool cpl_pop = false;  // CPL_POP's pulse
};

struct DmaCreditCoreOutputs : DmaCreditDataOut {
  bool go_pending = false;  // busy: CMD_GO waits for room
  bool eng_busy = false;
  uint8_t cmd_count = 0, cpl_count = 0;
  bool cpl_head_valid = false;
  uint8_t cpl_head_status = 0, cpl_head_ctr = 0, cpl_head_tag = 0;
  bool ev_cpl_ok = false, ev_cpl_err = false, ev_stray = false;  // interrupt events
  DmaCreditStats stat;
};

class DmaCreditCore {
 public:
  explicit DmaCreditCore(const DmaCreditParams& p);

  const DmaCreditParams& params() const { return p_; }
  DmaCreditCoreOutputs eval(const DmaCreditCoreInputs& in) const;
  void clock(const DmaCreditCoreInputs& in);
  // eval() then clock() on one decision.
  DmaCreditCoreOutputs step(const DmaCreditCoreInputs& in);
  // The same for the block (RegBlock<DmaCreditGlue>::step,
  // hw/dma_credit/dma_credit_eval.h), in one pass and in place: the data
  // pins as pins has them, the register-driven inputs as ctl has them (its
  // data pins are not read); the data pins' outputs into o; the interrupt
  // event `stray` returned (`done` and `error` are o's cpl_wr and
  // cpl_status); with regs non-null, every output the registers read into
  // it (as eval() gives them). Not for a reset cycle (rst_n low).
  bool step(const DmaCreditDataIn& pins, const DmaCreditCoreInputs& ctl, DmaCreditDataOut& o,
            DmaCreditCoreOutputs* regs);

  // Introspection for the unit tests.
  bool ctr_live(unsigned c) const { return (valid_ >> c) & 1; }
  uint32_t ctr_outstanding(unsigned c) const { return out_[c]; }
  // A counter's timer as the RTL holds it: cycles since its last packet was
  // issued or its last result came back, saturating at 2^TIMEOUT_W - 1.
  uint32_t ctr_timer(unsigned c) const {
    const uint64_t t = now_ - prog_[c];
    return t > timer_max_ ? timer_max_ : uint32_t(t);
  }

 private:
  // A queued request: the refusal cause found when it was queued, then the
  // fields the request generator needs (len cut to LEN_W bits).
  struct Cmd {
    uint8_t cause = 0;
    uint64_t local = 0, net = 0;
    uint32_t len = 0;
    uint8_t dtype = 0;
    bool pull = false;
    uint8_t src = 0, dst = 0, tag = 0;
  };
  struct Rec {
    uint8_t status = 0, ctr = 0, tag = 0;
  };
  enum class Head : uint8_t { none, refuse, alloc, fail, give_up };
  // The cycle's decision, from the state and the inputs.
  struct Decision {
    bool go = false, room = false, push = false;
    Head head = Head::none;
    unsigned alloc_ctr = 0;
    bool res_ready = false, res_fire = false, res_bad = false, res_match = false, res_done = false;
    unsigned res_ctr = 0;
    bool to_fire = false;
    unsigned to_ctr = 0;
    bool issue = false, last = false;
    uint32_t len = 0;
    bool ev = false;  // a completion record this cycle
    uint8_t ev_status = 0;
    unsigned ev_ctr = 0;
    bool cpl_room = false;
  };
  // pins: the data pins; ctl: the register-driven inputs (its data pins
  // unused). The plain eval()/clock() pass the same struct as both.
  Decision decide(const DmaCreditDataIn& pins, const DmaCreditCoreInputs& ctl) const;
  // The request queued in a cycle the queue takes one (CMD_GO's, or the port's).
  Cmd queued(const DmaCreditDataIn& pins, const DmaCreditCoreInputs& ctl, bool go) const;
  // The data pins' outputs, and the outputs only the registers read.
  void pin_outputs(const Decision& d, DmaCreditDataOut& o) const;
  void reg_outputs(const Decision& d, DmaCreditCoreOutputs& o) const;
  void edge(const DmaCreditDataIn& pins, const DmaCreditCoreInputs& ctl, const Decision& d);
  // The timeout choice of this edge (exp_), see edge().
  uint64_t expired(uint32_t timeout, uint64_t keep);
  void reset();

  DmaCreditParams p_;
  uint64_t stat_mask_;
  uint32_t timer_max_;
  unsigned ctr_w_;
  // command queue: CMD_DEPTH words behind the head (the memory's read register)
  Mem<Cmd> cmdq_;
  unsigned cq_wr_ = 0, cq_rd_ = 0, cq_n_ = 0;
  bool cq_hv_ = false;
  bool go_pend_ = false;
  uint32_t tries_ = 0, wait_ = 0;
  // request generator
  bool eng_valid_ = false;
  unsigned eng_ctr_ = 0;
  Cmd eng_;
  // packet descriptor register
  bool pkt_valid_ = false;
  Wide pkt_hdr_;  // packed when issued; zero while pkt_valid_ is low (the pins' value)
  uint64_t pkt_local_ = 0;  // likewise
  // the counters: live and all-issued bits, packets outstanding, and for
  // the timers the cycle each was last zeroed (the RTL's timer is
  // now_ - prog_, saturating: one subtraction instead of CTRS increments)
  uint64_t valid_ = 0, all_ = 0;
  uint64_t exp_ = 0;  // one-hot: the counter chosen to time out next (0: none)
  std::vector<uint32_t> out_;
  std::vector<uint64_t> prog_;
  uint64_t now_ = 0;  // edges since construction
  // At most the smallest prog_ of the counters waiting for results (live,
  // all issued): while now_ - prog_lb_ < TIMEOUT none has timed out, and the
  // timers are not looked at one by one (see expired()).
  uint64_t prog_lb_ = 0;
  Mem<uint8_t> tags_;
  uint32_t tot_ = 0, credits_ = 0;
  // completion stage and queue; cpl_room_: the completion queue has room
  // (cp_n_ + st_valid_ < CPL_DEPTH), a register in the RTL (inverted: cpl_full_q)
  bool cpl_room_ = true;
  bool st_valid_ = false, st_mem_ = false;
  uint8_t st_status_ = 0, st_ctr_ = 0, st_tag_ = 0;
  Mem<Rec> cplq_;
  unsigned cp_wr_ = 0, cp_rd_ = 0, cp_n_ = 0;
  bool cp_hv_ = false;
  DmaCreditStats stat_;  // counted in 32 bits, cut to STAT_W bits when read
};

}  // namespace t3
