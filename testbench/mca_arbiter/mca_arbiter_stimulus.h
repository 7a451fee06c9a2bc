// Constrained-random traffic for the MCA arbiter, shaped as T3 §4.5 and
// §6.1.2 (Fig. 17) describe it: a producer (compute) stream that alternates
// phases of high and low memory intensity, a communication stream that comes
// in long bursts with idle gaps between them, and a small DRAM command queue
// behind the output whose occupancy rises with every accepted request and
// falls as the queue drains at a rate that changes over time (out_ready_i is
// low while the queue is full, and in short stalls as a refresh would cause).
//
// The run is cut into phases. Each phase has a random configuration (every
// policy, fixed and auto thresholds, every level, random or the paper's
// threshold values, starvation limits 0, 1, small, large and the largest),
// now and then a refused one (each cause: policy 3, a level of 0, auto with
// bounds not descending, a window longer than LEARN_W), and starts either
// with a reset in the middle of the traffic or without one. Either way the
// configuration goes in through the register port as the driver writes it
// (mca_arbiter_scoreboard.h, program_writes()), one write after the other:
// after a reset before new requests come, without one while the traffic
// runs; now and then with junk in the field bits above the build's widths,
// which the hardware cuts off. A write refused because a learning window runs
// (the bounds and the window are locked) is written again a little later, as
// a driver polling STATUS.LEARN_BUSY would; half the phases without a reset
// start a window just before their writes (a driver that reprograms while
// the producer is being measured), otherwise no learn pulse starts while the
// configuration is going in. Within a phase: learn pulses (some once the
// phase is programmed, with communication held back: the producer alone, as
// in §4.5), drain stretches at kernel boundaries (compute pausing), and
// queue stalls.
//
// Requests behave as a valid/ready source must: valid and payload hold until
// accepted, also across a reset.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <random>

#include "apb_master.h"
#include "mca_arbiter/mca_arbiter.h"

namespace t3::tb {

// One phase: its configuration and its traffic shape.
struct McaPhase {
  McaArbiterConfig cfg;
  unsigned bad_causes = 0;  // the causes planted (bits as McaScoreboard::refusal_causes)
  double cmp_high = 0.9, cmp_low = 0.1;       // compute requests per cycle, by intensity
  unsigned cmp_span_min = 50, cmp_span_max = 2000;  // cycles of one intensity
  double com_in_burst = 0.95;                 // communication requests per cycle in a burst
  unsigned burst_min = 16, burst_max = 400;   // requests per burst
  unsigned gap_min = 20, gap_max = 2000;      // idle cycles between bursts
  uint32_t queue_cap = 63;                    // DRAM queue entries (<= 2^OCC_W - 1)
  double serve_slow = 0.3, serve_fast = 0.9;  // queue drain probability per cycle
  unsigned serve_span = 300;                  // mean cycles of one drain rate
  double p_stall = 0.002;                     // start of a queue stall (out_ready_i low)
  unsigned stall_max = 40;
  double p_learn = 0.0005;                    // learn pulse per cycle
  bool learn_alone = false;                   // a pulse at the start, communication held back
  double p_drain = 0.0004;                    // start of a drain stretch
  unsigned drain_max = 300;

  // bad_cause >= 0: a refused configuration, that cause first (bits as in
  // McaScoreboard::refusal_causes: 0 policy, 1 level, 2 bounds, 3 log2).
  static McaPhase random(const McaArbiterParams& p, std::mt19937_64& rng, int bad_cause);
};

// A random usable configuration, and the same broken by first_cause (and
// now and then one more); returns the causes planted.
McaArbiterConfig random_config(const McaArbiterParams& p, std::mt19937_64& rng);
unsigned break_config(McaArbiterConfig& c, const McaArbiterParams& p, std::mt19937_64& rng,
                      unsigned first_cause);

class McaStimulus {
 public:
  struct Options {
    uint64_t phase_min = 3000, phase_max = 30000;  // cycles per phase
    unsigned bad_every = 6;                        // every so many phases refused (0: never)
    double p_reset = 0.4;                          // a phase starts with a reset
    double p_junk = 0.25;                          // a phase's fields carry bits above the widths
    double p_pulse_first = 0.5;                    // without reset: a window starts as the writes do
    unsigned retry_after = 16;                     // cycles before a refused write goes again
  };
  McaStimulus(const McaArbiterParams& p, uint64_t seed);
  McaStimulus(const McaArbiterParams& p, uint64_t seed, Options opt);

