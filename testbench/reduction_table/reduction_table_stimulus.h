// Constrained-random traffic for the reduction table, shaped as the ISCA 2020
// in-network collectives paper's §IV describes the table's use: many
// reductions at once, far more than the table has entries, their
// contributions interleaved (so that the least recently used entry is
// evicted as a partial, and idle entries time out), load-reduce requests
// whose responses come back some cycles after the request was taken, and
// responses of requests this table never saw (they pass unreduced).
//
// A *job* is one reduction: push (a region's address, its expected count,
// contributions whose counts sum to it: count 1 from a GPU, more from a
// switch downstream that reduced some already) or pull (a PULL from a
// requester, then responses whose counts sum to what it waits for), or a
// bypass job (responses only). Values are exact-sum values (value.h:
// every order of addition gives the same bits), so that a scoreboard can
// check the final value of a reduction split into partials. A job's key is
// reused only when its last count has left the table (the paper: concurrent
// reductions do not alias addresses).
//
// Around them: malformed packets (every cause), probes (pairs of packets on
// a key of their own whose second is refused when the first's entry is still
// there: mismatch, overcount, duplicate PULL), register traffic (TIMEOUT over
// its whole range, beyond TIMEOUT_W, CTRL.ENABLE off for a while,
// CTRL.PULL_PASS), random bubbles between flits, back-pressure on out in
// bursts, and now and then a reset in the middle of the traffic. The run is
// cut into phases; each ends with a drain (no new jobs, every job's
// contributions sent, TIMEOUT = 1 to flush the table) so that the test can
// check the counters at rest.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <random>
#include <vector>

#include "apb_master.h"
#include "pkt_stream.h"
#include "reduction_table/reduction_table.h"

namespace t3::tb {

// A value of format dtype (0 fp16, 1 bf16, 2 fp32) equal to k * 2^s, which
// must be representable (|k| < 2^p, s at least the exponent of the smallest
// subnormal's ulp); neg_zero: -0 when k = 0.
uint32_t exact_value(unsigned dtype, int64_t k, int s, bool neg_zero);
// Significand bits (with the implicit one) and the range of s for which
// (2^p - 1) * 2^s is finite and its ulp not below the subnormals'.
unsigned fmt_precision(unsigned dtype);
int fmt_scale_min(unsigned dtype);
int fmt_scale_max(unsigned dtype);

class ReductionTableStimulus {
 public:
  struct Options {
    uint64_t phase_min = 20000, phase_max = 60000;  // cycles of traffic per phase
    double push_jobs_per_entry = 3.0;   // push jobs open at once, per table entry
    unsigned pull_jobs = 6;             // pull jobs open at once (phases with timeouts)
    double p_bypass_job = 0.3;          // a pull job without its PULL (responses pass)
    double p_malformed = 0.02;          // per packet
    double p_probe = 0.01;              // per packet
    double p_reset = 0.15;              // a reset inside a phase (besides every fifth)
    double p_gap = 0.15;                // idle cycle between flits on an input stream
    double p_out_stall = 0.002;         // start of an out_ready_i low stretch
    unsigned out_stall_max = 200;
    double p_out_ready = 0.8;           // out_ready_i otherwise
    double p_regs = 0.0005;             // a register change while the traffic runs
  };
  ReductionTableStimulus(const ReductionTableParams& p, uint64_t seed);
  ReductionTableStimulus(const ReductionTableParams& p, uint64_t seed, Options opt);

  // Sets every input of this cycle, rst_n and the register port included.
  void drive(ReductionTableInputs& in);
  // After the cycle: what the block answered (handshakes, outputs).
  void after(const ReductionTableInputs& in, const ReductionTableOutputs& out);

  ApbMaster& apb() { return apb_; }

