// The testbench memory behind an endpoint engine's tagged read port (ep_tx,
// ep_final: mr_* / md_*): what a read of address a answers (a function of a
// alone, so a scoreboard knows every data flit without a copy of the
// stimulus's state), and the read port's far side: each read granted
// (mr_ready_i) answered after a random 1..max_delay cycles, one answer a
// cycle, in whatever order the delays give.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "common/wide.h"

namespace t3::tb {

inline Wide mem_data(uint64_t a, unsigned flit_w) {
  Wide d;
  for (unsigned i = 0; i < flit_w / 64; ++i) {
    uint64_t z = a * 0x9E3779B97F4A7C15ull + i + 1;  // splitmix64 of (address, word)
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    d.w[i] = z ^ (z >> 31);
  }
  return d;
}

class TaggedMemory {
 public:
  TaggedMemory(unsigned flit_w, uint64_t seed) : flit_w_(flit_w), rng_(seed) {}

  void set_max_delay(unsigned d) { max_delay_ = d; }
  // A read taken in this cycle.
  void read(uint64_t addr, uint8_t tag) {
    pending_.push_back({now_ + 1 + rng_() % max_delay_, addr, tag});
  }
  // This cycle's answer, if one is due (the oldest due first).
  bool answer(uint8_t& tag, Wide& data) {
    for (size_t i = 0; i < pending_.size(); ++i)
      if (pending_[i].due <= now_) {
        tag = pending_[i].tag;
        data = mem_data(pending_[i].addr, flit_w_);
        pending_.erase(pending_.begin() + long(i));
        return true;
      }
    return false;
  }
  void tick() { ++now_; }

  // On a block's pins (mr_* / md_*), for its stimulus: this cycle's answer
  // (md_* all 0 when none is due, or in reset), and after the cycle the
  // read granted in it.
  template <class In>
  void drive(In& in) {
    in.md_valid = in.rst_n && answer(in.md_tag, in.md_data);
    if (!in.md_valid) {
      in.md_tag = 0;
      in.md_data = Wide{};
    }
  }
  template <class In, class Out>
  void after(const In& in, const Out& out) {
    if (in.rst_n && out.mr_valid && in.mr_ready) read(out.mr_addr, out.mr_tag);
    tick();
  }
  // A stray answer: a tag (of tag_w bits) no read is waiting on, random
  // data; false when every tag is waited on.
  bool stray(unsigned tag_w, uint8_t& tag, Wide& data) {
    std::vector<uint8_t> free;
    for (unsigned t = 0; t < (1u << tag_w); ++t)
      if (std::none_of(pending_.begin(), pending_.end(), [&](const Read& r) { return r.tag == t; }))
        free.push_back(uint8_t(t));
    if (free.empty()) return false;
    tag = free[rng_() % free.size()];
    data = mem_data(rng_(), flit_w_);
    return true;
  }
  // On a block's md_* pins, with probability p in a cycle that has no
  // answer due. Blocks that ignore and count such answers (ep_home, ep_det)
  // are driven with it after drive().
  template <class In>
  void stray(In& in, unsigned tag_w, double p) {
    if (!in.rst_n || in.md_valid || std::uniform_real_distribution<double>(0, 1)(rng_) >= p) return;
    in.md_valid = stray(tag_w, in.md_tag, in.md_data);
  }
  void clear() { pending_.clear(); }
  bool empty() const { return pending_.empty(); }

 private:
  struct Read {
    uint64_t due, addr;
    uint8_t tag;
  };
  unsigned flit_w_;
  std::mt19937_64 rng_;
  unsigned max_delay_ = 30;
  uint64_t now_ = 0;
  std::vector<Read> pending_;
};

}  // namespace t3::tb
