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
// for bit (hw/dma_credit/dma_credit_eval.h uses them; its unit test holds
// the block to the generic RegBlock in every cycle).
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
  Reg2HwTable() {
    e_.reserve(Map::kReg2HwCount);
    for (unsigned k = 0; k < Map::kReg2HwCount; ++k) {
      const auto& m = Map::kReg2Hw[k];
      const RegField& f = Map::kInfo[m.reg].fields[m.field];
      e_.push_back(Entry{m.member, m.reg, f.mask(), f.lsb, f.access == RegAccess::w1p});
    }
  }
  Reg2Hw operator()(const RegFile& rf) const {
    Reg2Hw o{};
    for (const Entry& e : e_) o.*e.member = (pick(e.w1p, rf.pulses(e.reg), rf.q(e.reg)) & e.mask) >> e.lsb;
    return o;
  }

 private:
  struct Entry {
    uint32_t Reg2Hw::*member;
    unsigned reg;
    uint32_t mask;
    unsigned lsb;
    bool w1p;
  };
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
