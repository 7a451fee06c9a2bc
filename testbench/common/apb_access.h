// Register access for a directed co-simulation bench: one APB transfer run
// to its end while the bench idles, as a base class (CRTP). The bench
// derives from ApbAccess<Bench>, befriends it, and has
//   ApbMaster apb_;          the register port's master, driven by its cycle
//   void apb_idle_cycle();   one cycle with its own inputs idle
// and hands each transfer its cycle completes to apb_completed().
#pragma once

#include <gtest/gtest.h>

#include <cstdint>

#include "apb_master.h"

namespace t3::tb {

template <class Bench>
class ApbAccess {
 public:
  // One register access through the port; its answer.
  ApbDone access(const ApbTransfer& t) {
    Bench& b = static_cast<Bench&>(*this);
    b.apb_.push(t);
    for (unsigned n = 0; n < kMaxCycles && !b.apb_.idle(); ++n) b.apb_idle_cycle();
    EXPECT_TRUE(b.apb_.idle()) << "the register transfer to 0x" << std::hex << t.addr
                               << " did not end in " << std::dec << kMaxCycles << " cycles";
    return last_;
  }
  // A register's value (a refused read fails the test).
  uint32_t read_reg(uint32_t addr) {
    const ApbDone d = access({false, addr, 0, 0});
    EXPECT_FALSE(d.err) << "read of 0x" << std::hex << addr << " refused";
    return d.rdata;
  }
  // Whether the write was taken (pslverr_o low).
  bool write_reg(uint32_t addr, uint32_t data) { return !access({true, addr, data, 0xF}).err; }
  // The last transfer done.
  const ApbDone& last_apb() const { return last_; }

 protected:
  void apb_completed(const ApbDone& d) { last_ = d; }

 private:
  static constexpr unsigned kMaxCycles = 10000;
  ApbDone last_{};
};

}  // namespace t3::tb
