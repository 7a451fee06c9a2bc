// Multicast region (MCR) table of one switch, cycle model (ISCA 2020
// in-network collectives paper, §IV "multicast" and the switch of its
// Fig. "reduction ... RX ingress route crossbar TX"). Plain C++, no SystemC.
// Per clock: eval() gives the outputs for the current state and inputs,
// clock() advances the state as the rising edge of rtl/mcr_table_core.sv
// does; the two are cycle- and bit-exact. The block firmware programs is
// this core behind its registers (the generated hw/mcr_table/mcr_table.h);
// docs/blocks/mcr_table.md is its page.
//
// What it does. The fabric manager programs regions (base, size, the ports
// that take part, the contributions expected, the home port, whether this
// switch is the region's root, the element type) through a staging window
// and a command. Each class (requests, responses: separate virtual channels,
// paper §IV "deadlock avoidance") has its own replication engine, a class
// path: it takes a packet (header, then its data flits) into one of SLOTS
// packet slots, looks its address up in the region table once, in the
// cycle its header is taken, decides its fate (dropped, or the ports it
// owes a copy) in the next cycle, and sends one whole unicast copy per
// destination port, one copy after the other ("ingress replication:
// replicate multicast [as] multiple unicast packet[s held in the] buffer,
// inject[ed] sequentially [into the] crossbar", §IV), each copy to a port
// that is ready when the copy starts, round robin among the ports still
// owed ("a multicast packet may progress to each output as that output
// becomes available ... the arbiter considers the remaining outputs",
// §IV): a blocked output holds back only its own copy. Every copy's header
// carries the region's switch-internal fields (docs/packet.md).
#pragma once

#include <cstdint>

#include "common/packet.h"
#include "common/params.h"
#include "common/t3_mem.h"
#include "common/wide.h"

namespace t3 {

struct McrTableParams {
#define T3_PARAMS_DEF "mcr_table/mcr_table_params.def"
#define T3_PARAMS_SELF McrTableParams
#include "common/param_struct.inc"

