// The front end the endpoint's packet-taking engines share (ep_rx, ep_req;
// docs/blocks/innet_endpoint.md, "The packet front end"), cycle model: the
// C++ twin of rtl/ep_pkt_front.sv, cycle- and bit-exact with it.
//
// A packet at a time: its header taken (IDLE), its window looked up in the
// table (LOOK), its record and the checks every engine makes first shown to
// the engine, whose verdict it acts on (DECODE); a merge's contribution
// counted with ep_count's ADD (ASK, WAIT; HOLD while the engine has no room
// for the line it would make whole); then the packet is the engine's until
// the engine says it is done (BODY). A packet refused, at its decode or by
// the counter, is dropped whole (DROP), its cause and address kept.
//
// The engine owns one, and in each cycle fills an EpFrontEngine from the
// front end's view of the packet (its eval() before the front end's, its
// clock() before the front end's clock(), which it hands the front end's
// eval() of the cycle).
#pragma once

#include <cstdint>

#include "common/packet.h"
#include "common/wide.h"
#include "ep_window/ep_window_core.h"

namespace t3 {

// The causes the front end finds itself (the engines' STATUS.CAUSE values).
enum EpFrontCause : uint8_t {
  kEpMalformed = 1,  // docs/packet.md's checks failed
  kEpNoWindow = 2,   // the address range is in no valid window
  kEpWrongOp = 3,    // an opcode the engine does not take
  kEpOvercount = 5,  // the counter answered OVER
  kEpCounter = 8,    // the line's counter past COUNT_DEPTH, or the counter answered BAD
};

// The engine's side of a cycle.
struct EpFrontEngine {
  // Its verdict, read at the decode only.
  bool takes_op = false;  // an opcode the engine takes
  uint8_t cause = 0;      // its own checks' cause, after the first three (0: none)
  bool count = false;     // a merge: its contribution counted before the body
  bool wait = false;      // neither taken nor refused: looked up again
  uint8_t limit = 0;      // the count the line is whole at
  // Its body.
  bool room = false;      // room for the line a count would make whole
  bool body_ready = false, body_done = false;
};

// The pins the front end reads.
struct EpFrontPins {
  bool in_valid = false;
  const Wide* in_flit = nullptr;
  const EpWinTable* tbl = nullptr;
  bool cnt_ready = false, cnt_rsp_valid = false;
  uint8_t cnt_rsp_code = 0;
};

struct EpFrontOut {
  bool in_ready = false;
  bool take = false;     // the engine takes the packet (at its decode)
  bool counted = false;  // the ADD answered DONE: the body begins
  bool drop = false;
  uint8_t cause = 0;       // the decode's verdict (0: none)
  bool cnt_valid = false;  // the merge's ADD (0s when low)
  uint32_t cnt_line = 0;
  uint8_t cnt_n = 0, cnt_limit = 0, cnt_len = 0;
  bool cnt_whole_ok = false;
};

class EpPktFront {
 public:
  EpPktFront(const EpWindowParams& wp, unsigned max_len, unsigned count_depth, unsigned stat_w);

  // The packet, for the engine.
  const pkt::Header& h() const { return h_; }
  const Wide& hdr() const { return hdr_; }  // as received, its low HDR_W bits
  unsigned win() const { return win_; }
  uint64_t off() const { return off_; }     // the packet's offset in its window
  uint32_t line() const { return line_; }   // its line's counter, from the engine's take
  EpWin record(const EpWinTable& tbl) const { return unpack_window(tbl, win_); }
  bool decoding() const { return st_ == kDecode; }
  bool counting() const { return st_ == kAsk || st_ == kWait || st_ == kHold; }
  bool body() const { return st_ == kBody; }
  bool idle() const { return st_ == kIdle; }

  EpFrontOut eval(const EpFrontPins& in, const EpFrontEngine& e) const;
  // The edge; o is eval(in, e) of this cycle (its verdict is not made again).
  void clock(bool rst_n, const EpFrontPins& in, const EpFrontEngine& e, const EpFrontOut& o);

  uint8_t cause() const { return cause_; }  // the last drop's
  uint64_t drop_addr() const { return drop_addr_; }
  uint32_t stat_drops() const { return drops_; }

 private:
  enum State : uint8_t { kIdle, kLook, kDecode, kAsk, kWait, kHold, kBody, kDrop };
  // The decode's cause: the first three checks, the engine's, the counter's range.
  uint8_t verdict(const EpWinTable& tbl, const EpFrontEngine& e) const;
  uint64_t full_line(const EpWinTable& tbl) const;

  EpWindowParams wp_;
  unsigned max_len_, count_depth_, line_w_, len_w_;
  uint32_t stat_mask_;
  State st_ = kIdle;
  Wide hdr_;
  pkt::Header h_;
  bool hit_ = false;
  unsigned win_ = 0, left_ = 0;
  uint64_t off_ = 0;
  uint32_t line_ = 0;
  uint8_t limit_ = 0;
  uint8_t cause_ = 0;
  uint64_t drop_addr_ = 0;
  uint32_t drops_ = 0;
};

}  // namespace t3
