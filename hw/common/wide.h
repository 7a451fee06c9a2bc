// A bit vector for pins wider than 64 bits (a DRAM column burst is 256 bits
// by default, T3 §5.1.1). Fixed capacity so that a block's input and output
// structs stay trivially copyable: the co-simulation keeps a window of them
// per cycle for mismatch waveforms. `Wide` (512 bits) holds the widest column
// burst of current DRAMs (64 B: DDR5, HBM3) and the widest flit; the capacity
// is paid on every copy of a block's inputs and outputs, and 1024 bits halved
// the near-bank ALU model's speed (docs/blocks/near_bank_alu.md, Speed). A
// pin that carries one flit per port of a switch (PORTS x FLIT_W bits, packed
// as the RTL's [PORTS-1:0][FLIT_W-1:0]) takes a WideN of its own capacity, up
// to kPinMaxBits.
#pragma once

#include <array>
#include <cstdint>
#include <type_traits>

namespace t3 {

// The widest pin any block may have (16 ports of 512-bit flits).
inline constexpr unsigned kPinMaxBits = 8192;
inline constexpr unsigned kPinMaxWords = kPinMaxBits / 64;

template <unsigned Bits>
struct alignas(16) WideN {  // 16: structs holding one are a whole number of vector moves
  static_assert(Bits % 128 == 0 && Bits <= kPinMaxBits, "a WideN is 128..kPinMaxBits bits, by 128");
  static constexpr unsigned kMaxBits = Bits;
  static constexpr unsigned kWords = kMaxBits / 64;
  std::array<uint64_t, kWords> w{};

  uint8_t byte(unsigned i) const { return uint8_t(w[i / 8] >> (8 * (i % 8))); }
  void set_byte(unsigned i, uint8_t v) {
    const unsigned s = 8 * (i % 8);
    w[i / 8] = (w[i / 8] & ~(uint64_t{0xff} << s)) | (uint64_t{v} << s);
  }
  // n <= 32 bits starting at bit lsb; a lane never straddles two words when
  // lanes are 8, 16 or 32 bits wide and aligned to their width.
  uint32_t lane(unsigned lsb, unsigned n) const {
    return uint32_t((w[lsb / 64] >> (lsb % 64)) & ((uint64_t{1} << n) - 1));
  }
  void set_lane(unsigned lsb, unsigned n, uint32_t v) {
    const uint64_t m = ((uint64_t{1} << n) - 1) << (lsb % 64);
    w[lsb / 64] = (w[lsb / 64] & ~m) | ((uint64_t{v} << (lsb % 64)) & m);
  }
  // n <= 64 bits starting at bit lsb, across a word boundary if need be
  // (a record packed a field after the other).
  uint64_t bits(unsigned lsb, unsigned n) const {
    const unsigned i = lsb / 64, s = lsb % 64;
    uint64_t v = w[i] >> s;
    if (s && s + n > 64 && i + 1 < kWords) v |= w[i + 1] << (64 - s);
    return n >= 64 ? v : v & ((uint64_t{1} << n) - 1);
  }
  void set_bits(unsigned lsb, unsigned n, uint64_t v) {
    const unsigned i = lsb / 64, s = lsb % 64;
    const uint64_t m = n >= 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1;
    v &= m;
    w[i] = (w[i] & ~(m << s)) | (v << s);
    if (s && s + n > 64 && i + 1 < kWords) {
      const uint64_t mh = m >> (64 - s);
      w[i + 1] = (w[i + 1] & ~mh) | (v >> (64 - s));
    }
  }
  // Clears every bit at or above `bits`.
  void truncate(unsigned bits) {
    for (unsigned i = 0; i < kWords; ++i) {
      if (64 * i >= bits) w[i] = 0;
      else if (64 * (i + 1) > bits) w[i] &= (uint64_t{1} << (bits % 64)) - 1;
    }
  }
  // Copies the bits below `bits` from src; the bits at or above stay as
  // they are. A fixed number of masked word moves: a loop bounded by `bits`
  // would become a variable-length memcpy, slow for 32 bytes.
  void copy_low(const WideN& src, unsigned bits) {
    for (unsigned i = 0; i < kWords; ++i) {
      const uint64_t m = bits >= 64 * (i + 1) ? ~uint64_t{0}
                         : bits <= 64 * i     ? 0
                                              : (uint64_t{1} << (bits % 64)) - 1;
      w[i] = (w[i] & ~m) | (src.w[i] & m);
    }
  }
  bool operator==(const WideN& o) const { return w == o.w; }
  bool operator!=(const WideN& o) const { return w != o.w; }
};

using Wide = WideN<512>;

template <class F>
struct IsWide : std::false_type {};
template <unsigned Bits>
struct IsWide<WideN<Bits>> : std::true_type {};
// Whether a pin's field is a WideN (moved as words) rather than an integer.
template <class F>
inline constexpr bool is_wide_v = IsWide<F>::value;

}  // namespace t3
