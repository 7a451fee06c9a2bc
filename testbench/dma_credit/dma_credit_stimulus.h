// dma_credit's constrained-random traffic: it plays the processor and the
// network around the controller.
// - Processor: requests on the command port (lengths from 1 flit to
//   2^LEN_W - 1, every address bit, both modes, every type, tags) and through
//   the CMD_* registers and CMD_GO, about one in twenty malformed (length 0
//   or past LEN_W bits, an operator other than add, dtype 3, misaligned
//   addresses, a range past 2^48); it reads CPL_HEAD and pops it, or leaves
//   the completion queue full for a while; it rewrites INJ_LIMIT (0 pauses),
//   RETRY and TIMEOUT now and then.
// - Network: a result (RESULT in push mode, PULL_RSP in pull mode) for each
//   packet taken, after a random delay and in random order; some dropped
//   (the counter times out), some delivered after the timeout (strays),
//   strays and malformed results of its own; back-pressure on pkt_ready_i.
// - A reset in the middle of the traffic now and then.
// Modes change every few thousand cycles so that each corner (all counters
// busy, the injection limit reached, queues full) is held for a while.
// The co-simulation test and the benchmark (testbench/common/bench.h) drive
// the block with it.
#pragma once

#include <cstdint>
#include <map>
#include <random>
#include <vector>

#include "apb_master.h"
#include "common/packet.h"
#include "dma_credit/dma_credit.h"
#include "t3/dma_credit_regs.h"

namespace t3::tb {

class DmaCreditStimulus {
 public:
  DmaCreditStimulus(const DmaCreditParams& p, uint64_t seed) : p_(p), rng_(seed), out_(256, 0) {
    new_mode();
  }

  // Sets every input of this cycle, rst_n and the register port included.
  void drive(DmaCreditInputs& in);
  // After the cycle: what the block answered.
  void after(const DmaCreditInputs& in, const DmaCreditOutputs& out);

  ApbMaster& apb() { return apb_; }
  // The end of a test: no new requests, no drops, every record popped, a
  // timeout that recovers what is lost.
  void drain() { draining_ = true; new_mode(); }
  bool quiet() const { return !cmd_valid_ && results_.empty() && !res_valid_ && apb_.idle(); }
  uint64_t resets() const { return resets_; }

 private:
  double u() { return std::uniform_real_distribution<double>(0, 1)(rng_); }
  uint64_t below(uint64_t n) { return n ? rng_() % n : 0; }
  void new_mode();
  void configure();
  DmaRequest random_request();
  void reg_request();
  Wide random_result(bool& real, unsigned& ctr);

  DmaCreditParams p_;
  std::mt19937_64 rng_;
  ApbMaster apb_;
  uint64_t now_ = 0;
  unsigned reset_left_ = 2;
  uint64_t resets_ = 0;
  bool draining_ = false;
  // mode
  uint64_t mode_end_ = 0;
  double cmd_rate_ = 0.1, pkt_ready_ = 0.8, drop_ = 0.01, stray_ = 0.002, bad_ = 0.002,
         reg_cmd_ = 0.0005;
  unsigned delay_max_ = 32;
  bool popping_ = true;
  bool pending_config_ = true;
  // command port
  bool cmd_valid_ = false;
  DmaRequest cmd_;
  // network: results due, by cycle
  struct Due {
    Wide hdr;
    bool real;
    unsigned ctr;
  };
  std::multimap<uint64_t, Due> results_;
  bool res_valid_ = false;
  Due res_;
  std::vector<uint32_t> out_;  // packets taken minus results given, by ctr
  // processor
  bool head_read_queued_ = false;
};

}  // namespace t3::tb
