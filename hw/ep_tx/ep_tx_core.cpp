#include "ep_tx/ep_tx_core.h"

#include <algorithm>

#include "common/bits.h"
#include "common/packet.h"

namespace t3 {

void EpTxParams::validate() const { validate_param_ranges(*this, "ep_tx"); }

EpTxCore::EpTxCore(const EpTxParams& p)
    : p_((p.validate(), p)), q_(p.flit_w, p.max_len, unsigned(p.txq())) {}

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
  o.req_out_valid = q_.out_valid();
  o.req_out_flit = q_.out_flit();
  o.idle = idle();
  const EpOutq::Fill fill[1] = {{in.md_valid, md_tag(in), &in.md_data}};
  o.stray = q_.stray(fill, 0);
  o.queued = uint8_t(q_.count());
  const uint64_t m = low_mask(p_.stat_w);
  o.stat.pushes = uint32_t(pushes_ & m);
  o.stat.pulls = uint32_t(pulls_ & m);
  o.stat.writes = uint32_t(writes_ & m);
  o.stat.flits = uint32_t(flits_ & m);
  o.stat.strays = uint32_t(strays_ & m);
  return o;
}

void EpTxCore::clock(const EpTxCoreInputs& in) {
  if (!in.rst_n) {
    q_.reset();
    left_ = seq_ = 0;
    addr_ = 0;
    copied_ = 0;
    pushes_ = pulls_ = writes_ = flits_ = strays_ = 0;
    return;
  }
  const bool take = can_take();
  const unsigned first = q_.first();
  const bool pop = q_.out_valid() && in.req_out_ready;
  const uint64_t fb = p_.flit_bytes();
  EpOutq::Edge e;
  e.fill[0] = {in.md_valid, md_tag(in), &in.md_data};
  e.out_ready = in.req_out_ready;
  const bool stray = q_.stray(e.fill, 0);
  Wide wr;
  if (left_ != 0 && in.mr_ready) {
    addr_ = (addr_ + fb) & low_mask(48);
    seq_ = (seq_ + 1) % q_.slots();
    --left_;
  }
  if (pop) ++flits_;
  if (stray) ++strays_;
  if (in.pkt_valid && take) {
    e.push = true;
    e.hdr = &in.pkt_hdr;
    const pkt::Header hd = pkt::unpack(in.pkt_hdr);
    if (hd.op == uint8_t(pkt::Op::push)) {
      // At most MAX_LEN flits read (the DMA credit controller never asks
      // for more; a longer len leaves with MAX_LEN, docs/blocks/ep_tx.md).
      e.len = std::min<unsigned>(hd.len, p_.max_len);
      left_ = e.len;
      addr_ = in.pkt_local_addr & low_mask(48);
      seq_ = first;
      ++pushes_;
    } else {
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
      wr = pkt::pack(hd);
      e.push = true;
      e.hdr = &wr;
      e.len = len;
      left_ = len;
      addr_ = (in.cp_local + uint64_t(copied_) * fb) & low_mask(48);
      seq_ = first;
      ++writes_;
    }
    copied_ = copy_left(in) <= p_.max_len ? 0 : copied_ + len;
  }
  q_.clock(e);
}

}  // namespace t3
