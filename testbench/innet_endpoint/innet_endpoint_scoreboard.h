// The endpoint's end-to-end scoreboard, independent of both models: from
// the composition's pins alone (the requests and copies the processor gave,
// the packets that left, the GPU memory behind the lanes) it holds every
// data packet the endpoint sends to the memory it was to carry
// (docs/blocks/innet_endpoint.md, "The engines"):
//   - a PUSH carries its request's source data: its range inside a request
//     taken (not a pull), its type the request's, flit i the memory at the
//     request's local address + the packet's offset + i flits;
//   - a PULL's range lies inside a pull request taken, and it carries no data;
//   - a copy's WRITE carries the copy's source data, to the copy's GPU;
//   - a PULL_RSP (an answer to another GPU's PULL) carries this GPU's
//     source data: the memory at the `src` of a window written since the
//     last reset whose range holds it, plus its offset.
// A glue bug both models share (an answer routed to the wrong engine, a
// lane's data from another lane) shows here. Not checked here: the home's
// RESULTs and what the endpoint writes into its buffers (the directed cases
// check those). The memory it reads must hold
// still where the requests and copies read (the test keeps them in source
// buffers the endpoint never writes).
#pragma once

#include <cstdint>
#include <ostream>
#include <vector>

#include "common/local_memory.h"
#include "pkt_stream.h"

namespace t3::tb {

class InnetEndpointScoreboard {
 public:
  explicit InnetEndpointScoreboard(unsigned flit_w) : fb_(flit_w / 8) {}

  // A request taken on cmd_* (cmd_valid and cmd_ready).
  void request(uint64_t local, uint64_t net, uint32_t len, uint8_t dtype, bool pull);
  // The copy command at the head of the copy queue (cp_valid), once.
  void copy(uint64_t local, uint64_t net, uint32_t flits, uint8_t dst);
  // A window written through page 1 (valid, not a copy window): its range
  // and source buffer.
  void window(uint64_t net_base, uint64_t bytes, uint64_t src) { wins_.push_back(Win{net_base, bytes, src}); }
  // A packet whose last flit left on req_out (k 0) or rsp_out (k 1), with
  // the memory as it is now; a violation is written to err.
  void sent(unsigned k, const Packet& p, const LocalMemory& mem, std::ostream& err);
  // The endpoint was reset: what it was asked before is forgotten.
  void reset() {
    reqs_.clear();
    copies_.clear();
    wins_.clear();
  }

  uint64_t pushes_checked() const { return pushes_; }
  uint64_t pulls_checked() const { return pulls_; }
  uint64_t writes_checked() const { return writes_; }
  uint64_t pull_rsps_checked() const { return pull_rsps_; }

 private:
  struct Req {
    uint64_t local, net, bytes;
    uint8_t dtype;
    bool pull;
  };
  struct Copy {
    uint64_t local, net, bytes;
    uint8_t dst;
  };
  struct Win {
    uint64_t net, bytes, src;
  };
  // The data flits of p equal the memory from local on.
  bool carries(const Packet& p, uint64_t local, const LocalMemory& mem) const;

  uint64_t fb_;
  std::vector<Req> reqs_;
  std::vector<Copy> copies_;
  std::vector<Win> wins_;
  uint64_t pushes_ = 0, pulls_ = 0, writes_ = 0, pull_rsps_ = 0;
};

}  // namespace t3::tb
