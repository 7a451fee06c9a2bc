// A block's register file, driven by the tables scripts/blockgen.py generates
// from hw/<block>/<block>.yaml (the one register description). The
// access rules live here once, for every block; the generated
// rtl/<block>_reg_top.sv implements the same rules for the APB port.
//
// Rules (docs/registers/README.md):
// - 32-bit registers at word-aligned offsets in a 4 KiB window; any other
//   address in the window answers an address error;
// - writes are whole words: a byte strobe other than 0xF is a byte-enable
//   error; reads ignore the strobe;
// - a write to a register without a writable field is a command error;
// - a write to a register marked busy-locked while the block reports busy
//   is refused (busy error);
// - an access that errs changes nothing; reserved bits read 0;
// - field kinds: RW (software's value, to the hardware), RO (the hardware's
//   value), W1C (set by a hardware event, cleared by writing 1; a set and a
//   clear in one cycle leave it set), W1P (writing 1 pulses the hardware for
//   one cycle; reads 0).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "common/bits.h"

namespace t3 {

enum class RegAccess : uint8_t { rw, ro, w1c, w1p };
enum class RegStatus : uint8_t { ok, address_error, byte_enable_error, command_error, busy_error };

const char* to_string(RegAccess a);
const char* to_string(RegStatus s);

inline constexpr uint32_t kRegWindowBytes = 0x1000;

struct RegField {
  const char* name;
  unsigned lsb, width;
  RegAccess access;
  uint32_t reset;
  uint32_t mask() const { return (width >= 32 ? ~0u : ((1u << width) - 1)) << lsb; }
};

struct RegInfo {
  const char* name;
  uint32_t offset;
  bool busy_locked;
  const RegField* fields;
  unsigned n_fields;
  uint32_t mask(RegAccess a) const;  // the bits of fields of this kind
  uint32_t reset() const;
  const RegField* field(const std::string& name) const;  // nullptr if none
};

// The register values of one block, as the hardware holds them. In a
// cycle the block's hardware reads the RW/W1C values (q) and the W1P pulses
// and gives its RO values (set_ro) and W1C set events (hw_set); a software
// access is applied at the cycle's clock edge, as the RTL's access phase:
// write() and read(), then clock(). After the edge q() shows a write, and
// pulses() shows a W1P write for exactly that one cycle; set events apply
// at the edge after any clear of the same cycle (set wins).
class RegFile {
 public:
  RegFile(const RegInfo* regs, unsigned n_regs);

  unsigned size() const { return n_; }
  const RegInfo& info(unsigned r) const { return regs_[r]; }
  // The register at a byte offset, or -1.
  int find(uint32_t offset) const;
  int find(const std::string& name) const;

  // One software access: a TLM transaction, or an APB access phase. A
  // write changes q() at once (call it at the edge); its W1P pulses start
  // at the next clock(). read() gives the value an APB read returns in the
  // access phase: RO bits as last set_ro(), W1P bits 0, reserved bits 0.
  RegStatus write(uint32_t offset, uint32_t data, uint32_t strb, bool busy);
  RegStatus read(uint32_t offset, uint32_t& data) const;
  // What write() would answer, without writing (the access phase's pslverr).
  RegStatus check_write(uint32_t offset, uint32_t strb, bool busy) const;

  // The hardware's side.
  uint32_t q(unsigned r) const { return q_[r]; }          // RW and W1C bits
  uint32_t pulses(unsigned r) const { return pulse_[r]; }  // W1P bits of this cycle
  // The bits of register r's fields of one kind (RegInfo::mask, computed
  // once here: set_ro and hw_set run every cycle).
  uint32_t mask(unsigned r, RegAccess a) const { return masks_[r][unsigned(a)]; }
  void set_ro(unsigned r, uint32_t v) { ro_[r] = v & mask(r, RegAccess::ro); }
  void hw_set(unsigned r, uint32_t bits) {
    const uint32_t b = bits & mask(r, RegAccess::w1c);
    set_[r] |= b;
    dirty_ |= pick(b != 0, reg_bit(r), uint64_t{0});
  }
  // Applies this cycle's set events; ends its pulses. Inline: a block calls
  // it every cycle, and most cycles have nothing pending.
  void clock() {
    if (dirty_) clock_pending();
  }
  // The registers whose q() or pulses() may have changed since the last
  // call (bit r: register r; bit 63: any of 63 and above), and forgets
  // them: a model caches its reg2hw struct while has_changed() is false and
  // then repacks it from these alone.
  bool has_changed() const { return changed_ != 0; }
  uint64_t take_changed() {
    const uint64_t c = changed_;
    changed_ = 0;
    return c;
  }
  // Register r's bit in take_changed().
  static uint64_t reg_bit(unsigned r) { return uint64_t{1} << (r < 63 ? r : 63); }
  // After a write between two edges (a loosely timed TLM access, taken as
  // made at the last edge): its W1P pulses start now, for the rest of this
  // cycle, and end at the next clock(), as an APB write's do after its edge.
  void start_pulses();
  void reset();

