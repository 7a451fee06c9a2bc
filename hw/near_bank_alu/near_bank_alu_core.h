// T3 near-bank ALU core with its bank timing, cycle model (T3 §4.3,
// §5.1.1, Table 1). Plain C++: no SystemC here. The block firmware and the
// memory controller see is this core behind its registers
// (hw/near_bank_alu/near_bank_alu.h); the core takes the error clear as a
// plain input.
//
// Column commands from the memory controller's queue: READ a burst, STORE
// one (with a byte mask), or ADD (op-and-store): the burst's old value is
// read inside the bank, its fp16, bf16 or fp32 lanes added to the command's
// (IEEE round to nearest even, hw/common/fp_add.h) and written back
// under the byte mask. One command at a time per bank group; after an
// op-and-store the bank group's next column command waits tCCDWL = 2 x tCCDL
// (T3 §5.1.1). Updates to one address take effect in the order they were
// accepted, back to back included: a command that reads an address a younger
// write has not reached yet waits, and the writes that reach the bank in the
// two cycles after its read are forwarded into its data.
//
// The bank itself (the DRAM array) is outside: the block reads it through
// bank_rd_* (data on bank_rdata_i one cycle later) and writes it through
// bank_wr_* (a byte-masked write; a read and a write of one address in one
// cycle read the old data).
//
// Pipeline, for a command accepted in cycle t: t+1 the bank read, t+2 the
// data (the writes of t+1 and t+2 to its address merged in) and the adders'
// inputs (a READ's data is registered for the response), t+3 the response,
// t+6 the write-back (the adders take 4 cycles). The C++ model and
// rtl/near_bank_alu_core.sv are cycle- and bit-exact.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "common/params.h"
#include "common/wide.h"
#include "common/fp_add.h"

namespace t3 {

struct NearBankAluParams {
#define T3_PARAMS_DEF "near_bank_alu/near_bank_alu_params.def"
#define T3_PARAMS_SELF NearBankAluParams
#include "common/param_struct.inc"

  // Cycles from a command's acceptance to its response / its write-back.
  static constexpr unsigned kReadLatency = 3;
  static constexpr unsigned kWriteLatency = 6;

  // Throws std::invalid_argument naming the parameter and its allowed range.
  void validate() const;
};

enum class NbOp : uint8_t { read = 0, store = 1, add = 2 };      // 3 is refused
enum class NbFormat : uint8_t { fp16 = 0, bf16 = 1, fp32 = 2 };  // 3 is refused

// The lane format of an ADD; nullopt for the refused code.
std::optional<FpFormat> nb_format(uint32_t code);
// Why a command is refused (it is taken, counted and flagged, and does
// nothing), or nothing: op 3, or an ADD with format 3. The one definition;
// rtl/near_bank_alu_core.sv implements the same rule.
std::optional<std::string> nb_command_fault(uint32_t op, uint32_t fmt);

// The data-path pins, the same on the core and on the block.
struct NearBankAluDataIn {
  bool rst_n = true;
  bool cmd_valid = false;
  uint32_t cmd_op = 0;   // NbOp
  uint32_t cmd_fmt = 0;  // NbFormat, for ADD
  uint32_t cmd_bg = 0;
  uint32_t cmd_addr = 0;
  Wide cmd_data;  // BURST_BYTES bytes
  Wide cmd_mask;  // one bit a byte: written (STORE, ADD) where set
  Wide bank_rdata;  // the burst read in the cycle before
};

// Laid out bursts first, then the flags, then the fields: the block's
// Outputs (these, then intr and apb) fill four 64-byte lines exactly, so the
// per-cycle copies of them (the engines', the benchmark's) end without a
// byte-by-byte tail.
struct NearBankAluDataOut {
  Wide bank_wdata, bank_wmask;
  Wide rsp_data;
  bool cmd_ready = false;
  bool bank_rd = false;
  bool bank_wr = false;
  bool rsp_valid = false;
  // The error flag and the counters are registers too (STATUS, STAT_*);
  // the block brings them out as pins for observation.
  bool err = false;  // sticky: a command was refused (until err_clear)
  uint32_t bg_ready = 0;  // bit g: a command to bank group g may issue now
  uint32_t bank_rd_bg = 0, bank_rd_addr = 0;
  uint32_t bank_wr_bg = 0, bank_wr_addr = 0;
  uint32_t stat_reads = 0, stat_stores = 0, stat_adds = 0, stat_refused = 0;
  uint32_t stat_hazard_stalls = 0;  // cycles a command waited for an older write to its address
  uint32_t stat_timing_stalls = 0;  // cycles a command waited for its bank group's timing
};

// What the block's registers drive: CTRL.ERR_CLEAR's one-cycle pulse.
struct NearBankAluCoreInputs : NearBankAluDataIn {
  bool err_clear = false;  // clears err at the edge (a refusal in the same cycle wins)
};

// What only the registers read.
struct NearBankAluCoreOutputs : NearBankAluDataOut {
  bool busy = false;  // a command is in the pipeline (taken 1..6 cycles ago, not refused)
};

class NearBankAluCore {
 public:
  explicit NearBankAluCore(const NearBankAluParams& params);

