// ep_home's constrained-random traffic and the neighbours it needs:
// - a table of windows (ep_window's record on tbl_i): home windows (some
//   deterministic), others, invalid ones, on counter ranges from random
//   bases; rewritten now and then while the home is idle;
// - ep_rx's home pulses (a line of a home window, 1..MAX_LEN flits), at any
//   rate up to one a cycle, and its merging line (now and then the line the
//   sweep reads); the in-order add's lines on hq_*, held until taken;
// - the counter port answered as ep_count answers, in the cycle after the
//   grant: a READ with the line's window's expected count most of the time
//   (a line whole), else another count, now and then BAD; a length 1..MAX_LEN;
// - the response queue granting at random with a slot below SLOTS; the read
//   port's memory (testbench/common/tagged_memory.h) answering in any order,
//   and stray answers (a tag not awaited) now and then; the write port and
//   the result queue's reader ready at random, in phases;
// - the node number changed now and then; resets now and then. The
//   co-simulation test and the benchmark (testbench/common/bench.h) drive
//   the block with it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "common/bits.h"
#include "ep_home/ep_home.h"
#include "stim_base.h"
#include "tagged_memory.h"

namespace t3::tb {

class EpHomeStimulus : public StimBase {
 public:
  EpHomeStimulus(const EpHomeParams& p, uint64_t seed)
      : StimBase(seed), p_(p), mem_(p.flit_w, seed ^ 0x40E5), win_(p.windows) {
    new_table();
    new_phase();
  }

  // Sets every input of this cycle, rst_n and the register port included.
  void drive(EpHomeInputs& in) {
    bool ended;
    in.rst_n = reset_cycle(ended);
    if (ended) mem_.clear();
    if (phase_due()) new_phase();
    // The home reads the table only at a line's start and a sweep's answer:
    // a change at any other time is as good a test, and a table whose lines
    // the sweep can never find (pending forever) must change some time.
    if ((quiet_ && u() < 2e-3) || u() < 1e-4) new_table();
    in.tbl = tbl_;
    if (u() < 1e-3) in.node = uint8_t(rng_());
    // ep_rx's pulse: a line of a home window.
    in.home = false;
    in.home_win = in.home_line = in.home_len = 0;
    // At most as many lines whole at once as the counters hold (and the
    // queue): no more can be pending in an endpoint. Mostly far fewer, so
    // that the sweep catches up and lines go through the queue again.
    if (in.rst_n && outstanding_ < cap_ && u() < home_rate_) {
      const Line l = a_line(false);
      if (l.ok) {
        in.home = true;
        in.home_win = l.win;
        in.home_line = l.line;
        in.home_len = l.len;
      }
    }
    in.merging = u() < 0.3;
    in.merge_line = in.merging ? (u() < 0.5 ? sweep_guess_ : uint32_t(pick(p_.count_depth))) : 0;
    if (!in.hq_valid || hq_taken_) {
      in.hq_valid = false;
      in.hq_win = in.hq_line = in.hq_len = 0;
      if (u() < hq_rate_) {
        const Line l = a_line(true);
        if (l.ok) {
          in.hq_valid = true;
          in.hq_win = l.win;
          in.hq_line = l.line;
          in.hq_len = l.len;
        }
      }
    }
    in.cnt_ready = u() < 0.7;
    in.cnt_rsp_valid = answer_;
    in.cnt_rsp_code = code_;
    in.cnt_rsp_count = count_;
    in.cnt_rsp_len = len_;
    in.rq_ready = u() < rq_rate_;
    in.rq_slot = uint32_t(pick(p_.slots));
    in.mr_ready = u() < mr_rate_;
    in.mw_ready = u() < mw_rate_;
    in.res_ready = u() < res_rate_;
    mem_.drive(in);
    mem_.stray(in, p_.slot_w(), 0.01);  // ignored, counted
    apb_.drive(in.apb, in.rst_n);
  }

  // After the cycle: what the block answered; the counter's answer to a
  // request granted now is made for the next cycle.
  void after(const EpHomeInputs& in, const EpHomeOutputs& out) {
    hq_taken_ = !in.rst_n || (in.hq_valid && out.hq_ready);
    if (!in.rst_n) outstanding_ = 0;
    else outstanding_ += in.home + (in.hq_valid && out.hq_ready) - (out.rq_valid && in.rq_ready);
    quiet_ = out.idle && !in.home && !in.hq_valid;
    answer_ = in.rst_n && out.cnt_valid && in.cnt_ready;
    code_ = count_ = 0;
    len_ = 0;
    if (answer_) {
      code_ = u() < 0.03 ? 3 : 0;
      len_ = uint32_t(1 + pick(p_.max_len));
      count_ = uint8_t(pick(9));
      if (out.cnt_op == 0) {
        sweep_guess_ = out.cnt_line;
        const int w = home_of(out.cnt_line);
        if (w >= 0 && u() < 0.6) count_ = win_[unsigned(w)].expected;
      }
    }
    mem_.after(in, out);
    apb_.after(in.apb, out.apb);
  }

