// The endpoint's home (docs/blocks/ep_home.md), cycle model. Plain C++, no
// SystemC. Per clock: eval() gives the outputs for the current state and
// inputs, clock() advances the state as the rising edge of
// rtl/ep_home_core.sv does; the two are cycle- and bit-exact. The block
// firmware reads is this core behind its registers (the generated
// hw/ep_home/ep_home.h).
//
// Lines merged whole come in two ways: ep_rx's pulse (always taken: into
// the home queue while it has room and no line waits for the sweep, else
// counted as pending) and the in-order add's lines (valid/ready, when the
// queue has room and ep_rx is not pulsing). A line at a time is sent: taken
// from the queue, or, when the queue is empty and lines are pending, found
// by the sweep (one counter READ at a time, round the array); its RESULT
// header built from its window (a cycle, with room in the result queue
// reserved), its header and data slots reserved in the response queue, the
// merge area read into them (one read a cycle, tagged with the slot), each
// answer copied to the home's dst when that is not the merge area, then the
// line's counter cleared and the RESULT's header queued for the DMA credit
// controller.
#pragma once

#include <cstdint>
#include <vector>

#include "common/fifo.h"
#include "common/packet.h"
#include "common/params.h"
#include "common/wide.h"
#include "ep_window/ep_window_core.h"

namespace t3 {

struct EpHomeParams {
#define T3_PARAMS_DEF "ep_home/ep_home_params.def"
#define T3_PARAMS_SELF EpHomeParams
#include "common/param_struct.inc"

  unsigned flit_bytes() const { return flit_w / 8; }
  // The table's reader: ep_window's parameters that shape tbl_i.
  EpWindowParams ep_window() const;
  // Throws std::invalid_argument naming the parameter and its allowed range.
  void validate() const;
};

// The data pins core and block share (hw/ep_home/ep_home.yaml, pins).
struct EpHomeDataIn {
  bool rst_n = false;
  uint8_t node = 0;
  EpWinTable tbl;
  bool home = false;
  uint32_t home_win = 0, home_line = 0, home_len = 0;
  bool merging = false;
  uint32_t merge_line = 0;
  bool hq_valid = false;
  uint32_t hq_win = 0, hq_line = 0, hq_len = 0;
  bool cnt_ready = false;
  bool cnt_rsp_valid = false;
  uint8_t cnt_rsp_code = 0, cnt_rsp_count = 0;
  uint32_t cnt_rsp_len = 0;
  bool rq_ready = false;
  uint32_t rq_slot = 0;
  bool mr_ready = false;
  bool md_valid = false;
  uint8_t md_tag = 0;
  Wide md_data;
  bool mw_ready = false;
  bool res_ready = false;
};

struct EpHomeDataOut {
  bool hq_ready = false;
  bool cnt_valid = false;
  uint8_t cnt_op = 0;
  uint32_t cnt_line = 0;
  bool rq_valid = false;
  Wide rq_hdr;  // 0 while rq_valid is low
  uint32_t rq_len = 0;
  bool mr_valid = false;
  uint64_t mr_addr = 0;
  uint8_t mr_tag = 0;
  bool mw_valid = false;
  uint64_t mw_addr = 0;
  Wide mw_data;  // 0 (and the address) while mw_valid is low
  bool res_valid = false;
  Wide res_hdr;  // 0 while res_valid is low
  bool idle = false;
};

// What the registers read (the description's core section).
struct EpHomeCoreInputs : EpHomeDataIn {};

struct EpHomeStats {
  uint32_t results = 0, sweeps = 0, strays = 0, bad = 0, lost = 0;
};

struct EpHomeCoreOutputs : EpHomeDataOut {
  bool stray = false;    // this cycle's answer was for no read awaited
  bool bad = false;      // this cycle's line in was refused: its length outside 1..MAX_LEN
  uint32_t pending = 0;  // lines whole that wait for the sweep
  bool lost = false;     // this cycle the sweep gave up the pending lines (a round found none)
  EpHomeStats stat;
};

class EpHomeCore {
 public:
  explicit EpHomeCore(const EpHomeParams& p);

  const EpHomeParams& params() const { return p_; }
  EpHomeCoreOutputs eval(const EpHomeCoreInputs& in) const;
  void clock(const EpHomeCoreInputs& in);
  // eval() then clock() on one decision.
  EpHomeCoreOutputs step(const EpHomeCoreInputs& in) {
    const EpHomeCoreOutputs o = eval(in);
    clock(in);
    return o;
  }

 private:
  enum State : uint8_t { kIdle, kSweep, kSweepWait, kStart, kReserve, kRead, kDrain, kClear };
  struct Line {
    uint32_t win = 0, line = 0, len = 0;
  };
  bool hq_ready(const EpHomeCoreInputs& in) const { return !in.home && homeq_.count() < p_.home_q; }
  bool res_room() const { return resq_.count() + res_resv_ < p_.resq; }
  bool len_ok(uint32_t len) const { return len != 0 && len <= p_.max_len; }
  // This cycle's line in refused (ep_rx's pulse, or the in-order add's taken).
  bool bad_in(const EpHomeCoreInputs& in) const {
    return in.home ? !len_ok(in.home_len) : in.hq_valid && hq_ready(in) && !len_ok(in.hq_len);
  }
  // The line's flit an answer with tag t is for, or -1 for a stray.
  int awaited(const EpHomeCoreInputs& in) const;
  bool echo_now() const { return echo_ && eidx_ < len_ && eidx_ < p_.max_len && got_[eidx_]; }
  // The lowest home window (valid, not deterministic) whose counters hold
  // counter c, or -1: the sweep's lookup.
  int home_of(const EpWinTable& tbl, uint32_t c) const;
  // The sweep's answer this cycle: a whole line found, one that would be
  // but for ep_rx still merging it (a miss that is not final), or neither.
  enum class Swept : uint8_t { none, found, merging, miss };
  Swept swept(const EpHomeCoreInputs& in, int* win = nullptr) const;
  // ep_rx's pulse goes to pending this cycle.
  bool to_pending(const EpHomeCoreInputs& in) const {
    return !bad_in(in) && in.home && !(pending_ == 0 && homeq_.count() < p_.home_q);
  }
  // This cycle's miss completes a round of COUNT_DEPTH misses with no line
  // come in: the pending lines are given up (docs/blocks/ep_home.md).
  bool gives_up(const EpHomeCoreInputs& in) const {
    return swept(in) == Swept::miss && miss_ + 1 >= p_.count_depth && !to_pending(in);
  }

  EpHomeParams p_;
  uint32_t stat_mask_, slot_mask_;
  State st_ = kIdle;
  Fifo<Line> homeq_;
  Fifo<Wide> resq_;
  uint32_t pending_ = 0, sweep_at_ = 0;
  uint32_t miss_ = 0;  // sweep answers in a row that found nothing, since a line last went to pending
  uint32_t win_ = 0, line_ = 0, len_ = 0;
  Wide hdr_;
  uint64_t addr_ = 0, echo_addr_ = 0;
  bool echo_ = false, res_resv_ = false;
  uint32_t first_ = 0, tag_ = 0, issued_ = 0, back_ = 0, eidx_ = 0;
  std::vector<bool> got_;
  std::vector<Wide> buf_;
  EpHomeStats stat_;
};

}  // namespace t3
