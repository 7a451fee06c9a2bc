// A GPU's side of the in-network fabric (ISCA 2020 in-network collectives
// paper, §IV, the endpoint's DMA and its controller) as a composition of
// its blocks, cycle model. Plain C++: no SystemC here. rtl/innet_endpoint.sv
// is the same composition in RTL; the two are co-simulated every cycle.
//
// The DMA credit controller turns the processor's requests into packet
// descriptors; ep_tx reads a PUSH's data and sends the packet (and the copy
// engine's WRITEs); ep_rx takes the response stream (RESULTs written,
// PULL_RSPs and PARTIALs merged by add, counted in ep_count) and hands a
// pulled line to ep_final (the requester's own contribution added) and a
// whole line to ep_home (sent as a RESULT through the response queue
// ep_rspq); ep_req takes the request stream (WRITEs, PULLs answered through
// ep_rspq, a deterministic home's PUSHes staged and added in rank order by
// ep_det); ep_res gives the result headers to the DMA credit controller
// with their counters. Ten memory ports meet the GPU memory's MEM_OPS lanes
// in ep_mem_arb; the memory itself is outside (the composition's mem_* and
// ans_* pins: every lane taken, reads answered after a fixed latency).
// docs/blocks/innet_endpoint.md, "The composition", gives the wiring and
// the choices.
//
// Per clock: eval() gives the outputs for the current state and inputs,
// then clock() advances every block and queue as the rising edge does.
#pragma once

#include <cstdint>
#include <memory>

#include "common/apb.h"
#include "common/fifo.h"
#include "common/params.h"
#include "common/regs.h"
#include "common/wide.h"
#include "dma_credit/dma_credit.h"
#include "ep_count/ep_count.h"
#include "ep_det/ep_det.h"
#include "ep_final/ep_final.h"
#include "ep_home/ep_home.h"
#include "ep_mem_arb/ep_mem_arb.h"
#include "ep_req/ep_req.h"
#include "ep_res/ep_res.h"
#include "ep_rspq/ep_rspq.h"
#include "ep_rx/ep_rx.h"
#include "ep_tx/ep_tx.h"
#include "ep_window/ep_window.h"
#include "innet_endpoint/innet_endpoint_map.h"

namespace t3 {

struct InnetEndpointParams {
#define T3_PARAMS_DEF "innet_endpoint/innet_endpoint_params.def"
#define T3_PARAMS_SELF InnetEndpointParams
#include "common/param_struct.inc"

  unsigned flit_bytes() const { return flit_w / 8; }
  // The blocks' parameters.
  DmaCreditParams dma_credit() const;
  EpWindowParams ep_window() const;
  EpTxParams ep_tx() const;
  EpCountParams ep_count() const;
  EpRxParams ep_rx() const;
  EpFinalParams ep_final() const;
  EpReqParams ep_req() const;
  EpHomeParams ep_home() const;
  EpDetParams ep_det() const;
  EpRspqParams ep_rspq() const;
  EpMemArbParams ep_mem_arb() const;
  EpResParams ep_res() const;

  // Throws std::invalid_argument naming the parameter and its allowed range
  // (a block's own check names the block's parameter).
  void validate() const;
};

// The memory arbiter's ports (docs/blocks/innet_endpoint.md, "The
// memory"): the engines in the one-step model's order, each engine's read
// before its write; port 0 first.
enum class EpMemPort : unsigned {
  rx_w = 0,
  home_r = 1,
  home_w = 2,
  det_r = 3,
  det_w = 4,
  final_r = 5,
  final_w = 6,
  req_r = 7,
  req_w = 8,
  tx_r = 9,
};
inline constexpr unsigned kEpMemPorts = 10;
// ep_count's ports: the receive engine, the request receiver, the home's
// CLEAR, the home's sweep READ (ep_home's one port split by its op).
inline constexpr unsigned kEpCountPorts = 4;

struct InnetEndpointInputs {
  bool rst_n = true;
  ApbRequest apb;
  uint8_t node = 0;
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
  // The memory's answers, a lane each.
  uint32_t ans_valid = 0;
  EpMemArbTags ans_tag;
  EpMemArbLaneFlits ans_data;
  // The copy engine's command at the head of its queue.
  bool cp_valid = false;
  uint64_t cp_local = 0, cp_net = 0;
  uint32_t cp_flits = 0;
  uint8_t cp_dst = 0;
};

struct InnetEndpointOutputs {
  ApbResponse apb;
  bool intr = false;
  bool cmd_ready = false;
  bool cpl_wr = false;
  uint8_t cpl_status = 0, cpl_ctr = 0, cpl_tag = 0;
  bool req_in_ready = false, rsp_in_ready = false;
  bool req_out_valid = false, rsp_out_valid = false;
  Wide req_out_flit, rsp_out_flit;  // 0 while the valid is low
  // The memory's lanes: the operations granted in this cycle.
  uint32_t mem_valid = 0, mem_op = 0, mem_dtype = 0;
  EpMemArbLaneAddrs mem_addr;
  EpMemArbLaneFlits mem_data;
  EpMemArbTags mem_tag;
  bool cp_done = false;
  bool cp_rx = false;
  uint32_t cp_win = 0;
  bool idle = false;
};

class InnetEndpoint {
 public:
  explicit InnetEndpoint(const InnetEndpointParams& params);

