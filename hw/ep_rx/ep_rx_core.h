// The endpoint's response receiver (docs/blocks/ep_rx.md), cycle model.
// Plain C++, no SystemC. Per clock: eval() gives the outputs for the
// current state and inputs, clock() advances the state as the rising edge
// of rtl/ep_rx_core.sv does; the two are cycle- and bit-exact. The block
// firmware reads is this core behind its registers (the generated
// hw/ep_rx/ep_rx.h).
//
// A packet at a time: its header taken (a cycle), its window looked up in
// the table (a cycle), its window's record checked (a cycle) - the front end
// the request receiver shares (hw/ep_window/ep_pkt_front.h) - its
// contributions counted through the counter port when it merges (a request
// and its answer, the front end's too), its data flits written or
// added one a cycle through the write port, and then what it completes
// handed on: a RESULT's header (queue RESQ, room reserved at the decode), a
// pulled line (queue FINQ, room reserved when the counter says the line is
// whole, and the line's counter cleared), a home's line (a one-cycle pulse).
#pragma once

#include <cstdint>

#include "common/fifo.h"
#include "common/packet.h"
#include "common/params.h"
#include "common/wide.h"
#include "ep_window/ep_pkt_front.h"
#include "ep_window/ep_window_core.h"

namespace t3 {

struct EpRxParams {
#define T3_PARAMS_DEF "ep_rx/ep_rx_params.def"
#define T3_PARAMS_SELF EpRxParams
#include "common/param_struct.inc"

  unsigned flit_bytes() const { return flit_w / 8; }
  // The table's reader: ep_window's parameters that shape tbl_i.
  EpWindowParams ep_window() const;
  // Throws std::invalid_argument naming the parameter and its allowed range.
  void validate() const;
};

// Why a packet was dropped (STATUS.CAUSE); ep_req's causes number the same
// checks alike.
enum class EpRxCause : uint8_t {
  none = 0,
  malformed = 1,    // docs/packet.md's checks failed
  no_window = 2,    // the address range is in no valid window
  wrong_op = 3,     // not RESULT, PULL_RSP or PARTIAL, or a copy window's range
  not_home = 4,     // a PARTIAL for a window whose home is elsewhere
  overcount = 5,    // count 0, or the contributions past the line's limit (ep_count OVER)
  wrong_dtype = 6,  // a type other than the window's
  counter = 8,      // the line's counter is past COUNT_DEPTH, or the counter unit answered BAD
};
const char* name(EpRxCause c);

// The data pins core and block share (hw/ep_rx/ep_rx.yaml, pins).
struct EpRxDataIn {
  bool rst_n = false;
  bool rsp_in_valid = false;
  Wide rsp_in_flit;
  EpWinTable tbl;
  bool cnt_ready = false;
  bool cnt_rsp_valid = false;
  uint8_t cnt_rsp_code = 0, cnt_rsp_count = 0;
  bool cnt_rsp_whole = false;
  bool mw_ready = false;
  bool res_ready = false;
  bool fin_ready = false;
};

struct EpRxDataOut {
  bool rsp_in_ready = false;
  bool cnt_valid = false;
  uint8_t cnt_op = 0;
  uint32_t cnt_line = 0;
  uint8_t cnt_n = 0, cnt_limit = 0, cnt_len = 0;
  bool cnt_whole_ok = false;
  bool mw_valid = false;
  uint64_t mw_addr = 0;
  Wide mw_data;
  bool mw_add = false;
  uint8_t mw_dtype = 0;
  bool res_valid = false;
  Wide res_hdr;  // 0 while res_valid is low
  bool fin_valid = false;
  uint64_t fin_src = 0, fin_dst = 0;
  Wide fin_hdr;  // 0 (and the addresses) while fin_valid is low
  bool home = false;
  uint32_t home_win = 0, home_line = 0, home_len = 0;
  bool merging = false;
  uint32_t merge_line = 0;
  bool idle = false;
};

// What the registers read (the description's core section).
struct EpRxCoreInputs : EpRxDataIn {};

struct EpRxStats {
  uint32_t results = 0, pull_rsps = 0, partials = 0, drops = 0;
};

struct EpRxCoreOutputs : EpRxDataOut {
  bool drop = false;  // a packet dropped in this cycle's decision
  uint8_t cause = 0;  // the last drop's
  uint64_t drop_addr = 0;
  EpRxStats stat;
};

class EpRxCore {
 public:
  explicit EpRxCore(const EpRxParams& p);

  const EpRxParams& params() const { return p_; }
  EpRxCoreOutputs eval(const EpRxCoreInputs& in) const;
  void clock(const EpRxCoreInputs& in);
  // eval() then clock() on one decision.
  EpRxCoreOutputs step(const EpRxCoreInputs& in) {
    const EpRxCoreOutputs o = eval(in);
    clock(in);
    return o;
  }

 private:
  // The body's steps (the front end's BODY).
  enum Body : uint8_t { kData, kClear };
  // The receiver's side of the cycle, for the front end.
  EpFrontEngine engine(const EpRxCoreInputs& in) const;
  EpFrontPins pins(const EpRxCoreInputs& in) const {
    return {in.rsp_in_valid, &in.rsp_in_flit, &in.tbl, in.cnt_ready, in.cnt_rsp_valid, in.cnt_rsp_code};
  }
  bool is(pkt::Op op) const { return front_.h().op == uint8_t(op); }
  bool res_room() const { return resq_.count() + res_resv_ < p_.resq; }
  bool fin_room() const { return finq_.count() + fin_resv_ < p_.finq; }
  bool data() const { return front_.body() && body_ == kData; }
  bool clearing() const { return front_.body() && body_ == kClear; }
  bool last_flit(const EpRxCoreInputs& in) const { return data() && in.rsp_in_valid && in.mw_ready && left_ == 1; }

  struct FinEntry {
    uint64_t src = 0, dst = 0;
    Wide hdr;
  };

  EpRxParams p_;
  uint32_t stat_mask_;
  EpPktFront front_;
  Body body_ = kData;
  unsigned left_ = 0;
  uint64_t addr_ = 0, fsrc_ = 0, fdst_ = 0;
  bool first_ = false, whole_ = false;
  bool res_resv_ = false, fin_resv_ = false;
  Fifo<Wide> resq_;
  Fifo<FinEntry> finq_;
  bool home_ = false;
  uint32_t home_win_ = 0, home_line_ = 0, home_len_ = 0;
  EpRxStats stat_;
};

}  // namespace t3
