// The memory side of one GPU as T3 builds it (T3 Fig. 9, §4.2-§4.5), cycle
// model. Plain C++: no SystemC here. rtl/mem_subsystem.sv is the same
// composition in RTL; the two are co-simulated every cycle.
//
// Two request streams come into the memory controller: the compute stream
// (the local GEMM's stores, T3's "update" stores among them) and the
// communication stream (peers' remote stores and DMA updates arriving here,
// and the DMA engine's reads of data it sends). The MCA arbiter (T3 §4.5)
// picks one request a cycle into the DRAM command queue, whose occupancy it
// watches; a write entering the queue joins the tracking queue, from which
// the Tracker (T3 §4.2.1) counts it, and a write waits while the tracking
// queue is full. The
// near-bank ALU executes the queue's head on the DRAM array (STORE, or ADD:
// op-and-store, T3 §4.3) under the bank timing. The Tracker's triggers go to
// the DMA trigger table (T3 §4.2.2), whose burst descriptors leave for the
// DMA engine. One APB port reaches the four blocks' registers, one window
// each; one interrupt line ORs theirs.
//
// Per clock: eval() gives the outputs for the current state and inputs,
// then clock() advances every block and the queue as the rising edge does.
#pragma once

#include <cstdint>
#include <vector>

#include "common/apb.h"
#include "common/params.h"
#include "common/regs.h"
#include "common/wide.h"
#include "dma_trigger/dma_trigger.h"
#include "mem_subsystem/mem_subsystem_map.h"
#include "mca_arbiter/mca_arbiter.h"
#include "near_bank_alu/near_bank_alu.h"
#include "tracker/tracker.h"

namespace t3 {

struct MemSubsystemParams {
#define T3_PARAMS_DEF "mem_subsystem/mem_subsystem_params.def"
#define T3_PARAMS_SELF MemSubsystemParams
#include "common/param_struct.inc"

  // The blocks' parameters (the fixed ones: docs/blocks/mem_subsystem.md).
  TrackerParams tracker() const;
  DmaTriggerParams dma_trigger() const;
  McaArbiterParams mca_arbiter() const;
  NearBankAluParams near_bank_alu() const;
  unsigned burst_log2() const;

  // Throws std::invalid_argument naming the parameter and its allowed range
  // (a block's own check names the block's parameter).
  void validate() const;
};


// One request into the memory controller.
enum class MemOp : uint32_t { read = 0, store = 1, add = 2 };  // the near-bank ALU's encoding
struct MemRequest {
  uint32_t op = 0;    // MemOp; 3 is refused by the near-bank ALU
  uint32_t fmt = 0;   // ADD lanes: 0 fp16, 1 bf16, 2 fp32
  uint64_t addr = 0;  // byte address of the first element written or read
  Wide data;          // the burst holding addr (BURST_BYTES bytes)
  Wide mask;          // its bytes written (a bit a byte)
  uint32_t wg = 0, wf = 0;  // the producing WG and WF (T3 §4.2.1)
  uint32_t size = 0;  // elements written, for the Tracker
  uint32_t src = 0;   // 0 local, 1 remote, 2 DMA
};

struct MemSubsystemInputs {
  bool rst_n = true;
  ApbRequest apb;
  bool cmp_valid = false;
  MemRequest cmp;  // src not taken: local
  bool com_valid = false;
  MemRequest com;
  bool desc_ready = false;
  Wide bank_rdata;
  bool learn = false;  // the MCA arbiter: learn the producer's occupancy (its first stage runs alone)
  bool drain = false;  // the producer kernel's boundary: communication drains (T3 §4.5)
};

struct MemSubsystemOutputs {
  ApbResponse apb;
  bool intr = false;
  bool cmp_ready = false, com_ready = false;
  bool rsp_valid = false;
  Wide rsp_data;
  bool desc_valid = false;
  uint64_t desc_src = 0, desc_dst = 0;
  uint32_t desc_gpu = 0, desc_bytes = 0;
  bool desc_op = false;
  uint32_t desc_wg = 0, desc_wf = 0;
  bool desc_last = false;
  bool bank_rd = false;
  uint32_t bank_rd_bg = 0, bank_rd_addr = 0;
  bool bank_wr = false;
  uint32_t bank_wr_bg = 0, bank_wr_addr = 0;
  Wide bank_wdata, bank_wmask;
  uint32_t occupancy = 0;  // DRAM queue entries
};

class MemSubsystem {
 public:

