// Register traffic on a block's APB port (hw/common/apb.h), cycle by cycle,
// as a bus bridge puts it there: each transfer a setup phase and an access
// phase (the register blocks have no wait states, but pready_o is honoured),
// transfers back to back while any are queued. Block-independent: it drives
// an ApbRequest and reads an ApbResponse.
//
//   master.write(T3_TRACKER_A_CTRL, 1);
//   each cycle: master.drive(in.apb, in.rst_n); <cycle>; master.after(in.apb, out.apb);
#pragma once

#include <cstdint>
#include <deque>
#include <optional>

#include "common/apb.h"

namespace t3::tb {

struct ApbTransfer {
  bool write = false;
  uint32_t addr = 0;
  uint32_t data = 0;    // a write's
  uint32_t strb = 0xF;  // a write's byte strobes
};

// A transfer and the block's answer in its access phase.
struct ApbDone {
  ApbTransfer t;
  uint32_t rdata = 0;
  bool err = false;
};

class ApbMaster {
 public:
  void write(uint32_t addr, uint32_t data, uint32_t strb = 0xF) {
    queue_.push_back({true, addr, data, strb});
  }
  void read(uint32_t addr) { queue_.push_back({false, addr, 0, 0}); }
  void push(const ApbTransfer& t) { queue_.push_back(t); }

  // Nothing queued or on the bus.
  bool idle() const { return phase_ == Phase::idle && queue_.empty(); }
  size_t queued() const { return queue_.size() + (phase_ != Phase::idle); }
  // Drops everything (the block was reset).
  void clear() {
    queue_.clear();
    phase_ = Phase::idle;
  }

  // This cycle's pins. In a reset cycle the bus idles, as a master under
  // the same reset would (AMBA APB: PRESETn), and a transfer it caught
  // half done starts again, setup phase first, once reset is released.
  void drive(ApbRequest& r, bool rst_n) {
    if (!rst_n) {
      if (phase_ != Phase::idle) queue_.push_front(cur_);
      phase_ = Phase::idle;
      r = ApbRequest{};
      return;
    }
    if (phase_ == Phase::idle && !queue_.empty()) {
      cur_ = queue_.front();
      queue_.pop_front();
      phase_ = Phase::setup;
    }
    r = ApbRequest{};
    if (phase_ == Phase::idle) return;
    r.psel = true;
    r.penable = phase_ == Phase::access;
    r.pwrite = cur_.write;
    r.paddr = cur_.addr;
    r.pwdata = cur_.write ? cur_.data : 0;
    r.pstrb = cur_.write ? cur_.strb : 0;  // APB4 reads carry no strobes
  }

  // After the cycle: the transfer completed in it, with the block's answer.
  std::optional<ApbDone> after(const ApbRequest& r, const ApbResponse& o) {
    if (phase_ == Phase::setup) {
      phase_ = Phase::access;
      return std::nullopt;
    }
    if (phase_ != Phase::access || !r.access() || !o.pready) return std::nullopt;
    phase_ = Phase::idle;
    return ApbDone{cur_, o.prdata, o.pslverr};
  }

 private:
  enum class Phase { idle, setup, access };
  std::deque<ApbTransfer> queue_;
  Phase phase_ = Phase::idle;
  ApbTransfer cur_;
};

}  // namespace t3::tb
