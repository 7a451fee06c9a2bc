// An in-network reduction switch (ISCA 2020 in-network collectives paper,
// §IV), cycle model. Plain C++: no SystemC here. rtl/innet_switch.sv is the
// same composition in RTL; the two are co-simulated every cycle.
//
// PORTS fabric ports, each with a stream per class (requests, responses) in
// and out. A port's packets wait in its ingress queue until the whole packet
// is in; per class, a round robin grants whole packets into the fabric's
// multicast region table (mcr_in, docs/blocks/mcr_table.md), which sends
// each copy to an egress queue or, as port PORTS (the reduction unit), to
// the reduction table (docs/blocks/reduction_table.md). The reduction
// table's output (RESULT, PARTIAL, PULL_RSP) goes through a second region
// table, mcr_out, to the egress queues: with one table its output would
// re-enter the path that feeds its input (docs/blocks/innet_switch.md,
// "Deadlock"). An egress queue takes a copy only where the whole packet
// fits, and one source's packet at a time; the response class's two sources
// take turns.
//
// Per clock: eval() gives the outputs for the current state and inputs,
// then clock() advances every block and queue as the rising edge does.
#pragma once

#include <cstdint>
#include <vector>

#include "common/apb.h"
#include "common/fifo.h"
#include "common/params.h"
#include "common/regs.h"
#include "common/wide.h"
#include "innet_switch/innet_switch_map.h"
#include "mcr_table/mcr_table.h"
#include "reduction_table/reduction_table.h"

namespace t3 {

struct InnetSwitchParams {
#define T3_PARAMS_DEF "innet_switch/innet_switch_params.def"
#define T3_PARAMS_SELF InnetSwitchParams
#include "common/param_struct.inc"

  // The blocks' parameters (both region tables alike).
  McrTableParams mcr_table() const;
  ReductionTableParams reduction_table() const;

  // Throws std::invalid_argument naming the parameter and its allowed range
  // (a block's own check names the block's parameter).
  void validate() const;
};

// A class's flits of every port, packed as the RTL's [PORTS-1:0][FLIT_W-1:0]
// (PORTS x FLIT_W is at most 16 x 256).
using SwitchBus = WideN<4096>;
// Port p's flit of a bus (FLIT_W bits), and back.
Wide bus_flit(const SwitchBus& b, unsigned p, unsigned flit_w);
void set_bus_flit(SwitchBus& b, unsigned p, unsigned flit_w, const Wide& f);

// Valids and readies: bit p is port p.
struct InnetSwitchInputs {
  bool rst_n = true;
  ApbRequest apb;
  uint32_t req_in_valid = 0;
  SwitchBus req_in_flit;
  uint32_t rsp_in_valid = 0;
  SwitchBus rsp_in_flit;
  uint32_t req_out_ready = 0;
  uint32_t rsp_out_ready = 0;
};

struct InnetSwitchOutputs {
  ApbResponse apb;
  bool intr = false;
  uint32_t req_in_ready = 0;
  uint32_t rsp_in_ready = 0;
  uint32_t req_out_valid = 0;
  SwitchBus req_out_flit;  // a port's flit is 0 while its valid is low
  uint32_t rsp_out_valid = 0;
  SwitchBus rsp_out_flit;
};

class InnetSwitch {
 public:
  explicit InnetSwitch(const InnetSwitchParams& params);

  const InnetSwitchParams& params() const { return p_; }
  InnetSwitchOutputs eval(const InnetSwitchInputs& in) const;
  void eval(const InnetSwitchInputs& in, InnetSwitchOutputs& out) const;
  void clock(const InnetSwitchInputs& in);
  // eval() then clock() on the same inputs, the wires worked out once.
  void step(const InnetSwitchInputs& in, InnetSwitchOutputs& out);
  InnetSwitchOutputs step(const InnetSwitchInputs& in);

  // Register accesses from a TLM-2.0 target, decoded by window as the APB
  // port does.
  static constexpr uint64_t kRegSpanBytes = uint64_t{1} << kInnetSwitchApbAddrBits;
  RegStatus tlm_write(uint32_t offset, uint32_t data);
  RegStatus tlm_read(uint32_t offset, uint32_t& data) const;

  const McrTable& mcr_in() const { return mcr_in_; }
  const ReductionTable& reduction_table() const { return rt_; }
  const McrTable& mcr_out() const { return mcr_out_; }
  // A queue's words (k: 0 requests, 1 responses).
  unsigned ingress_count(unsigned k, unsigned port) const { return inq_[k][port].count(); }
  unsigned egress_count(unsigned k, unsigned port) const { return outq_[k][port].count(); }

 private:
  // Who fills an egress queue: mcr_in (both classes), mcr_out (responses).
  enum Src : uint8_t { kNone = 0, kMcrIn = 1, kMcrOut = 2 };
  // A class's grant into mcr_in: locked to a port from the cycle its header
  // is offered until the packet's last flit is taken (left: flits of it not
  // yet taken); rr: the port the next grant looks at first.
  struct Arb {
    bool lock = false;
    unsigned port = 0, left = 0, rr = 0;
  };
  // An egress queue's intake: the source whose packet is coming in (left:
  // its flits still to come), and whose turn it is to start one (responses).
  struct Egress {
    uint8_t own = kNone;
    unsigned left = 0;
    uint8_t tok = kMcrIn;
  };
  // Every block's inputs and outputs in one cycle, as the wires carry them.
  struct Wires {
    McrTableInputs mi;
    McrTableOutputs mi_o;
    ReductionTableInputs rt;
    ReductionTableOutputs rt_o;
    McrTableInputs mo;
    McrTableOutputs mo_o;
    bool offer[2];           // a class offers a flit to mcr_in
    unsigned offer_port[2];  // from this port
    unsigned offer_len[2];   // the packet's flits (a header offered unlocked)
    bool take[2];            // mcr_in takes it
    uint64_t ready_in[2];    // the egress queues' readies to mcr_in, by port
    uint64_t ready_out;      // ... to mcr_out (responses)
    unsigned window;
  };
  template <class Self>
  static void wires(Self& self, const InnetSwitchInputs& in, Wires& w);
  void outputs(const InnetSwitchInputs& in, const Wires& w, InnetSwitchOutputs& o) const;
  // The switch's own state at the edge (the blocks are clocked in wires()).
  void edge(const InnetSwitchInputs& in, const Wires& w);
  // Flits of the packet whose header this is (docs/packet.md: pkt::wire_flits).
  static unsigned packet_flits(const Wide& header);
  // The head packet of an ingress queue is all in (or the queue is full: a
  // packet longer than the queue goes through as it comes).
  bool complete(unsigned k, unsigned port) const;
  bool egress_ready(unsigned k, unsigned port, Src s) const;

  InnetSwitchParams p_;
  McrTable mcr_in_;
  ReductionTable rt_;
  McrTable mcr_out_;
  std::vector<Fifo<Wide>> inq_[2], outq_[2];
  Arb arb_[2];
  std::vector<Egress> eg_[2];
  Wires w_{};  // step()'s and clock()'s wires, every member written every cycle
};

}  // namespace t3
