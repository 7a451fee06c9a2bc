#include "ep_tx_scoreboard.h"

#include <algorithm>

#include "common/bits.h"
#include "common/hex.h"
#include "common/packet.h"
#include "tagged_memory.h"
#include "t3/ep_tx_regs.h"

namespace t3::tb {

void EpTxScoreboard::reset() {
  want_.clear();
  first_ = next_flit_ = 0;
  to_read_ = 0;
  outstanding_.clear();
  copied_ = 0;
  regs_.reset();
  for (uint64_t& c : stat_) c = 0;
}

// A packet queued: its header, then its data flits (fetched from local).
void EpTxScoreboard::take(const Wide& hdr, uint64_t local, unsigned data_flits) {
  Wide h = hdr;
  h.truncate(p_.flit_w);
  want_.push_back({h, true});
  next_flit_ = first_ + want_.size();
  for (unsigned i = 0; i < data_flits; ++i)
    want_.push_back({mem_data((local + uint64_t(i) * (p_.flit_w / 8)) & low_mask(48), p_.flit_w), false});
  to_read_ = data_flits;
  next_addr_ = local & low_mask(48);
}

std::optional<std::string> EpTxScoreboard::observe(const EpTxInputs& in, const EpTxOutputs& out) {
  std::ostringstream& err = complaints_.fresh();
  const uint64_t fb = p_.flit_w / 8, txq = 2 * (1 + p_.max_len), m = low_mask(p_.stat_w);

  auto ro = [&](unsigned r) -> std::optional<uint32_t> {
    switch (EpTxReg(r)) {
      case EpTxReg::status: return uint32_t(want_.size()) | uint32_t(want_.empty() && to_read_ == 0) << 8;
      case EpTxReg::stat_pushes: return uint32_t(stat_[0] & m);
      case EpTxReg::stat_pulls: return uint32_t(stat_[1] & m);
      case EpTxReg::stat_writes: return uint32_t(stat_[2] & m);
      case EpTxReg::stat_flits: return uint32_t(stat_[3] & m);
      case EpTxReg::stat_strays: return uint32_t(stat_[4] & m);
      case EpTxReg::param: return p_.flit_w | p_.max_len << 16 | p_.stat_w << 24;
      default: return 0;
    }
  };
  regs_.observe(in.apb, out.apb, false, ro, err);
  if (out.intr != regs_.intr()) err << "intr_o = " << out.intr << ", expected " << regs_.intr() << "; ";

  // ---- the rules, on the state before the edge
  const bool room = to_read_ == 0 && txq - want_.size() >= 1 + p_.max_len;
  const uint32_t left = in.cp_flits - copied_;
  const bool cp_done = room && !in.pkt_valid && in.cp_valid && left <= p_.max_len;
  const bool valid = !want_.empty() && want_.front().ready;
  const bool idle = want_.empty() && to_read_ == 0;
  if (out.pkt_ready != room) err << "pkt_ready_o = " << out.pkt_ready << ", expected " << room << "; ";
  if (out.cp_done != cp_done) err << "cp_done_o = " << out.cp_done << ", expected " << cp_done << "; ";
  if (out.mr_valid != (to_read_ != 0)) err << "mr_valid_o = " << out.mr_valid << " with " << to_read_ << " flits to read; ";
  if (out.mr_valid && out.mr_addr != next_addr_)
    err << "mr_addr_o = 0x" << std::hex << out.mr_addr << ", expected 0x" << next_addr_ << std::dec << "; ";
  if (out.mr_valid && (out.mr_tag >= txq || outstanding_.count(out.mr_tag)))
    err << "mr_tag_o = " << unsigned(out.mr_tag) << ": out of range or held by a read not answered; ";
  if (out.req_out_valid != valid)
    err << "req_out_valid_o = " << out.req_out_valid << ", expected " << valid << " (" << want_.size()
        << " flits expected); ";
  if (valid && out.req_out_flit != want_.front().data)
    err << "req_out_flit_o = " << hex(out.req_out_flit, p_.flit_w) << ", expected "
        << hex(want_.front().data, p_.flit_w) << " (flit " << first_ << "); ";
  if (!out.req_out_valid && out.req_out_flit != Wide{}) err << "req_out_flit_o not 0 while req_out_valid_o is low; ";
  if (out.idle != idle) err << "idle_o = " << out.idle << ", expected " << idle << "; ";

  // ---- the edge
  if (!in.rst_n) {
    reset();
    return err.tellp() == 0 ? std::nullopt : std::optional<std::string>(err.str());
  }
  if (in.md_valid) {
    const auto it = outstanding_.find(in.md_tag);
    if (it == outstanding_.end() && to_read_ != 0) {
      err << "an answer with tag " << unsigned(in.md_tag) << " no read holds, while a packet is read (stimulus); ";
    } else if (it == outstanding_.end()) {
      ++strays_;
      ++stat_[4];
      regs_.set_event(unsigned(EpTxReg::intr_state), T3_EP_TX_R_INTR_STATE_STRAY_MASK);
    } else {
      if (it->second < last_answer_) ++out_of_order_;
      last_answer_ = it->second;
      want_.at(size_t(it->second - first_)).ready = true;
      outstanding_.erase(it);
    }
  }
  if (to_read_ && in.mr_ready) {
    outstanding_[out.mr_tag] = next_flit_++;
    next_addr_ = (next_addr_ + fb) & low_mask(48);
    --to_read_;
  }
  if (valid && in.req_out_ready) {
    want_.pop_front();
    ++first_;
    ++flits_;
    ++stat_[3];
  }
  const uint8_t node = uint8_t(regs_.field(unsigned(EpTxReg::node), "id"));
  if (in.pkt_valid && room) {
    const pkt::Header h = pkt::unpack(in.pkt_hdr);
    const bool push = h.op == uint8_t(pkt::Op::push);
    take(in.pkt_hdr, in.pkt_local_addr, push ? std::min<unsigned>(h.len, p_.max_len) : 0);
    push ? ++pushes_ : ++pulls_;
    ++stat_[push ? 0 : 1];
  } else if (room && in.cp_valid) {
    const uint32_t len = std::min<uint32_t>(left, p_.max_len);
    if (len) {
      pkt::Header h;
      h.op = uint8_t(pkt::Op::write);
      h.len = uint8_t(len);
      h.src = node;
      h.dst = in.cp_dst;
      h.addr = (in.cp_net + uint64_t(copied_) * fb) & low_mask(48);
      take(pkt::pack(h), in.cp_local + uint64_t(copied_) * fb, len);
      ++writes_;
      ++stat_[2];
    }
    copied_ += len;
    if (cp_done) {
      copied_ = 0;
      ++copies_;
      regs_.set_event(unsigned(EpTxReg::intr_state), T3_EP_TX_R_INTR_STATE_COPY_DONE_MASK);
    }
  }
  max_queued_ = std::max<uint64_t>(max_queued_, want_.size());
  regs_.edge();
  if (err.tellp() == 0) return std::nullopt;
  return err.str();
}

}  // namespace t3::tb
