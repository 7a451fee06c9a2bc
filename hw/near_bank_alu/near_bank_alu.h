// T3 near-bank ALU with its bank timing, cycle model (T3 §4.3, §5.1.1,
// Table 1). Plain C++: no SystemC here.
//
// Column commands from the memory controller's queue: READ a burst, STORE
// one (with a byte mask), or ADD (op-and-store): the burst's old value is
// read inside the bank, its fp16, bf16 or fp32 lanes added to the command's
// (IEEE round to nearest even, hw/near_bank_alu/fp_add.h) and written back
// under the byte mask. One command at a time per bank group; after an
// op-and-store the bank group's next column command waits tCCDWL = 2 x tCCDL
// (T3 §5.1.1). Updates to one address take effect in the order they were
// accepted, back to back included: a command that reads an address a younger
// write has not reached yet waits, and the write of the cycle before a read
// is forwarded into it.
//
// The bank itself (the DRAM array) is outside: the block reads it through
// bank_rd_* (data on bank_rdata_i one cycle later) and writes it through
// bank_wr_* (a byte-masked write; a read and a write of one address in one
// cycle read the old data).
//
// Pipeline, for a command accepted in cycle t: t+1 the bank read, t+2 the
// data and the adders' inputs (a READ's data is registered for the
// response), t+3 the response, t+5 the write-back (the adders take 3
// cycles). The C++ model and rtl/near_bank_alu.sv are cycle- and bit-exact.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "common/params.h"
#include "common/wide.h"
#include "near_bank_alu/fp_add.h"

namespace t3 {

struct NearBankAluParams {
#define T3_PARAMS_DEF "near_bank_alu/near_bank_alu_params.def"
#define T3_PARAMS_SELF NearBankAluParams
#include "common/param_struct.inc"

  unsigned bg_w() const;  // the bank-group field (at least 1 bit)
  unsigned data_w() const { return burst_bytes * 8; }
  // Cycles from a command's acceptance to its response / its write-back.
  static constexpr unsigned kReadLatency = 3;
  static constexpr unsigned kWriteLatency = 5;

  // Throws std::invalid_argument naming the parameter and its allowed range.
  void validate() const;
};

enum class NbOp : uint8_t { read = 0, store = 1, add = 2 };      // 3 is refused
enum class NbFormat : uint8_t { fp16 = 0, bf16 = 1, fp32 = 2 };  // 3 is refused

// The lane format of an ADD; nullopt for the refused code.
std::optional<FpFormat> nb_format(uint32_t code);
// Why a command is refused (it is taken, counted and flagged, and does
// nothing), or nothing: op 3, or an ADD with format 3. The one definition;
// rtl/near_bank_alu.sv implements the same rule.
std::optional<std::string> nb_command_fault(uint32_t op, uint32_t fmt);

struct NearBankAluInputs {
  bool rst_n = true;
  bool cmd_valid = false;
  uint32_t cmd_op = 0;   // NbOp
  uint32_t cmd_fmt = 0;  // NbFormat, for ADD
  uint32_t cmd_bg = 0;
  uint32_t cmd_addr = 0;
  Wide cmd_data;  // BURST_BYTES bytes
  Wide cmd_mask;  // one bit a byte: written (STORE, ADD) where set
  Wide bank_rdata;  // the burst read in the cycle before
  bool err_clear = false;
};

struct NearBankAluOutputs {
  bool cmd_ready = false;
  uint32_t bg_ready = 0;  // bit g: a command to bank group g may issue now
  bool bank_rd = false;
  uint32_t bank_rd_bg = 0, bank_rd_addr = 0;
  bool bank_wr = false;
  uint32_t bank_wr_bg = 0, bank_wr_addr = 0;
  Wide bank_wdata, bank_wmask;
  bool rsp_valid = false;
  Wide rsp_data;
  bool err = false;  // sticky: a command was refused (until err_clear)
  uint32_t stat_reads = 0, stat_stores = 0, stat_adds = 0, stat_refused = 0;
  uint32_t stat_hazard_stalls = 0;  // cycles a command waited for an older write to its address
  uint32_t stat_timing_stalls = 0;  // cycles a command waited for its bank group's timing
};

class NearBankAlu {
 public:
  explicit NearBankAlu(const NearBankAluParams& params);

  const NearBankAluParams& params() const { return p_; }
  NearBankAluOutputs eval(const NearBankAluInputs& in) const;
  void clock(const NearBankAluInputs& in);

 private:
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
  struct Decision {
    bool refused, hazard, timing_ok, ready, accept;
    uint32_t bg, addr;
  };
  Decision decide(const NearBankAluInputs& in) const;
  // eval() and the clock() that follows it see the same command: decide()
  // remembers its last decision, with the command fields it depends on,
  // until the state changes at the clock edge.
  struct Memo {
    bool valid = false, cmd_valid = false;
    uint32_t op = 0, fmt = 0, bg = 0, addr = 0;
    Decision d{};
  };
  mutable Memo memo_;
  bool reads(const Stage& s) const { return s.valid && (s.op == NbOp::read || s.op == NbOp::add); }
  bool writes(const Stage& s) const { return s.valid && (s.op == NbOp::store || s.op == NbOp::add); }
  // The bank's data with the last write merged in, into r (burst bits only).
  void merge_rdata(const Wide& bank_rdata, Wide& r) const;

  // The command accepted k cycles ago (k = 1..5): a ring, so that a clock
  // moves an index rather than five bursts.
  // Eight slots for five stages: an index mask instead of a division.
  Stage& st(unsigned k) { return ring_[(head_ + k) & 7]; }
  const Stage& st(unsigned k) const { return ring_[(head_ + k) & 7]; }

  NearBankAluParams p_;
  uint32_t bg_mask_, addr_mask_, stat_mask_;
  Stage ring_[8];
  unsigned head_ = 0;
  // The write of the cycle before (for forwarding into a read of the same address).
  bool fwd_valid_ = false;
  uint32_t fwd_bg_ = 0, fwd_addr_ = 0;
  Wide fwd_data_, fwd_mask_;
  bool rsp_valid_ = false;
  Wide rsp_data_;
  Wide scratch_;  // an ADD's old burst (a member: no 128-byte temporary per cycle)
  // Bank timing as the cycle from which any column command / one to bank
  // group g may issue (the RTL counts the wait down; the same cycles, and
  // nothing to count down every cycle here). now_ counts cycles since reset.
  uint64_t now_ = 0;
  uint64_t ready_any_ = 0;
  std::array<uint64_t, 16> ready_bg_{};  // BG <= 16 (near_bank_alu_params.def)
  bool err_ = false;
  uint32_t stat_reads_ = 0, stat_stores_ = 0, stat_adds_ = 0, stat_refused_ = 0;
  uint32_t stat_hazard_ = 0, stat_timing_ = 0;
};

}  // namespace t3
