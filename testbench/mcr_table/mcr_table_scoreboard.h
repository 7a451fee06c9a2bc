// Transaction-level scoreboard of the multicast region table, independent of
// the C++ model and of the RTL: written from the rules on
// docs/blocks/mcr_table.md (the routing table, the drop causes, the region
// commands and their codes, the two-packet buffer and the copy order), not
// from the model's state machine. It knows regions as base and size (from
// the register writes and RGN_CMD pulses it saw, with its own checks),
// packets (from the flits it saw taken, with its own reading of
// docs/packet.md's malformed rules), and the copies each packet owes.
//
// Every cycle it checks, per class:
//   - in_ready: high in the middle of a packet; at a header, high while fewer
//     than SLOTS packets are held (a packet is held from its header until
//     the last flit of its last copy is taken, or, dropped, until it is
//     retired); never in a reset cycle;
//   - a packet's fate (dropped, or the ports it owes a copy) takes effect in
//     the cycle after its header (the counters, STATUS and the interrupts
//     from that cycle's edge);
//   - the output: packets leave in the order they came, each as one whole
//     copy per destination port, one copy after the other; a copy's header
//     is the packet's with the region's fields stamped, its data flits are
//     the packet's, all to the copy's port; the oldest packet is served once
//     all of it is in and its fate known (from the cycle after its last flit,
//     two cycles after its header at the earliest): a dropped one is retired
//     in one cycle, nothing sent; for a kept one, at a copy boundary a copy
//     starts exactly when one of the ports still owed is ready, to the first
//     such port after the last port a copy of this class started to (port 0
//     first after reset) - so a blocked port never holds back the others; in
//     the middle of a copy its next flit is shown;
//   - a region command: checked on the table as it is in the cycle of its
//     pulse, answered (STATUS.CMD_CODE, a refusal's count and interrupt) and
//     the table changed at the next edge;
//   - every counter (pins, every cycle), the command codes and refusals, the
//     last drop, the region read-back and every register access's answer
//     (reg_shadow.h), and the interrupt line.
//
// It reads the inputs as driven and the outputs it is given: the
// co-simulation gives it the RTL's, which equal the model's in every cycle
// or the run fails on the compare. Reset (rst_ni low) empties the table, the
// buffers and the counters at its edge.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "apb_master.h"
#include "complaints.h"
#include "mcr_region.h"
#include "common/packet.h"
#include "mcr_table/mcr_table.h"
#include "reg_shadow.h"

namespace t3::tb {

using McrShadow = RegShadow<McrTableRegMap>;

// A region as firmware states it.
// What the scoreboard saw, for the tests' coverage checks.
struct McrCoverage {
  std::array<uint64_t, 16> kept_hit{}, kept_miss{};  // packets sent, by opcode
  std::array<uint64_t, 16> drops{};                  // by mcr::Drop
  std::array<uint64_t, 16> cmds{};                   // commands answered, by mcr::Cmd
  std::array<uint64_t, 34> copies{};                 // packets by their number of copies
  uint64_t copies_sent = 0, stall_cycles = 0, mid_copy_waits = 0, full_refusals = 0;
  uint64_t from_unit = 0;                            // packets from the reduction unit (port PORTS)
  uint64_t long_drops = 0;                           // dropped packets of more than MAX_LEN flits
  uint64_t resets = 0, resets_busy = 0;              // resets, with packets in flight
  uint64_t table_full = 0;                           // commands with every entry in use
  uint64_t region_edges = 0;                         // packets at a region's first or last flit
  uint64_t wraps = 0;                                // counter wraps seen
  uint64_t rr_skips = 0;                             // copies that went around a blocked owed port
  uint64_t retired = 0;                              // dropped packets retired at the head
};

class McrTableScoreboard {
 public:
  explicit McrTableScoreboard(const McrTableParams& p);

  // Every cycle, with the inputs driven and the outputs shown in it: an
  // error text, or nothing.
  std::optional<std::string> observe(const McrTableInputs& in, const McrTableOutputs& out);

  const McrShadow& regs() const { return regs_; }
  const McrCoverage& coverage() const { return cov_; }
  // Packets held (taken and not yet sent whole to every port or retired), per class.
  size_t held(unsigned k) const { return q_[k].size(); }
  bool idle() const {
    return q_[0].empty() && q_[1].empty() && !in_[0].left && !in_[1].left && !in_[0].pend && !in_[1].pend;
  }
  // The regions in force, by index (size 0: none).
  const std::vector<McrRegion>& table() const { return table_; }
  uint64_t taken(unsigned k) const { return taken_[k]; }

 private:
  struct Pkt {
    Wide hdr;                // the copies' header, stamped
    std::vector<Wide> data;  // the data flits, as they came
    unsigned flits = 0;      // data flits it has
    uint64_t owed = 0;       // ports still owed a copy
    bool whole = false;      // every flit in (at an edge before this cycle)
    bool known = false;      // its fate decided (at an edge before this cycle)
    unsigned why = 0;        // dropped: the cause (mcr::Drop); 0 kept
    bool hit = false;        // its address in a region
    unsigned port = 0;       // its ingress port
  };
  struct Intake {
    unsigned left = 0;  // flits of the current packet still to come
    bool pend = false;  // the newest packet's fate is decided in this cycle
  };
  struct Out {
    bool in_copy = false;
    unsigned port = 0, next = 0;  // the copy's port, its next data flit
    unsigned last;                // the port the last copy started to
  };

  // The header's fate by the rules: a drop cause (mcr::Drop), or 0 and the
  // ports owed and the stamped header.
  unsigned classify(unsigned k, const pkt::Header& h, unsigned in_port, uint64_t* owed,
                    pkt::Header* stamped, bool* hit) const;
  // A region command on the registers' staged fields: mcr::Cmd.
  unsigned command(bool add, bool remove, McrRegion* r) const;
  std::optional<uint32_t> ro(unsigned r) const;
  void check_path(unsigned k, bool valid, const Wide& flit, unsigned in_port, uint64_t ready,
                  bool in_ready, bool out_valid, unsigned out_port, const Wide& out_flit, bool rst_n,
                  std::ostream& err);
  void clear();

  McrTableParams p_;
  Complaints complaints_;
  McrShadow regs_;
  std::vector<McrRegion> table_;  // size 0 = no region
  // The command checked in the last cycle (answered at this cycle's edge).
  struct Cmd {
    bool valid = false, add = false;
    unsigned code = 0;
    McrRegion r;
  } cmd_;
  std::deque<Pkt> q_[2];
  Intake in_[2];
  Out out_[2];
  uint64_t taken_[2] = {0, 0};
  // Counters, unbounded (compared modulo 2^STAT_W).
  uint64_t mcast_ = 0, miss_ = 0, copies_ = 0, stall_ = 0, refused_ = 0, malformed_ = 0, noroute_ = 0;
  unsigned cmd_code_ = 0, drop_cause_ = 0, drop_port_ = 0;
  bool drop_class_ = false;
  // This cycle's events (set by check_path, applied at the edge).
  unsigned ev_drop_[2] = {0, 0}, ev_port_[2] = {0, 0};
  bool ev_kept_[2] = {false, false}, ev_hit_[2] = {false, false};
  unsigned ev_copies_ = 0, ev_stall_ = 0;
  McrCoverage cov_;
};

}  // namespace t3::tb