  // Throws std::invalid_argument naming the parameter and its allowed range.
  void validate() const;
};

namespace mcr {

// STATUS.CMD_CODE: the answer to a region command, checked in this order
// (the first that holds is the one reported). Anything but ok changes
// nothing but the code, STAT_REFUSED and the REFUSED interrupt.
enum class Cmd : uint8_t {
  ok = 0,           // done (or no command since reset)
  idx_range = 1,    // RGN_IDX >= REGIONS: more regions than the table holds
  idx_busy = 2,     // ADD to an entry that holds a region (remove it first)
  idx_empty = 3,    // REMOVE of an entry that holds none
  size = 4,         // size 0 or not a power of two
  base_align = 5,   // base not a multiple of the size
  ports_empty = 6,  // no participating port
  ports_range = 7,  // a participating port at or above PORTS
  home_range = 8,   // home port at or above PORTS
  expect_zero = 9,  // no contribution expected
  red_op = 10,      // reduction operator not add
  dtype = 11,       // element type 3
  overlap = 12,     // the region overlaps one in the table
  both = 13,        // ADD and REMOVE in one write
};
const char* name(Cmd c);

// STATUS.DROP_CAUSE: why a packet was dropped whole (its header and the
// flits after it taken, nothing sent). 1..5 are docs/packet.md's checks
// (pkt::check, the same codes); 6..8 this block's malformed causes; 9, 10
// "no route". The first that holds is reported.
enum class Drop : uint8_t {
  none = 0,
  unknown_op = 1,
  bad_len = 2,      // len 0 or above MAX_LEN
  bad_red_op = 3,
  bad_dtype = 4,
  misaligned = 5,
  wrong_class = 6,  // the opcode's class is not the stream's (a response on the request path)
  bad_port = 7,     // the ingress port is above PORTS (no such port)
  rgn_dtype = 8,    // a reduction opcode whose dtype is not its region's
  no_route = 9,     // unicast (no region, or READ_RSP / ACK) to dst >= PORTS
  no_dest = 10,     // WRITE / RESULT to a region whose only participant is the ingress port
};
const char* name(Drop d);
constexpr bool malformed(Drop d) { return d >= Drop::unknown_op && d <= Drop::rgn_dtype; }
constexpr bool no_route(Drop d) { return d == Drop::no_route || d == Drop::no_dest; }

}  // namespace mcr

// The staged region: the RGN_* registers, whole fields (the core refuses
// what does not fit the build).
struct McrRegionStage {
  uint32_t idx = 0;     // RGN_IDX (6 bits)
  uint64_t base = 0;    // byte address, 48 bits
  uint64_t size = 0;    // bytes, 49 bits: a power of two up to 2^48
  uint32_t ports = 0;   // participating ports, bit p = port p
  uint32_t expect = 0;  // contributions expected (8 bits)
  uint32_t home = 0;    // home port (8 bits)
  bool root = false;    // this switch reduces the region
  uint32_t red_op = 0;  // 0 add
  uint32_t dtype = 0;   // 0 fp16, 1 bf16, 2 fp32
};

// Entry RGN_IDX as RGN_RD_* show it: all 0 when it holds no region (or
// RGN_IDX >= REGIONS).
struct McrRegionRead {
  bool valid = false;
  uint64_t base = 0, size = 0;
  uint32_t ports = 0, expect = 0, home = 0;
  bool root = false;
  uint32_t dtype = 0;
};

// The data pins core and block share (hw/mcr_table/mcr_table.yaml, pins).
struct McrTableDataIn {
  bool rst_n = true;
  bool req_in_valid = false;
  Wide req_in_flit;
  uint32_t req_in_port = 0;     // PORT_W bits: the ingress port, read with a header
  uint64_t req_out_ready = 0;   // NOUT bits: one per output port (PORTS: the reduction unit)
  bool rsp_in_valid = false;
  Wide rsp_in_flit;
  uint32_t rsp_in_port = 0;
  uint64_t rsp_out_ready = 0;
};

struct McrTableDataOut {
  bool req_in_ready = false;
  bool req_out_valid = false;
  uint32_t req_out_port = 0;
  Wide req_out_flit;
  bool rsp_in_ready = false;
  bool rsp_out_valid = false;
  uint32_t rsp_out_port = 0;
  Wide rsp_out_flit;
  uint32_t stat_mcast = 0, stat_miss = 0, stat_copies = 0, stat_stall = 0;
  uint32_t stat_refused = 0, stat_malformed = 0, stat_noroute = 0;
};

// What the registers drive and read (the description's core section).
struct McrTableCoreInputs : McrTableDataIn {
  McrRegionStage rgn;
  bool cmd_add = false;     // RGN_CMD.ADD's pulse
  bool cmd_remove = false;  // RGN_CMD.REMOVE's pulse
};

struct McrTableCoreOutputs : McrTableDataOut {
  uint32_t cmd_code = 0;    // mcr::Cmd of the last command
  bool refused = false;     // a command is refused (its answer registered: the cycle after its pulse)
  bool malformed = false;   // a malformed packet's header is dropped in this cycle
  bool noroute = false;     // a packet with no destination is dropped in this cycle
  uint32_t drop_cause = 0;  // mcr::Drop of the last drop
  bool drop_class = false;  // its class (1 response)
  uint32_t drop_port = 0;   // its ingress port
  uint32_t count = 0;       // regions in the table
  McrRegionRead rd;         // entry RGN_IDX
};

class McrTableCore {
 public:
  explicit McrTableCore(const McrTableParams& p);

  const McrTableParams& params() const { return p_; }
  McrTableCoreOutputs eval(const McrTableCoreInputs& in) const { return eval(in, in); }
  void clock(const McrTableCoreInputs& in) { clock(in, in); }
  // eval() then clock() on one decision.
  McrTableCoreOutputs step(const McrTableCoreInputs& in) { return step(in, in); }

  // The same with the data pins where they are (the block's inputs) and the
  // register-driven inputs apart, the outputs in the core (valid until the
  // next call): what hw/mcr_table/mcr_table_eval.h runs the block on, so that
  // no cycle copies the pins' flits into an inputs struct nor zeroes an
  // outputs struct.
  const McrTableCoreOutputs& eval(const McrTableDataIn& pins, const McrTableCoreInputs& regs) const;
  void clock(const McrTableDataIn& pins, const McrTableCoreInputs& regs);
  const McrTableCoreOutputs& step(const McrTableDataIn& pins, const McrTableCoreInputs& regs);

  // Back door for tests: entry i as RGN_RD_* would show it.
  McrRegionRead region(unsigned i) const;

