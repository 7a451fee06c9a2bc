// The switch's reduction table with its ALU array, cycle model (ISCA 2020
// in-network collectives paper, §IV "reduction table" and the figure of the
// switch's internal architecture). Plain C++, no SystemC. The block firmware
// programs is this core behind its registers (the generated
// hw/reduction_table/reduction_table.h); rtl/reduction_table_core.sv is the
// same core in RTL, cycle- and bit-exact with this model. The page is
// docs/blocks/reduction_table.md; the packet format docs/packet.md.
//
// Three packet streams (hw/common/packet.h): req_in (request class: PUSH
// contributions and PULL load-reduce requests), rsp_in (response class:
// PULL_RSP) and out (response class: RESULT, PARTIAL and PULL_RSP). A fully
// associative table of ENTRIES entries keyed by (kind, region, address,
// requester, counter id) holds up to MAX_LEN data flits an entry (behind
// t3::Mem, as rtl/t3_mem.sv), its contribution count and the region's
// expected count; an ALU array of fp16/bf16/fp32 lane adders (hw/common/
// fp_lanes.h, bit-exact with rtl/fp_add.sv) reduces one data flit a cycle.
//
// Per cycle (docs/blocks/reduction_table.md, "Pipeline"): a header flit is
// taken into its stream's header register; the next cycle (when the data
// path is free) the header is decided against the table: reduce into the
// matching entry, allocate one, evict the LRU entry first, pass it on,
// drop it (malformed, refused) or wait; its data flits then enter the
// pipeline one a cycle: the entry's word is read (1 cycle, the SRAM's
// latency; writes 4 and 5 cycles older are forwarded, 1..3 cycles older
// hold the flit), added in the 4-stage adders, and written back, or, when
// the packet completes its entry, written into the output FIFO, which sends
// each output packet as soon as its header and first data flit are there.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "common/packet.h"
#include "common/params.h"
#include "common/t3_mem.h"
#include "common/wide.h"

namespace t3 {

struct ReductionTableParams {
#define T3_PARAMS_DEF "reduction_table/reduction_table_params.def"
#define T3_PARAMS_SELF ReductionTableParams
#include "common/param_struct.inc"

  // Throws std::invalid_argument naming the parameter and its allowed range
  // (ACC32 = 1 needs FLIT_W <= 256: a word of the fp32 accumulator is
  // 2 x FLIT_W bits, and the widest the harness carries is 512).
  void validate() const;

  // The sizes the core derives (rtl/reduction_table_core.sv's localparams).
  unsigned data_w() const { return flit_w * (1 + acc32); }  // a word of the table
  unsigned words() const { return entries * max_len; }
  unsigned out_depth() const { return 1u << clog2(2 * max_len); }  // data FIFO, flits
  static constexpr unsigned kHdrDepth = 4;                          // header FIFO, headers
  static constexpr unsigned kAdderLatency = 4;                      // rtl/fp_add.sv's LATENCY
};

// Why a packet is dropped (ERR.CODE, the core's err_code_o). 1..5 are the
// format's checks (pkt::Malformed), 6..8 the block's own stateless ones,
// 9..11 refusals by the entry the packet matched.
enum class RtErr : uint8_t {
  none = 0,
  unknown_op = 1,
  bad_len = 2,
  bad_red_op = 3,
  bad_dtype = 4,
  misaligned = 5,
  wrong_port = 6,  // an opcode that does not belong on the port (a WRITE on req_in, ...)
  no_region = 7,   // hit = 0: the address is in no multicast region
  bad_count = 8,   // count/expect that no reduction can have (PUSH count 0 or above expect, ...)
  mismatch = 9,    // len, dtype (PUSH: also expect, home) differ from the entry's
  overcount = 10,  // the entry's count would pass what it expects
  duplicate = 11,  // a PULL whose entry is already there
};
const char* name(RtErr e);
inline constexpr unsigned kRtFirstRefusal = 9;

// The stateless checks of a header taken from stream `rsp` (0 req_in,
// 1 rsp_in), in this order: the format's (pkt::check), the port's opcodes,
// the region, the counts. The one definition the model uses;
// rtl/reduction_table_core.sv's hdr_check() is the same rule.
RtErr rt_check(const pkt::Header& h, bool rsp, const ReductionTableParams& p);

// The data pins core and block share (hw/reduction_table/reduction_table.yaml, pins).
struct ReductionTableDataIn {
  bool rst_n = true;
  bool req_in_valid = false;
  bool rsp_in_valid = false;
  bool out_ready = false;
  Wide req_in_flit;
  Wide rsp_in_flit;
};

struct ReductionTableDataOut {
  Wide out_flit;
  bool req_in_ready = false;
  bool rsp_in_ready = false;
  bool out_valid = false;
  uint32_t stat_alloc = 0;
  uint32_t stat_hits = 0;
  uint32_t stat_completions = 0;
  uint32_t stat_evict_lru = 0;
  uint32_t stat_evict_timeout = 0;
  uint32_t stat_stall_req = 0;
  uint32_t stat_stall_rsp = 0;
  uint32_t stat_bypasses = 0;
  uint32_t stat_pull_passed = 0;
  uint32_t stat_malformed = 0;
  uint32_t stat_refused = 0;
  uint32_t stat_hwm = 0;
};

// What the registers drive and read (the description's core section).
struct ReductionTableCoreInputs : ReductionTableDataIn {
  bool cfg_enable = true;      // CTRL.ENABLE: take new headers
  bool cfg_pull_pass = false;  // CTRL.PULL_PASS: a PULL finding no free entry is not tracked
  uint32_t cfg_timeout = 0;    // TIMEOUT.CYCLES: 0 off; above 2^TIMEOUT_W - 1 refused
};

struct ReductionTableCoreOutputs : ReductionTableDataOut {
  bool cfg_error = false;  // TIMEOUT.CYCLES does not fit TIMEOUT_W bits (timeouts off)
  bool busy = false;       // an entry held, a packet in the pipeline or the output
  uint32_t occupancy = 0;  // entries held
  uint32_t err_code = 0;   // RtErr of the last packet dropped
  bool err_stream = false; // its stream: 0 req_in, 1 rsp_in
  uint32_t err_op = 0;     // its opcode
  bool evt_malformed = false;  // a packet was dropped as malformed at the last edge
  bool evt_refused = false;    // a packet was refused at the last edge
};

class ReductionTableCore {
 public:
  explicit ReductionTableCore(const ReductionTableParams& p);