  // Sets every input of this cycle, rst_n and the register port included.
  void drive(McaArbiterInputs& in);
  // After the cycle: the register port's answer, retires accepted requests,
  // moves the DRAM queue.
  void after(const McaArbiterInputs& in, const McaArbiterOutputs& out);

  // The register port. Other register traffic may be queued on it while it
  // is idle (reg_traffic.h); the stimulus then waits for it.
  ApbMaster& apb() { return apb_; }

  // No new requests, phases, resets, learn pulses, drains or stalls; the
  // queue drains at full rate and the configuration is a usable one, so
  // whatever is pending can leave.
  void stop();
  // The phase's configuration is in the registers.
  bool programmed() const { return prog_.empty() && !in_flight_; }
  // Nothing pending: no request, the slot empty, nothing on the register port.
  bool idle() const {
    return !cmp_pending_ && !com_pending_ && !slot_full_ && programmed() && apb_.idle();
  }

  const McaPhase& phase() const { return ph_; }
  uint64_t phases() const { return phases_; }
  uint64_t resets() const { return resets_; }
  // Phases programmed without a reset, the traffic running.
  uint64_t reprograms() const { return reprograms_; }
  uint64_t bad_phases() const { return bad_phases_; }
  uint64_t junk_phases() const { return junk_phases_; }
  // Configuration writes refused (busy) and written again.
  uint64_t retried_writes() const { return retried_; }
  uint32_t occupancy() const { return q_; }
  // Coverage steering: the next phase runs MCA with threshold level k fixed
  // and low, compute sparse and communication in long bursts, so that the
  // threshold holds communication back at that level. A test calls it late
  // in a run for a level its coverage has not met (a random seed may not
  // reach level 2 in a million cycles); until then the run is unchanged.
  void aim_at_level(unsigned k);
  uint64_t aimed_phases() const { return aimed_phases_; }

 private:
  void new_phase(bool first);
  // The register writes of cfg, with junk above the widths now and then.
  void queue_program(const McaArbiterConfig& cfg);
  double u() { return std::uniform_real_distribution<double>(0, 1)(rng_); }
  uint64_t pick(uint64_t lo, uint64_t hi) {
    return std::uniform_int_distribution<uint64_t>(lo, hi)(rng_);
  }
  // The phase's learning window in cycles (a refused log2 is capped: the
  // arbiter ignores the pulse then, and the stimulus needs only a length).
  uint64_t window_cycles() const {
    return uint64_t{1} << std::min<uint32_t>(ph_.cfg.learn_log2, 24);
  }

  McaArbiterParams p_;
  Options opt_;
  std::mt19937_64 rng_;
  uint64_t data_mask_;
  McaPhase ph_;
  bool stopped_ = false;
  uint64_t phase_left_ = 0, phases_ = 0, resets_ = 0, bad_phases_ = 0;
  uint64_t reprograms_ = 0, junk_phases_ = 0, retried_ = 0;
  unsigned reset_left_ = 0;
  int aim_level_ = -1;  // aim_at_level's level, for the next phase
  uint64_t aimed_phases_ = 0;
  // The register port: the phase's writes still to go, one on the bus
  // (in_flight_: the next transfer to complete is it; stale_: it belongs to
  // the phase before), a wait before a refused one goes again.
  ApbMaster apb_;
  std::deque<ApbTransfer> prog_;
  bool in_flight_ = false, stale_ = false;
  unsigned retry_wait_ = 0;
  bool quiet_ = false;           // after a reset: no new requests until programmed
  bool learn_pending_ = false;   // the phase's first pulse, once programmed
  bool pulse_first_ = false;     // a pulse in the cycle before the phase's writes start
  // Compute stream.
  bool cmp_pending_ = false;
  uint64_t cmp_data_ = 0;
  bool cmp_high_ = true;
  uint64_t cmp_span_left_ = 0;
  // Communication stream.
  bool com_pending_ = false;
  uint64_t com_data_ = 0;
  uint64_t burst_left_ = 0, gap_left_ = 0, hold_com_ = 0;
  // DRAM queue behind the output.
  uint32_t q_ = 0;
  bool serve_fast_ = true;
  uint64_t serve_left_ = 0, stall_left_ = 0;
  bool slot_full_ = false;
  // Kernel-boundary drain and learning.
  uint64_t drain_left_ = 0;
  bool learn_now_ = false;
  uint64_t repulse_left_ = 0;  // a second pulse, inside the window
};

}  // namespace t3::tb