 private:
  void clock_pending();
  const RegInfo* regs_;
  unsigned n_;
  std::vector<uint32_t> q_, ro_, pulse_, next_pulse_, set_;
  std::vector<std::array<uint32_t, 4>> masks_;  // by RegAccess
  // The register at each word of the window, -1 for none: find() runs on
  // every register access, several times, and a search of the list ends in
  // a mispredicted branch on random addresses (the DMA table's bench).
  std::vector<int16_t> at_word_;
  // The registers (reg_bit()) whose set events or pulses wait for clock():
  // without, an edge changes nothing (the common cycle, kept cheap); with,
  // the edge visits those alone.
  uint64_t dirty_ = 0;
  uint64_t changed_ = ~uint64_t{0};  // see take_changed()
};

// The generated tables drive the packing: Map is a block's <Camel>RegMap
// (kInfo, and kReg2Hw / kHw2Reg: each struct member with its register and
// field), so no block has code of its own for it.

// RW and W1C values and this cycle's W1P pulses, as the core reads them.
template <class Map, class Reg2Hw>
Reg2Hw regs_reg2hw(const RegFile& rf) {
  Reg2Hw o{};
  for (unsigned k = 0; k < Map::kReg2HwCount; ++k) {
    const auto& m = Map::kReg2Hw[k];
    const RegField& f = Map::kInfo[m.reg].fields[m.field];
    const uint32_t v = f.access == RegAccess::w1p ? rf.pulses(m.reg) : rf.q(m.reg);
    o.*m.member = (v & f.mask()) >> f.lsb;
  }
  return o;
}

// The RO bits of register r as the core gives them in h.
template <class Map, class Hw2Reg>
uint32_t regs_ro_value(const Hw2Reg& h, unsigned r) {
  uint32_t v = 0;
  for (unsigned k = 0; k < Map::kHw2RegCount; ++k) {
    const auto& m = Map::kHw2Reg[k];
    if (m.reg != r) continue;
    const RegField& f = Map::kInfo[m.reg].fields[m.field];
    if (f.access == RegAccess::ro) v |= (h.*m.member << f.lsb) & f.mask();
  }
  return v;
}

// The core's RO values (for this cycle's reads) and W1C set events (for
// this cycle's edge). INTR_TEST's pulses set INTR_STATE like events.
template <class Map, class Hw2Reg>
void regs_hw2reg(RegFile& rf, const Hw2Reg& h) {
  uint32_t ro[Map::kCount] = {}, set[Map::kCount] = {};
  for (unsigned k = 0; k < Map::kHw2RegCount; ++k) {
    const auto& m = Map::kHw2Reg[k];
    const RegField& f = Map::kInfo[m.reg].fields[m.field];
    const uint32_t v = (h.*m.member << f.lsb) & f.mask();
    (f.access == RegAccess::ro ? ro : set)[m.reg] |= v;
  }
  if (Map::kIntrState >= 0) set[Map::kIntrState] |= rf.pulses(unsigned(Map::kIntrTest));
  for (unsigned r = 0; r < Map::kCount; ++r) {
    if (rf.mask(r, RegAccess::ro)) rf.set_ro(r, ro[r]);
    if (set[r]) rf.hw_set(r, set[r]);
  }
}

// intr_o: an enabled interrupt is pending.
template <class Map>
bool regs_intr(const RegFile& rf) {
  return Map::kIntrState >= 0 &&
         (rf.q(unsigned(Map::kIntrState)) & rf.q(unsigned(Map::kIntrEnable))) != 0;
}

// What every generated <Camel>RegMap has beside its tables: kCount
// registers described in kInfo; the interrupt registers' indices
// kIntrState, kIntrEnable, kIntrTest (-1: the block has no interrupts); each
// Reg2Hw / Hw2Reg member with its register and field (kReg2Hw, kHw2Reg:
// indices into kInfo and its fields), from which the functions above pack
// the structs. Here: the types of those member lists.
template <class Reg2Hw, class Hw2Reg>
struct RegMapMembers {
  struct Reg2HwMember {
    unsigned reg, field;
    uint32_t Reg2Hw::*member;
  };
  struct Hw2RegMember {
    unsigned reg, field;
    uint32_t Hw2Reg::*member;
  };
};

// What every generated <Camel>Regs has beside its name (kBlock) and its
// set_events(rf, h): the structs and their packing from the tables, for the
// models and for code generic over blocks. set_events() is unrolled member
// by member (a block's hw2reg() inlined beside it builds only these
// members): the set events alone, for this cycle's edge (after this cycle's
// write: a set wins over its clear), INTR_TEST's pulses among them; bits set
// already are left alone.
template <class MapT, class Reg2HwT, class Hw2RegT>
struct RegsOf {
  using Map = MapT;
  using Reg2Hw = Reg2HwT;
  using Hw2Reg = Hw2RegT;
  static Reg2Hw reg2hw(const RegFile& rf) { return regs_reg2hw<Map, Reg2Hw>(rf); }
  // RO values for this cycle's reads, set events for this cycle's edge.
  static void hw2reg(RegFile& rf, const Hw2Reg& h) { regs_hw2reg<Map>(rf, h); }
  // intr_o: an enabled interrupt is pending.
  static bool intr(const RegFile& rf) { return regs_intr<Map>(rf); }
};

}  // namespace t3