  const NearBankAluParams& params() const { return p_; }
  NearBankAluCoreOutputs eval(const NearBankAluCoreInputs& in) const {
    const bool ready = cmd_ready(in);
    NearBankAluCoreOutputs o = out_;
    o.cmd_ready = ready;
    return o;
  }
  void clock(const NearBankAluCoreInputs& in) { clock(in, in.err_clear); }
  // eval() then clock() on one decision: the cycle's outputs, then the edge.
  NearBankAluCoreOutputs step(const NearBankAluCoreInputs& in) { return step(in, in.err_clear); }

  // The same in parts, as the block calls them every cycle
  // (hw/near_bank_alu/near_bank_alu.h): the data pins where they are, the
  // register-driven input beside them. eval() is cmd_ready() (the one output
  // that depends on this cycle's inputs) and registered() (every other
  // output, registers or decoded from them, as they are in this cycle;
  // cmd_ready false there), which the block copies straight into its own.
  bool cmd_ready(const NearBankAluDataIn& in) const { return decide(in).ready; }
  const NearBankAluCoreOutputs& registered() const { return out_; }
  void clock(const NearBankAluDataIn& in, bool err_clear);
  NearBankAluCoreOutputs step(const NearBankAluDataIn& in, bool err_clear) {
    const Decision& d = decide(in);
    NearBankAluCoreOutputs o = out_;
    o.cmd_ready = d.ready;
    if (!in.rst_n) reset();
    else apply(in, err_clear, d);
    return o;
  }

 private:
  struct Decision {
    bool refused, hazard, timing_ok, ready, accept;
    uint32_t bg, addr;
  };
  // A bank group and address as one compare; kNoKey matches no command.
  static constexpr uint64_t kNoKey = ~uint64_t{0};
  static uint64_t key(uint32_t bg, uint32_t addr) { return uint64_t(bg) << 32 | addr; }
  struct Stage {
    bool valid = false;
    NbOp op = NbOp::read;
    uint32_t fmt = 0, bg = 0, addr = 0;
    // key() of the address it writes, if it writes; beside the fields above
    // (one cache line) for the hazard check every cycle.
    uint64_t write_key = kNoKey;
    Wide data, mask;  // S3 on: for an ADD, data is the sum
  };

  // The cycle's decision: the remembered one (below) while it holds, else
  // decide_now(), which remembers it. A reference to memo_.d: apply() reads
  // it after marking the memo stale, which leaves its fields as they are.
  const Decision& decide(const NearBankAluDataIn& in) const {
    if (memo_.valid && memo_.cmd_valid == in.cmd_valid && memo_.op == in.cmd_op &&
        memo_.fmt == in.cmd_fmt && memo_.bg == in.cmd_bg && memo_.addr == in.cmd_addr)
      return memo_.d;
    return decide_now(in);
  }
  const Decision& decide_now(const NearBankAluDataIn& in) const;
  // The edge: d taken, or the reset.
  void apply(const NearBankAluDataIn& in, bool err_clear, const Decision& d);
  void reset();
  // eval() and the clock() that follows it see the same command (so do the
  // block's eval() and step()): decide() remembers its last decision, with
  // the command fields it depends on, until the state changes at the edge.
  struct Memo {
    bool valid = false, cmd_valid = false;
    uint32_t op = 0, fmt = 0, bg = 0, addr = 0;
    Decision d{};
  };
  mutable Memo memo_;
  bool reads(const Stage& s) const { return s.valid && (s.op == NbOp::read || s.op == NbOp::add); }
  bool writes(const Stage& s) const { return s.valid && (s.op == NbOp::store || s.op == NbOp::add); }
  // The bank's data with the writes of the cycle before and of this cycle
  // merged in, into r (burst bits only).
  void merge_rdata(const Wide& bank_rdata, Wide& r) const;

  // The command accepted k cycles ago (k = 1..6): a ring, so that a clock
  // moves an index rather than six bursts. Eight slots for six stages: an
  // index mask instead of a division, and the slot behind stage 6 (k = 7)
  // still holds the write of the cycle before, which is forwarded into a
  // read of its address, as is stage 6's own (the write-back of this cycle).
  Stage& st(unsigned k) { return ring_[(head_ + k) & 7]; }
  const Stage& st(unsigned k) const { return ring_[(head_ + k) & 7]; }

  NearBankAluParams p_;
  uint32_t bg_mask_, addr_mask_, stat_mask_;
  Wide data_bits_, mask_bits_;  // ones over the burst / its byte mask
  Stage ring_[8];
  unsigned head_ = 0;
  uint32_t stages_ = 0;  // bit k-1: stage k holds a command (busy)
  // Every output but cmd_ready is a register or decoded from registers: set
  // at the edge for the cycle that follows (the response, the write-back,
  // bg_ready, the error flag, the counters, busy), so that eval() is a copy.
  // The bursts are zero while their valid is 0, as on the RTL's pins.
  NearBankAluCoreOutputs out_;
  Wide scratch_;  // an ADD's old burst (a member: no 64-byte temporary per cycle)
  // Bank timing (the RTL counts each wait down; the same cycles, and nothing
  // to count down every cycle here): the cycle from which any column command
  // may issue; the bank groups waiting (bit g: BG <= 16), and which of them
  // stop waiting at cycle c (release_[c % 16]: every wait is 1..15 cycles).
  // now_ counts cycles since reset.
  uint64_t now_ = 0;
  uint64_t ready_any_ = 0;
  uint32_t blocked_ = 0;
  std::array<uint32_t, 16> release_{};
};

}  // namespace t3
