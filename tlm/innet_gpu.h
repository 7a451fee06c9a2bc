// One GPU of the fabric (tlm/innet_fabric.h): the endpoint composition
// (hw/innet_endpoint, the twelve blocks whose RTL is co-simulated with this
// model) with what the composition leaves outside it: the GPU's memory on
// its lanes (EpLaneMemory, a fixed read latency), the copy engine's queue
// on cp_*, and the node number on its strap. The fabric drives the request
// port and the two streams; everything else is here.
//
// Software reaches the registers as the driver does, through tlm_read /
// tlm_write (the composition's twelve windows); stats() reads the blocks'
// STAT registers the same way.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "common/local_memory.h"
#include "common/regs.h"
#include "ep_req/ep_req_core.h"
#include "ep_rx/ep_rx_core.h"
#include "ep_window/ep_window_core.h"
#include "innet_endpoint/innet_endpoint.h"
#include "innet_endpoint/lane_memory.h"

namespace t3 {

// What the GPU's endpoint counted, from its blocks' STAT registers (they
// wrap at 2^STAT_W) and its memory's lanes.
struct FabricGpuStats {
  uint64_t pushes = 0, pulls = 0;  // packets ep_tx sent for the DMA credit controller's descriptors
  uint64_t pull_answers = 0;       // PULLs ep_req answered (PULL_RSPs sent)
  uint64_t results = 0;            // RESULTs ep_rx took
  uint64_t pull_rsps = 0;          // PULL_RSPs ep_rx took (merged)
  uint64_t partials = 0;           // PARTIALs ep_rx merged (home)
  uint64_t home_results = 0;       // RESULTs ep_home sent
  uint64_t home_sweeps = 0;        // whole lines ep_home's sweep found (HOME_Q was full)
  uint64_t home_lost = 0;          // pending lines ep_home gave up (a sweep round found none)
  uint64_t staged = 0;             // PUSHes ep_req staged at a deterministic home
  uint64_t det_lines = 0;          // lines ep_det added in rank order
  uint64_t dropped = 0;            // packets ep_rx and ep_req dropped: see errors()
  uint64_t mem_reads = 0, mem_writes = 0, mem_adds = 0;
};

class FabricGpu {
 public:
  // mem_lat: the memory's read latency in cycles, 1..1000.
  FabricGpu(const InnetEndpointParams& p, unsigned mem_lat);

  const InnetEndpointParams& params() const { return ep_.params(); }
  // One clock: `in` carries what the fabric drives (rst_n, cmd_*, the
  // streams, the output readies); the node, the memory's answers and the
  // copy queue's head are filled in here.
  void step(InnetEndpointInputs& in, InnetEndpointOutputs& out);

  // This GPU's port number (node_i): the src of what its home and copy
  // engine send.
  void set_node(uint8_t node) { node_ = node; }
  // Window i as the endpoint driver writes it (t3_ep_set_window: page 1's
  // registers, firmware/src/innet.c), then the two cycles ep_window takes to
  // check and write it, run here with the fabric port idle. Throws
  // std::invalid_argument naming the field and its allowed range
  // (ep_window's check_window()); a refused window changes nothing.
  // w.valid false clears the window.
  void set_window(unsigned i, const EpWin& w);
  const EpWin& window(unsigned i) const;

  // The registers as a TLM-2.0 target reaches them (the composition's pages).
  RegStatus tlm_write(uint32_t offset, uint32_t data) { return ep_.tlm_write(offset, data); }
  RegStatus tlm_read(uint32_t offset, uint32_t& data) const { return ep_.tlm_read(offset, data); }

  // The copy engine, as software uses it: flits at local sent as WRITE
  // packets to net at GPU dst, after the copies queued before it (ep_tx
  // sends the DMA credit controller's packets first).
  void send(uint64_t local, uint64_t net, uint32_t flits, uint8_t dst);
  bool sending() const { return !sendq_.empty(); }
  // WRITE flits copy window `win` has taken (cp_rx_o by cp_win_o).
  uint64_t received_flits(unsigned win) const { return win_rx_.at(win); }

  LocalMemory& memory() { return mem_.mem(); }
  const LocalMemory& memory() const { return mem_.mem(); }
  const InnetEndpoint& endpoint() const { return ep_; }
  FabricGpuStats stats() const;
  // The front ends' last drop causes (STATUS.CAUSE of ep_rx and ep_req).
  EpRxCause rx_cause() const;
  EpReqCause req_cause() const;
  // "" when nothing was dropped; else each front end's drops and last cause.
  std::string errors() const;
  // Nothing in flight: idle_o (every engine, queue and the counters' reset
  // walk), the copy queue empty and no read answer on its way.
  bool idle() const { return idle_ && sendq_.empty() && mem_.quiet(); }
  // Lines whose contribution count is not zero (a merge not finished):
  // ep_count's array through its back door.
  unsigned open_lines() const;

 private:
  // A register at its offset in the composition's map (its TLM path).
  uint32_t reg(uint32_t offset) const;
  // copies false: the copy queue's head is not offered (set_window's cycles).
  void clock(InnetEndpointInputs& in, InnetEndpointOutputs& out, bool copies);

  InnetEndpoint ep_;
  EpLaneMemory mem_;
  uint8_t node_ = 0;
  struct Send {
    uint64_t local, net;
    uint32_t flits;
    uint8_t dst;
  };
  std::deque<Send> sendq_;
  std::vector<uint64_t> win_rx_;
  bool idle_ = false;
  bool node_written_ = false;  // ep_tx's NODE since the last reset
};

}  // namespace t3