  explicit MemSubsystem(const MemSubsystemParams& params);

  const MemSubsystemParams& params() const { return p_; }
  MemSubsystemOutputs eval(const MemSubsystemInputs& in) const;
  void clock(const MemSubsystemInputs& in);
  // eval() then clock() on the same inputs, the wires worked out once and
  // each block's core deciding once.
  MemSubsystemOutputs step(const MemSubsystemInputs& in);
  // The same into the caller's outputs (the engines' and the benchmark's form).
  void step(const MemSubsystemInputs& in, MemSubsystemOutputs& out);

  // Register accesses from a TLM-2.0 target (hw/common/reg_target.h),
  // decoded by window as the APB port does, over all four windows.
  static constexpr uint64_t kRegSpanBytes = uint64_t{1} << kMemSubsystemApbAddrBits;
  RegStatus tlm_write(uint32_t offset, uint32_t data);
  RegStatus tlm_read(uint32_t offset, uint32_t& data) const;

  const Tracker& tracker() const { return trk_; }
  const DmaTrigger& dma_trigger() const { return dma_; }
  const McaArbiter& mca_arbiter() const { return mca_; }
  const NearBankAlu& near_bank_alu() const { return nba_; }

 private:
  // A DRAM command queue entry: what the near-bank ALU needs.
  struct Cmd {
    uint32_t op = 0, fmt = 0, bg = 0, addr = 0;
    Wide data, mask;
  };
  // Every block's inputs and outputs in one cycle, as the wires carry them.
  struct Wires {
    TrackerInputs trk;
    TrackerOutputs trk_o;
    DmaTriggerInputs dma;
    DmaTriggerOutputs dma_o;
    McaArbiterInputs mca;
    McaArbiterOutputs mca_o;
    NearBankAluInputs nba;
    NearBankAluOutputs nba_o;
    unsigned window;
    bool push, pop;
    bool tf_push;  // a write into the tracking queue
  };
  // Self: const MemSubsystem (eval(): the blocks evaluated) or MemSubsystem
  // (step(), clock(): each block but the Tracker clocked as it is
  // evaluated; see the definition).
  template <class Self>
  static void wires(Self& self, const MemSubsystemInputs& in, Wires& w);
  void outputs(const MemSubsystemInputs& in, const Wires& w, MemSubsystemOutputs& o) const;
  // The edge after wires(*this, ...): the Tracker, then the subsystem's own
  // state.
  void edge(const MemSubsystemInputs& in, const Wires& w);
  Cmd command(const MemRequest& r) const;

  MemSubsystemParams p_;
  Tracker trk_;
  DmaTrigger dma_;
  McaArbiter mca_;
  NearBankAlu nba_;
  // step()'s wires, kept from cycle to cycle: every member is written in
  // every cycle (a zeroed Wires of 1.7 kB a cycle cost more than the glue).
  Wires w_{};
  std::vector<Cmd> queue_;  // circular
  unsigned head_ = 0, count_ = 0;
  MemRequest pl_;  // the request in the MCA arbiter's output register
  // The tracking queue (rtl tq_*): what the Tracker reads of a write; the
  // head (offered to the Tracker, leaves in every cycle), the waiting
  // writes, the head of the last cycle (offered again if refused); b: the
  // write was refused once.
  struct TrkWrite {
    uint32_t wg = 0, wf = 0, size = 0, src = 0;
    uint64_t addr = 0;
  };
  TrkWrite tq_h_, tq_l_[2], tq_r_;
  bool tq_h_v_ = false, tq_h_b_ = false, tq_r_v_ = false, tq_sf_ = false;
  bool tq_l_b_[2] = {};
  unsigned tq_l_n_ = 0;
  bool tq_waits() const { return tq_r_v_ || (tq_h_v_ && tq_h_b_) || tq_l_b_[0] || tq_l_b_[1]; }
};

}  // namespace t3
