// The DRAM array beside a block that drives its column reads and writes
// (the near-bank ALU, the memory-side subsystem): a registered read (the
// burst on bank_rdata_i the cycle after bank_rd_o) and a byte-masked write;
// a read and a write of one address in one cycle read the old data. Cells
// start with a value of their own (bank_initial), which a scoreboard can
// compute too, so that reads of cells never written are checked as well.
#pragma once

#include <cstdint>
#include <map>
#include <utility>

#include "common/wide.h"

namespace t3::tb {

// The contents of a cell never written: a hash of seed, bank group and address.
Wide bank_initial(uint32_t bg, uint32_t addr, uint64_t seed);

class BankArray {
 public:
  BankArray(unsigned burst_bytes, uint64_t seed) : burst_bytes_(burst_bytes), seed_(seed) {}

  // What bank_rdata_i carries in this cycle.
  const Wide& rdata() const { return rdata_; }
  // After the cycle, from the block's bank_* outputs: answers its read next
  // cycle (with the contents before its write), then applies its write.
  template <class Outputs>
  void after(const Outputs& o) {
    step(o.bank_rd, o.bank_rd_bg, o.bank_rd_addr, o.bank_wr, o.bank_wr_bg, o.bank_wr_addr,
         o.bank_wdata, o.bank_wmask);
  }
  void step(bool rd, uint32_t rd_bg, uint32_t rd_addr, bool wr, uint32_t wr_bg, uint32_t wr_addr,
            const Wide& wdata, const Wide& wmask);
  const Wide& at(uint32_t bg, uint32_t addr) { return cell(bg, addr); }

 private:
  Wide& cell(uint32_t bg, uint32_t addr);
  unsigned burst_bytes_;
  uint64_t seed_;
  std::map<std::pair<uint32_t, uint32_t>, Wide> mem_;
  Wide rdata_;
};

}  // namespace t3::tb
