// The packet front end that ep_rx and ep_req share (docs/blocks/
// innet_endpoint.md, "The packet front end"), as their scoreboards follow
// it from the pins, independent of the C++ model and of the RTL: a header
// taken, a cycle to find its window (the block's look(), on the table of
// that cycle), a cycle to judge it (the block's judge(), on the window's
// record as the table holds it then, in the endpoint's order), a merge's ADD and its answer, the
// packet's body (the block's), a dropped packet's flits thrown away; the
// drops' cause, address and count for the registers.
#pragma once

#include <cstdint>
#include <ostream>

#include "common/bits.h"
#include "common/packet.h"
#include "common/wide.h"
#include "complaints.h"

namespace t3::tb {

class EpFrontRef {
 public:
  enum Phase { kHeader, kLook, kDecode, kCount, kAnswer, kHold, kBody, kDrop };
  // The block's judgement of the header at its decode.
  struct Judged {
    unsigned cause = 0;  // the first check that fails (0: none)
    bool count = false;  // a merge: ADD `count` to `line` under `limit` first
    bool wait = false;   // neither taken nor refused: looked up again
    uint32_t line = 0;   // cut to LINE_W bits
    unsigned limit = 0;
  };
  // What an edge did.
  enum Event { kNothing, kTaken, kCounted, kDropped, kWaited, kHeld };

  EpFrontRef(unsigned len_w, unsigned stat_w) : len_w_(len_w), stat_mask_(low_mask(stat_w)) {}

  Phase phase() const { return ph_; }
  bool body() const { return ph_ == kBody; }
  bool counting() const { return ph_ == kCount || ph_ == kAnswer || ph_ == kHold; }
  const pkt::Header& h() const { return h_; }
  const Wide& hdr() const { return hdr_; }  // as received, its low HDR_W bits
  unsigned len() const { return unsigned(h_.len & low_mask(len_w_)); }

  // The stream's ready, given the body's.
  bool in_ready(bool body_ready) const { return ph_ == kHeader || ph_ == kDrop || (ph_ == kBody && body_ready); }

  // The counter port's pins: the ADD while counting, else the block's
  // CLEAR of clear_line when clear, else 0s.
  template <class Out>
  void want_cnt(std::ostream& err, const Out& out, bool room, bool clear = false, uint32_t clear_line = 0) const {
    const bool ask = ph_ == kCount;
    want_pin(err, "cnt_valid_o", out.cnt_valid, ask || clear);
    want_pin(err, "cnt_op_o", out.cnt_op, ask ? 1 : clear ? 2 : 0);
    want_pin(err, "cnt_line_o", out.cnt_line, ask ? j_.line : clear ? clear_line : 0);
    want_pin(err, "cnt_n_o", out.cnt_n, ask ? h_.count : 0);
    want_pin(err, "cnt_limit_o", out.cnt_limit, ask ? j_.limit : 0);
    want_pin(err, "cnt_len_o", out.cnt_len, ask ? len() : 0);
    want_pin(err, "cnt_whole_ok_o", out.cnt_whole_ok, clear || (ask && room));
  }

  // STATUS.CAUSE, DROP_ADDR and STAT_DROPS as the registers show them.
  unsigned cause() const { return cause_; }
  uint64_t drop_addr() const { return drop_addr_; }
  uint32_t stat_drops() const { return uint32_t(drops_ & stat_mask_); }
  // The edge (rst_n high). look() is called at the lookup, judge() at the
  // decode; room is the block's room for a line its ADD makes whole,
  // body_done whether its body ends at this edge.
  template <class Look, class Judge>
  Event edge(std::ostream& err, bool in_valid, const Wide& in_flit, bool cnt_ready, bool cnt_rsp_valid,
             uint8_t cnt_rsp_code, bool room, bool body_done, Look look, Judge judge) {
    Event ev = kNothing;
    auto drop = [&](unsigned cause) {
      cause_ = cause;
      drop_addr_ = h_.addr;
      ++drops_;
      ev = kDropped;
    };
    switch (ph_) {
      case kHeader:
        if (in_valid) {
          hdr_ = pkt::header_bits(in_flit);
          h_ = pkt::unpack(hdr_);
          ph_ = kLook;
        }
        break;
      case kLook:  // a cycle to find the window, a cycle to judge its record
        look();
        ph_ = kDecode;
        break;
      case kDecode:
        j_ = judge();
        if (j_.cause) {
          drop(j_.cause);
          left_ = pkt::wire_flits(h_) - 1;
          ph_ = left_ ? kDrop : kHeader;
        } else if (j_.wait) {
          ev = kWaited;
          ph_ = kLook;  // looked up again
        } else {
          ev = kTaken;
          ph_ = j_.count ? kCount : kBody;
        }
        break;
      case kCount:
        if (cnt_ready) ph_ = kAnswer;
        break;
      case kAnswer:
        if (!cnt_rsp_valid) {
          err << "the testbench gave no counter answer in the cycle after the grant; ";
        } else if (cnt_rsp_code == 0) {
          ev = kCounted;
          ph_ = kBody;
        } else if (cnt_rsp_code == 2) {
          ev = kHeld;
          ph_ = kHold;
        } else {
          drop(cnt_rsp_code == 1 ? 5 : 8);  // OVER: OVERCOUNT; BAD: COUNTER
          left_ = h_.len;
          ph_ = kDrop;
        }
        break;
      case kHold:
        if (room) ph_ = kCount;
        break;
      case kBody:
        if (body_done) ph_ = kHeader;
        break;
      case kDrop:
        if (in_valid && --left_ == 0) ph_ = kHeader;
        break;
    }
    return ev;
  }

  void reset() {
    ph_ = kHeader;
    cause_ = 0;
    drop_addr_ = 0;
    drops_ = 0;
  }

 private:
  unsigned len_w_;
  uint64_t stat_mask_;
  Phase ph_ = kHeader;
  Wide hdr_;
  pkt::Header h_;
  Judged j_;
  unsigned left_ = 0;
  unsigned cause_ = 0;
  uint64_t drop_addr_ = 0;
  uint64_t drops_ = 0;  // unbounded
};

}  // namespace t3::tb
