// regs_reg2hw() and regs_ro_value() of hw/common/regs.h with their lookups in
// the generated register map resolved once.
//
// The generic functions look every field up in the map (its register, its
// access, its mask from the width) each time they run: regs_reg2hw() each
// time the registers change (a W1P pulse changes them twice: as it starts
// and as it ends), regs_ro_value() on every register read, over every
// member of the Hw2Reg struct. A block whose register traffic is heavy pays
// that in its model's speed. These tables look the fields up once, at
// construction, and then give the same values, member for member and bit
// for bit (hw/common/reg_block.h's refresh() uses Reg2HwTable for every
// block; each block's regs test holds the kept struct to the full packing).
#pragma once

#include <cstdint>
#include <vector>

#include "common/bits.h"
#include "common/regs.h"

namespace t3 {

// regs_reg2hw<Map, Reg2Hw>(rf).
template <class Map, class Reg2Hw>
class Reg2HwTable {
 public:
  // Entries in the order of their registers' bits in RegFile::take_changed()
  // (register r's bit r, 63 and above sharing bit 63), first_[b]: bit b's.
  Reg2HwTable() {
    e_.reserve(Map::kReg2HwCount);
    for (unsigned b = 0; b < 64; ++b) {
      first_[b] = unsigned(e_.size());
      for (unsigned k = 0; k < Map::kReg2HwCount; ++k) {
        const auto& m = Map::kReg2Hw[k];
        if (RegFile::reg_bit(m.reg) != uint64_t{1} << b) continue;
        const RegField& f = Map::kInfo[m.reg].fields[m.field];
        e_.push_back(Entry{m.member, m.reg, f.mask(), f.lsb, f.access == RegAccess::w1p});
      }
    }
    first_[64] = unsigned(e_.size());
  }
  Reg2Hw operator()(const RegFile& rf) const {
    Reg2Hw o{};
    for (const Entry& e : e_) set(o, e, rf);
    return o;
  }
  // o as operator() would give it, given o was that when the registers of
  // `changed` (RegFile::take_changed()) last changed: only their members
  // are repacked.
  void update(const RegFile& rf, uint64_t changed, Reg2Hw& o) const {
    while (changed) {
      const unsigned b = unsigned(__builtin_ctzll(changed));
      changed &= changed - 1;
      for (unsigned k = first_[b]; k < first_[b + 1]; ++k) set(o, e_[k], rf);
    }
  }

 private:
  struct Entry {
    uint32_t Reg2Hw::*member;
    unsigned reg;
    uint32_t mask;
    unsigned lsb;
    bool w1p;
  };
  static void set(Reg2Hw& o, const Entry& e, const RegFile& rf) {
    o.*e.member = (pick(e.w1p, rf.pulses(e.reg), rf.q(e.reg)) & e.mask) >> e.lsb;
  }
  unsigned first_[65] = {};
  std::vector<Entry> e_;
};

// regs_ro_value<Map>(h, r): register r's RO bits as h gives them.
template <class Map, class Hw2Reg>
class RoTable {
 public:
  RoTable() : first_(Map::kCount + 1, 0) {
    for (unsigned r = 0; r < Map::kCount; ++r) {
      first_[r] = unsigned(e_.size());
      for (unsigned k = 0; k < Map::kHw2RegCount; ++k) {
        const auto& m = Map::kHw2Reg[k];
        const RegField& f = Map::kInfo[m.reg].fields[m.field];
        if (m.reg == r && f.access == RegAccess::ro) e_.push_back(Entry{m.member, f.lsb, f.mask()});
      }
    }
    first_[Map::kCount] = unsigned(e_.size());
  }
  uint32_t operator()(const Hw2Reg& h, unsigned r) const {
    uint32_t v = 0;
    for (unsigned k = first_[r]; k < first_[r + 1]; ++k) v |= (h.*e_[k].member << e_[k].lsb) & e_[k].mask;
    return v;
  }

 private:
  struct Entry {
    uint32_t Hw2Reg::*member;
    unsigned lsb;
    uint32_t mask;
  };
  std::vector<unsigned> first_;  // register r's entries: [first_[r], first_[r + 1])
  std::vector<Entry> e_;
};

}  // namespace t3
