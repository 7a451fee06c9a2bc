// The endpoint's response queue (ISCA 2020 in-network collectives paper,
// §IV; docs/blocks/ep_rspq.md), cycle model. Plain C++, no SystemC. Per
// clock: eval() gives the outputs for the current state and inputs,
// clock() advances the state as the rising edge of rtl/ep_rspq_core.sv
// does; the two are cycle- and bit-exact.
//
// Two reservation ports, the home's (a RESULT) before the request
// receiver's (a PULL_RSP): a packet's header and its len data slots are
// reserved in one grant when 1 + len slots are free, and the grant names
// the slot of the first data flit, with which the engine tags the reads
// that fill them. The ring is ep_tx's output queue (EpOutq): answers fill
// the slots they name in any order, an answer no slot awaits is a stray
// (ignored, counted), and the head leaves when it is there. A reservation
// of more than MAX_LEN data slots is refused (taken and counted): no grant
// could ever hold it.
#pragma once

#include <cstdint>

#include "common/params.h"
#include "common/wide.h"
#include "ep_tx/ep_outq.h"

namespace t3 {

struct EpRspqParams {
#define T3_PARAMS_DEF "ep_rspq/ep_rspq_params.def"
#define T3_PARAMS_SELF EpRspqParams
#include "common/param_struct.inc"

  // Throws std::invalid_argument naming the parameter and its allowed range
  // (SLOTS also against MAX_LEN).
  void validate() const;
};

// The data pins core and block share (hw/ep_rspq/ep_rspq.yaml, pins).
struct EpRspqDataIn {
  bool rst_n = false;
  bool hrq_valid = false;
  Wide hrq_hdr;
  uint32_t hrq_len = 0;
  bool prq_valid = false;
  Wide prq_hdr;
  uint32_t prq_len = 0;
  bool md_valid = false;
  uint8_t md_tag = 0;
  Wide md_data;
  bool rsp_out_ready = false;
};

struct EpRspqDataOut {
  bool hrq_ready = false;
  uint8_t hrq_slot = 0;  // the first data slot of a packet granted now (either port)
  bool prq_ready = false;
  uint8_t prq_slot = 0;
  bool rsp_out_valid = false;
  Wide rsp_out_flit;  // 0 while rsp_out_valid is low
  bool idle = false;
};

struct EpRspqCoreInputs : EpRspqDataIn {};

struct EpRspqStats {
  uint32_t results = 0, pull_rsps = 0, flits = 0, strays = 0, bad = 0;
};

struct EpRspqCoreOutputs : EpRspqDataOut {
  bool stray = false;  // this cycle's answer was for no slot awaited
  bool bad = false;    // a reservation refused in this cycle
  uint8_t queued = 0;
  EpRspqStats stat;
};

class EpRspqCore {
 public:
  explicit EpRspqCore(const EpRspqParams& p);

  const EpRspqParams& params() const { return p_; }
  EpRspqCoreOutputs eval(const EpRspqCoreInputs& in) const;
  void clock(const EpRspqCoreInputs& in);
  EpRspqCoreOutputs step(const EpRspqCoreInputs& in) {
    const EpRspqCoreOutputs o = eval(in);
    clock(in);
    return o;
  }

 private:
  // A port's len as its pin holds it (LEN_W bits), and what it is granted.
  struct Port {
    bool valid;
    const Wide* hdr;
    unsigned len;
    bool bad;    // more than MAX_LEN data slots: refused
    bool ready;  // granted or refused in this cycle
  };
  void ports(const EpRspqCoreInputs& in, Port& h, Port& pr) const;
  unsigned md_tag(const EpRspqCoreInputs& in) const { return in.md_tag & ((1u << p_.slot_w()) - 1); }

  EpRspqParams p_;
  EpOutq q_;
  uint64_t results_ = 0, pull_rsps_ = 0, flits_ = 0, strays_ = 0, bad_ = 0;
};

}  // namespace t3
