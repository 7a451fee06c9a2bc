// ep_rx's constrained-random traffic and the neighbours it needs:
// - a table of windows (ep_window's record on tbl_i), rewritten now and
//   then while the receiver is idle and offered nothing;
// - response packets on rsp_in: RESULTs, PULL_RSPs and PARTIALs mostly in
//   a window, the rest in none, of another type, to a window that is not
//   the home, with count 0, malformed, or of an opcode it does not take;
//   flits offered with gaps, each held until taken;
// - the counter port answered as ep_count answers, in the cycle after the
//   grant: DONE (the count before 0 or not, the line whole or not), OVER,
//   BAD, and HELD when the line would be whole and the asker said it has no
//   room;
// - the write port and the two queues' readers ready at random, in phases
//   (stalls fill the queues: a RESULT then waits at its decode, a pulled
//   line holds);
// - resets now and then. The co-simulation test and the benchmark
//   (testbench/common/bench.h) drive the block with it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <random>

#include "apb_master.h"
#include "common/bits.h"
#include "common/packet.h"
#include "ep_rx/ep_rx.h"
#include "ep_stimulus.h"

namespace t3::tb {

class EpRxStimulus {
 public:
  EpRxStimulus(const EpRxParams& p, uint64_t seed) : p_(p), rng_(seed), win_(p.windows) {
    new_table();
    new_phase();
  }

  // Sets every input of this cycle, rst_n and the register port included.
  void drive(EpRxInputs& in) {
    if (reset_left_ == 0 && u() < 2e-5) reset_left_ = 2;
    in.rst_n = reset_left_ == 0;
    if (reset_left_ > 0 && --reset_left_ == 0) apb_.clear();
    if (--phase_left_ == 0) new_phase();
    // The table changes only between packets: the receiver idle and
    // nothing offered in the last cycle (a header taken is decoded on the
    // table of the next).
    if (quiet_ && u() < 2e-3) new_table();
    in.tbl = tbl_;
    if (!in.rsp_in_valid || taken_) {
      if (flits_.empty()) make_packet();
      in.rsp_in_valid = u() < in_rate_;
      if (in.rsp_in_valid) {
        in.rsp_in_flit = flits_.front();
        flits_.pop_front();
      }
    }
    in.mw_ready = u() < mw_rate_;
    in.res_ready = u() < res_rate_;
    in.fin_ready = u() < fin_rate_;
    in.cnt_ready = u() < 0.7;
    in.cnt_rsp_valid = answer_;
    in.cnt_rsp_code = code_;
    in.cnt_rsp_count = count_;
    in.cnt_rsp_whole = whole_;
    apb_.drive(in.apb, in.rst_n);
  }

  // After the cycle: what the block answered; the counter's answer to a
  // request granted now is made for the next cycle.
  void after(const EpRxInputs& in, const EpRxOutputs& out) {
    taken_ = in.rsp_in_valid && out.rsp_in_ready;
    if (!in.rst_n && in.rsp_in_valid && !taken_) {
      flits_.clear();  // a reset drops the packet on the way
      taken_ = true;
    }
    quiet_ = out.idle && !in.rsp_in_valid;
    answer_ = in.rst_n && out.cnt_valid && in.cnt_ready;
    code_ = count_ = 0;
    whole_ = false;
    if (answer_ && out.cnt_op == 1) answer_add(out);
    else if (answer_) count_ = uint8_t(rng_() % 4);
    apb_.after(in.apb, out.apb);
  }

  ApbMaster& apb() { return apb_; }
  const EpWin& window(unsigned i) const { return win_.at(i); }

 private:
  double u() { return std::uniform_real_distribution<double>(0, 1)(rng_); }
  uint64_t pick(uint64_t n) { return n ? rng_() % n : 0; }

