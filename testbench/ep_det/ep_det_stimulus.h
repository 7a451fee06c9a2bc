// ep_det's constrained-random traffic and the neighbours it needs:
// - a table of windows (ep_window's record on tbl_i), deterministic homes
//   with 0..8 contributors, on counter ranges from random bases; rewritten
//   now and then (the add reads it only in a line's START);
// - lines on det_* (a line of a window, 1..MAX_LEN flits, now and then a
//   line outside its window), held until taken;
// - the read port's memory (testbench/common/tagged_memory.h) answering in
//   any order after 1..4 or 1..30 cycles, and stray answers (a tag not
//   awaited) now and then; the write port and the home's hq_ready at
//   random, in phases;
// - resets now and then. The co-simulation test and the benchmark
//   (testbench/common/bench.h) drive the block with it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "ep_det/ep_det.h"
#include "stim_base.h"
#include "tagged_memory.h"

namespace t3::tb {

class EpDetStimulus : public StimBase {
 public:
  EpDetStimulus(const EpDetParams& p, uint64_t seed) : StimBase(seed), p_(p), mem_(p.flit_w, seed ^ 0xDE7), win_(p.windows) {
    new_table();
    new_phase();
  }

  // Sets every input of this cycle, rst_n and the register port included.
  void drive(EpDetInputs& in) {
    bool ended;
    in.rst_n = reset_cycle(ended);
    if (ended) mem_.clear();
    if (phase_due()) new_phase();
    if (u() < 2e-4) new_table();
    in.tbl = tbl_;
    if (!in.det_valid || det_taken_) {
      in.det_valid = u() < det_rate_;
      const unsigned w = unsigned(pick(p_.windows));
      const EpWin& x = win_[w];
      const uint64_t lines = x.bytes / p_.flit_bytes();
      in.det_win = in.det_valid ? w : 0;
      in.det_line = in.det_valid ? uint32_t((u() < 0.97 ? x.count_base + pick(lines) : rng_()) & low_mask(p_.line_w()))
                                 : 0;
      in.det_len = in.det_valid ? uint32_t(1 + pick(p_.max_len)) : 0;
    }
    in.mr_ready = u() < mr_rate_;
    in.mw_ready = u() < mw_rate_;
    in.hq_ready = u() < hq_rate_;
    mem_.drive(in);
    mem_.stray(in, p_.tag_w(), 0.01);  // ignored, counted
    apb_.drive(in.apb, in.rst_n);
  }

  void after(const EpDetInputs& in, const EpDetOutputs& out) {
    det_taken_ = !in.rst_n || (in.det_valid && out.det_ready);
    mem_.after(in, out);
    apb_.after(in.apb, out.apb);
  }

 private:

  void new_phase() {
    phase_left_ = 300 + pick(4000);
    det_rate_ = 0.05 + 0.9 * u();
    mr_rate_ = u() < 0.2 ? 0.1 : 0.5 + 0.5 * u();
    mw_rate_ = u() < 0.2 ? 0.1 : 0.5 + 0.5 * u();
    hq_rate_ = u() < 0.2 ? 0.05 : 0.3 + 0.7 * u();
    mem_.set_max_delay(u() < 0.5 ? 4 : 30);
  }

  void new_table() {
    const uint64_t fb = p_.flit_bytes();
    tbl_ = EpWinTable{};
    for (unsigned i = 0; i < p_.windows; ++i) {
      EpWin w;
      w.valid = w.home = w.det = true;
      w.dtype = uint8_t(pick(3));
      w.expected = uint8_t(u() < 0.03 ? 0 : 1 + pick(8));
      const uint64_t lines = 1 + pick(std::min<uint64_t>(64, p_.count_depth));
      w.bytes = uint32_t(lines * fb);
      w.net_base = pick(1u << 20) * fb;
      w.count_base = uint32_t(pick(p_.count_depth - lines + 1));
      w.merge = uint32_t(pick(1u << 24) * fb);
      w.dst = uint32_t(pick(1u << 24) * fb);
      w.stage = uint32_t(pick(uint64_t(1) << 32) / fb * fb);
      w.contrib_mask = uint32_t(rng_());
      win_[i] = w;
      pack_window(tbl_, i, w);
    }
  }

  EpDetParams p_;
  TaggedMemory mem_;
  std::vector<EpWin> win_;
  EpWinTable tbl_;
  double det_rate_ = 0.5, mr_rate_ = 0.7, mw_rate_ = 0.7, hq_rate_ = 0.7;
  bool det_taken_ = true;
};

}  // namespace t3::tb
