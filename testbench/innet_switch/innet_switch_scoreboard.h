// Transaction-level scoreboard of the in-network switch, from its pins
// alone, independent of the C++ model and of the RTL: written from the
// routing table of docs/blocks/mcr_table.md and the reduction rules of
// docs/blocks/reduction_table.md, not from either block's state. It sees
// the packets each ingress takes and each egress gives (pkt_stream.h's
// collectors, which also check every output stream's valid/ready rule), and
// knows the regions the test programmed (both tables alike).
//
// What it checks:
//   - a packet the switch forwards (unicast by dst; a WRITE or RESULT in a
//     region to every participant but its ingress port; a READ in a region
//     back to its ingress port; a PUSH in a region not rooted here, and a
//     PARTIAL, to the region's home) comes out of each port it owes exactly
//     once, with the header as sent and the region's fields stamped (all 0
//     outside every region), the data as sent; copies from one ingress
//     port to one egress port in the order they went in;
//   - a packet it must drop (malformed, wrong class, a type the region does
//     not allow, no route, no destination) comes out nowhere;
//   - reductions (PUSHes in a region rooted here): nothing lost, nothing
//     counted twice. Every RESULT of an address comes out of every
//     participant, the same; every PARTIAL out of the home port; at the end
//     the contributions the RESULTs and PARTIALs carry (their counts) are
//     the PUSHes sent, and the sums they carry add up to the sum of the
//     PUSHes' data, exactly (the tests send integers, whose sums any order of
//     additions gives exactly);
//   - nothing comes out that was not owed.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "innet_switch/innet_switch.h"
#include "mcr_region.h"
#include "pkt_stream.h"

namespace t3::tb {

// A packet's data flits as numbers: each lane of its type (fp16, bf16, fp32)
// decoded on its own (the scoreboard's own decoder), in order.
std::vector<double> lanes_of(const std::vector<Wide>& data, unsigned dtype, unsigned flit_w);

class InnetSwitchScoreboard {
 public:
  explicit InnetSwitchScoreboard(const InnetSwitchParams& p);

  // The regions programmed into both tables (their idx the table entry).
  void set_regions(std::vector<McrRegion> regions) { regions_ = std::move(regions); }
  // The switch was reset: what was in flight is gone, counts start again.
  void reset();

  // Every cycle, with the inputs driven and the outputs shown in it: an
  // error text, or nothing.
  std::optional<std::string> observe(const InnetSwitchInputs& in, const InnetSwitchOutputs& out);
  // After the traffic drained: every packet owed came out, every reduction
  // adds up. An error text, or nothing.
  std::optional<std::string> check_drained() const;
  // Nothing owed any more, no packet half in or out.
  bool idle() const;
  // Copies owed and not out yet.
  uint64_t owed() const;

  struct Counts {
    uint64_t in = 0, forwarded = 0, copies = 0, dropped = 0, pushes = 0;
    uint64_t results = 0, partials = 0;  // reduction events out
  };
  const Counts& counts() const { return n_; }

 private:
  struct Fate {
    bool drop = false;
    bool reduce = false;       // a contribution to this switch's reduction
    uint32_t ports = 0;        // the copies owed
    pkt::Header stamped;       // the copies' header
  };
  Fate fate(unsigned k, unsigned port, const pkt::Header& h) const;
  const McrRegion* region_of(uint64_t addr) const;
  void taken(unsigned k, unsigned port, const Packet& p, std::string& err);
  void given(unsigned k, unsigned port, const Packet& p, std::string& err);

  InnetSwitchParams p_;
  std::vector<McrRegion> regions_;
  std::array<std::vector<PktCollector>, 2> in_, out_;
  // Copies owed, by class, ingress port (the header's src: the tests send
  // from port p with src p) and egress port.
  std::map<std::array<unsigned, 3>, std::deque<Packet>> owed_;
  // A reduced address: what went in, what came out.
  struct Reduction {
    unsigned dtype = 0, len = 0;
    uint64_t pushes = 0;
    std::vector<double> sum;
    std::map<unsigned, std::vector<Packet>> results;  // by participant port
    std::vector<Packet> partials;
  };
  std::map<uint64_t, Reduction> red_;
  Counts n_;
};

}  // namespace t3::tb
