// ep_final's constrained-random traffic: pulled lines of 1..MAX_LEN flits
// (now and then a header longer than MAX_LEN), the memory behind the read
// port answering after 1..30 cycles in any order (testbench/common/
// tagged_memory.h), now and then a stray answer (a tag no read waits on:
// while idle, or during a line past its length or already answered),
// the write port and the header's reader ready at random, in phases; resets
// now and then. The co-simulation test and the benchmark
// (testbench/common/bench.h) drive the block with it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>

#include "common/bits.h"
#include "common/packet.h"
#include "ep_final/ep_final.h"
#include "stim_base.h"
#include "tagged_memory.h"

namespace t3::tb {

class EpFinalStimulus : public StimBase {
 public:
  EpFinalStimulus(const EpFinalParams& p, uint64_t seed) : StimBase(seed), p_(p), mem_(p.flit_w, seed ^ 0xF1A1) {
    phase();
  }

  void drive(EpFinalInputs& in) {
    if (taken_) in.fin_valid = false;  // what the block took last cycle
    bool ended;
    in.rst_n = reset_cycle(ended);
    if (ended) {
      mem_.clear();
      in.fin_valid = false;
    }
    if (u() < 1e-3) phase();
    if (!in.fin_valid && u() < fin_rate_) new_line(in);
    in.mr_ready = u() < mr_rate_;
    in.mw_ready = u() < mw_rate_;
    in.res_ready = u() < res_rate_;
    mem_.drive(in);
    if (in.md_valid) answered_ |= 1u << in.md_tag;
    // A stray answer, with a tag no read waits on: any tag while no line is
    // taken and no read is out; during a line, a tag past its length or one
    // already answered.
    if (!in.md_valid && in.rst_n && u() < (idle_ ? 0.1 : 2e-3)) {
      uint32_t free = 0;
      for (unsigned t = 0; t < (1u << p_.tag_w()); ++t)
        if (idle_ ? mem_.empty() && !in.fin_valid : t >= len_ || (answered_ >> t & 1)) free |= 1u << t;
      if (free) {
        unsigned t = unsigned(rng_() % unsigned(__builtin_popcount(free)));
        while (t--) free &= free - 1;
        in.md_valid = true;
        in.md_tag = uint8_t(__builtin_ctz(free));
        in.md_data = mem_data(rng_(), p_.flit_w);
      }
    }
    apb_.drive(in.apb, in.rst_n);
  }

  void after(const EpFinalInputs& in, const EpFinalOutputs& out) {
    mem_.after(in, out);
    taken_ = in.rst_n && in.fin_valid && out.fin_ready;
    idle_ = out.idle && !taken_;
    if (taken_) {  // the line's length as the block takes it (cut to MAX_LEN)
      len_ = std::min<unsigned>(pkt::unpack(in.fin_hdr).len, p_.max_len);
      answered_ = 0;
    }
    apb_.after(in.apb, out.apb);
  }

 private:

  void phase() {
    fin_rate_ = 0.2 + 0.8 * u();
    mr_rate_ = u() < 0.2 ? 0.1 : 0.5 + 0.5 * u();
    mw_rate_ = u() < 0.2 ? 0.1 : 0.5 + 0.5 * u();
    res_rate_ = u() < 0.2 ? 0.05 : 0.5 + 0.5 * u();
    mem_.set_max_delay(u() < 0.3 ? 1 : 30);
  }

  void new_line(EpFinalInputs& in) {
    const uint64_t fb = p_.flit_w / 8;
    pkt::Header h;
    h.op = uint8_t(pkt::Op::pull_rsp);
    h.len = uint8_t(u() < 0.02 ? p_.max_len + 1 + rng_() % 8 : 1 + rng_() % p_.max_len);
    h.dtype = uint8_t(rng_() % 3);
    h.count = uint8_t(1 + rng_() % 8);
    h.ctr = uint8_t(rng_());
    h.addr = (fb * rng_()) & low_mask(48);
    in.fin_valid = true;
    in.fin_hdr = pkt::pack(h);
    in.fin_src = (fb * (rng_() % 65536)) | (u() < 0.05 ? uint64_t{0xFFFF} << 32 : 0);
    in.fin_dst = (fb * rng_()) & low_mask(48);
  }

  EpFinalParams p_;
  TaggedMemory mem_;
  bool taken_ = false, idle_ = false;
  unsigned len_ = 0;        // the line taken
  uint32_t answered_ = 0;  // its tags answered
  double fin_rate_ = 0.5, mr_rate_ = 0.7, mw_rate_ = 0.7, res_rate_ = 0.7;
};

}  // namespace t3::tb
