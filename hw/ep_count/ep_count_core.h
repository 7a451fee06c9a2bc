// The endpoint's contribution counters (docs/blocks/ep_count.md), cycle
// model. Plain C++, no SystemC. Per clock: eval() gives the outputs for the
// current state and inputs, clock() advances the state as the rising edge of
// rtl/ep_count_core.sv does; the two are cycle- and bit-exact. The block
// firmware reads is this core behind its registers (the generated
// hw/ep_count/ep_count.h).
//
// One array (t3::Mem, a read and a write port) holds a word per line: the
// contributions counted (CNT_W bits) and the line's length (LEN_W bits,
// above them). A request is granted in one cycle (the array read), answered
// and written in the next; a request granted in the cycle a write to its
// line lands reads the old word, so the answer stage forwards the word it
// wrote last.
#pragma once

#include <cstdint>

#include "common/params.h"
#include "common/t3_mem.h"

namespace t3 {

struct EpCountParams {
#define T3_PARAMS_DEF "ep_count/ep_count_params.def"
#define T3_PARAMS_SELF EpCountParams
#include "common/param_struct.inc"

  // Throws std::invalid_argument naming the parameter and its allowed range.
  void validate() const;
};

// A request's operation (req_op_i) and an answer's code (rsp_code_o).
enum class EpCountOp : uint8_t { read = 0, add = 1, clear = 2 };  // 3: bad
enum class EpCountCode : uint8_t { done = 0, over = 1, held = 2, bad = 3 };
const char* name(EpCountCode c);

// The data pins core and block share (hw/ep_count/ep_count.yaml, pins).
// Per-port fields are packed, port i at bits [i*W +: W].
struct EpCountDataIn {
  bool rst_n = false;
  uint32_t req_valid = 0;
  uint32_t req_op = 0;
  uint64_t req_line = 0, req_n = 0, req_limit = 0;
  uint64_t req_len = 0;
  uint32_t req_whole_ok = 0;
};

struct EpCountDataOut {
  uint32_t req_ready = 0;
  uint32_t rsp_valid = 0;
  uint8_t rsp_code = 0;
  uint32_t rsp_count = 0, rsp_len = 0;
  bool rsp_whole = false;
  bool clearing = false;
};

// What the registers read (the description's core section).
struct EpCountCoreInputs : EpCountDataIn {};

struct EpCountLast {  // the last request answered OVER or BAD
  uint32_t port = 0, code = 0, line = 0;
};
struct EpCountStats {
  uint32_t ops = 0, over = 0, held = 0, bad = 0;
};

struct EpCountCoreOutputs : EpCountDataOut {
  bool over = false;  // an answer OVER in this cycle
  bool bad = false;   // an answer BAD in this cycle
  EpCountLast last;
  EpCountStats stat;
};

class EpCountCore {
 public:
  explicit EpCountCore(const EpCountParams& p);

  const EpCountParams& params() const { return p_; }
  EpCountCoreOutputs eval(const EpCountCoreInputs& in) const;
  void clock(const EpCountCoreInputs& in);
  // eval() then clock() on one decision.
  EpCountCoreOutputs step(const EpCountCoreInputs& in) {
    const EpCountCoreOutputs o = eval(in);
    clock(in);
    return o;
  }

  // Back door (tests): line i's count and length as the array holds them.
  uint32_t count(uint32_t line) const { return mem_.peek(line) & cnt_mask_; }
  uint32_t len(uint32_t line) const { return mem_.peek(line) >> p_.cnt_w; }

 private:
  // The request taken in the grant cycle, answered in the next.
  struct Taken {
    bool valid = false;
    uint32_t port = 0, op = 0, line = 0, n = 0, limit = 0, len = 0;
    bool whole_ok = false, bad = false;
  };
  // The answer stage's decision on the state and the array's read word.
  struct Answer {
    EpCountCode code = EpCountCode::done;
    uint32_t word = 0;   // the line's word before
    uint32_t after = 0;  // the count after
    bool whole = false, write = false;
    uint32_t wword = 0;  // what is written
  };
  Answer answer() const;
  // The port granted (-1: none) for these requests.
  int grant(const EpCountCoreInputs& in) const;
  uint32_t field(uint64_t packed, unsigned i, unsigned w) const { return uint32_t(packed >> (i * w) & ((1ull << w) - 1)); }

  EpCountParams p_;
  unsigned line_w_, len_w_;
  uint32_t cnt_mask_, stat_mask_;
  Mem<uint32_t> mem_;
  Taken t_;
  bool fwd_valid_ = false;  // a word written at the last edge
  uint32_t fwd_line_ = 0, fwd_word_ = 0;
  bool clearing_ = false;
  uint32_t clr_line_ = 0;
  EpCountLast last_;
  EpCountStats stat_;
};

}  // namespace t3
