// A GPU's side of the in-network fabric (ISCA 2020 in-network collectives
// paper, §IV, the endpoint's DMA and its controller), cycle model. Plain C++:
// no SystemC here.
//
// The DMA credit controller (docs/blocks/dma_credit.md) turns the
// processor's reduction requests into packet descriptors under its credits
// and injection limit; the endpoint's engines around it do the memory side:
//   tx     reads a PUSH's data from local memory and sends the packet (a
//          PULL goes as its header);
//   pull   answers a PULL from another GPU with its own data (PULL_RSP);
//   rx     takes the responses: a RESULT is written to the buffer it
//          completes; PULL_RSPs are merged into the requester's buffer
//          (the first stored, the others added) until their contributions
//          and its own make the region's count; PARTIALs are merged at the
//          region's home the same way (the paper: "partial [sent to the
//          home] gpu [which] reduces [and] multicasts");
//   final  adds the requester's own contribution to a pulled line;
//   home   sends a line the home has merged whole as a RESULT to the
//          region's other GPUs, and completes its own request.
// Memory's add (op-and-store) is the near-bank ALU's (T3 §4.3): merges never
// read, modify and write in the endpoint, so two merges of one line cannot
// race. A result goes to the DMA credit controller as the header of the
// line it completes, with the counter that asked for it: a RESULT is
// matched by address against the counters' ranges (a multicast cannot carry
// every GPU's counter id), a PULL_RSP carries its own.
//
// Deadlock: a response that makes a response (a PARTIAL completing a line
// whose RESULT the home sends) must not wait for it: a completed line waits
// in HOME_Q or, when that is full, in its counter (a sweep finds it), and
// the response stream is never held for the home's output. Every read
// reserves the room its data will need before it is issued, so the memory's
// answers never wait.
//
// Per clock: step() gives the outputs for the current state and inputs and
// advances the state as the rising edge does. This is the endpoint's
// one-step model, which the fabric (tlm/innet_fabric.h) runs on; the
// endpoint built of its blocks, with RTL, is hw/innet_endpoint
// (docs/blocks/innet_endpoint.md, "The composition").
#pragma once

#include <cstdint>
#include <deque>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/apb.h"
#include "common/packet.h"
#include "common/params.h"
#include "common/wide.h"
#include "dma_credit/dma_credit.h"
#include "ep_tx/ep_tx_core.h"
#include "ep_window/ep_window.h"
#include "common/local_memory.h"

namespace t3 {

struct EpModelParams {
#define T3_PARAMS_DEF "ep_model/ep_model_params.def"
#define T3_PARAMS_SELF EpModelParams
#include "common/param_struct.inc"

  unsigned flit_bytes() const { return flit_w / 8; }
  DmaCreditParams dma_credit() const;
  EpWindowParams ep_window() const;
  EpTxParams ep_tx() const;
  // Throws std::invalid_argument naming the parameter and its range.
  void validate() const;
};

struct EpModelInputs {
  bool rst_n = true;
  ApbRequest apb;  // page 0: the DMA credit controller's registers; page 1: the windows' (ep_window)
  // The processor's request port (the DMA credit controller's cmd_*).
  bool cmd_valid = false;
  uint64_t cmd_local_addr = 0, cmd_net_addr = 0;
  uint32_t cmd_len = 0;
  uint8_t cmd_red_op = 0, cmd_dtype = 0;
  bool cmd_pull = false;
  uint8_t cmd_src = 0, cmd_dst = 0, cmd_tag = 0;
  // The fabric port: a stream per class each way (docs/packet.md).
  bool req_in_valid = false, rsp_in_valid = false;
  Wide req_in_flit, rsp_in_flit;
  bool req_out_ready = false, rsp_out_ready = false;
};

struct EpModelOutputs {
  ApbResponse apb;
  bool intr = false;
  bool cmd_ready = false;
  bool cpl_wr = false;  // a completion record written (the DMA credit controller's cpl_*)
  uint8_t cpl_status = 0, cpl_ctr = 0, cpl_tag = 0;
  bool req_in_ready = false, rsp_in_ready = false;
  bool req_out_valid = false, rsp_out_valid = false;
  Wide req_out_flit, rsp_out_flit;  // 0 while the valid is low
};

// What the endpoint counted (its status, read by the driver).
struct EpModelStats {
  uint64_t pushes = 0, pulls = 0;          // packets sent from the DMA credit controller's descriptors
  uint64_t pull_answers = 0;               // PULL_RSPs sent for other GPUs' PULLs
  uint64_t results = 0;                    // RESULTs taken
  uint64_t pull_rsps = 0;                  // PULL_RSPs taken (merged)
  uint64_t partials = 0;                   // PARTIALs merged (home)
  uint64_t home_results = 0;               // RESULTs the home sent
  uint64_t home_sweeps = 0;                // completed lines found by the sweep (HOME_Q was full)
  uint64_t staged = 0;                     // PUSHes staged at a deterministic home
  uint64_t dropped = 0;                    // packets dropped: see last_error
  uint64_t mem_reads = 0, mem_writes = 0, mem_adds = 0;
};

// Why a packet was dropped (EpModel::last_error()).
enum class EpError : uint8_t {
  none = 0,
  malformed = 1,     // docs/packet.md's checks failed
  no_window = 2,     // the address is in no valid window
  wrong_op = 3,      // an opcode the endpoint does not take on that stream
  not_home = 4,      // a PARTIAL for a window whose home is elsewhere
  overcount = 5,     // contributions past the region's count
  wrong_dtype = 6,   // a reduction of another type than the window's
  wrong_src = 7,     // a PUSH to a deterministic home from a src not in contrib_mask
};
const char* name(EpError e);

class EpModel {
 public:
  explicit EpModel(const EpModelParams& params);