  const ReductionTableParams& params() const { return p_; }
  // Every output is a register or decoded from registers and the
  // configuration: eval() does not depend on the streams' valid or flit.
  ReductionTableCoreOutputs eval(const ReductionTableCoreInputs& in) const {
    ReductionTableCoreOutputs o;
    outputs(in, o);
    return o;
  }
  void clock(const ReductionTableCoreInputs& in);
  // eval() then clock() on one decision.
  ReductionTableCoreOutputs step(const ReductionTableCoreInputs& in) {
    ReductionTableCoreOutputs o;
    outputs(in, o);
    clock(in);
    return o;
  }

  // For the unit tests and the scoreboard's diagnostics: the table as it is.
  struct EntryView {
    bool valid, pull;
    unsigned rgn, who, ctr, count, expect, home, dtype, len;
    uint64_t addr;
  };
  EntryView entry(unsigned e) const;
  // Position p (0 = least recently used) of the LRU order.
  unsigned lru_at(unsigned p) const { return lru_[p]; }
  // The entry's data word k as the table holds it (the write of the current
  // cycle not yet in).
  const Wide& word(unsigned e, unsigned k) const { return mem_.peek(e * p_.max_len + k); }

 private:
  // What a decided header (or an eviction) does with the data path.
  enum class Mode : uint8_t {
    drop,      // take the packet's flits, do nothing with them
    store,     // flit (widened) -> the entry's word
    add,       // word + flit -> the entry's word
    add_out,   // word + flit -> the output FIFO (the packet completes the entry)
    pass_out,  // flit as it is -> the output FIFO (bypass; a packet complete alone)
    evict,     // word -> the output FIFO (no stream: one word a cycle)
  };
  enum Dest : uint8_t { kNone = 0, kMem = 1, kFifo = 2 };
  struct Hdr {
    bool valid = false;
    RtErr code = RtErr::none;
    pkt::Header h;
  };
  struct Entry {
    bool valid = false, pull = false;
    uint8_t rgn = 0, who = 0, ctr = 0;
    uint64_t atag = 0;  // addr above the flit offset
    uint8_t count = 0, expect = 0, home = 0, dtype = 0, len = 0;
    uint64_t touched = 0;  // the cycle of its last allocation or hit (its idle time)
  };
  struct Stage {
    bool valid = false;  // does something at the write-back
    uint8_t dest = kNone;
    bool sum = false;     // the adders' result (else the value carried)
    bool evict = false;   // s1: the value is the word read (else the flit)
    bool narrow = false;  // ACC32: fp32 lanes rounded to the 16-bit dtype into the FIFO
    uint8_t dtype = 0;
    uint32_t addr = 0;  // table word
    uint32_t slot = 0;  // output FIFO slot
    Wide val;           // s1: the flit; from s2 on: the result
  };
  struct DataPhase {
    bool active = false;
    uint8_t src = 0;  // 0 req_in, 1 rsp_in, 2 none (evict)
    Mode mode = Mode::drop;
    uint32_t left = 0;  // flits (words) still to take (read)
    uint32_t addr = 0, slot = 0;
    uint8_t dtype = 0;
  };

