// ep_req's constrained-random traffic and the neighbours it needs:
// - a table of windows (ep_window's record on tbl_i): region windows (some
//   a deterministic home with a contributors' mask), copy windows, invalid
//   ones; rewritten now and then while the receiver is idle and offered
//   nothing, rarely at any time (between a header's lookup and its decode
//   included);
// - request packets on req_in: PULLs, PUSHes and WRITEs mostly in a
//   window, the rest in none, of another type, from a src that is not a
//   contributor, with a count other than 1, malformed, or of an opcode it
//   does not take; flits offered with gaps, each held until taken;
// - the counter port answered as ep_count answers, in the cycle after the
//   grant: DONE (the line whole or not), OVER, BAD, and HELD when the line
//   would be whole and the asker said it has no room;
// - the response queue granting at random with a slot below SLOTS, the
//   write and read ports and the staged queue's reader ready at random, in
//   phases (a slow reader fills the staged queue: a PUSH then holds);
// - the node number changed now and then; resets now and then. The
//   co-simulation test and the benchmark (testbench/common/bench.h) drive
//   the block with it.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "common/bits.h"
#include "common/packet.h"
#include "ep_req/ep_req.h"
#include "ep_stimulus.h"

namespace t3::tb {

class EpReqStimulus : public EpPacketStim {
 public:
  // The count before is any byte: ep_req must not read it.
  EpReqStimulus(const EpReqParams& p, uint64_t seed)
      : EpPacketStim(seed, p.windows, p.flit_w, EpCntMix{7, 0.4, true}), p_(p) {
    new_table();
    new_phase();
  }

  // Sets every input of this cycle, rst_n and the register port included.
  void drive(EpReqInputs& in) {
    in.rst_n = reset_cycle();
    if (phase_due()) new_phase();
    if (table_due()) new_table();
    if (u() < 1e-3) in.node = uint8_t(rng_());
    drive_common(in, in.req_in_valid, in.req_in_flit, in_rate_, [this] { make_packet(); });
    in.mw_ready = u() < mw_rate_;
    in.mr_ready = u() < mr_rate_;
    in.rq_ready = u() < rq_rate_;
    in.rq_slot = uint32_t(pick(p_.slots));
    in.det_ready = u() < det_rate_;
    apb_.drive(in.apb, in.rst_n);
  }

  // After the cycle: what the block answered.
  void after(const EpReqInputs& in, const EpReqOutputs& out) {
    after_common(in, out, in.req_in_valid, out.req_in_ready);
    apb_.after(in.apb, out.apb);
  }

 private:
  void new_phase() {
    phase_left_ = 300 + pick(4000);
    in_rate_ = 0.3 + 0.7 * u();
    mw_rate_ = u() < 0.2 ? 0.1 : 0.5 + 0.5 * u();
    mr_rate_ = u() < 0.2 ? 0.1 : 0.5 + 0.5 * u();
    rq_rate_ = u() < 0.2 ? 0.05 : 0.3 + 0.7 * u();
    det_rate_ = u() < 0.4 ? 0.001 : 0.3 + 0.7 * u();  // a stalled reader fills the staged queue: HELDs
  }

  // Copy windows and homes, most of them deterministic.
  void new_table() { EpPacketStim::new_table(unsigned(p_.flit_bytes()), p_.count_depth, EpTableMix{0.25, 0.6, 0.8}); }

  void make_packet() {
    const uint64_t fb = p_.flit_bytes();
    pkt::Header h;
    const unsigned k = unsigned(pick(100));
    const pkt::Op op = k < 35 ? pkt::Op::pull : k < 70 ? pkt::Op::push : k < 96 ? pkt::Op::write : pkt::Op::read;
    h.op = k < 98 ? uint8_t(op) : uint8_t(pick(16));  // an opcode the receiver does not take
    h.len = uint8_t(1 + pick(p_.max_len));
    h.count = uint8_t(u() < 0.95 ? 1 : pick(4));
    // A src among 0..31 mostly (a contributor or not), past 31 now and then.
    h.src = uint8_t(u() < 0.97 ? pick(32) : 32 + pick(224));
    h.dst = uint8_t(rng_());
    h.ctr = uint8_t(rng_());
    const EpWin* w = ep_place_packet(h, win_, span_, unsigned(fb), rng_);
    if (w && h.op == uint8_t(pkt::Op::push) && u() < 0.8) {
      // A contributor mostly: its stage.
      std::vector<unsigned> in_mask;
      for (unsigned s = 0; s < 32; ++s)
        if (w->contrib_mask >> s & 1) in_mask.push_back(s);
      if (!in_mask.empty()) h.src = uint8_t(in_mask[pick(in_mask.size())]);
    }
    ep_push_packet(h, p_.max_len, p_.flit_w, drv_, rng_);
  }

  EpReqParams p_;
  double in_rate_ = 0.7, mw_rate_ = 0.7, mr_rate_ = 0.7, rq_rate_ = 0.7, det_rate_ = 0.7;
};

}  // namespace t3::tb
