// Register traffic over the subsystem's whole APB space while the memory
// traffic runs, for its constrained-random co-simulation: reads of every
// block's registers in its window, and accesses that must be refused
// (PSLVERR, nothing changes): reads and writes of offsets of a block's
// window that hold no register (or are not a word), and of every window
// that holds no block (docs/blocks/mem_subsystem.md, "Register windows").
// Writes go only where no register is: the configuration is the firmware's.
// The scoreboard (mem_subsystem_scoreboard.h) says what each must answer;
// this source counts what was exercised, so the run can assert that every
// class of unmapped address was reached.
#pragma once

#include <cstdint>
#include <random>
#include <sstream>
#include <string>

#include "apb_master.h"
#include "mem_subsystem_scoreboard.h"

namespace t3::tb {

class MemRegTraffic {
 public:
  // rate: the chance per cycle that a transfer is queued while the bus is idle.
  MemRegTraffic(uint64_t seed, double rate) : rng_(seed), rate_(rate) {}

  void maybe_queue(ApbMaster& m) {
    if (!m.idle() || std::uniform_real_distribution<double>(0, 1)(rng_) >= rate_) return;
    ApbTransfer t;
    const unsigned pick = unsigned(rng_() % 100);
    if (pick < 45) {  // a register of a block, read
      const unsigned w = unsigned(rng_() % kMemSubsystemWindows);
      const MemWindowMap& map = mem_window_map(w);
      t.addr = w * kRegWindowBytes + map.info[rng_() % map.count].offset;
    } else if (pick < 60) {  // a block's window where no register is
      const unsigned w = unsigned(rng_() % kMemSubsystemWindows);
      const uint32_t off = uint32_t(rng_() % kRegWindowBytes);
      t.addr = w * kRegWindowBytes + off;
      t.write = !mem_window_map(w).holds(off) && (rng_() & 1);
    } else {  // a window that holds no block
      const unsigned windows = 1u << (kMemSubsystemApbAddrBits - 12);
      t.addr = uint32_t(kMemSubsystemWindows + rng_() % (windows - kMemSubsystemWindows)) * kRegWindowBytes +
               uint32_t(rng_() % kRegWindowBytes);
      t.write = rng_() & 1;
    }
    if (t.write) {
      t.data = uint32_t(rng_());
      t.strb = uint32_t(rng_() % 16);
    }
    m.push(t);
  }

  // What a completed transfer exercised.
  void count(const ApbDone& d) {
    const unsigned w = (d.t.addr >> 12) & 15;
    ++accesses_[w];
    if (d.err) ++refused_[w];
    if (w < kMemSubsystemWindows && !mem_window_map(w).holds(d.t.addr & (kRegWindowBytes - 1)) && d.err)
      ++refused_no_register_[w];
  }

  // Every window accessed; each window without a block refused at least
  // once; each block's window refused at an offset without a register.
  bool every_class_reached() const {
    for (unsigned w = 0; w < 16; ++w) {
      if (accesses_[w] == 0) return false;
      if (w >= kMemSubsystemWindows && refused_[w] == 0) return false;
      if (w < kMemSubsystemWindows && refused_no_register_[w] == 0) return false;
    }
    return true;
  }
  std::string describe() const {
    std::ostringstream s;
    s << "accesses (refused) by window:";
    for (unsigned w = 0; w < 16; ++w) s << " " << w << ":" << accesses_[w] << "(" << refused_[w] << ")";
    return s.str();
  }

 private:
  std::mt19937_64 rng_;
  double rate_;
  uint64_t accesses_[16] = {}, refused_[16] = {}, refused_no_register_[kMemSubsystemWindows] = {};
};

}  // namespace t3::tb
