// The endpoint's final add (docs/blocks/ep_final.md), cycle model. Plain
// C++, no SystemC. Per clock: eval() gives the outputs for the current
// state and inputs, clock() advances the state as the rising edge of
// rtl/ep_final_core.sv does; the two are cycle- and bit-exact. The block
// firmware reads is this core behind its registers (the generated
// hw/ep_final/ep_final.h).
//
// A line at a time: taken from fin_*, its len flits read from src one a
// cycle (the tag is the flit's number), each answer kept in its place, the
// flits added to dst in order as their answers are there, then the header
// offered on res_* until taken.
#pragma once

#include <cstdint>

#include "common/params.h"
#include "common/wide.h"

namespace t3 {

struct EpFinalParams {
#define T3_PARAMS_DEF "ep_final/ep_final_params.def"
#define T3_PARAMS_SELF EpFinalParams
#include "common/param_struct.inc"

  unsigned flit_bytes() const { return flit_w / 8; }
  // Throws std::invalid_argument naming the parameter and its allowed range.
  void validate() const;
};

// The data pins core and block share (hw/ep_final/ep_final.yaml, pins).
struct EpFinalDataIn {
  bool rst_n = false;
  bool fin_valid = false;
  uint64_t fin_src = 0, fin_dst = 0;
  Wide fin_hdr;
  bool mr_ready = false;
  bool md_valid = false;
  uint8_t md_tag = 0;
  Wide md_data;
  bool mw_ready = false;
  bool res_ready = false;
};

struct EpFinalDataOut {
  bool fin_ready = false;
  bool mr_valid = false;
  uint64_t mr_addr = 0;
  uint8_t mr_tag = 0;
  bool mw_valid = false;
  uint64_t mw_addr = 0;
  Wide mw_data;
  bool mw_add = false;
  uint8_t mw_dtype = 0;
  bool res_valid = false;
  Wide res_hdr;
  bool idle = false;
};  // every field 0 while its valid is low

// What the registers read (the description's core section).
struct EpFinalCoreInputs : EpFinalDataIn {};

struct EpFinalStats {
  uint32_t lines = 0, flits = 0, stray = 0;
};

struct EpFinalCoreOutputs : EpFinalDataOut {
  bool stray = false;  // this cycle's answer has a tag no read is waiting on
  EpFinalStats stat;
};

class EpFinalCore {
 public:
  explicit EpFinalCore(const EpFinalParams& p);

  const EpFinalParams& params() const { return p_; }
  EpFinalCoreOutputs eval(const EpFinalCoreInputs& in) const;
  void clock(const EpFinalCoreInputs& in);
  // eval() then clock() on one decision.
  EpFinalCoreOutputs step(const EpFinalCoreInputs& in) {
    const EpFinalCoreOutputs o = eval(in);
    clock(in);
    return o;
  }

 private:
  bool stray(const EpFinalCoreInputs& in) const;

  EpFinalParams p_;
  uint32_t stat_mask_;
  bool busy_ = false;
  uint64_t src_ = 0, dst_ = 0;
  Wide hdr_;
  unsigned len_ = 0, issued_ = 0, added_ = 0;
  uint8_t dtype_ = 0;
  uint32_t pending_ = 0, got_ = 0;  // a bit a flit: read and not answered; answered
  Wide buf_[16];
  EpFinalStats stat_;
};

}  // namespace t3
