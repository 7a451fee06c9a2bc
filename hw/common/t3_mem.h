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
  const Word& rdata() const { return fresh_ ? mem_[raddr_] : rdata_; }

  // One rising edge: the read takes the word as it was before the edge, then
  // the write lands. An address >= depth reads Word{} and writes nothing.
  // The read is not copied: rdata() looks the word up until a write would
  // change it (the model's cost per read is then an address, not a word).
  void clock(bool we, uint32_t waddr, const Word& wdata, bool re, uint32_t raddr) {
    if (re) {
      fresh_ = raddr < mem_.size();
      raddr_ = raddr;
      if (!fresh_) rdata_ = Word{};
    }
    if (we && waddr < mem_.size()) {
      keep_read(waddr);
      mem_[waddr] = wdata;
    }
  }

  // Back door (tests, scoreboards' reference reads, reset-free preload): no
  // port, no latency.
  const Word& peek(uint32_t addr) const { return mem_[check(addr)]; }
  void poke(uint32_t addr, const Word& w) {
    keep_read(check(addr));
    mem_.at(addr) = w;  // checked above; at() keeps -Warray-bounds quiet on constant addresses
  }
  std::size_t depth() const { return mem_.size(); }

 private:
  // The read port holds the word of its last read: copied out before a
  // write changes it.
  void keep_read(uint32_t addr) {
    if (fresh_ && addr == raddr_) {
      rdata_ = mem_[raddr_];
      fresh_ = false;
    }
  }

  uint32_t check(uint32_t addr) const {
    if (addr >= mem_.size())
      throw std::out_of_range("t3::Mem address " + std::to_string(addr) + " is out of range; allowed: 0.." +
                              std::to_string(mem_.size() - 1));
    return addr;
  }

  std::vector<Word> mem_;
  Word rdata_;
  uint32_t raddr_ = 0;
  bool fresh_ = false;  // rdata() is mem_[raddr_]
};

}  // namespace t3
