// The endpoint's result path (ISCA 2020 in-network collectives paper, §IV;
// docs/blocks/ep_res.md), cycle model. Plain C++, no SystemC. Per clock:
// eval() gives the outputs for the current state and inputs, clock()
// advances the state as the rising edge of rtl/ep_res_core.sv does; the
// two are cycle- and bit-exact.
//
// Three engines hand the DMA credit controller the headers that complete
// its requests, merged in fixed priority (ep_rx, ep_home, ep_final). A
// RESULT is multicast and carries no counter a requester can use; it is
// given the lowest live counter whose range holds its address (0xFF when
// none does). A counter's range is the span of the packets it sent (each
// descriptor's addr to addr + len x FLIT_W/8, joined), begun by its first
// descriptor and ended by its completion (OK or TIMEOUT). The final add's
// PULL_RSPs carry their requester's counter and pass unchanged.
#pragma once

#include <cstdint>
#include <vector>

#include "common/params.h"
#include "common/wide.h"

namespace t3 {

struct EpResParams {
#define T3_PARAMS_DEF "ep_res/ep_res_params.def"
#define T3_PARAMS_SELF EpResParams
#include "common/param_struct.inc"

  unsigned flit_bytes() const { return flit_w / 8; }
  // Throws std::invalid_argument naming the parameter and its allowed range.
  void validate() const;
};

// The data pins core and block share (hw/ep_res/ep_res.yaml, pins).
struct EpResDataIn {
  bool rst_n = false;
  bool desc_valid = false, desc_ready = false;
  Wide desc_hdr;
  bool cpl_wr = false;
  uint8_t cpl_status = 0;
  uint32_t cpl_ctr = 0;
  bool rx_valid = false;
  Wide rx_hdr;
  bool home_valid = false;
  Wide home_hdr;
  bool fin_valid = false;
  Wide fin_hdr;
  bool res_ready = false;
};

struct EpResDataOut {
  bool rx_ready = false, home_ready = false, fin_ready = false;
  bool res_valid = false;
  Wide res_hdr;  // 0 while res_valid is low
};

struct EpResCoreInputs : EpResDataIn {};

struct EpResStats {
  uint32_t results = 0, unmatched = 0;
};

struct EpResCoreOutputs : EpResDataOut {
  bool unmatched = false;  // a RESULT taken in this cycle matched no live range
  uint64_t live = 0;       // the counters with a live range
  EpResStats stat;
};

class EpResCore {
 public:
  explicit EpResCore(const EpResParams& p);

  const EpResParams& params() const { return p_; }
  EpResCoreOutputs eval(const EpResCoreInputs& in) const;
  void clock(const EpResCoreInputs& in);
  EpResCoreOutputs step(const EpResCoreInputs& in) {
    const EpResCoreOutputs o = eval(in);
    clock(in);
    return o;
  }

 private:
  struct Range {
    bool live = false;
    uint64_t lo = 0, hi = 0;  // [lo, hi): hi up to 2^48 + 255 x FLIT_W/8
  };
  // The counter whose range holds a (0xFF: none).
  uint8_t counter_of(uint64_t a) const;

  EpResParams p_;
  std::vector<Range> r_;
  uint64_t results_ = 0, unmatched_ = 0;
};

}  // namespace t3
