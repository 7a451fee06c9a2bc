// N GPUs on in-network reduction switches, cycle by cycle (issue 22, "The
// fabric, with real data"): one switch, or two levels (leaf switches of
// GPUs under one spine); the switches' and the endpoints' cycle models
// (hw/innet_switch; hw/innet_endpoint, the endpoint composition, in
// FabricGpu with its memory and copy queue) joined by links with a latency
// and a rate, each GPU's processor side a queue of reduction requests and the
// completions it pops. Plain C++, one clock: the switches'.
//
// A link carries both classes (docs/packet.md) over one wire, a flit every
// LINK_CYCLES cycles, LINK_LAT cycles from end to end; the receiver's
// buffer per class is returned to the sender as credits, also LINK_LAT
// cycles late, so a class that stalls at its receiver never holds the
// other. The sender's side takes flits into a skid of two per class.
//
// run_all_reduce() (innet_allreduce.h) is the fabric manager and the
// endpoint driver of one all-reduce at once; docs/innet_fabric.md says what
// it programs.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <vector>

#include "common/apb.h"
#include "innet_endpoint/innet_endpoint.h"
#include "innet_gpu.h"
#include "innet_switch/innet_switch.h"

namespace t3 {

struct InnetFabricConfig {
  unsigned gpus = 4;
  // 0: one switch, GPU g on its port g. L >= 2: two levels: L leaf
  // switches (0..L-1) of gpus / L GPUs each (GPU g on leaf g / (gpus / L),
  // port g % (gpus / L); the leaf's port gpus / L goes up) under a spine
  // (switch L; leaf l on its port l).
  unsigned leaves = 0;
  // The switches' parameters; with two levels PORTS is each one's own
  // (switch_params()).
  InnetSwitchParams sw;
  // Every GPU's endpoint, and its memory's read latency.
  InnetEndpointParams ep;
  unsigned mem_lat = 20;
  unsigned link_lat = 8;     // cycles from a link's sender to its receiver
  unsigned link_cycles = 1;  // cycles a flit occupies a link (1: a flit a cycle)
  // Throws std::invalid_argument naming the field and its range.
  void validate() const;
  unsigned switches() const { return leaves ? leaves + 1 : 1; }
  unsigned per_leaf() const { return leaves ? gpus / leaves : gpus; }
  InnetSwitchParams switch_params(unsigned s) const;
  unsigned gpu_switch(unsigned g) const { return leaves ? g / per_leaf() : 0; }
  unsigned gpu_port(unsigned g) const { return leaves ? g % per_leaf() : g; }
};

// One link direction, both classes.
class FabricLink {
 public:
  FabricLink(unsigned lat, unsigned cycles, unsigned rx_depth);
  // The sender's side: room for a flit of class k this cycle.
  bool ready(unsigned k) const { return skid_[k].size() < kSkid; }
  void put(unsigned k, const Wide& f) { skid_[k].push_back(f); }
  // The receiver's side.
  bool valid(unsigned k) const { return !rx_[k].empty(); }
  const Wide& front(unsigned k) const { return rx_[k].front(); }
  void take(unsigned k, uint64_t now);
  // The wire at the end of cycle `now`.
  void advance(uint64_t now);
  bool idle() const;
  uint64_t flits(unsigned k) const { return sent_[k]; }

 private:
  static constexpr size_t kSkid = 2;
  struct OnWire {
    uint64_t due;
    unsigned k;
    Wide f;
  };
  unsigned lat_, cycles_;
  std::deque<Wide> skid_[2], rx_[2];
  std::deque<OnWire> wire_;
  std::deque<std::pair<uint64_t, unsigned>> credit_back_;
  unsigned credit_[2];
  unsigned rr_ = 0;
  uint64_t next_free_ = 0;
  uint64_t sent_[2] = {0, 0};
};

// The switch as the fabric clocks it: its cycle model, or (testbench/
// innet_switch/innet_switch_fabric.h) its Verilated RTL compared with the
// model in every cycle. Registers are reached through its APB pins only, so
// that both see the same accesses.
class FabricSwitch {
 public:
  virtual ~FabricSwitch() = default;
  virtual void step(const InnetSwitchInputs& in, InnetSwitchOutputs& out) = 0;
  virtual const char* name() const = 0;
  // The RTL, compared with the model (mismatches() counts the cycles whose
  // outputs differed), or the model alone.
  virtual bool compared() const { return false; }
  virtual uint64_t mismatches() const { return 0; }
};

class ModelSwitch final : public FabricSwitch {
 public:
  explicit ModelSwitch(const InnetSwitchParams& p) : sw_(p) {}
  void step(const InnetSwitchInputs& in, InnetSwitchOutputs& out) override { sw_.step(in, out); }
  const char* name() const override { return "model"; }

