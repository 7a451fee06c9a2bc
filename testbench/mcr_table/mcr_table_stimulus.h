// The multicast region table's constrained-random traffic: phases, each with
// its own mix. Region commands through the register port (valid regions of
// every size from a flit to the whole address space, the table filled to
// its last entry, removals, and each refusal cause in turn); packets of both
// classes with every opcode, in a region (its first and last flit often),
// next to one, or in none, from every ingress port (the reduction unit's
// and numbers above it included), with every len, dst and data bit, and
// malformed ones (each cause); random bubbles between flits; per output
// port a ready profile (always, random, bursty, blocked for the phase);
// resets in the middle of traffic. The co-simulation test and the benchmark
// (testbench/common/bench.h) drive the block with it.
#pragma once

#include <cstdint>
#include <deque>
#include <random>
#include <vector>

#include "apb_master.h"
#include "common/packet.h"
#include "mcr_table/mcr_table.h"
#include "mcr_table_scoreboard.h"

namespace t3::tb {

class McrTableStimulus {
 public:
  struct Options {
    uint64_t phase_min = 2000, phase_max = 20000;  // cycles a phase
    double p_reset = 0.08;                         // a phase starts with a reset
    double p_mid_reset = 0.05;                     // a reset somewhere inside a phase
  };
  McrTableStimulus(const McrTableParams& p, uint64_t seed);
  McrTableStimulus(const McrTableParams& p, uint64_t seed, Options opt);

  // Sets every input of this cycle, rst_n and the register port included.
  void drive(McrTableInputs& in);
  // After the cycle: what the block answered.
  void after(const McrTableInputs& in, const McrTableOutputs& out);

  // The register port (the tests queue their own accesses here too).
  ApbMaster& apb() { return apb_; }
  // No new packets, commands or resets; every port ready: the traffic drains.
  void stop();
  bool idle() const { return q_[0].empty() && q_[1].empty() && apb_.idle() && prog_.empty(); }

  uint64_t phases() const { return phases_; }
  uint64_t resets() const { return resets_; }
  uint64_t commands() const { return commands_; }
  uint64_t packets() const { return packets_; }

 private:
  struct Flit {
    Wide f;
    unsigned port;
  };
  // A phase's mix.
  struct Phase {
    double p_packet[2];  // a new packet queued per cycle while the queue is short
    double p_gap;        // an idle cycle between flits
    double p_region;     // an address in a region the stimulus believes in
    double p_bad;        // a malformed packet
    double p_unit;       // from the reduction unit
    double p_hdr_junk;   // junk in the switch-internal fields and above 128 bits
    unsigned ready_mode[2][33];  // per class and port: 0 always, 1 random, 2 bursty, 3 blocked a while
    double ready_p[2][33];
    uint64_t cmd_every;  // cycles between region commands (0: none)
    unsigned bad_cmd;    // every bad_cmd-th command is refused on purpose (0: none)
    bool fill;           // commands fill the table
  };

  void new_phase(bool first);
  void queue_packet(unsigned k);
  void queue_command();
  McrRegion random_region(unsigned idx);
  bool overlaps(const McrRegion& r) const;
  uint64_t address(bool* in_region);
  double u() { return std::uniform_real_distribution<double>(0, 1)(rng_); }
  uint64_t pick(uint64_t lo, uint64_t hi) { return std::uniform_int_distribution<uint64_t>(lo, hi)(rng_); }

  McrTableParams p_;
  Options opt_;
  std::mt19937_64 rng_;
  Phase ph_{};
  bool stopped_ = false;
  uint64_t phase_left_ = 0, mid_reset_at_ = 0, cmd_left_ = 0;
  unsigned reset_left_ = 0;
  uint64_t phases_ = 0, resets_ = 0, commands_ = 0, packets_ = 0, bad_cmds_ = 0;
  // Packets: flits queued per class, the one on the pins.
  std::deque<Flit> q_[2];
  bool offering_[2] = {false, false};
  Flit cur_[2];
  unsigned burst_left_[2][33] = {};
  bool burst_on_[2][33] = {};
  uint64_t block_left_[2][33] = {};
  // Regions: what the stimulus believes the table holds (its own commands
  // that its own checks let through), by index.
  std::vector<McrRegion> mine_;
  std::vector<bool> used_;
  // The register port: a command's writes, one on the bus at a time.
  ApbMaster apb_;
  std::deque<ApbTransfer> prog_;
};

}  // namespace t3::tb
