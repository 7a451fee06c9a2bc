#include "ep_det/ep_det_core.h"

#include <algorithm>

#include "common/bits.h"

namespace t3 {

void EpDetParams::validate() const { validate_param_ranges(*this, "ep_det"); }

EpDetCore::EpDetCore(const EpDetParams& p)
    : p_((p.validate(), p)),
      stat_mask_(uint32_t(low_mask(p.stat_w))),
      len_mask_(uint32_t(low_mask(p.len_w()))),
      pend_(p.buf),
      got_(p.buf),
      buf_(p.buf) {}

EpDetCoreOutputs EpDetCore::eval(const EpDetCoreInputs& in) const {
  EpDetCoreOutputs o;
  o.det_ready = st_ == kIdle;
  if (read_now()) {
    o.mr_valid = true;
    o.mr_addr = raddr_;
    o.mr_tag = uint8_t(rslot_);
  }
  if (write_now()) {
    o.mw_valid = true;
    o.mw_addr = waddr_;
    o.mw_data = buf_[uslot_];
    o.mw_add = un_ >= len_;  // the first contributor's flits stored, the others added
    o.mw_dtype = dtype_;
  }
  if (st_ == kDone) {
    o.hq_valid = true;
    o.hq_win = win_;
    o.hq_line = line_;
    o.hq_len = len_;
  }
  o.idle = st_ == kIdle;
  o.stray = in.md_valid && !awaited(in);
  o.stat = stat_;
  return o;
}

void EpDetCore::clock(const EpDetCoreInputs& in) {
  if (!in.rst_n) {
    st_ = kIdle;
    std::fill(pend_.begin(), pend_.end(), false);
    std::fill(got_.begin(), got_.end(), false);
    stat_ = EpDetStats{};
    return;
  }
  auto bump = [this](uint32_t& c) { c = (c + 1) & stat_mask_; };
  const uint64_t fb = p_.flit_bytes();
  const bool rd = read_now() && in.mr_ready, wr = write_now() && in.mw_ready;
  const bool ans = in.md_valid && awaited(in);
  if (in.md_valid && !ans) bump(stat_.strays);
  const uint32_t rslot = rslot_, uslot = uslot_;
  switch (st_) {
    case kIdle:
      if (!in.det_valid) break;
      win_ = in.det_win;
      line_ = in.det_line;
      len_ = in.det_len & len_mask_;
      st_ = kStart;
      break;
    case kStart: {
      const EpWin w = unpack_window(in.tbl, win_);
      const uint64_t off = line_offset(w, line_, unsigned(fb));
      dtype_ = w.dtype;
      total_ = uint32_t(w.expected) * len_;
      bytes_ = w.bytes;
      rbase_ = raddr_ = (w.stage + off) & low_mask(48);
      wbase_ = waddr_ = (w.merge + off) & low_mask(48);
      rn_ = un_ = rslot_ = uslot_ = ri_ = ui_ = 0;
      st_ = total_ == 0 ? kDone : kRun;
      break;
    }
    case kRun:
      if (rd) {
        ++rn_;
        rslot_ = rslot_ + 1 == p_.buf ? 0 : rslot_ + 1;
        if (++ri_ == len_) {  // the next contributor's stage
          ri_ = 0;
          rbase_ = raddr_ = (rbase_ + bytes_) & low_mask(48);
        } else {
          raddr_ = (raddr_ + fb) & low_mask(48);
        }
      }
      if (wr) {
        bump(stat_.flits);
        uslot_ = uslot_ + 1 == p_.buf ? 0 : uslot_ + 1;
        if (++ui_ == len_) {
          ui_ = 0;
          waddr_ = wbase_;
        } else {
          waddr_ = (waddr_ + fb) & low_mask(48);
        }
        if (++un_ == total_) st_ = kDone;
      }
      break;
    case kDone:
      if (!in.hq_ready) break;
      bump(stat_.lines);
      st_ = kIdle;
      break;
  }
  if (rd) pend_[rslot] = true;
  if (ans) {
    pend_[in.md_tag] = false;
    got_[in.md_tag] = true;
    buf_[in.md_tag] = in.md_data;
  }
  if (wr) got_[uslot] = false;
}

}  // namespace t3
