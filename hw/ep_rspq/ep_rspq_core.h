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
// that fill them. The ring is ep_tx's output queue (EpOutq), with a fill
// port for each engine's answers: answers fill the slots they name in any
// order, an answer no slot awaits is a stray (ignored, counted), and the
// head leaves when it is there; a RESULT's last flit waits for the home's
// release (its counter cleared). A reservation of more than MAX_LEN data
// slots is never granted (no grant could hold it, and the engine could
// not tell a refusal from a grant): BAD is raised and counted once.
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
  bool hrel = false;
  bool hmd_valid = false;
  uint8_t hmd_tag = 0;
  Wide hmd_data;
  bool pmd_valid = false;
  uint8_t pmd_tag = 0;
  Wide pmd_data;
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
  bool stray = false;  // an answer of this cycle was for no slot awaited
  bool bad = false;    // an overlong reservation first asked, or a release with no RESULT held
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
    bool over;   // more than MAX_LEN data slots: never granted
    bool ready;  // granted in this cycle
  };
  struct Cycle {
    Port h, p;
    EpOutq::Fill fill[2];
    bool bad_h, bad_p, rel_stray;  // this cycle's BAD causes
    unsigned strays;
  };
  Cycle decide(const EpRspqCoreInputs& in) const;
  unsigned tag(uint8_t t) const { return t & ((1u << p_.slot_w()) - 1); }

  EpRspqParams p_;
  EpOutq q_;
  bool over_seen_[2] = {};  // an overlong reservation of the port counted already (held until withdrawn)
  uint64_t results_ = 0, pull_rsps_ = 0, flits_ = 0, strays_ = 0, bad_ = 0;
};

}  // namespace t3