  void outputs(const ReductionTableCoreInputs& in, ReductionTableCoreOutputs& o) const;
  void reset();
  bool cfg_error(uint32_t timeout) const;
  bool reads_mem(Mode m) const { return (m == Mode::add) | (m == Mode::add_out) | (m == Mode::evict); }
  // A data flit of the data phase's stream would be held (a write to its
  // word 1..3 cycles old, not yet out of the adders).
  bool hazard() const;
  // What the cycle's outputs read of the state, worked out once after each
  // edge (settle()): outputs() and the next clock() both use it.
  void settle();
  bool stream_ready(unsigned s, const ReductionTableCoreInputs& in) const {
    return in.rst_n & (own_[s] ? !hz_ : free_[s] & in.cfg_enable);
  }
  Stage& st(unsigned k) { return ring_[(head_ + k) & 7]; }
  const Stage& st(unsigned k) const { return ring_[(head_ + k) & 7]; }
  bool room(unsigned len) const {
    return hdr_fill_ < ReductionTableParams::kHdrDepth && p_.out_depth() - data_res_ >= len;
  }
  // LRU order: e to the most recently used end (a hit, an allocation), or
  // to the least recently used end (freed: allocated first).
  void lru_touch(unsigned e);
  void lru_free(unsigned e);
  void free_entry(unsigned e);
  // The key of entry e as the decision compares it (its valid bit included):
  // kept beside the entries so the search reads two words an entry.
  static uint64_t key(bool pull, unsigned rgn, unsigned who, unsigned ctr) {
    return uint64_t{1} << 32 | uint64_t{pull} << 24 | rgn << 16 | who << 8 | ctr;
  }
  void start(Mode m, uint8_t src, unsigned e, unsigned len, uint8_t dtype);
  Wide widen(const Wide& flit, unsigned dtype) const;
  Wide narrow(const Wide& word, unsigned dtype) const;
  unsigned lowest_expired(uint32_t timeout) const;
  void bump(uint32_t& c) { c = (c + 1) & stat_mask_; }

  ReductionTableParams p_;
  uint32_t stat_mask_;
  unsigned flit_lsb_;  // log2 of a flit's bytes
  uint64_t cycle_ = 0;
  uint32_t tmo_prev_ = 0;  // TIMEOUT in the cycle before, and whether it evicts
  bool tmo_en_prev_ = false;

  // Header registers, one a stream; the stream whose header is decided next.
  Hdr hdr_[2];
  bool turn_ = false;
  // The table.
  std::vector<Entry> ent_;
  std::vector<uint8_t> lru_;  // position -> entry; 0 least recently used
  std::vector<uint64_t> key_, atag_;  // each entry's key (0 when free) and atag
  unsigned occ_ = 0;
  Mem<Wide> mem_;
  // The data phase and the pipeline (s1..s5; s6 is the last write-back, kept
  // for forwarding).
  DataPhase dp_, dpn_;  // the data phase, and the next one (decided while it runs)
  std::array<Stage, 8> ring_{};
  unsigned head_ = 0;
  bool last_we_ = false;  // the write-back of the cycle before went to the table
  uint32_t last_addr_ = 0;
  Wide last_val_;
  // The output: header FIFO (written at the decision), data FIFO (slots
  // reserved at the decision, written at the write-back), the reader.
  Mem<Wide> hfifo_, dfifo_;
  unsigned hwptr_ = 0, hrptr_ = 0, hdr_fill_ = 0;
  unsigned dwptr_ = 0, drptr_ = 0, data_res_ = 0;
  std::vector<uint8_t> written_;
  Wide narrowed_, hdr_wd_;  // the FIFOs' write data (scratch)
  bool pend_ = false, pend_hdr_ = false;
  // settle()'s: the hazard, each stream's readiness but for rst_n and
  // cfg_enable (the data phase's own stream: !hz_; another: free_ and
  // cfg_enable), busy.
  bool hz_ = false, own_[2] = {false, false}, free_[2] = {false, false}, busy_ = false;
  unsigned rem_ = 0;
  // Status.
  uint32_t err_code_ = 0, err_op_ = 0;
  bool err_stream_ = false, evt_mal_ = false, evt_ref_ = false;
  uint32_t st_alloc_ = 0, st_hits_ = 0, st_compl_ = 0, st_lru_ = 0, st_tmo_ = 0;
  uint32_t st_stall_[2] = {0, 0}, st_bypass_ = 0, st_pass_ = 0, st_mal_ = 0, st_ref_ = 0;
  uint32_t hwm_ = 0;
};

}  // namespace t3
