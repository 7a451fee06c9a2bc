#include "bank_array.h"

namespace t3::tb {
namespace {

uint64_t mix(uint64_t x) {  // splitmix64's finalizer
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

}  // namespace

Wide bank_initial(uint32_t bg, uint32_t addr, uint64_t seed) {
  Wide w;
  const uint64_t k = mix(seed ^ (uint64_t(bg) << 40) ^ addr);
  for (unsigned i = 0; i < Wide::kWords; ++i) w.w[i] = mix(k + i);
  return w;
}

Wide& BankArray::cell(uint32_t bg, uint32_t addr) {
  auto it = mem_.find({bg, addr});
  if (it == mem_.end()) {
    Wide w = bank_initial(bg, addr, seed_);
    w.truncate(8 * burst_bytes_);
    it = mem_.emplace(std::make_pair(bg, addr), w).first;
  }
  return it->second;
}

void BankArray::step(bool rd, uint32_t rd_bg, uint32_t rd_addr, bool wr, uint32_t wr_bg,
                     uint32_t wr_addr, const Wide& wdata, const Wide& wmask) {
  rdata_ = rd ? cell(rd_bg, rd_addr) : Wide{};
  if (!wr) return;
  Wide& m = cell(wr_bg, wr_addr);
  for (unsigned b = 0; b < burst_bytes_; ++b)
    if (wmask.byte(b / 8) >> (b % 8) & 1) m.set_byte(b, wdata.byte(b));
}

}  // namespace t3::tb