  const EpModelParams& params() const { return p_; }
  void step(const EpModelInputs& in, EpModelOutputs& out);

  // Window i as the endpoint driver writes it through page 1's registers
  // (t3_ep_set_window), taking effect at once (the window block's two
  // cycles run here). Throws std::invalid_argument naming the field and its
  // allowed range (ep_window's check_window()); a refused window changes
  // nothing. w.valid false clears the window.
  void set_window(unsigned i, const EpWin& w);
  // This GPU's port number: the src of the RESULTs its home sends.
  void set_node(uint8_t node) { node_ = node; }
  const EpWin& window(unsigned i) const {
    if (i >= p_.windows) throw std::out_of_range("innet_endpoint window " + std::to_string(i) + ": 0..WINDOWS-1");
    return wb_.core().window(i);
  }

  // The registers, as a TLM-2.0 target reaches them: page 0 the DMA credit
  // controller's, page 1 the windows'; any other page: address error.
  RegStatus tlm_write(uint32_t offset, uint32_t data);
  RegStatus tlm_read(uint32_t offset, uint32_t& data) const;

  // The GPU's copy engine, as software uses it: flits at local sent as
  // WRITE packets (MAX_LEN flits each) to net at GPU dst, after the copies
  // queued before it; the DMA credit controller's packets go first.
  void send(uint64_t local, uint64_t net, uint32_t flits, uint8_t dst);
  bool sending() const { return !sendq_.empty(); }
  // WRITE flits a copy window has taken.
  uint64_t received_flits(unsigned win) const { return win_rx_.at(win); }

  LocalMemory& memory() { return mem_; }
  const LocalMemory& memory() const { return mem_; }
  const DmaCredit& dma_credit() const { return dc_; }
  const EpModelStats& stats() const { return st_; }
  EpError last_error() const { return last_err_; }
  // Nothing in flight inside the endpoint (queues, engines, memory).
  bool idle() const;
  // Lines whose contribution counter is not zero (a merge not finished).
  unsigned open_lines() const;

 private:
  // An output queue whose slots are taken in packet order and whose data
  // slots are filled when the memory answers (by the slot's number).
  struct SlotQueue {
    struct Slot {
      Wide flit;
      bool ready = false;
    };
    std::deque<Slot> q;
    uint64_t head_seq = 0;  // the number of q.front()
    unsigned cap = 0;
    unsigned room() const { return cap - unsigned(q.size()); }
    uint64_t push(const Wide& f, bool ready);
    void fill(uint64_t seq, const Wide& f);
    bool head_ready() const { return !q.empty() && q.front().ready; }
  };
  // Who a memory read answers (where its data goes).
  enum Reader : uint8_t { kTx, kPull, kFinal, kHome, kDet };
  struct ReadTag {
    Reader who;
    uint64_t seq;  // the slot (tx, pull, home) or the final queue's entry
  };
  struct PullAns {  // the PULL being answered, or (deterministic home) the PUSH being staged
    unsigned left = 0, drop = 0, stage_left = 0;
    uint64_t addr = 0, seq = 0;
    bool completes = false;  // the staged PUSH is the line's last
    uint8_t copy = 0;        // a WRITE into a copy window: EpWin::Copy
    unsigned win = 0;
    uint32_t line = 0;
    unsigned len = 0;
  };
  struct DetLine {  // a deterministic home's line, all contributions staged
    unsigned win = 0;
    uint32_t line = 0;
    unsigned len = 0;
  };
  struct Det {  // the line being added in rank order
    bool busy = false;
    DetLine l;
    unsigned read = 0, used = 0, reserved = 0;  // flits read, added; data room reserved
    std::deque<Wide> data;
  };
  struct Rx {  // the response whose data flits are coming
    enum Mode : uint8_t { kIdle, kDrop, kWrite, kMerge } mode = kIdle;
    unsigned left = 0;
    uint64_t addr = 0;       // local address of the next flit
    bool first = false;      // the line's first contribution: stored, not added
    uint8_t dtype = 0;
    pkt::Header hdr;         // as received
    unsigned win = 0;
    uint32_t line = 0;       // the counter
    enum After : uint8_t { kNothing, kResult, kFinal, kHomeDone } after = kNothing;
  };
  struct FinalLine {  // a pulled line that needs the requester's own data added
    uint64_t src = 0, dst = 0;
    unsigned len = 0, read = 0, added = 0;
    uint8_t dtype = 0;
    pkt::Header res;  // for the DMA credit controller once added
    std::vector<Wide> data;
    std::vector<bool> got;
  };
  struct HomeLine {
    unsigned win = 0;
    uint32_t line = 0;
    unsigned len = 0;
  };
  struct Home {  // the completed line being sent
    bool busy = false;
    HomeLine l;
    unsigned left = 0, echo_left = 0, reading = 0;  // reads to issue, echo writes, reads not back
    uint64_t addr = 0, seq = 0;
    std::deque<Wide> echo;  // data for the home's own dst (merge != dst)
    uint64_t echo_addr = 0;
  };