 private:
  static constexpr unsigned kMaxSlots = 8;
  struct Region {
    bool valid = false;
    uint64_t base = 0;
    uint64_t himask = 0;  // the address bits the region's base fixes (48 bits)
    unsigned szl = 0;     // log2 of the size, 0..48
    uint32_t ports = 0;
    uint32_t expect = 0, home = 0, dtype = 0;
    bool root = false;
  };
  // A header's lookup, made in the cycle it is taken (the rtl's pipeline
  // register between the lookup and the packet's fate).
  // (The per-cycle structs below have no member initializers: every member
  // read is written first, and zeroing them a cycle costs the model speed.)
  struct Lookup {
    mcr::Drop early;  // docs/packet.md's checks, class, port
    bool hit;
    bool by_dst;      // routed by dst (no region, or ACK / READ_RSP)
    bool dtype_bad;   // a reduction of another type than its region's
    uint64_t rdest;   // the region's route for the opcode
    uint64_t ddest;   // port dst (0 when dst >= PORTS)
    uint32_t port;    // the ingress port
    uint32_t rgn;     // the region (hit)
    uint32_t nflits;  // data flits on the wire after the header
  };
  // A packet slot of a class path: the packet from its header until it is
  // sent whole to every port it owes (or, dropped, retired at the head).
  struct Slot {
    bool busy = false;   // holds a packet
    bool done = false;   // all its flits are in
    bool known = false;  // its fate is decided
    Wide hdr;            // the copies' header (stamped)
    uint64_t owed = 0;   // ports still owed a copy (0: dropped)
    unsigned len = 0;    // data flits
  };
  // A class path: intake into slot wr, output from slot rd.
  struct Path {
    explicit Path(unsigned depth) : mem(depth) {}
    Slot slot[kMaxSlots];
    unsigned wr = 0, rd = 0;
    unsigned left = 0;     // data flits of the packet coming in still to come (0: a header is next)
    unsigned fill = 0;     // data flits of it taken so far
    bool pend = false;     // a header was taken in the last cycle: its fate is decided in this one
    unsigned pend_slot = 0;
    Lookup lk;             // its lookup
    bool mid = false;      // a copy's data flits are going out
    unsigned port = 0;     // ... to this port
    unsigned oidx = 0;     // the data flit on the pins (the buffer's read word)
    unsigned last = 0;     // the last port a copy started to (round robin)
    Mem<Wide> mem;         // SLOTS * MAX_LEN data flits (rtl/t3_mem.sv)
  };
  // One class path's cycle.
  struct PathDecision {
    bool in_ready, hdr_take, data_take;
    Lookup lk;              // the header's lookup (hdr_take)
    mcr::Drop drop;         // the pending header's fate (pend): a drop cause, or none
    uint64_t dest;          // ... or its destination ports
    bool out_valid, out_take, copy_start, stall, retire;
    unsigned out_port;
  };
  struct Decision {
    PathDecision path[2];
    bool cmd;
    mcr::Cmd code;
  };

  void decide(const McrTableDataIn& pins, const McrTableCoreInputs& regs, Decision& d) const;
  void decide_path(unsigned k, bool rst_n, bool valid, const Wide& flit, unsigned in_port,
                   uint64_t ready, PathDecision& d) const;
  void lookup(unsigned k, const Wide& flit, unsigned in_port, PathDecision& d) const;
  void fate(const Lookup& lk, PathDecision& d) const;
  unsigned next_slot(unsigned s) const { return s + 1 == p_.slots ? 0 : s + 1; }
  mcr::Cmd command(const McrRegionStage& s, bool add, bool remove) const;
  void outputs(const McrTableCoreInputs& regs, const Decision& d) const;
  void apply(const McrTableDataIn& pins, const McrTableCoreInputs& regs, const Decision& d);
  void apply_path(unsigned k, const PathDecision& d, const Wide& flit);
  void reset();

  McrTableParams p_;
  uint64_t stat_mask_, port_mask_, pin_mask_, out_mask_;
  Region rgn_[64];
  unsigned count_ = 0;  // regions in the table
  Path path_[2];
  // The command checked in the last cycle (it changes the table at this edge).
  bool cq_valid_ = false, cq_remove_ = false;
  mcr::Cmd cq_code_ = mcr::Cmd::ok;
  McrRegionStage cq_stage_;
  uint32_t cmd_code_ = 0, drop_cause_ = 0, drop_port_ = 0;
  bool drop_class_ = false;
  mutable McrTableCoreOutputs out_;  // the last eval()'s or step()'s outputs
  unsigned flit_words_;              // FLIT_W / 64
  uint64_t table_gen_ = 0;           // bumped by every change of the table
  mutable unsigned rd_idx_ = ~0u;    // out_.rd is entry rd_idx_ of table rd_gen_
  mutable uint64_t rd_gen_ = 0;
  uint32_t stat_mcast_ = 0, stat_miss_ = 0, stat_copies_ = 0, stat_stall_ = 0, stat_refused_ = 0,
           stat_malformed_ = 0, stat_noroute_ = 0;
};

}  // namespace t3
