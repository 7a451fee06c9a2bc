#include "common/local_memory.h"

#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>

#include "common/fp_lanes.h"
#include "common/hex.h"

namespace t3 {

LocalMemory::LocalMemory(uint64_t bytes, unsigned flit_w) : mem_(bytes, 0), fb_(flit_w / 8) {
  fp_lanes_check_host();
}

void LocalMemory::check(uint64_t addr, uint64_t n, bool flit) const {
  if (addr > mem_.size() || n > mem_.size() - addr)
    throw std::out_of_range("local memory: [" + hex(addr) + ", " + hex(addr + n) +
                            ") is outside the memory's 0.." + hex(mem_.size() - 1) + " (MEM_BYTES)");
  if (flit && addr % fb_ != 0)
    throw std::out_of_range("local memory: address " + hex(addr) + " is not a multiple of the flit's " +
                            std::to_string(fb_) + " bytes");
}

void LocalMemory::load(uint64_t addr, const void* src, size_t n) {
  check(addr, n, false);
  std::memcpy(mem_.data() + addr, src, n);
}

void LocalMemory::dump(uint64_t addr, void* dst, size_t n) const {
  check(addr, n, false);
  std::memcpy(dst, mem_.data() + addr, n);
}

Wide LocalMemory::read(uint64_t addr) const {
  check(addr, fb_, true);
  Wide f;
  std::memcpy(f.w.data(), mem_.data() + addr, fb_);  // byte 0 in bits 7:0 (docs/packet.md), little-endian host
  return f;
}

void LocalMemory::write(uint64_t addr, const Wide& data) {
  check(addr, fb_, true);
  std::memcpy(mem_.data() + addr, data.w.data(), fb_);
}

void LocalMemory::add(uint64_t addr, const Wide& data, uint8_t dtype) {
  Wide y = read(addr);
  fp_add_burst(dtype, y, data, y, fb_ * 8);
  write(addr, y);
}

}  // namespace t3