  // Draining: no new jobs, phases or resets; whatever is open is sent, then
  // the table is flushed (TIMEOUT = 1) and out_ready_i held high.
  void stop() { stopped_ = true; }
  // In a drain (the phase's end, or stopped) with nothing left to send and
  // every job's counts out.
  bool drained() const;
  // The phase ended drained and the next starts in this cycle: a quiet
  // point where the test may check the counters (set for one cycle).
  bool at_rest() const { return at_rest_; }

  // What the traffic held, for the test's coverage checks.
  struct Coverage {
    uint64_t phases = 0, resets = 0, push_jobs = 0, pull_jobs = 0, bypass_jobs = 0;
    uint64_t jobs_done = 0, jobs_voided = 0, probes = 0, malformed[9] = {};
    uint64_t cfg_errors = 0, disables = 0, timeouts_small = 0, timeouts_off = 0, pull_pass = 0;
    uint64_t out_stalls = 0, max_open = 0, long_drops = 0;
  };
  const Coverage& coverage() const { return cov_; }
  // The keys of the probes made since the last call (for the scoreboard's
  // allow_refusals).
  std::vector<pkt::Header> take_probe_keys() {
    std::vector<pkt::Header> k;
    k.swap(probe_keys_);
    return k;
  }

 private:
  struct Job {
    unsigned kind = 0;  // 0 push, 1 pull, 2 bypass (responses only), 3 probe
    pkt::Header key;    // op, dtype, len, rgn, addr, expect, home, src/dst, ctr
    std::deque<Packet> req, rsp;  // packets still to send on each stream
    unsigned need = 0;       // counts its packets carry in all (what leaves)
    unsigned out_count = 0;  // counts seen leaving
    int64_t release_at = -1;  // pull: cycle after which its responses may go
    bool pull_queued = false, pull_taken = false;
    std::vector<int> scale;  // per lane
  };
  void new_phase(bool first);
  void open_jobs();
  Job make_push_job();
  Job make_pull_job(bool bypass);
  void make_probe();
  Packet contribution(const Job& j, uint8_t op, unsigned count);
  Packet malformed_packet(bool& rsp);
  bool key_in_use(const pkt::Header& k, unsigned kind) const;
  void feed();
  void push_req(const Packet& pk, uint64_t id) {
    req_.push(pk);
    req_ids_.push_back(id);
  }
  void account(const Packet& out);
  void program_timeout(uint32_t v);
  void program_ctrl(bool enable, bool pull_pass);
  void clear_all();
  double u() { return std::uniform_real_distribution<double>(0, 1)(rng_); }
  uint64_t pick(uint64_t lo, uint64_t hi) { return std::uniform_int_distribution<uint64_t>(lo, hi)(rng_); }
  uint64_t random_addr();

  ReductionTableParams p_;
  Options opt_;
  std::mt19937_64 rng_;
  ApbMaster apb_;
  PktDriver req_, rsp_;
  PktCollector out_;
  std::map<uint64_t, Job> jobs_;  // by id
  uint64_t next_id_ = 1;
  uint64_t cycle_ = 0;
  uint64_t phase_left_ = 0;
  uint64_t mid_reset_at_ = 0;  // cycles into the phase of its reset (0: none)
  bool draining_ = false, stopped_ = false, flushed_ = false, at_rest_ = false;
  unsigned reset_left_ = 2;
  bool pull_phase_ = false;  // timeouts on: pull jobs allowed
  uint32_t timeout_ = 0;
  bool enable_ = true, pull_pass_ = false;
  uint64_t disable_left_ = 0;
  uint64_t stall_left_ = 0;
  uint64_t quiet_ = 0;  // cycles with nothing happening in a drain
  // The job of each packet queued on req_in, in order (0: none), and the
  // stream as taken, to see when a PULL is taken (its responses follow).
  std::deque<uint64_t> req_ids_;
  PktCollector req_mon_;
  std::vector<pkt::Header> probe_keys_;
  Coverage cov_;
};

}  // namespace t3::tb
