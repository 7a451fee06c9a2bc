// The memory-side subsystem's bench, shared by its co-simulation test and
// its demo: the co-simulation, the DRAM array beside it, the end-to-end
// scoreboard on the RTL's outputs, the APB master, and a phase's traffic
// (mem_subsystem_stimulus.h), stepped one cycle at a time. What each caller
// does with a cycle's result (a test failure, a count, a printed line) is
// its own.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "apb_master.h"
#include "bank_array.h"
#include "common/bits.h"
#include "cosim.h"
#include "mem_subsystem_reg_traffic.h"
#include "mem_subsystem_scoreboard.h"
#include "mem_subsystem_stimulus.h"

namespace t3::tb {

class MemSubsystemHarness {
 public:
  // Quiet cycles after which the traffic counts as drained: the arbiter's
  // output register, the DRAM queue and the near-bank ALU's pipeline (6
  // stages, the bank timing) have emptied by then.
  static constexpr unsigned kQuietCycles = 32;

  MemSubsystemHarness(Cosim<MemSubsystemBlock>& c, uint64_t seed)
      : c_(c),
        bank_(c.params().burst_bytes, seed),
        sb_(c.params(), [this](uint64_t cell) {
          const MemSubsystemParams& p = c_.params();
          return bank_.at(uint32_t(cell & (p.bg - 1)), uint32_t(cell >> clog2(p.bg)));
        }) {}

  Cosim<MemSubsystemBlock>& cosim() { return c_; }
  MemSubsystemScoreboard& sb() { return sb_; }
  ApbMaster& apb() { return apb_; }

  // The traffic the next cycles carry; none: the ports idle, the DMA engine ready.
  void set_traffic(MemSubsystemStimulus* s) { stim_ = s; }
  // Register traffic while there is traffic (none: the register port is the
  // firmware's alone).
  void set_reg_traffic(MemRegTraffic* r) { regs_ = r; }

  struct Cycle {
    MemSubsystemInputs in;                  // what the block saw
    bool compared = true;                   // model and RTL agreed on every output
    std::optional<std::string> sb_error;    // the scoreboard's complaint
    std::optional<ApbDone> apb_done;        // the register transfer it completed
  };

  // One cycle: the register port's phase, the traffic, the DRAM's data, the
  // compare and the scoreboard.
  Cycle cycle() {
    MemSubsystemInputs& in = c_.in();
    if (regs_ && stim_) regs_->maybe_queue(apb_);
    apb_.drive(in.apb, in.rst_n);
    in.bank_rdata = bank_.rdata();
    if (stim_) {
      stim_->drive(in);
    } else {
      in.cmp_valid = in.com_valid = in.learn = in.drain = false;
      in.desc_ready = true;
    }
    Cycle r;
    r.in = in;
    r.compared = c_.cycle();
    const MemSubsystemOutputs& out = c_.out();
    r.sb_error = sb_.observe(r.in, out);
    if (stim_) stim_->after(r.in, out);
    bank_.after(out);
    r.apb_done = apb_.after(r.in.apb, out.apb);
    if (regs_ && r.apb_done) regs_->count(*r.apb_done);
    return r;
  }

  // Traffic left to drive, tiles or DMA reads the scoreboard still waits
  // for, or writes in the DRAM queue.
  bool busy() const {
    return (stim_ && !stim_->idle()) || sb_.tiles_due() > 0 || sb_.reads_due() > 0 ||
           c_.out().occupancy != 0;
  }

  // Steps (step() runs one cycle, false to stop) until kQuietCycles in a
  // row are not busy, or limit cycles; whether it drained.
  template <class Step>
  bool drain(uint64_t limit, Step step) {
    unsigned quiet = 0;
    for (uint64_t n = 0; quiet < kQuietCycles && n < limit; ++n) {
      if (!step()) break;
      quiet = busy() ? 0 : quiet + 1;
    }
    return quiet >= kQuietCycles;
  }

 private:
  Cosim<MemSubsystemBlock>& c_;
  BankArray bank_;
  MemSubsystemScoreboard sb_;
  ApbMaster apb_;
  MemSubsystemStimulus* stim_ = nullptr;
  MemRegTraffic* regs_ = nullptr;
};

}  // namespace t3::tb