 private:
  InnetSwitch sw_;
};

// A reduction request as the processor gives it to its DMA credit controller.
struct FabricCmd {
  uint64_t local = 0, net = 0;
  uint32_t len = 0;  // flits
  uint8_t dtype = 0;
  bool pull = false;
  uint8_t src = 0, dst = 0, tag = 0;
};
struct FabricCpl {
  uint8_t status = 0, ctr = 0, tag = 0;
  uint64_t cycle = 0;
};

class InnetFabric {
 public:
  // sw: switch sw_index as given (its RTL against its model, say); every
  // other switch its cycle model.
  explicit InnetFabric(const InnetFabricConfig& cfg, std::unique_ptr<FabricSwitch> sw = nullptr,
                       unsigned sw_index = 0);

  const InnetFabricConfig& config() const { return cfg_; }
  unsigned switches() const { return unsigned(sw_.size()); }
  FabricSwitch& sw(unsigned s = 0) { return *sw_.at(s); }
  // A register access on switch s's APB port (the fabric manager's host):
  // the fabric runs the access's cycles. true: answered without PSLVERR.
  bool switch_write(uint32_t addr, uint32_t data, unsigned s = 0);
  bool switch_read(uint32_t addr, uint32_t& data, unsigned s = 0);
  // The same port for a master clocked from outside (tlm/innet_fabric_sc.h):
  // what the next step() drives on switch s's APB pins, and what the switch
  // answered in the last step.
  ApbRequest& apb(unsigned s) { return apb_.at(s); }
  const ApbResponse& apb_answer(unsigned s) const { return so_.at(s).apb; }
  FabricGpu& ep(unsigned g) { return *ep_.at(g); }
  const FabricGpu& ep(unsigned g) const { return *ep_.at(g); }
  uint64_t cycle() const { return now_; }

  // Reset for `cycles` cycles (every block and link), then run until every
  // endpoint is idle (ep_count clears its COUNT_DEPTH counters after a
  // reset, a counter a cycle, and takes nothing until it has).
  void reset(unsigned cycles = 2);
  void step();
  // The processor of GPU g: a request queued for its command port, the
  // completions seen (popped from the DMA credit controller's queue).
  void submit(unsigned g, const FabricCmd& c) { cmdq_.at(g).push_back(c); }
  const std::vector<FabricCpl>& completions(unsigned g) const { return cpl_.at(g); }
  // false: the processors leave the completion queues to firmware (the
  // endpoint driver's t3_ep_wait pops them); completions() stays empty.
  void set_auto_pop(bool on) { auto_pop_ = on; }
  // Nothing queued or in flight anywhere but requests still in the DMA
  // credit controllers (their completions say when those end).
  bool quiet() const;

  // Per GPU link: flits sent GPU -> switch (up) and switch -> GPU (down),
  // per class.
  uint64_t up_flits(unsigned g, unsigned k) const { return links_[gpu_up_[g]].flits(k); }
  uint64_t down_flits(unsigned g, unsigned k) const { return links_[gpu_down_[g]].flits(k); }
  // Flits a switch gave on a port with nothing attached (none expected: a
  // region or a dst that names such a port is a set-up error).
  uint64_t unconnected_flits() const { return unconnected_; }

 private:
  // A switch port's links: into the switch, out of it (-1: nothing attached).
  struct Port {
    int in = -1, out = -1;
  };
  InnetFabricConfig cfg_;
  bool switch_access(unsigned s, bool write, uint32_t addr, uint32_t wdata, uint32_t& rdata);
  int add_link();
  std::vector<std::unique_ptr<FabricSwitch>> sw_;
  std::vector<std::vector<Port>> ports_;  // per switch, per port
  std::vector<ApbRequest> apb_;           // driven on each switch's register port in the next step()
  uint64_t sw_idle_ = 0;                  // cycles since no switch took or gave a flit
  uint64_t unconnected_ = 0;
  std::vector<std::unique_ptr<FabricGpu>> ep_;
  std::vector<FabricLink> links_;
  std::vector<int> gpu_up_, gpu_down_;
  std::vector<std::deque<FabricCmd>> cmdq_;
  std::vector<std::vector<FabricCpl>> cpl_;
  std::vector<unsigned> cpl_pending_, cpl_wait_;
  std::vector<InnetSwitchInputs> si_;
  std::vector<InnetSwitchOutputs> so_;
  std::vector<InnetEndpointInputs> ei_;
  std::vector<InnetEndpointOutputs> eo_;
  uint64_t now_ = 0;
  bool rst_ = false;
  bool auto_pop_ = true;
};

}  // namespace t3
