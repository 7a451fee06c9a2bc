// The endpoint's memory arbiter (ISCA 2020 in-network collectives paper,
// §IV; docs/blocks/ep_mem_arb.md), cycle model. Plain C++, no SystemC. Per
// clock: eval() gives the outputs for the current state and inputs,
// clock() advances the state as the rising edge of rtl/ep_mem_arb_core.sv
// does; the two are cycle- and bit-exact.
//
// The engines' ports ask in fixed priority, port 0 first; the first MEM_OPS
// ports that ask are granted, in port order onto lanes 0, 1, ...; a lane's
// tag is its port's number above the port's tag. An answer goes to the port
// its tag names; one naming no port is a stray, and a second answer for a
// port in a cycle (a higher lane) a clash: both are lost, counted, raised.
// No state but the counters: the grant and the routing are combinational.
#pragma once

#include <cstdint>

#include "common/params.h"
#include "common/wide.h"

namespace t3 {

struct EpMemArbParams {
#define T3_PARAMS_DEF "ep_mem_arb/ep_mem_arb_params.def"
#define T3_PARAMS_SELF EpMemArbParams
#include "common/param_struct.inc"

  // Throws std::invalid_argument naming the parameter and its allowed range.
  void validate() const;
};

// Packed as the RTL's pins: port i's field at [i*W +: W], lane k's at [k*W +: W].
using EpMemArbAddrs = WideN<768>;    // 48 x PORTS
using EpMemArbFlits = WideN<4096>;   // FLIT_W x PORTS
using EpMemArbTags = WideN<128>;     // TAG_W x PORTS, LTAG_W x MEM_OPS
using EpMemArbLaneAddrs = WideN<384>;
using EpMemArbLaneFlits = WideN<2048>;

// The data pins core and block share (hw/ep_mem_arb/ep_mem_arb.yaml, pins).
struct EpMemArbDataIn {
  bool rst_n = false;
  uint32_t rq_valid = 0, rq_op = 0, rq_dtype = 0;
  EpMemArbAddrs rq_addr;
  EpMemArbFlits rq_data;
  EpMemArbTags rq_tag;
  uint32_t ans_valid = 0;
  EpMemArbTags ans_tag;
  EpMemArbLaneFlits ans_data;
};

struct EpMemArbDataOut {
  uint32_t rq_ready = 0;
  uint32_t mem_valid = 0, mem_op = 0, mem_dtype = 0;  // a lane's fields 0 while its valid is low
  EpMemArbLaneAddrs mem_addr;
  EpMemArbLaneFlits mem_data;
  EpMemArbTags mem_tag;
  uint32_t md_valid = 0;  // a port's fields 0 while its valid is low
  EpMemArbTags md_tag;
  EpMemArbFlits md_data;
};

struct EpMemArbCoreInputs : EpMemArbDataIn {};

struct EpMemArbStats {
  uint32_t reads = 0, writes = 0, waits = 0, strays = 0, clashes = 0;
};

struct EpMemArbCoreOutputs : EpMemArbDataOut {
  bool lost = false;  // an answer lost in this cycle (a stray or a clash)
  EpMemArbStats stat;
};

class EpMemArbCore {
 public:
  static constexpr uint32_t kRead = 0, kWrite = 1, kAdd = 2;

  explicit EpMemArbCore(const EpMemArbParams& p);

  const EpMemArbParams& params() const { return p_; }
  EpMemArbCoreOutputs eval(const EpMemArbCoreInputs& in) const;
  void clock(const EpMemArbCoreInputs& in);
  EpMemArbCoreOutputs step(const EpMemArbCoreInputs& in) {
    const EpMemArbCoreOutputs o = eval(in);
    clock(in);
    return o;
  }

 private:
  // This cycle's decisions (eval's and clock's).
  struct Cycle {
    unsigned reads = 0, writes = 0, waits = 0, strays = 0, clashes = 0;
  };
  EpMemArbCoreOutputs decide(const EpMemArbCoreInputs& in, Cycle& c) const;

  EpMemArbParams p_;
  uint64_t reads_ = 0, writes_ = 0, waits_ = 0, strays_ = 0, clashes_ = 0;
};

}  // namespace t3
