// The endpoint's request receiver (docs/blocks/ep_req.md), cycle model.
// Plain C++, no SystemC. Per clock: eval() gives the outputs for the
// current state and inputs, clock() advances the state as the rising edge
// of rtl/ep_req_core.sv does; the two are cycle- and bit-exact. The block
// firmware reads is this core behind its registers (the generated
// hw/ep_req/ep_req.h).
//
// A packet at a time: its header taken (a cycle), its window looked up in
// the table (a cycle), its window's record checked (a cycle), then by its
// opcode:
// - PULL: its PULL_RSP reserved in the response queue with len data slots
//   (a cycle when granted), then the line read, one read a cycle, each
//   tagged with its slot;
// - PUSH at a deterministic home: its contribution counted through the
//   counter port (a request and its answer; HOLD while the line it would
//   make whole has no room in the staged queue), its data flits stored in
//   its contributor's stage, and the line queued when it is whole;
// - WRITE to a copy window: its data flits stored (or added) at the
//   window's dst.
#pragma once

#include <cstdint>

#include "common/fifo.h"
#include "common/packet.h"
#include "common/params.h"
#include "common/wide.h"
#include "ep_window/ep_pkt_front.h"
#include "ep_window/ep_window_core.h"

namespace t3 {

struct EpReqParams {
#define T3_PARAMS_DEF "ep_req/ep_req_params.def"
#define T3_PARAMS_SELF EpReqParams
#include "common/param_struct.inc"

  unsigned flit_bytes() const { return flit_w / 8; }
  // The table's reader: ep_window's parameters that shape tbl_i.
  EpWindowParams ep_window() const;
  // Throws std::invalid_argument naming the parameter and its allowed range.
  void validate() const;
};

// Why a packet was dropped (STATUS.CAUSE); ep_rx's causes number the same
// checks alike.
enum class EpReqCause : uint8_t {
  none = 0,
  malformed = 1,    // docs/packet.md's checks failed
  no_window = 2,    // the address range is in no valid window
  wrong_op = 3,     // not PULL, PUSH or WRITE; a WRITE to a region's window, a PULL or PUSH to a copy's,
                    // a PUSH to a window that is not a deterministic home
  overcount = 5,    // a PUSH's count not 1, or the line's contributions past expected (ep_count OVER)
  wrong_dtype = 6,  // a PULL's or PUSH's type other than the window's
  wrong_src = 7,    // a PUSH from a src not in the window's contrib_mask
  counter = 8,      // the line's counter is past COUNT_DEPTH, or the counter unit answered BAD
};
const char* name(EpReqCause c);

// The data pins core and block share (hw/ep_req/ep_req.yaml, pins).
struct EpReqDataIn {
  bool rst_n = false;
  bool req_in_valid = false;
  Wide req_in_flit;
  uint8_t node = 0;
  EpWinTable tbl;
  bool cnt_ready = false;
  bool cnt_rsp_valid = false;
  uint8_t cnt_rsp_code = 0, cnt_rsp_count = 0;
  bool cnt_rsp_whole = false;
  bool mw_ready = false;
  bool rq_ready = false;
  uint32_t rq_slot = 0;
  bool mr_ready = false;
  bool det_ready = false;
};

struct EpReqDataOut {
  bool req_in_ready = false;
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
  bool rq_valid = false;
  Wide rq_hdr;  // 0 while rq_valid is low
  uint32_t rq_len = 0;
  bool mr_valid = false;
  uint64_t mr_addr = 0;
  uint32_t mr_tag = 0;
  bool det_valid = false;
  uint32_t det_win = 0, det_line = 0, det_len = 0;  // 0 while det_valid is low
  bool cp_rx = false;
  uint32_t cp_win = 0;
  bool idle = false;
};

// What the registers read (the description's core section).
struct EpReqCoreInputs : EpReqDataIn {};

struct EpReqStats {
  uint32_t pulls = 0, pushes = 0, writes = 0, drops = 0;
};

struct EpReqCoreOutputs : EpReqDataOut {
  bool drop = false;  // a packet dropped in this cycle's decision
  uint8_t cause = 0;  // the last drop's
  uint64_t drop_addr = 0;
  EpReqStats stat;
};

class EpReqCore {
 public:
  explicit EpReqCore(const EpReqParams& p);

  const EpReqParams& params() const { return p_; }
  EpReqCoreOutputs eval(const EpReqCoreInputs& in) const;
  void clock(const EpReqCoreInputs& in);
  // eval() then clock() on one decision.
  EpReqCoreOutputs step(const EpReqCoreInputs& in) {
    const EpReqCoreOutputs o = eval(in);
    clock(in);
    return o;
  }

 private:
  // The body's steps (the front end's BODY).
  enum Body : uint8_t { kData, kReserve, kRead };
  // The request receiver's side of the cycle, for the front end.
  EpFrontEngine engine(const EpReqCoreInputs& in) const;
  EpFrontPins pins(const EpReqCoreInputs& in) const {
    return {in.req_in_valid, &in.req_in_flit, &in.tbl, in.cnt_ready, in.cnt_rsp_valid, in.cnt_rsp_code};
  }
  bool is(pkt::Op op) const { return front_.h().op == uint8_t(op); }
  bool det_room() const { return detq_.count() + det_resv_ < p_.detq; }
  bool in_body(Body b) const { return front_.body() && body_ == b; }
  Wide pull_rsp(uint8_t node) const;

  struct DetEntry {
    uint32_t win = 0, line = 0, len = 0;
  };

  EpReqParams p_;
  unsigned len_w_, slot_w_;
  uint32_t stat_mask_;
  EpPktFront front_;
  Body body_ = kData;
  unsigned left_ = 0;
  uint32_t tag_ = 0;
  uint8_t dtype_ = 0;
  uint64_t addr_ = 0;
  bool add_ = false, whole_ = false, det_resv_ = false;
  Fifo<DetEntry> detq_;
  EpReqStats stat_;
};

}  // namespace t3