  int find_window(uint64_t net_addr, unsigned len) const;
  uint8_t counter_of(uint64_t net_addr) const;  // 0xFF: none
  void reset();
  void take_response_header();
  void take_request_header();
  void deliver(const ReadTag& t, const Wide& data);
  bool mem_free() const { return ops_ < p_.mem_ops; }
  void mem_read(uint64_t addr, const ReadTag& t);
  void mem_write(uint64_t addr, const Wide& d);
  void mem_add(uint64_t addr, const Wide& d, uint8_t dtype);
  void accept_descriptor(const Wide& hdr);
  void step_tx(const EpTxCoreOutputs& t);
  void step_pull();
  void step_rx();
  void finish_rx();
  void step_final();
  void step_home();
  void step_det();
  bool take_det_push(const pkt::Header& h, int w);
  bool resq_room() const { return resq_.size() + resq_reserved_ < resq_cap_; }
  void drop(EpError e);
  bool next_home_line(HomeLine& l);

  EpModelParams p_;
  DmaCredit dc_;
  EpWindowParams wp_;
  EpWindow wb_;  // the translation windows (page 1)
  EpWindowOutputs wbo_;
  bool win_pending_ = false;  // a write to page 1 last cycle: its pulse is now
  bool win_after_ = false;    // the window block was clocked last cycle
  const EpWin* wt() const { return &wb_.core().window(0); }
  LocalMemory mem_;
  std::vector<uint8_t> count_, clen_;  // per flit: contributions, the line's flits
  // Per counter of the DMA credit controller: the network range its request
  // covers (a RESULT is matched to it by address).
  struct CtrRange {
    bool live = false;
    uint64_t lo = 0, hi = 0;
  };
  std::vector<CtrRange> ctr_;
  SlotQueue rspq_;
  EpTxCore tx_;  // the transmit engine (its block: docs/blocks/ep_tx.md)
  EpTxCoreInputs txi_;
  std::deque<Wide> rxq_[2];  // [0] requests in, [1] responses in
  unsigned rx_cap_ = 0;
  std::deque<pkt::Header> resq_;  // results for the DMA credit controller
  unsigned resq_cap_ = 4, resq_reserved_ = 0;
  PullAns pull_;
  Rx rx_;
  std::deque<FinalLine> fin_;
  uint64_t fin_head_seq_ = 0;
  unsigned fin_cap_ = 4;
  std::deque<HomeLine> homeq_;
  uint64_t sweep_pending_ = 0;
  uint32_t sweep_at_ = 0;
  Home home_;
  std::deque<DetLine> detq_;
  unsigned detq_reserved_ = 0;
  Det det_;
  struct Send {
    uint64_t local, net;
    uint32_t flits;
    uint8_t dst;
  };
  std::deque<Send> sendq_;
  std::vector<uint64_t> win_rx_;
  struct InFlight {
    uint64_t due;
    ReadTag tag;
    Wide data;
  };
  std::deque<InFlight> inflight_;  // reads whose data are on their way
  uint64_t now_ = 0;
  unsigned ops_ = 0;  // memory operations issued in this cycle
  unsigned fin_reserved_ = 0;
  uint8_t node_ = 0;
  EpModelStats st_;
  EpError last_err_ = EpError::none;
  DmaCreditInputs dci_;
  DmaCreditOutputs dco_;
};

}  // namespace t3
