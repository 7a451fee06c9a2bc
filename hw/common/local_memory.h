// A GPU's local memory as the endpoint sees it: bytes the testbench preloads
// and reads (the backdoor), and the operations the endpoint's engines issue
// (read, write, and add: the near-bank ALU's op-and-store, T3 §4.3, lanes
// of fp16, bf16 or fp32). An operation takes effect in the cycle it is
// issued, in issue order; a read's data reach the reader MEM_LAT cycles
// later (the endpoint holds them in flight). Plain C++.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/wide.h"

namespace t3 {

class LocalMemory {
 public:
  enum class Op : uint8_t { read, write, add };

  // bytes: the size (addresses 0..bytes-1); flit_w: bits an operation moves.
  LocalMemory(uint64_t bytes, unsigned flit_w);

  uint64_t bytes() const { return mem_.size(); }
  unsigned flit_bytes() const { return fb_; }

  // The backdoor: n bytes at addr. Throws std::out_of_range naming the
  // range and the size when [addr, addr + n) is not inside the memory.
  void load(uint64_t addr, const void* src, size_t n);
  void dump(uint64_t addr, void* dst, size_t n) const;

  // One flit at addr (a multiple of the flit's bytes); the same checks.
  Wide read(uint64_t addr) const;
  void write(uint64_t addr, const Wide& data);
  // mem[addr] = mem[addr] + data, lane by lane in dtype (0 fp16, 1 bf16,
  // 2 fp32), rounded as the near-bank ALU rounds (hw/common/fp_lanes.h).
  void add(uint64_t addr, const Wide& data, uint8_t dtype);

 private:
  void check(uint64_t addr, uint64_t n, bool flit) const;
  std::vector<uint8_t> mem_;
  unsigned fb_;
};

}  // namespace t3
