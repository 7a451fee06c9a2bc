// The co-simulation of a block's directed tests, its scoreboard attached
// (CRTP). The shared DUT holds the last test's state until a reset edge: the
// bench resets it (compared, as every cycle) and leaves rst_n high. Each
// cycle() calls the derived bench's
//   void before();                               its inputs for the cycle
//   void after(const Inputs& i, const Outputs& o);  what it records, its answers
// (both public; empty by default), compares the cycle, checks the
// scoreboard, and completes register transfers (apb_access.h).
//
//   class Bench : public DirectedBench<Bench, EpRxBlock, EpRxScoreboard> {
//    public:
//     Bench() : DirectedBench(the_cosim()) { in().mw_ready = true; }
//     void after(const EpRxInputs& i, const EpRxOutputs& o) { ... }
//   };
#pragma once

#include <gtest/gtest.h>

#include "apb_access.h"
#include "apb_master.h"
#include "cosim.h"

namespace t3::tb {

template <class Derived, class Block, class Scoreboard>
class DirectedBench : public ApbAccess<Derived> {
  friend class ApbAccess<Derived>;

 public:
  using Inputs = typename Block::Inputs;
  using Outputs = typename Block::Outputs;

  explicit DirectedBench(Cosim<Block>& c) : c_(c), sb_(c.params()) {
    c_.in() = Inputs{};
    EXPECT_TRUE(c_.reset(2)) << c_.first_mismatch();
    c_.in().rst_n = true;
  }

  Inputs& in() { return c_.in(); }
  const Outputs& out() const { return c_.out(); }
  Scoreboard& sb() { return sb_; }

  void cycle() {
    Derived& d = static_cast<Derived&>(*this);
    d.before();
    apb_.drive(c_.in().apb, c_.in().rst_n);
    const Inputs i = c_.in();
    EXPECT_TRUE(c_.cycle()) << c_.first_mismatch();
    if (auto err = sb_.observe(i, c_.out())) ADD_FAILURE() << "cycle " << c_.cycles() - 1 << ": " << *err;
    d.after(i, c_.out());
    if (auto done = apb_.after(i.apb, c_.out().apb)) this->apb_completed(*done);
  }
  void run(unsigned n) {
    for (unsigned k = 0; k < n; ++k) cycle();
  }

  void before() {}
  void after(const Inputs&, const Outputs&) {}

 protected:
  void apb_idle_cycle() { cycle(); }

  Cosim<Block>& c_;
  Scoreboard sb_;
  ApbMaster apb_;
};

}  // namespace t3::tb
