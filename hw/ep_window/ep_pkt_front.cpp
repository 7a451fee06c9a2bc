#include "ep_window/ep_pkt_front.h"

#include "common/bits.h"

namespace t3 {

EpPktFront::EpPktFront(const EpWindowParams& wp, unsigned max_len, unsigned count_depth, unsigned stat_w)
    : wp_(wp),
      max_len_(max_len),
      count_depth_(count_depth),
      line_w_(clog2(count_depth)),
      len_w_(clog2(max_len + 1)),
      stat_mask_(uint32_t(low_mask(stat_w))) {}

uint64_t EpPktFront::full_line(const EpWinTable& tbl) const {
  return record(tbl).count_base + off_ / wp_.flit_bytes();
}

// The checks every engine makes first, its own, then the line's counter,
// whole: a window whose counters run past the array is refused, not
// wrapped onto another window's lines.
uint8_t EpPktFront::verdict(const EpWinTable& tbl, const EpFrontEngine& e) const {
  if (pkt::check(h_, max_len_, wp_.flit_w) != pkt::Malformed::none) return kEpMalformed;
  if (!e.takes_op) return kEpWrongOp;
  if (!hit_) return kEpNoWindow;
  if (e.cause) return e.cause;
  if (e.count && full_line(tbl) >= count_depth_) return kEpCounter;
  return 0;
}

EpFrontOut EpPktFront::eval(const EpFrontPins& in, const EpFrontEngine& e) const {
  EpFrontOut o;
  switch (st_) {
    case kIdle:
    case kDrop: o.in_ready = true; break;
    case kBody: o.in_ready = e.body_ready; break;
    case kDecode: {
      o.cause = verdict(*in.tbl, e);
      o.drop = o.cause != 0;
      o.take = o.cause == 0 && !e.wait;
      break;
    }
    case kAsk:
      o.cnt_valid = true;
      o.cnt_line = line_;
      o.cnt_n = h_.count;
      o.cnt_limit = limit_;
      o.cnt_len = uint8_t(h_.len & low_mask(len_w_));
      o.cnt_whole_ok = e.room;
      break;
    case kWait:
      o.drop = in.cnt_rsp_valid && (in.cnt_rsp_code == 1 || in.cnt_rsp_code == 3);  // OVER, BAD
      o.counted = in.cnt_rsp_valid && in.cnt_rsp_code == 0;
      break;
    case kLook:
    case kHold: break;
  }
  return o;
}

void EpPktFront::clock(bool rst_n, const EpFrontPins& in, const EpFrontEngine& e, const EpFrontOut& o) {
  if (!rst_n) {
    st_ = kIdle;
    cause_ = 0;
    drop_addr_ = 0;
    drops_ = 0;
    return;
  }
  auto drop = [&](uint8_t c) {
    cause_ = c;
    drop_addr_ = h_.addr;
    drops_ = (drops_ + 1) & stat_mask_;
  };
  switch (st_) {
    case kIdle:
      if (in.in_valid) {
        hdr_ = pkt::header_bits(*in.in_flit);
        h_ = pkt::unpack(hdr_);
        st_ = kLook;
      }
      break;
    case kLook: {
      const EpWinHit l = lookup_window(wp_, *in.tbl, h_.addr, h_.len);
      hit_ = l.hit;
      win_ = l.win;
      off_ = l.off;
      st_ = kDecode;
      break;
    }
    case kDecode: {
      left_ = pkt::wire_flits(h_) - 1;  // whatever the verdict: read only in DROP
      if (o.cause) {
        drop(o.cause);
        st_ = left_ ? kDrop : kIdle;
      } else if (e.wait) {
        st_ = kLook;  // looked up again
      } else {
        line_ = uint32_t(full_line(*in.tbl) & low_mask(line_w_));
        limit_ = e.limit;
        st_ = e.count ? kAsk : kBody;
      }
      break;
    }
    case kAsk:
      if (in.cnt_ready) st_ = kWait;
      break;
    case kWait:
      if (!in.cnt_rsp_valid) break;
      if (in.cnt_rsp_code == 0) {  // DONE
        st_ = kBody;
      } else if (in.cnt_rsp_code == 2) {  // HELD: no room for the line it would complete
        st_ = kHold;
      } else {
        drop(in.cnt_rsp_code == 1 ? kEpOvercount : kEpCounter);
        left_ = h_.len;
        st_ = kDrop;
      }
      break;
    case kHold:
      if (e.room) st_ = kAsk;
      break;
    case kBody:
      if (e.body_done) st_ = kIdle;
      break;
    case kDrop:
      if (in.in_valid && --left_ == 0) st_ = kIdle;
      break;
  }
}

}  // namespace t3