  const InnetEndpointParams& params() const { return p_; }
  InnetEndpointOutputs eval(const InnetEndpointInputs& in) const;
  void eval(const InnetEndpointInputs& in, InnetEndpointOutputs& out) const;
  void clock(const InnetEndpointInputs& in);
  // eval() then clock() on the same inputs, the wires worked out once.
  void step(const InnetEndpointInputs& in, InnetEndpointOutputs& out);
  InnetEndpointOutputs step(const InnetEndpointInputs& in);

  // Register accesses from a TLM-2.0 target, decoded by window as the APB
  // port does.
  static constexpr uint64_t kRegSpanBytes = uint64_t{1} << kInnetEndpointApbAddrBits;
  RegStatus tlm_write(uint32_t offset, uint32_t data);
  RegStatus tlm_read(uint32_t offset, uint32_t& data) const;

  const DmaCredit& dma_credit() const { return dc_; }
  const EpWindow& ep_window() const { return win_; }
  const EpTx& ep_tx() const { return tx_; }
  const EpCount& ep_count() const { return cnt_; }
  const EpRx& ep_rx() const { return rx_; }
  const EpFinal& ep_final() const { return fin_; }
  const EpReq& ep_req() const { return req_; }
  const EpHome& ep_home() const { return home_; }
  const EpDet& ep_det() const { return det_; }
  const EpRspq& ep_rspq() const { return rspq_; }
  const EpMemArb& ep_mem_arb() const { return arb_; }
  const EpRes& ep_res() const { return res_; }
  // Flits an input queue holds (k: 0 requests, 1 responses).
  unsigned input_count(unsigned k) const { return inq_[k].count(); }

  // Passes over the blocks the wires take to settle in this cycle on these
  // inputs, the last changing nothing (eval() and step() run until they
  // settle; past kMostPasses they throw std::logic_error: a combinational
  // loop).
  static constexpr unsigned kMostPasses = 16;
  unsigned settle_passes(const InnetEndpointInputs& in) const;

 private:
  // Every block's inputs and outputs in one cycle, as the wires carry them.
  struct Wires {
    DmaCreditInputs dc;
    DmaCreditOutputs dc_o;
    EpWindowInputs win;
    EpWindowOutputs win_o;
    EpTxInputs tx;
    EpTxOutputs tx_o;
    EpCountInputs cnt;
    EpCountOutputs cnt_o;
    EpRxInputs rx;
    EpRxOutputs rx_o;
    EpFinalInputs fin;
    EpFinalOutputs fin_o;
    EpReqInputs req;
    EpReqOutputs req_o;
    EpHomeInputs home;
    EpHomeOutputs home_o;
    EpDetInputs det;
    EpDetOutputs det_o;
    EpRspqInputs rspq;
    EpRspqOutputs rspq_o;
    EpMemArbInputs arb;
    EpMemArbOutputs arb_o;
    EpResInputs res;
    EpResOutputs res_o;
    unsigned window;
  };
  template <class Self>
  static unsigned wires(Self& self, const InnetEndpointInputs& in, Wires& w);
  template <class Self, class F>
  static bool with_window(Self& self, unsigned page, F&& f);
  // One block's inputs from the wires' present values (P: which).
  enum class Part { dc, win, tx, cnt, rx, fin, req, det, home, rspq, arb, res };
  template <Part P>
  void connect(const InnetEndpointInputs& in, Wires& w) const;
  void outputs(const InnetEndpointInputs& in, const Wires& w, InnetEndpointOutputs& o) const;
  // The composition's own state at the edge (the blocks are clocked in wires()).
  void edge(const InnetEndpointInputs& in, const Wires& w);

  InnetEndpointParams p_;
  DmaCredit dc_;
  EpWindow win_;
  EpTx tx_;
  EpCount cnt_;
  EpRx rx_;
  EpFinal fin_;
  EpReq req_;
  EpHome home_;
  EpDet det_;
  EpRspq rspq_;
  EpMemArb arb_;
  EpRes res_;
  // The wires' widths, worked out from the parameters once: connect() runs
  // several times a cycle.
  struct Widths {
    unsigned arb_tag, line, len, slot, tx_tag, fin_tag, det_tag;
  };
  Widths wd_;
  Fifo<Wide> inq_[2];  // 0: req_in, 1: rsp_in
  Wires w_{};  // step()'s and clock()'s wires
  // wires()'s record of the inputs each block was last evaluated on:
  // scratch, kept to spare its construction every cycle.
  std::unique_ptr<Wires> seen_;
};

}  // namespace t3
