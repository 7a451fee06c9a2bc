// Transaction-level checker of the reduction table, independent of the C++
// model and of the RTL: it knows packets (what was taken on req_in and
// rsp_in, what left on out) and the rules (ISCA 2020 in-network collectives
// paper §IV, docs/packet.md, docs/blocks/reduction_table.md), not the table's
// state machine. It acts as the regions' homes and the requesters: it
// merges every RESULT, PARTIAL and PULL_RSP that leaves, per reduction, and
//
// - nothing counted twice: a reduction's counts out never pass its counts
//   in; nothing lost: at rest (the traffic drained, the table flushed) every
//   reduction's counts are out, but those of packets the table refused;
// - exact values: whenever a reduction's counts out reach its counts in, the
//   merged value of what left equals, lane by lane, bit for bit, the sum of
//   every contribution taken (computed with GNU MPFR, testbench/common/
//   fp_reference.h; the traffic's values make every order of addition exact);
// - every packet that leaves is well formed: RESULT with count = expect, to
//   the home; PARTIAL with 0 < count < expect, to the home; a PULL_RSP made
//   by the table (src 0) to the requester; a PULL_RSP passed on (src not 0)
//   exactly as it came, once;
// - the packets it drops: its own reading of the malformed rules;
// - the counters: the stall counters exactly, every cycle (an input offered
//   and not taken); the others move by one at most a cycle, and at rest they
//   must account for every header taken (hits + allocations + complete
//   alone + bypasses + PULLs passed + malformed + refused), every packet
//   that left (completions, bypasses, evictions) and every entry (each
//   allocation ends complete or evicted);
// - the register port and the interrupt line (reg_shadow.h): the counter
//   registers equal the pins, INTR_STATE set by each malformed and refused
//   packet (the counters' steps) and while TIMEOUT does not fit TIMEOUT_W;
// - liveness: no input waits forever (a watchdog).
//
// A reset voids what was in flight.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "complaints.h"
#include "pkt_stream.h"
#include "reduction_table/reduction_table.h"
#include "reg_shadow.h"

namespace t3::tb {

using RtShadow = RegShadow<ReductionTableRegMap>;

// Why a header taken on stream rsp (0 req_in, 1 rsp_in) is dropped, by this
// checker's own reading of docs/packet.md and the table's rules (the
// numbers of ERR.CODE); 0 when it is not.
unsigned sb_malformed(const pkt::Header& h, bool rsp, const ReductionTableParams& p);

class ReductionTableScoreboard {
 public:
  explicit ReductionTableScoreboard(const ReductionTableParams& p);

  // Every cycle, with the inputs driven and the outputs shown in it: an
  // error text, or nothing.
  std::optional<std::string> observe(const ReductionTableInputs& in, const ReductionTableOutputs& out);
  // At rest (every contribution sent has left, the table flushed, nothing
  // moving): the counters against the transactions since the last rest.
  std::optional<std::string> check_at_rest();
  // The traffic's probes (pairs whose second packet may be refused) use a
  // key of their own, named here by a header with op (PUSH or PULL), rgn,
  // addr and, for a pull, the requester (dst) and counter id: only their
  // reductions may stay short at rest, and the refusals are bounded by
  // them (n: how many of its packets may be refused).
  void allow_refusals(const pkt::Header& key, unsigned n = 1);

  const RtShadow& regs() const { return regs_; }

  struct Coverage {
    uint64_t results = 0, partials = 0, pull_complete = 0, pull_partial = 0, bypassed = 0;
    uint64_t balanced = 0, lanes_checked = 0, malformed[12] = {}, headers = 0;
    uint64_t refused_groups = 0, rests = 0, resets = 0, out_backpressure = 0;
    uint64_t mid_packet_gaps = 0, completes_alone = 0, zero_results = 0, subnormal_results = 0;
    uint64_t max_ingroups = 0, data_held = 0, hwm_full = 0;
    // Counter steps seen over the run (across resets): alloc, hits,
    // completions, lru, timeout, bypasses, pull_passed, malformed, refused.
    uint64_t steps[9] = {};
  };
  const Coverage& coverage() const { return cov_; }
  // The counters as the block showed them in the last cycle.
  const ReductionTableOutputs& last() const { return prev_; }

 private:
  // A reduction: push (rgn, addr, dtype, len, expect, home) or pull (rgn,
  // addr, requester, counter id, dtype, len).
  using Key = std::tuple<bool, uint8_t, uint64_t, uint8_t, uint8_t, uint8_t, uint8_t, uint8_t, uint8_t>;
  struct Group {
    uint64_t in = 0, out = 0;
    std::vector<uint32_t> ref, merged;  // per lane; empty until the first
    std::vector<Packet> responses;      // PULL_RSPs taken, for the bypass check
  };
  struct ProbeKey {
    bool pull;
    uint8_t rgn;
    uint64_t addr;
    uint8_t dst, ctr;
  };
  Key key_of(const pkt::Header& h) const;
  bool is_probe(const Key& k) const;
  void add_lanes(std::vector<uint32_t>& acc, const Packet& pk);
  void taken(unsigned s, const Packet& pk, std::ostream& err);
  void left(const Packet& pk, std::ostream& err);
  void clear();

  ReductionTableParams p_;
  Complaints complaints_;
  RtShadow regs_;
  PktCollector in_[2];
  PktCollector out_;
  bool in_mid_[2] = {false, false};
  std::map<Key, Group> groups_;
  std::vector<ProbeKey> probes_;
  ReductionTableOutputs prev_{};
  bool have_prev_ = false;
  uint64_t stall_[2] = {0, 0};  // since reset
  uint64_t wait_[2] = {0, 0};   // cycles the current offer has waited
  // Since the last rest (or reset): what the counters must account for.
  struct Tally {
    uint64_t headers = 0, malformed = 0, alone = 0, pulls = 0;
    uint64_t results = 0, pull_complete = 0, partials = 0, bypassed = 0, probes = 0;
  } t_;
  ReductionTableOutputs base_{};  // the counters at the last rest
  bool lru_seen_ = false;
  Coverage cov_;
};

}  // namespace t3::tb
