// A block's generated register block (rtl/<block>_reg_top.sv,
// scripts/reggen.py) against the C++ register file the models use (hw/common/regs.h with the
// generated tables), on random AMBA APB traffic and random hardware inputs,
// compared every cycle: prdata_o, pslverr_o, pready_o, intr_o and every
// reg2hw field. The access rules are therefore one set in model and RTL.
//
// T3_REG_SEED in the environment replaces the default seed; T3_REG_CYCLES
// the cycle count.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <type_traits>

#include T3_REG_TOP_HEADER
#include T3_REGS_HEADER
#include "common/regs.h"
#include "verilated.h"

namespace t3 {
namespace {

uint64_t env_or(const char* name, uint64_t fallback) {
  const char* s = std::getenv(name);
  return s ? std::strtoull(s, nullptr, 0) : fallback;
}

// Bits of a Verilated port: an integer (up to 64 bits) or a VlWide (32-bit
// words). Packed struct ports are one vector, first member at the top.
template <class T>
uint32_t get_bits(const T& v, unsigned lsb, unsigned w) {
  const uint64_t m = (uint64_t{1} << w) - 1;
  if constexpr (std::is_integral_v<T>) {
    return uint32_t((uint64_t(v) >> lsb) & m);
  } else {
    constexpr unsigned kWords = sizeof(T) / 4;
    const unsigned i = lsb / 32;
    uint64_t x = v[i];
    if (i + 1 < kWords) x |= uint64_t(v[i + 1]) << 32;
    return uint32_t((x >> (lsb % 32)) & m);
  }
}

template <class T>
void set_bits(T& v, unsigned lsb, unsigned w, uint32_t value) {
  const uint64_t m = (uint64_t{1} << w) - 1;
  if constexpr (std::is_integral_v<T>) {
    v = T((uint64_t(v) & ~(m << lsb)) | ((uint64_t(value) & m) << lsb));
  } else {
    for (unsigned b = 0; b < w; ++b) {
      const unsigned bit = lsb + b;
      const uint32_t one = 1u << (bit % 32);
      v[bit / 32] = (value >> b & 1) ? (v[bit / 32] | one) : (v[bit / 32] & ~one);
    }
  }
}

// The block: T3_REGS is its generated traits struct (<Camel>Regs, from
// T3_REGS_HEADER), T3_REG_TOP its Verilated register block (from
// T3_REG_TOP_HEADER); t3_block_cosim builds this file once per block with
// a register description.
using B = T3_REGS;
using Rtl = T3_REG_TOP;

TEST(RegTopCosim, EveryOutputOfEveryCycle) {
  using M = B::Map;
  const uint64_t seed = env_or("T3_REG_SEED", 0x5eed0001);
  const uint64_t cycles = env_or("T3_REG_CYCLES", 200000);
  SCOPED_TRACE("seed " + std::to_string(seed) + " (T3_REG_SEED repeats it)");
  std::mt19937_64 rng(seed);

  // The struct ports' layouts: members in the generated tables' order, the
  // first at the top; hw2reg ends with busy.
  auto width = [](unsigned reg, unsigned field) { return M::kInfo[reg].fields[field].width; };
  std::vector<unsigned> r2h_lsb(M::kReg2HwCount), h2r_lsb(M::kHw2RegCount);
  unsigned top = 0;
  for (unsigned k = 0; k < M::kReg2HwCount; ++k) top += width(M::kReg2Hw[k].reg, M::kReg2Hw[k].field);
  for (unsigned k = 0; k < M::kReg2HwCount; ++k)
    r2h_lsb[k] = top -= width(M::kReg2Hw[k].reg, M::kReg2Hw[k].field);
  top = 1;  // busy
  for (unsigned k = 0; k < M::kHw2RegCount; ++k) top += width(M::kHw2Reg[k].reg, M::kHw2Reg[k].field);
  for (unsigned k = 0; k < M::kHw2RegCount; ++k)
    h2r_lsb[k] = top -= width(M::kHw2Reg[k].reg, M::kHw2Reg[k].field);
  ASSERT_EQ(top, 1u);

  VerilatedContext ctx;
  auto rtl = std::make_unique<Rtl>(&ctx, "reg_top");
  RegFile rf(M::kInfo, M::kCount);

  unsigned mismatches = 0, compared = 0;
  unsigned seen[5] = {};  // RegStatus of the access phases
  unsigned w1c_clears = 0, pulses = 0, intr_cycles = 0;
  auto check = [&](bool ok, const std::string& what, uint64_t c) {
    ++compared;
    if (ok) return;
    if (++mismatches <= 10) ADD_FAILURE() << "cycle " << c << ": " << what;
  };

  enum { idle, setup, access } phase = idle;
  bool write = false;
  uint32_t addr = 0, wdata = 0, strb = 0xF;
  for (uint64_t c = 0; c < cycles; ++c) {
    const bool rst = c < 2 || rng() % 20000 == 0;
    // APB: a transfer is a setup then an access phase (no wait states).
    if (rst) {
      phase = idle;
    } else if (phase == access || phase == idle) {
      phase = rng() % 4 ? setup : idle;
      if (phase == setup) {
        write = rng() % 2;
        const unsigned pick = unsigned(rng() % 100);
        addr = pick < 80   ? M::kInfo[rng() % M::kCount].offset
               : pick < 95 ? uint32_t(rng() % (kRegWindowBytes / 4)) * 4
                           : uint32_t(rng() % kRegWindowBytes);
        wdata = uint32_t(rng());
        if (rng() % 3 == 0) wdata = rng() % 2 ? 0xFFFFFFFFu : 0;
        strb = rng() % 10 ? 0xF : uint32_t(rng() % 16);
      }
    } else {
      phase = access;
    }
    // The hardware's side: RO values each cycle, sparse set events, busy.
    B::Hw2Reg h{};
    auto& in = *rtl;
    in.hw2reg_i = {};
    for (unsigned k = 0; k < M::kHw2RegCount; ++k) {
      const RegField& f = M::kInfo[M::kHw2Reg[k].reg].fields[M::kHw2Reg[k].field];
      const uint32_t v = f.access == RegAccess::w1c ? (rng() % 16 == 0 ? uint32_t(rng()) : 0)
                                                    : uint32_t(rng());
      h.*M::kHw2Reg[k].member = v;
      set_bits(in.hw2reg_i, h2r_lsb[k], f.width, v);
    }
    h.busy = rng() % 3 == 0;
    set_bits(in.hw2reg_i, 0, 1, h.busy);

    in.rst_ni = !rst;
    in.psel_i = phase != idle;
    in.penable_i = phase == access;
    in.pwrite_i = write;
    in.paddr_i = addr;
    in.pwdata_i = wdata;
    in.pstrb_i = strb;
    in.clk_i = 0;
    rtl->eval();

    // The model, this cycle: the hardware's values, then the access.
    B::hw2reg(rf, h);
    uint32_t want_rdata = 0;
    bool want_err = false;
    const bool compare = c >= 2;  // the RTL's registers are unknown before the first reset
    if (compare) {
      const auto r2h = B::reg2hw(rf);
      for (unsigned k = 0; k < M::kReg2HwCount; ++k) {
        const auto& m = M::kReg2Hw[k];
        const unsigned w = width(m.reg, m.field);
        const uint32_t got = get_bits(in.reg2hw_o, r2h_lsb[k], w);
        check(got == r2h.*m.member,
              std::string("reg2hw.") + M::kInfo[m.reg].name + "_" + M::kInfo[m.reg].fields[m.field].name +
                  ": RTL " + std::to_string(got) + ", model " + std::to_string(r2h.*m.member),
              c);
        if (M::kInfo[m.reg].fields[m.field].access == RegAccess::w1p && got) ++pulses;
      }
      const bool intr = B::intr(rf);
      intr_cycles += intr;
      check(bool(in.intr_o) == intr, "intr_o", c);
    }
    if (phase == access) {
      RegStatus st;
      if (write) {
        const int r = rf.find(addr);
        const uint32_t before = r >= 0 ? rf.q(unsigned(r)) : 0;
        st = rf.write(addr, wdata, strb, h.busy);
        if (r >= 0 && (before & ~rf.q(unsigned(r)) & M::kInfo[r].mask(RegAccess::w1c))) ++w1c_clears;
      } else {
        st = rf.read(addr, want_rdata);
      }
      want_err = st != RegStatus::ok;
      ++seen[unsigned(st)];
    }
    if (compare) {
      check(in.prdata_o == want_rdata,
            "prdata_o: RTL " + std::to_string(in.prdata_o) + ", model " + std::to_string(want_rdata) +
                " at address " + std::to_string(addr),
            c);
      check(bool(in.pslverr_o) == want_err,
            "pslverr_o: RTL " + std::to_string(in.pslverr_o) + ", model " + std::to_string(want_err) +
                " (" + (write ? "write" : "read") + " of " + std::to_string(addr) + ", strobe " +
                std::to_string(strb) + ", busy " + std::to_string(h.busy) + ")",
            c);
      check(in.pready_o == 1, "pready_o", c);
    }
    // The edge.
    in.clk_i = 1;
    rtl->eval();
    if (rst) rf.reset();
    else rf.clock();
  }
  rtl->final();

  EXPECT_EQ(mismatches, 0u) << "of " << compared << " compares";
  // The traffic reached every rule (else a passing run proves little).
  EXPECT_GT(seen[unsigned(RegStatus::ok)], 1000u);
  EXPECT_GT(seen[unsigned(RegStatus::address_error)], 100u);
  EXPECT_GT(seen[unsigned(RegStatus::byte_enable_error)], 100u);
  bool any_ro_only = false, any_locked = false;
  for (unsigned r = 0; r < M::kCount; ++r) {
    const RegInfo& i = M::kInfo[r];
    any_ro_only |= (i.mask(RegAccess::rw) | i.mask(RegAccess::w1c) | i.mask(RegAccess::w1p)) == 0;
    any_locked |= i.busy_locked;
  }
  if (any_ro_only) {
    EXPECT_GT(seen[unsigned(RegStatus::command_error)], 100u);
  }
  if (any_locked) {
    EXPECT_GT(seen[unsigned(RegStatus::busy_error)], 10u);
  }
  EXPECT_GT(w1c_clears, 10u);
  EXPECT_GT(pulses, 10u);
  EXPECT_GT(intr_cycles, 100u);
  std::printf("%u compares; accesses ok %u, address error %u, byte-enable error %u, command error "
              "%u, busy error %u; %u W1C clears, %u W1P pulses, %u cycles with intr_o\n",
              compared, seen[0], seen[1], seen[2], seen[3], seen[4], w1c_clears, pulses,
              intr_cycles);
}

}  // namespace
}  // namespace t3
