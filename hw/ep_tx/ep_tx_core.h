// The endpoint's transmit engine (ISCA 2020 in-network collectives paper,
// §IV: the endpoint's DMA reads the local buffer and sends the packets),
// cycle model. Plain C++, no SystemC. Per clock: eval() gives the outputs
// for the current state and inputs, clock() advances the state as the rising
// edge of rtl/ep_tx_core.sv does; the two are cycle- and bit-exact.
//
// The output queue (EpOutq, hw/ep_tx/ep_outq.h, shared with the response
// queue) holds TXQ flits in slots taken in packet order: a packet's header
// is ready when it is queued, its data slots when the memory answers the
// reads that fill them (each read tagged with its slot, so answers may come
// in any order; an answer no slot awaits is a stray, counted); the head
// leaves when it is ready. A
// descriptor (or a copy's next WRITE) is taken only when no packet is being
// read and a whole packet's slots are free, so every read has its slot
// before it is issued and the memory's answers never wait.
// docs/blocks/ep_tx.md.
#pragma once

#include <cstdint>

#include "common/params.h"
#include "common/wide.h"
#include "ep_tx/ep_outq.h"

namespace t3 {

struct EpTxParams {
#define T3_PARAMS_DEF "ep_tx/ep_tx_params.def"
#define T3_PARAMS_SELF EpTxParams
#include "common/param_struct.inc"

  unsigned flit_bytes() const { return flit_w / 8; }
  // Throws std::invalid_argument naming the parameter and its allowed range.
  void validate() const;
};

// The data pins core and block share (hw/ep_tx/ep_tx.yaml, pins).
struct EpTxDataIn {
  bool rst_n = false;
  bool pkt_valid = false;
  Wide pkt_hdr;
  uint64_t pkt_local_addr = 0;
  bool cp_valid = false;
  uint64_t cp_local = 0, cp_net = 0;
  uint32_t cp_flits = 0;
  uint8_t cp_dst = 0;
  bool mr_ready = false;
  bool md_valid = false;
  uint8_t md_tag = 0;
  Wide md_data;
  bool req_out_ready = false;
};

struct EpTxDataOut {
  bool pkt_ready = false;
  bool cp_done = false;
  bool mr_valid = false;
  uint64_t mr_addr = 0;
  uint8_t mr_tag = 0;
  bool req_out_valid = false;
  Wide req_out_flit;  // 0 while req_out_valid is low
  bool idle = false;
};

struct EpTxStats {
  uint32_t pushes = 0, pulls = 0, writes = 0, flits = 0, strays = 0;
};

// What the registers drive and read (the description's core section).
struct EpTxCoreInputs : EpTxDataIn {
  uint8_t node = 0;
};

struct EpTxCoreOutputs : EpTxDataOut {
  bool stray = false;  // an answer for a slot that awaits none (ignored)
  uint8_t queued = 0;
  EpTxStats stat;
};

class EpTxCore {
 public:
  explicit EpTxCore(const EpTxParams& p);

  const EpTxParams& params() const { return p_; }
  EpTxCoreOutputs eval(const EpTxCoreInputs& in) const;
  void clock(const EpTxCoreInputs& in);
  // pkt_ready_o and idle_o, which depend on the state alone.
  bool pkt_ready() const { return can_take(); }
  bool idle() const { return q_.count() == 0 && left_ == 0; }
  EpTxCoreOutputs step(const EpTxCoreInputs& in) {
    const EpTxCoreOutputs o = eval(in);
    clock(in);
    return o;
  }

 private:
  // The flits of the copy command at the head still to send.
  uint32_t copy_left(const EpTxCoreInputs& in) const { return in.cp_flits - copied_; }
  // md_tag_i as the pin holds it (TAG_W bits).
  unsigned md_tag(const EpTxCoreInputs& in) const {
    return in.md_tag & ((1u << p_.tag_w()) - 1);
  }
  // Whether a packet can be taken in this cycle (no packet being read, a
  // whole packet's slots free).
  bool can_take() const { return left_ == 0 && q_.free() >= 1 + p_.max_len; }

  EpTxParams p_;
  EpOutq q_;
  unsigned left_ = 0, seq_ = 0;  // the packet being read: flits to read, the next one's slot
  uint64_t addr_ = 0;            // and its address
  uint32_t copied_ = 0;          // flits of the head copy command already sent
  uint64_t pushes_ = 0, pulls_ = 0, writes_ = 0, flits_ = 0, strays_ = 0;
};

}  // namespace t3