 private:
  struct Line {
    bool ok = false;
    uint32_t win = 0, line = 0, len = 0;
  };

  // A line of a valid home window, deterministic or not as asked.
  Line a_line(bool det) {
    Line l;
    const unsigned w = unsigned(pick(p_.windows));
    const EpWin& x = win_[w];
    if (!x.valid || !x.home || x.det != det) return l;
    l.ok = true;
    l.win = w;
    l.line = uint32_t((x.count_base + pick(x.bytes / p_.flit_bytes())) % p_.count_depth);
    // Now and then a length outside 1..MAX_LEN (0, or past MAX_LEN where
    // LEN_W bits allow): the home refuses it.
    l.len = u() < 0.005 ? uint32_t(pick(1u << p_.len_w())) : uint32_t(1 + pick(p_.max_len));
    return l;
  }

  int home_of(uint32_t c) const {
    for (unsigned i = 0; i < p_.windows; ++i) {
      const EpWin& w = win_[i];
      if (w.valid && w.home && !w.det && c >= w.count_base && c < w.count_base + w.bytes / p_.flit_bytes())
        return int(i);
    }
    return -1;
  }

  void new_phase() {
    phase_left_ = 300 + pick(4000);
    home_rate_ = u() < 0.3 ? 0.3 + 0.5 * u() : 0.02 + 0.1 * u();
    hq_rate_ = u() < 0.5 ? 0.05 * u() : 0.2 * u();
    rq_rate_ = u() < 0.2 ? 0.05 : 0.3 + 0.7 * u();
    mr_rate_ = u() < 0.2 ? 0.1 : 0.5 + 0.5 * u();
    mw_rate_ = u() < 0.2 ? 0.1 : 0.5 + 0.5 * u();
    res_rate_ = u() < 0.3 ? 0.02 : 0.3 + 0.7 * u();
    mem_.set_max_delay(u() < 0.5 ? 4 : 30);
    cap_ = int64_t(p_.home_q) + (u() < 0.1 ? int64_t(p_.count_depth) : int64_t(1 + pick(4)));
  }

  // Windows on counter ranges of 1..64 lines from random bases (now and
  // then past COUNT_DEPTH: lines the sweep never finds), merge and dst the
  // same now and then (no copy).
  void new_table() {
    const uint64_t fb = p_.flit_bytes();
    tbl_ = EpWinTable{};
    uint64_t base = pick(64) * fb;
    for (unsigned i = 0; i < p_.windows; ++i) {
      EpWin w;
      w.valid = u() < 0.9;
      w.home = u() < 0.8;
      w.det = w.home && u() < 0.25;
      w.dtype = uint8_t(pick(3));
      w.expected = uint8_t(2 + pick(7));
      const uint64_t lines = 1 + pick(std::min<uint64_t>(64, p_.count_depth));
      w.bytes = uint32_t(lines * fb);
      w.net_base = base;
      base += w.bytes + pick(4) * fb;
      w.count_base = uint32_t(u() < 0.9 ? pick(p_.count_depth - lines + 1) : pick(p_.count_depth + 8));
      w.src = uint32_t(pick(1u << 20) * fb);
      w.merge = uint32_t(pick(1u << 20) * fb);
      w.dst = u() < 0.25 ? w.merge : uint32_t(pick(1u << 20) * fb);
      win_[i] = w;
      pack_window(tbl_, i, w);
    }
  }

  EpHomeParams p_;
  TaggedMemory mem_;
  std::vector<EpWin> win_;
  EpWinTable tbl_;
  double home_rate_ = 0.1, hq_rate_ = 0.05, rq_rate_ = 0.7, mr_rate_ = 0.7, mw_rate_ = 0.7, res_rate_ = 0.7;
  bool hq_taken_ = true, quiet_ = false;
  bool answer_ = false;
  uint8_t code_ = 0, count_ = 0;
  uint32_t len_ = 0, sweep_guess_ = 0;
  int64_t outstanding_ = 0;  // lines given, not yet sent
  int64_t cap_ = 8;          // this phase's bound on them
};

}  // namespace t3::tb
