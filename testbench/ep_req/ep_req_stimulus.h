// ep_req's constrained-random traffic and the neighbours it needs:
// - a table of windows (ep_window's record on tbl_i): region windows (some
//   a deterministic home with a contributors' mask), copy windows, invalid
//   ones; rewritten now and then while the receiver is idle and offered
//   nothing;
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

#include <algorithm>
#include <cstdint>
#include <deque>
#include <random>
#include <vector>

#include "apb_master.h"
#include "common/bits.h"
#include "common/packet.h"
#include "ep_req/ep_req.h"
#include "ep_stimulus.h"

namespace t3::tb {

class EpReqStimulus {
 public:
  EpReqStimulus(const EpReqParams& p, uint64_t seed) : p_(p), rng_(seed), win_(p.windows) {
    new_table();
    new_phase();
  }

  // Sets every input of this cycle, rst_n and the register port included.
  void drive(EpReqInputs& in) {
    if (reset_left_ == 0 && u() < 2e-5) reset_left_ = 2;
    in.rst_n = reset_left_ == 0;
    if (reset_left_ > 0 && --reset_left_ == 0) apb_.clear();
    if (--phase_left_ == 0) new_phase();
    // The table changes only between packets: the receiver idle and
    // nothing offered in the last cycle (a header taken is decoded on the
    // table of the next).
    if (quiet_ && u() < 2e-3) new_table();
    in.tbl = tbl_;
    if (u() < 1e-3) in.node = uint8_t(rng_());
    if (!in.req_in_valid || taken_) {
      if (flits_.empty()) make_packet();
      in.req_in_valid = u() < in_rate_;
      if (in.req_in_valid) {
        in.req_in_flit = flits_.front();
        flits_.pop_front();
      }
    }
    in.mw_ready = u() < mw_rate_;
    in.mr_ready = u() < mr_rate_;
    in.rq_ready = u() < rq_rate_;
    in.rq_slot = uint32_t(pick(p_.slots));
    in.det_ready = u() < det_rate_;
    in.cnt_ready = u() < 0.7;
    in.cnt_rsp_valid = answer_;
    in.cnt_rsp_code = code_;
    in.cnt_rsp_count = count_;
    in.cnt_rsp_whole = whole_;
    apb_.drive(in.apb, in.rst_n);
  }

  // After the cycle: what the block answered; the counter's answer to a
  // request granted now is made for the next cycle.
  void after(const EpReqInputs& in, const EpReqOutputs& out) {
    taken_ = in.req_in_valid && out.req_in_ready;
    if (!in.rst_n && in.req_in_valid && !taken_) {
      flits_.clear();  // a reset drops the packet on the way
      taken_ = true;
    }
    quiet_ = out.idle && !in.req_in_valid;
    answer_ = in.rst_n && out.cnt_valid && in.cnt_ready;
    code_ = count_ = 0;
    whole_ = false;
    if (answer_) answer_add(out);
    apb_.after(in.apb, out.apb);
  }

  ApbMaster& apb() { return apb_; }

 private:
  double u() { return std::uniform_real_distribution<double>(0, 1)(rng_); }
  uint64_t pick(uint64_t n) { return n ? rng_() % n : 0; }

  void answer_add(const EpReqOutputs& out) {
    const unsigned k = unsigned(pick(100));
    if (k < 3) {
      code_ = 3;  // BAD
    } else if (k < 10) {
      code_ = 1;  // OVER
    } else {
      // A line whole more often when the asker has no room: the HELD case.
      const bool whole = u() < (out.cnt_whole_ok ? 0.4 : 0.7);
      if (whole && !out.cnt_whole_ok) code_ = 2;  // HELD
      else whole_ = whole;
    }
    count_ = uint8_t(pick(256));  // the count before: ep_req does not read it
  }

  void new_phase() {
    phase_left_ = 300 + pick(4000);
    in_rate_ = 0.3 + 0.7 * u();
    mw_rate_ = u() < 0.2 ? 0.1 : 0.5 + 0.5 * u();
    mr_rate_ = u() < 0.2 ? 0.1 : 0.5 + 0.5 * u();
    rq_rate_ = u() < 0.2 ? 0.05 : 0.3 + 0.7 * u();
    det_rate_ = u() < 0.4 ? 0.001 : 0.3 + 0.7 * u();  // a stalled reader fills the staged queue: HELDs
  }

  // Windows on disjoint network ranges of 1..64 flits; some invalid, some
  // a copy's, some a deterministic home's; counters from random bases (past
  // COUNT_DEPTH now and then: such a PUSH is refused, cause COUNTER).
  void new_table() {
    const uint64_t fb = p_.flit_bytes();
    tbl_ = EpWinTable{};
    uint64_t base = pick(64) * fb;
    for (unsigned i = 0; i < p_.windows; ++i) {
      EpWin w;
      w.valid = u() < 0.85;
      w.copy = u() < 0.25 ? uint8_t(1 + pick(2)) : 0;
      w.home = !w.copy && u() < 0.6;
      w.det = w.home && u() < 0.8;
      w.dtype = uint8_t(pick(3));
      w.expected = uint8_t(u() < 0.05 ? 0 : 1 + pick(8));
      const bool fits = u() < 0.9;
      const uint64_t lines = 1 + pick(fits ? std::min<uint64_t>(64, p_.count_depth) : 64);
      w.bytes = uint32_t(lines * fb);
      w.net_base = base;
      base += w.bytes + pick(4) * fb;
      w.count_base = uint32_t(fits ? pick(p_.count_depth - lines + 1) : pick(p_.count_depth + 8));
      w.src = uint32_t(pick(1u << 20) * fb);
      w.dst = uint32_t(pick(1u << 20) * fb);
      w.merge = uint32_t(pick(1u << 20) * fb);
      w.stage = uint32_t(pick(uint64_t(1) << 32) / fb * fb);
      w.contrib_mask = uint32_t(rng_()) | (u() < 0.5 ? 0x80000001u : 0);
      win_[i] = w;
      pack_window(tbl_, i, w);
    }
    span_ = base + 8 * fb;
  }

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
    ep_push_packet(h, p_.max_len, p_.flit_w, flits_, rng_);
  }

  EpReqParams p_;
  std::mt19937_64 rng_;
  ApbMaster apb_;
  std::vector<EpWin> win_;
  EpWinTable tbl_;
  uint64_t span_ = 0;
  std::deque<Wide> flits_;
  unsigned reset_left_ = 2;
  uint64_t phase_left_ = 1;
  double in_rate_ = 0.7, mw_rate_ = 0.7, mr_rate_ = 0.7, rq_rate_ = 0.7, det_rate_ = 0.7;
  bool taken_ = true, quiet_ = false;
  bool answer_ = false, whole_ = false;
  uint8_t code_ = 0, count_ = 0;
};

}  // namespace t3::tb
