// The cycle models' side of rtl/t3_mem.sv, the one storage-array wrapper:
// DEPTH words, one synchronous write port and one synchronous read port.
// A block model holds each array of state in a t3::Mem and clocks it at its
// own clock edge with the port values of that cycle, so that model and RTL
// have the same read latency (one cycle, as an SRAM macro) and the same
// read-during-write rule (the old word).
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace t3 {

template <class Word>
class Mem {
 public:
  explicit Mem(std::size_t depth) : mem_(depth), rdata_{} {
    if (depth < 1 || depth > 65536)
      throw std::invalid_argument("t3::Mem depth = " + std::to_string(depth) +
                                  " is out of range; allowed: 1..65536");
  }

  // rdata_o: the word the last read took (Word{} before the first read; the
  // RTL's flops start at 0 in Verilator too).
  const Word& rdata() const { return rdata_; }

  // One rising edge: the read takes the word as it was before the edge, then
  // the write lands. An address >= depth reads Word{} and writes nothing.
  void clock(bool we, uint32_t waddr, const Word& wdata, bool re, uint32_t raddr) {
    if (re) rdata_ = raddr < mem_.size() ? mem_[raddr] : Word{};
    if (we && waddr < mem_.size()) mem_[waddr] = wdata;
  }

  // Back door (tests, scoreboards' reference reads, reset-free preload): no
  // port, no latency.
  const Word& peek(uint32_t addr) const { return mem_.at(addr); }
  void poke(uint32_t addr, const Word& w) { mem_.at(addr) = w; }
  std::size_t depth() const { return mem_.size(); }

 private:
  std::vector<Word> mem_;
  Word rdata_;
};

}  // namespace t3
