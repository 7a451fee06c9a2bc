#include "ep_tx/ep_tx_core.h"

#include <algorithm>

#include "common/bits.h"
#include "common/packet.h"

namespace t3 {

void EpTxParams::validate() const { validate_param_ranges(*this, "ep_tx"); }

EpTxCore::EpTxCore(const EpTxParams& p) : p_(p), txq_(0) {
  p_.validate();
  txq_ = unsigned(p_.txq());
}

EpTxCoreOutputs EpTxCore::eval(const EpTxCoreInputs& in) const {
  EpTxCoreOutputs o;
  const bool take = can_take();
  o.pkt_ready = take;
  // A copy's WRITE only when no descriptor is taken; its last packet takes
  // the command (a command of 0 flits is taken at once, with no packet).
  o.cp_done = take && !in.pkt_valid && in.cp_valid && copy_left(in) <= p_.max_len;
  o.mr_valid = left_ != 0;
  o.mr_addr = pick(left_ != 0, addr_, uint64_t{0});
  o.mr_tag = uint8_t(pick(left_ != 0, seq_, 0u));
  o.req_out_valid = count_ != 0 && slot_[head_].ready;
  if (o.req_out_valid) o.req_out_flit = slot_[head_].flit;
  o.idle = count_ == 0 && left_ == 0;
  o.queued = uint8_t(count_);
  const uint64_t m = low_mask(p_.stat_w);
  o.stat.pushes = uint32_t(pushes_ & m);
  o.stat.pulls = uint32_t(pulls_ & m);
  o.stat.writes = uint32_t(writes_ & m);
  o.stat.flits = uint32_t(flits_ & m);
  return o;
}

void EpTxCore::put(unsigned i, const Wide& f, bool ready) {
  Slot& s = slot_[i % txq_];
  s.flit = f;
  s.ready = ready;
}

void EpTxCore::clock(const EpTxCoreInputs& in) {
  if (!in.rst_n) {
    for (Slot& s : slot_) s = Slot{};
    head_ = count_ = left_ = seq_ = 0;
    addr_ = 0;
    copied_ = 0;
    pushes_ = pulls_ = writes_ = flits_ = 0;
    return;
  }
  const bool take = can_take();
  const unsigned tail = (head_ + count_) % txq_;
  const bool pop = count_ != 0 && slot_[head_].ready && in.req_out_ready;
  const unsigned md_tag = in.md_tag & unsigned(low_mask(p_.tag_w()));  // the pin's width
  if (in.md_valid && md_tag < txq_) {
    Wide d = in.md_data;
    d.truncate(p_.flit_w);
    put(md_tag, d, true);
  }
  if (left_ != 0 && in.mr_ready) {
    addr_ = (addr_ + p_.flit_bytes()) & low_mask(48);
    seq_ = (seq_ + 1) % txq_;
    --left_;
  }
  if (pop) {
    head_ = (head_ + 1) % txq_;
    --count_;
    ++flits_;
  }
  const uint64_t fb = p_.flit_bytes();
  if (in.pkt_valid && take) {
    Wide h = in.pkt_hdr;
    h.truncate(p_.flit_w);
    put(tail, h, true);
    const pkt::Header hd = pkt::unpack(h);
    if (hd.op == uint8_t(pkt::Op::push)) {
      // At most MAX_LEN flits read (the DMA credit controller never asks
      // for more; a longer len leaves with MAX_LEN, docs/blocks/ep_tx.md).
      const unsigned n = std::min<unsigned>(hd.len, p_.max_len);
      for (unsigned i = 1; i <= n; ++i) put(tail + i, Wide{}, false);
      count_ += 1 + n;
      left_ = n;
      addr_ = in.pkt_local_addr & low_mask(48);
      seq_ = (tail + 1) % txq_;
      ++pushes_;
    } else {
      count_ += 1;
      ++pulls_;
    }
  } else if (take && in.cp_valid) {
    const uint32_t len = std::min<uint32_t>(copy_left(in), p_.max_len);
    if (len != 0) {
      pkt::Header hd;
      hd.op = uint8_t(pkt::Op::write);
      hd.len = uint8_t(len);
      hd.src = in.node;
      hd.dst = in.cp_dst;
      hd.addr = (in.cp_net + uint64_t(copied_) * fb) & low_mask(48);
      put(tail, pkt::pack(hd), true);
      for (unsigned i = 1; i <= len; ++i) put(tail + i, Wide{}, false);
      count_ += 1 + len;
      left_ = len;
      addr_ = (in.cp_local + uint64_t(copied_) * fb) & low_mask(48);
      seq_ = (tail + 1) % txq_;
      ++writes_;
    }
    copied_ = copy_left(in) <= p_.max_len ? 0 : copied_ + len;
  }
}

}  // namespace t3
