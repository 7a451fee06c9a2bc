// ep_tx's scoreboard, independent of the C++ model and of the RTL: it knows
// packets, not slots. Each packet taken (a descriptor, or a copy's WRITE it
// builds itself from the command and NODE) adds its flits to the stream it
// expects, the data flits with the memory's data for their addresses
// (testbench/common/tagged_memory.h) and marked ready when the read that fetches them is
// answered; reads must come in address order, one per data flit, each with
// a tag no other outstanding read holds. Every cycle it predicts pkt_ready,
// cp_done, the read port, the output (valid exactly when its next flit is
// ready, and that flit), idle, the queue count and the status registers. An
// answer no read holds, while no packet is being read, is a stray: ignored
// (the stream's data prove it wrote nothing), counted and raised.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>

#include "complaints.h"
#include "ep_tx/ep_tx.h"
#include "reg_shadow.h"

namespace t3::tb {

class EpTxScoreboard {
 public:
  explicit EpTxScoreboard(const EpTxParams& p) : p_(p) {}

  std::optional<std::string> observe(const EpTxInputs& in, const EpTxOutputs& out);

  const RegShadow<EpTxRegMap>& regs() const { return regs_; }
  uint64_t packets() const { return pushes_ + pulls_ + writes_; }
  uint64_t pushes() const { return pushes_; }
  uint64_t pulls() const { return pulls_; }
  uint64_t writes() const { return writes_; }
  uint64_t copies() const { return copies_; }
  uint64_t flits_out() const { return flits_; }
  uint64_t out_of_order() const { return out_of_order_; }
  uint64_t strays() const { return strays_; }
  uint64_t max_queued() const { return max_queued_; }

 private:
  struct Flit {
    Wide data;
    bool ready;
  };
  void take(const Wide& hdr, uint64_t local, unsigned data_flits);
  void reset();

  EpTxParams p_;
  Complaints complaints_;
  RegShadow<EpTxRegMap> regs_;
  std::deque<Flit> want_;         // the stream still to leave
  uint64_t first_ = 0;            // the absolute number of want_.front()
  unsigned to_read_ = 0;          // data flits of the last packet not yet read
  uint64_t next_addr_ = 0, next_flit_ = 0;  // the next read's address and the flit it fills
  std::map<unsigned, uint64_t> outstanding_;  // tag -> the flit it fills
  uint64_t last_answer_ = 0;
  uint32_t copied_ = 0;
  uint64_t stat_[5] = {};  // the STAT_* counters since reset: pushes, pulls, writes, flits, strays
  uint64_t strays_ = 0, pushes_ = 0, pulls_ = 0, writes_ = 0, flits_ = 0, copies_ = 0, out_of_order_ = 0, max_queued_ = 0;
};

}  // namespace t3::tb
