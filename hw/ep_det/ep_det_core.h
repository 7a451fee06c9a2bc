// The endpoint's in-order add for the deterministic mode
// (docs/blocks/ep_det.md), cycle model. Plain C++, no SystemC. Per clock:
// eval() gives the outputs for the current state and inputs, clock()
// advances the state as the rising edge of rtl/ep_det_core.sv does; the two
// are cycle- and bit-exact. The block firmware reads is this core behind its
// registers (the generated hw/ep_det/ep_det.h).
//
// A line at a time: taken from ep_req (a cycle), its window's record read
// (START, a cycle), then its expected x len contributions read from the
// stages in rank order, one read a cycle while fewer than BUF are
// outstanding (tag: the read's place in a ring of BUF answers), and
// written into the merge area in that same order as their answers are
// there: the first contributor's flits stored, every other's added in the
// window's type. When the last is written, the line goes to the home.
#pragma once

#include <cstdint>
#include <vector>

#include "common/params.h"
#include "common/wide.h"
#include "ep_window/ep_window_core.h"

namespace t3 {

struct EpDetParams {
#define T3_PARAMS_DEF "ep_det/ep_det_params.def"
#define T3_PARAMS_SELF EpDetParams
#include "common/param_struct.inc"

  unsigned flit_bytes() const { return flit_w / 8; }
  // Throws std::invalid_argument naming the parameter and its allowed range.
  void validate() const;
};

// The data pins core and block share (hw/ep_det/ep_det.yaml, pins).
struct EpDetDataIn {
  bool rst_n = false;
  EpWinTable tbl;
  bool det_valid = false;
  uint32_t det_win = 0, det_line = 0, det_len = 0;
  bool mr_ready = false;
  bool md_valid = false;
  uint8_t md_tag = 0;
  Wide md_data;
  bool mw_ready = false;
  bool hq_ready = false;
};

struct EpDetDataOut {
  bool det_ready = false;
  bool mr_valid = false;
  uint64_t mr_addr = 0;
  uint8_t mr_tag = 0;
  bool mw_valid = false;
  uint64_t mw_addr = 0;
  Wide mw_data;  // 0 (and the rest of the port) while mw_valid is low
  bool mw_add = false;
  uint8_t mw_dtype = 0;
  bool hq_valid = false;
  uint32_t hq_win = 0, hq_line = 0, hq_len = 0;  // 0 while hq_valid is low
  bool idle = false;
};

// What the registers read (the description's core section).
struct EpDetCoreInputs : EpDetDataIn {};

struct EpDetStats {
  uint32_t lines = 0, flits = 0, strays = 0;
};

struct EpDetCoreOutputs : EpDetDataOut {
  bool stray = false;  // this cycle's answer was for no read awaited
  EpDetStats stat;
};

class EpDetCore {
 public:
  explicit EpDetCore(const EpDetParams& p);

  const EpDetParams& params() const { return p_; }
  EpDetCoreOutputs eval(const EpDetCoreInputs& in) const;
  void clock(const EpDetCoreInputs& in);
  // eval() then clock() on one decision.
  EpDetCoreOutputs step(const EpDetCoreInputs& in) {
    const EpDetCoreOutputs o = eval(in);
    clock(in);
    return o;
  }

 private:
  enum State : uint8_t { kIdle, kStart, kRun, kDone };
  bool read_now() const { return st_ == kRun && rn_ < total_ && rn_ - un_ < p_.buf; }
  bool write_now() const { return st_ == kRun && got_[uslot_]; }
  bool awaited(const EpDetCoreInputs& in) const { return in.md_tag < p_.buf && pend_[in.md_tag]; }

  EpDetParams p_;
  uint32_t stat_mask_, len_mask_;
  State st_ = kIdle;
  uint32_t win_ = 0, line_ = 0, len_ = 0;
  uint8_t dtype_ = 0;
  uint32_t total_ = 0, rn_ = 0, un_ = 0;  // flits to add; read; written
  uint32_t rslot_ = 0, uslot_ = 0, ri_ = 0, ui_ = 0;
  uint64_t bytes_ = 0, rbase_ = 0, raddr_ = 0, wbase_ = 0, waddr_ = 0;
  std::vector<bool> pend_, got_;  // a ring place: read and not answered; answered and not written
  std::vector<Wide> buf_;
  EpDetStats stat_;
};

}  // namespace t3
