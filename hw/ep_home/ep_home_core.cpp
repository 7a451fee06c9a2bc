#include "ep_home/ep_home_core.h"

#include "common/bits.h"

namespace t3 {

void EpHomeParams::validate() const { validate_param_ranges(*this, "ep_home"); }

EpWindowParams EpHomeParams::ep_window() const {
  EpWindowParams w;
  w.flit_w = flit_w;
  w.windows = windows;
  return w;
}

EpHomeCore::EpHomeCore(const EpHomeParams& p)
    : p_((p.validate(), p)),
      stat_mask_(uint32_t(low_mask(p.stat_w))),
      slot_mask_(uint32_t(low_mask(p.slot_w()))),
      homeq_(p.home_q),
      resq_(p.resq),
      got_(p.max_len),
      buf_(p.max_len) {}

int EpHomeCore::home_of(const EpWinTable& tbl, uint32_t c) const {
  for (unsigned i = 0; i < p_.windows; ++i) {
    const EpWin w = unpack_window(tbl, i);
    const uint64_t lines = w.bytes / p_.flit_bytes();
    if (w.valid && w.home && !w.det && c >= w.count_base && c - w.count_base < lines) return int(i);
  }
  return -1;
}

int EpHomeCore::awaited(const EpHomeCoreInputs& in) const {
  if (st_ != kRead && st_ != kDrain) return -1;
  const uint32_t t = in.md_tag;
  if (t >= p_.slots || first_ >= p_.slots) return -1;
  const uint32_t i = t >= first_ ? t - first_ : t + p_.slots - first_;
  // Read already, not answered yet.
  return i < issued_ && i < p_.max_len && !got_[i] ? int(i) : -1;
}

EpHomeCore::Swept EpHomeCore::swept(const EpHomeCoreInputs& in, int* win) const {
  if (st_ != kSweepWait || !in.cnt_rsp_valid) return Swept::none;
  const uint32_t at = sweep_at_;
  const int w = home_of(in.tbl, at);
  if (win) *win = w;
  const bool whole = w >= 0 && in.cnt_rsp_code == 0 && len_ok(in.cnt_rsp_len) &&
                     in.cnt_rsp_count == unpack_window(in.tbl, unsigned(w)).expected;
  if (!whole) return Swept::miss;
  return in.merging && in.merge_line == at ? Swept::merging : Swept::found;
}

EpHomeCoreOutputs EpHomeCore::eval(const EpHomeCoreInputs& in) const {
  EpHomeCoreOutputs o;
  o.hq_ready = hq_ready(in);
  switch (st_) {
    case kSweep:
      o.cnt_valid = true;
      o.cnt_op = 0;  // READ
      o.cnt_line = sweep_at_;
      break;
    case kClear:
      o.cnt_valid = true;
      o.cnt_op = 2;  // CLEAR
      o.cnt_line = line_;
      break;
    case kReserve:
      o.rq_valid = true;
      o.rq_hdr = hdr_;
      o.rq_len = len_;
      break;
    case kRead:
      o.mr_valid = true;
      o.mr_addr = addr_;
      o.mr_tag = uint8_t(tag_);
      break;
    default: break;
  }
  if ((st_ == kRead || st_ == kDrain) && echo_now()) {
    o.mw_valid = true;
    o.mw_addr = echo_addr_;
    o.mw_data = buf_[eidx_];
  }
  o.stray = in.md_valid && awaited(in) < 0;
  o.bad = bad_in(in);
  o.lost = gives_up(in);
  o.res_valid = resq_.valid();
  if (o.res_valid) o.res_hdr = resq_.rdata();
  o.idle = st_ == kIdle && !homeq_.valid() && pending_ == 0 && !resq_.valid();
  o.pending = pending_;
  o.stat = stat_;
  return o;
}

void EpHomeCore::clock(const EpHomeCoreInputs& in) {
  if (!in.rst_n) {
    homeq_.clock(false, false, Line{}, false);
    resq_.clock(false, false, Wide{}, false);
    st_ = kIdle;
    pending_ = sweep_at_ = miss_ = 0;
    res_resv_ = false;
    stat_ = EpHomeStats{};
    return;
  }
  auto bump = [this](uint32_t& c) { c = (c + 1) & stat_mask_; };
  const uint64_t fb = p_.flit_bytes();
  // The queue's ways in: ep_rx's pulse first, the in-order add's line when
  // ep_rx gives none.
  bool hq_push = false;
  Line in_line;
  // A round of the sweep with no line found: each pending line's counter
  // or window changed under it (ep_home.md, "The sweep gives up"). A line
  // into pending starts the round again; one still merging ends it.
  int sw_win = -1;
  const Swept sw = swept(in, &sw_win);
  if (gives_up(in)) {
    stat_.lost = (stat_.lost + pending_) & stat_mask_;
    pending_ = 0;
    miss_ = 0;
  } else if (to_pending(in) || sw == Swept::found || sw == Swept::merging) {
    miss_ = 0;
  } else if (sw == Swept::miss) {
    ++miss_;
  }
  if (bad_in(in)) {
    bump(stat_.bad);  // refused, not queued (a line longer than the copy buffer would never finish)
  } else if (in.home) {
    if (pending_ == 0 && homeq_.count() < p_.home_q) {
      hq_push = true;
      in_line = Line{in.home_win, in.home_line, in.home_len};
    } else {
      ++pending_;  // found again by the sweep
    }
  } else if (in.hq_valid && hq_ready(in)) {
    hq_push = true;
    in_line = Line{in.hq_win, in.hq_line, in.hq_len};
  }
  // This cycle's answer and copy, on the state before the edge.
  const int a = in.md_valid ? awaited(in) : -1;
  if (in.md_valid && a < 0) bump(stat_.strays);
  const bool echoed = (st_ == kRead || st_ == kDrain) && echo_now() && in.mw_ready;
  bool hq_pop = false, res_push = false;
  switch (st_) {
    case kIdle:
      if (homeq_.valid()) {
        hq_pop = true;
        win_ = homeq_.rdata().win;
        line_ = homeq_.rdata().line;
        len_ = homeq_.rdata().len;
        st_ = kStart;
      } else if (pending_ != 0) {
        st_ = kSweep;
      }
      break;
    case kSweep:
      if (in.cnt_ready) st_ = kSweepWait;
      break;
    case kSweepWait: {
      if (!in.cnt_rsp_valid) break;
      const uint32_t at = sweep_at_;
      sweep_at_ = at + 1 == p_.count_depth ? 0 : at + 1;
      st_ = kIdle;
      if (sw == Swept::found) {
        win_ = uint32_t(sw_win);
        line_ = at;
        len_ = in.cnt_rsp_len;
        --pending_;
        bump(stat_.sweeps);
        st_ = kStart;
      }
      break;
    }
    case kStart: {
      if (!res_room()) break;
      const EpWin w = unpack_window(in.tbl, win_);
      const uint64_t off = line_offset(w, line_, unsigned(fb));
      pkt::Header r;
      r.op = uint8_t(pkt::Op::result);
      r.dtype = w.dtype;
      r.len = uint8_t(len_);
      r.src = in.node;
      r.count = w.expected;
      r.addr = (w.net_base + off) & low_mask(48);
      hdr_ = pkt::pack(r);
      addr_ = (w.merge + off) & low_mask(48);
      echo_addr_ = (w.dst + off) & low_mask(48);
      echo_ = w.merge != w.dst;
      res_resv_ = true;
      st_ = kReserve;
      break;
    }
    case kReserve:
      if (!in.rq_ready) break;
      first_ = tag_ = uint32_t(in.rq_slot & slot_mask_);
      issued_ = back_ = eidx_ = 0;
      std::fill(got_.begin(), got_.end(), false);
      st_ = kRead;
      break;
    case kRead:
      if (!in.mr_ready) break;
      addr_ = (addr_ + fb) & low_mask(48);
      tag_ = tag_ == p_.slots - 1 ? 0 : (tag_ + 1) & slot_mask_;
      if (++issued_ == len_) st_ = kDrain;
      break;
    case kDrain:
      if (back_ == len_ && (!echo_ || eidx_ == len_)) st_ = kClear;
      break;
    case kClear:
      if (!in.cnt_ready) break;
      res_push = true;
      res_resv_ = false;
      bump(stat_.results);
      st_ = kIdle;
      break;
  }
  if (a >= 0) {
    got_[unsigned(a)] = true;
    buf_[unsigned(a)] = in.md_data;
    ++back_;
  }
  if (echoed) {
    ++eidx_;
    echo_addr_ = (echo_addr_ + fb) & low_mask(48);
  }
  homeq_.clock(true, hq_push, in_line, hq_pop);
  resq_.clock(true, res_push, hdr_, resq_.valid() && in.res_ready);
  pending_ &= uint32_t(low_mask(17));
}

}  // namespace t3
