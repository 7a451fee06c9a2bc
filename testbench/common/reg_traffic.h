// Random register traffic over a block's map while the block works, for
// the constrained-random co-simulations: reads of every register and of
// offsets that hold none, and writes that leave the test's configuration as
// it is (RW fields rewritten with the value they hold), clear random
// interrupt bits, test random interrupts, enable random interrupts, write
// read-only registers, or carry partial byte strobes. What each must answer
// is RegShadow's business (reg_shadow.h); the block's scoreboard follows the
// interrupt and configuration state through it.
#pragma once

#include <cstdint>
#include <random>

#include "apb_master.h"
#include "reg_shadow.h"

namespace t3::tb {

template <class Map>
class RegTraffic {
 public:
  // rate: the chance per cycle that a transfer is queued while the bus is idle.
  RegTraffic(uint64_t seed, double rate) : rng_(seed), rate_(rate) {
    if (Map::kIntrState >= 0) allowed_[Map::kIntrTest] = ~0u;
  }

  // W1P bits of register r this traffic may pulse (INTR_TEST's by default;
  // the others, such as a table write command, belong to the test).
  void allow_pulses(unsigned r, uint32_t bits) { allowed_[r] |= bits; }

  // Maybe queues one transfer on an idle bus.
  void maybe_queue(ApbMaster& m, const RegShadow<Map>& s) {
    if (!m.idle() || std::uniform_real_distribution<double>(0, 1)(rng_) >= rate_) return;
    ApbTransfer t;
    const unsigned pick = unsigned(rng_() % 100);
    const unsigned r = unsigned(rng_() % Map::kCount);
    t.addr = Map::kInfo[r].offset;
    if (pick < 55) {  // a read of a register
      m.push(t);
      return;
    }
    if (pick < 62) {  // an offset in the window, most holding no register, or unaligned
      t.addr = uint32_t(rng_() % kRegWindowBytes);
      t.data = uint32_t(rng_());
      // Random data may not land in a register: it would change the test's
      // configuration behind its back (a table's staging registers, which a
      // driver writes only when they differ from what it last wrote).
      bool is_reg = false;
      for (unsigned k = 0; k < Map::kCount; ++k) is_reg |= Map::kInfo[k].offset == t.addr;
      t.write = !is_reg && (rng_() & 1);
      m.push(t);
      return;
    }
    t.write = true;
    const uint32_t random = uint32_t(rng_());
    t.data = (s.value(r) & s.mask(r, RegAccess::rw)) | (random & s.mask(r, RegAccess::w1c)) |
             (random & s.mask(r, RegAccess::w1p) & allowed_[r]) |
             (random & ~(s.mask(r, RegAccess::rw) | s.mask(r, RegAccess::w1c) |
                         s.mask(r, RegAccess::w1p) | s.mask(r, RegAccess::ro)));
    if (Map::kIntrState >= 0 && int(r) == Map::kIntrEnable) t.data = random;
    if (pick < 66) t.strb = uint32_t(rng_() % 15);  // a partial write: refused
    m.push(t);
  }

 private:
  std::mt19937_64 rng_;
  double rate_;
  uint32_t allowed_[Map::kCount] = {};
};

}  // namespace t3::tb