  void answer_add(const EpRxOutputs& out) {
    const unsigned k = unsigned(pick(100));
    if (k < 3) {
      code_ = 3;  // BAD
    } else if (k < 13) {
      code_ = 1;  // OVER
    } else {
      // A line whole more often when the asker has no room: the HELD case.
      const bool whole = u() < (out.cnt_whole_ok ? 0.35 : 0.7);
      if (whole && !out.cnt_whole_ok) {
        code_ = 2;  // HELD
      } else {
        whole_ = whole;
        const unsigned room = out.cnt_limit > out.cnt_n ? out.cnt_limit - out.cnt_n : 0;
        count_ = uint8_t(u() < 0.4 || room == 0 ? 0 : 1 + pick(room));
      }
    }
    count_ = code_ == 0 ? count_ : uint8_t(pick(256));
  }

  void new_phase() {
    phase_left_ = 300 + pick(4000);
    in_rate_ = 0.3 + 0.7 * u();
    mw_rate_ = u() < 0.2 ? 0.1 : 0.5 + 0.5 * u();
    res_rate_ = u() < 0.3 ? 0.02 : 0.3 + 0.7 * u();
    fin_rate_ = u() < 0.4 ? 0.01 : 0.3 + 0.7 * u();
  }

  // Windows on disjoint network ranges of 1..64 flits; some invalid, some
  // a copy's, some a home's; counters from random bases (past COUNT_DEPTH
  // now and then: the line number is cut to LINE_W bits).
  void new_table() {
    const uint64_t fb = p_.flit_bytes();
    tbl_ = EpWinTable{};
    uint64_t base = pick(64) * fb;
    for (unsigned i = 0; i < p_.windows; ++i) {
      EpWin w;
      w.valid = u() < 0.85;
      w.home = u() < 0.5;
      w.copy = u() < 0.1 ? uint8_t(1 + pick(2)) : 0;
      w.dtype = uint8_t(pick(3));
      w.expected = uint8_t(u() < 0.05 ? 0 : 1 + pick(8));
      // Mostly a window whose counters fit in the array; now and then one
      // that runs past it (its merges are dropped, cause COUNTER).
      const bool fits = u() < 0.9;
      const uint64_t lines = 1 + pick(fits ? std::min<uint64_t>(64, p_.count_depth) : 64);
      w.bytes = uint32_t(lines * fb);
      w.net_base = base;
      base += w.bytes + pick(4) * fb;
      w.count_base = uint32_t(fits ? pick(p_.count_depth - lines + 1) : pick(p_.count_depth + 8));
      w.src = uint32_t(pick(1u << 20) * fb);
      w.dst = uint32_t(pick(1u << 20) * fb);
      w.merge = uint32_t(pick(1u << 20) * fb);
      w.stage = uint32_t(pick(1u << 20) * fb);
      w.contrib_mask = uint32_t(rng_());
      win_[i] = w;
      pack_window(tbl_, i, w);
    }
    span_ = base + 8 * fb;
  }

  void make_packet() {
    const uint64_t fb = p_.flit_bytes();
    pkt::Header h;
    const unsigned k = unsigned(pick(100));
    const pkt::Op op = k < 32 ? pkt::Op::result : k < 64 ? pkt::Op::pull_rsp : k < 94 ? pkt::Op::partial
                                                                        : pkt::Op::read_rsp;
    h.op = k < 97 ? uint8_t(op) : uint8_t(pick(16));  // an opcode the receiver does not take
    h.len = uint8_t(1 + pick(p_.max_len));
    h.count = uint8_t(u() < 0.03 ? 0 : 1 + pick(3));
    h.src = uint8_t(pick(32));
    h.ctr = uint8_t(rng_());
    ep_place_packet(h, win_, span_, unsigned(fb), rng_);
    ep_push_packet(h, p_.max_len, p_.flit_w, flits_, rng_);
  }

  EpRxParams p_;
  std::mt19937_64 rng_;
  ApbMaster apb_;
  std::vector<EpWin> win_;
  EpWinTable tbl_;
  uint64_t span_ = 0;
  std::deque<Wide> flits_;
  unsigned reset_left_ = 2;
  uint64_t phase_left_ = 1;
  double in_rate_ = 0.7, mw_rate_ = 0.7, res_rate_ = 0.7, fin_rate_ = 0.7;
  bool taken_ = true, quiet_ = false;
  bool answer_ = false, whole_ = false;
  uint8_t code_ = 0, count_ = 0;
};

}  // namespace t3::tb
