// ep_tx's constrained-random traffic: PUSH descriptors of 0..MAX_LEN flits
// and PULL descriptors with random header fields, copy commands of 0 to
// several packets' flits, the memory's answers after random delays (out of
// order) and now and then a stray answer (a tag no slot awaits: ignored and
// counted), back-pressure on every ready (the read grant, the output), NODE
// rewritten through the register port now and then, a reset now and then.
// Phases change the rates: a starved memory, a blocked output, a burst of
// copies. The co-simulation test and the benchmark drive the block with it.
#pragma once

#include <cstdint>
#include <random>

#include "common/packet.h"
#include "ep_tx/ep_tx.h"
#include "stim_base.h"
#include "t3/ep_tx_regs.h"
#include "tagged_memory.h"

namespace t3::tb {

class EpTxStimulus : public StimBase {
 public:
  EpTxStimulus(const EpTxParams& p, uint64_t seed) : StimBase(seed), p_(p), mem_(p.flit_w, seed ^ 0x5A5A) {}

  void drive(EpTxInputs& in) {
    if (pkt_taken_) in.pkt_valid = false;  // what the block took last cycle
    if (cp_taken_) in.cp_valid = false;
    bool ended;
    in.rst_n = reset_cycle(ended);
    if (ended) {
      mem_.clear();
      in.pkt_valid = in.cp_valid = false;
    }
    if (u() < 1e-3) phase();
    if (apb_.idle() && u() < 2e-3) apb_.write(T3_EP_TX_A_NODE, uint32_t(rng_() & 0xFF));
    if (!in.pkt_valid && u() < pkt_rate_) new_descriptor(in);
    if (!in.cp_valid && u() < cp_rate_) {
      in.cp_valid = true;
      in.cp_local = fb() * (rng_() % 4096) + (u() < 0.05 ? (uint64_t{0xFFFF} << 32) : 0);
      in.cp_net = (fb() * rng_()) & low_mask(48);
      in.cp_flits = uint32_t(u() < 0.05 ? 0 : 1 + rng_() % (3 * p_.max_len));
      in.cp_dst = uint8_t(rng_());
    }
    in.mr_ready = u() < mr_rate_;
    in.req_out_ready = u() < out_rate_;
    mem_.drive(in);
    // Only while no packet is being read, when the slots that await an
    // answer are exactly the reads outstanding (the scoreboard knows
    // packets, not slots).
    if (!reading_) mem_.stray(in, p_.tag_w(), 0.01);
    apb_.drive(in.apb, in.rst_n);
  }

  void after(const EpTxInputs& in, const EpTxOutputs& out) {
    mem_.after(in, out);
    pkt_taken_ = in.rst_n && in.pkt_valid && out.pkt_ready;
    cp_taken_ = in.rst_n && out.cp_done;
    // A packet may be read next cycle.
    reading_ = out.mr_valid || (out.pkt_ready && (in.pkt_valid || in.cp_valid));
    apb_.after(in.apb, out.apb);
  }
  uint64_t descriptors() const { return descriptors_; }

 private:
  uint64_t fb() const { return p_.flit_w / 8; }

  void new_descriptor(EpTxInputs& in) {
    pkt::Header h;
    const bool push = u() < 0.7;
    h.op = uint8_t(push ? pkt::Op::push : pkt::Op::pull);
    h.len = uint8_t(push ? (u() < 0.02 ? p_.max_len + 1 + rng_() % 40 : rng_() % (p_.max_len + 1))
                         : 1 + rng_() % p_.max_len);
    h.dtype = uint8_t(rng_() % 3);
    h.src = uint8_t(rng_());
    h.dst = uint8_t(rng_());
    h.count = 1;
    h.ctr = uint8_t(rng_() % 64);
    h.addr = (fb() * rng_()) & low_mask(48);
    in.pkt_valid = true;
    in.pkt_hdr = pkt::pack(h);
    in.pkt_local_addr = (fb() * (rng_() % 65536)) | (u() < 0.05 ? uint64_t{0xFFFF} << 32 : 0);
    ++descriptors_;
  }

  void phase() {
    const double r = u();
    pkt_rate_ = 0.3;
    cp_rate_ = 0.05;
    mr_rate_ = 0.7;
    out_rate_ = 0.7;
    mem_.set_max_delay(30);
    if (r < 0.2) mr_rate_ = 0.05;          // a starved memory
    else if (r < 0.4) out_rate_ = 0.02;    // a blocked output
    else if (r < 0.55) cp_rate_ = 0.8;     // copies
    else if (r < 0.7) mem_.set_max_delay(1);  // answers in order, at once
    else if (r < 0.8) mr_rate_ = out_rate_ = 1.0;
  }

  EpTxParams p_;
  TaggedMemory mem_;
  bool pkt_taken_ = false, cp_taken_ = false, reading_ = false;
  double pkt_rate_ = 0.3, cp_rate_ = 0.05, mr_rate_ = 0.7, out_rate_ = 0.7;
  uint64_t descriptors_ = 0;
};

}  // namespace t3::tb
