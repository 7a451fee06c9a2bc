// The scoreboards' own picture of a block's registers, independent of the
// models' RegFile (hw/common/regs.h) and of the RTL (rtl/reg_apb.sv and the
// generated register blocks): written here from the access rules of
// docs/registers/README.md, over the register description's tables (which
// register is at which offset, its fields and their access kinds). It
// watches the APB port and predicts every access's answer: pslverr, and
// read data (the RW and W1C bits it keeps, the RO bits the block's
// scoreboard predicts); it keeps what firmware wrote, and the interrupt
// state that the block's events (as its scoreboard predicts them) set.
//
// Per cycle: observe() (the access phase's answer, before the edge), the
// block's set_event()s, then edge().
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <stdexcept>
#include <string>

#include "common/apb.h"
#include "common/regs.h"

namespace t3::tb {

// Accesses seen, by what they were: the random tests assert each happened.
struct RegAccessCounts {
  uint64_t reads = 0, writes = 0;  // answered without error
  uint64_t address_errors = 0, strobe_errors = 0, read_only_errors = 0, busy_errors = 0;
  uint64_t intr_cycles = 0;  // cycles intr_o was expected high

  RegAccessCounts& operator+=(const RegAccessCounts& o) {
    reads += o.reads;
    writes += o.writes;
    address_errors += o.address_errors;
    strobe_errors += o.strobe_errors;
    read_only_errors += o.read_only_errors;
    busy_errors += o.busy_errors;
    intr_cycles += o.intr_cycles;
    return *this;
  }
};

template <class Map>
class RegShadow {
 public:
  RegShadow() {
    for (unsigned r = 0; r < Map::kCount; ++r) {
      const RegInfo& i = Map::kInfo[r];
      for (unsigned f = 0; f < i.n_fields; ++f) {
        const RegField& fd = i.fields[f];
        const uint32_t m = (fd.width >= 32 ? ~0u : (1u << fd.width) - 1) << fd.lsb;
        kind_[r][unsigned(fd.access)] |= m;
        reset_[r] |= (fd.reset << fd.lsb) & m;
      }
    }
    reset();
  }

  // Every register at its reset value, nothing pending (a reset of the block).
  void reset() {
    for (unsigned r = 0; r < Map::kCount; ++r) {
      q_[r] = reset_[r] & (kind_[r][rw] | kind_[r][w1c]);
      pulse_[r] = next_pulse_[r] = set_[r] = 0;
    }
    write_reg_ = written_ = -1;
  }

  // The register at a byte offset, or -1 (only word offsets hold one).
  static int find(uint32_t offset) {
    if (offset % 4) return -1;
    for (unsigned r = 0; r < Map::kCount; ++r)
      if (Map::kInfo[r].offset == offset) return int(r);
    return -1;
  }
  // Register index by name (as in the description), or throws.
  static unsigned reg(const std::string& name) {
    for (unsigned r = 0; r < Map::kCount; ++r)
      if (name == Map::kInfo[r].name) return r;
    throw std::invalid_argument("no register " + name);
  }

  // The RW and W1C bits the block holds in this cycle.
  uint32_t value(unsigned r) const { return q_[r]; }
  // One field of them, by name.
  uint32_t field(unsigned r, const char* name) const {
    const RegInfo& i = Map::kInfo[r];
    for (unsigned f = 0; f < i.n_fields; ++f)
      if (std::string(name) == i.fields[f].name) {
        const RegField& fd = i.fields[f];
        return uint32_t((uint64_t(q_[r]) >> fd.lsb) & ((uint64_t{1} << fd.width) - 1));
      }
    throw std::invalid_argument(std::string("register ") + i.name + " has no field " + name);
  }
  // W1P bits pulsing in this cycle (written in the one before).
  uint32_t pulses(unsigned r) const { return pulse_[r]; }
  uint32_t mask(unsigned r, RegAccess a) const { return kind_[r][unsigned(a)]; }
  // intr_o as it must be in this cycle.
  bool intr() const {
    return Map::kIntrState >= 0 && (q_[Map::kIntrState] & q_[Map::kIntrEnable]) != 0;
  }
  const RegAccessCounts& counts() const { return counts_; }
  // The register a write changed at the last edge, or -1.
  int written() const { return written_; }

  // This cycle's APB answer against the rules. busy: whether the block is
  // busy in this cycle (its scoreboard's reading); ro(r): the RO bits of
  // register r the scoreboard expects in this cycle, or nullopt to leave
  // them unchecked. Complaints go to err.
  template <class Ro>
  void observe(const ApbRequest& a, const ApbResponse& o, bool busy, Ro&& ro, std::ostream& err) {
    if (intr()) ++counts_.intr_cycles;
    if (!o.pready) err << "pready_o = 0 (the register block has no wait states); ";
    if (!a.access()) {
      if (o.pslverr) err << "pslverr_o outside an access phase; ";
      if (o.prdata) err << "prdata_o = 0x" << std::hex << o.prdata << std::dec << " outside a read; ";
      return;
    }
    const int r = find(a.paddr);
    const char* why = nullptr;
    if (r < 0) {
      why = "address error";
      ++counts_.address_errors;
    } else if (a.pwrite && (a.pstrb & 0xF) != 0xF) {
      why = "byte-enable error";
      ++counts_.strobe_errors;
    } else if (a.pwrite && (kind_[r][rw] | kind_[r][w1c] | kind_[r][w1p]) == 0) {
      why = "command error (read-only register)";
      ++counts_.read_only_errors;
    } else if (a.pwrite && Map::kInfo[r].busy_locked && busy) {
      why = "busy error (locked while busy)";
      ++counts_.busy_errors;
    }
    const char* name = r < 0 ? "no register" : Map::kInfo[r].name;
    if (o.pslverr != (why != nullptr))
      err << (a.pwrite ? "write" : "read") << " of 0x" << std::hex << a.paddr << std::dec << " ("
          << name << "): pslverr_o = " << o.pslverr << ", expected "
          << (why ? std::string("1: ") + why : std::string("0")) << "; ";
    if (a.pwrite || why) {
      if (o.prdata) err << "prdata_o = 0x" << std::hex << o.prdata << std::dec << " outside a read; ";
    } else {
      const uint32_t kept = q_[r] & (kind_[r][rw] | kind_[r][w1c]);
      const uint32_t ro_mask = kind_[r][unsigned(RegAccess::ro)];
      if ((o.prdata & ~ro_mask) != kept)
        err << "read of " << name << ": 0x" << std::hex << (o.prdata & ~ro_mask)
            << " in the written bits, expected 0x" << kept << std::dec << "; ";
      if (const std::optional<uint32_t> want = ro(unsigned(r)); want && (o.prdata & ro_mask) != *want)
        err << "read of " << name << ": 0x" << std::hex << (o.prdata & ro_mask)
            << " in the read-only bits, expected 0x" << *want << std::dec << "; ";
    }
    if (why) return;
    if (a.pwrite) {
      ++counts_.writes;
      write_reg_ = r;
      write_data_ = a.pwdata;
    } else {
      ++counts_.reads;
    }
  }

  // A W1C set event of the block in this cycle (bits of register r).
  void set_event(unsigned r, uint32_t bits) { set_[r] |= bits & kind_[r][w1c]; }

  // The rising edge: this cycle's write, then its set events (a set wins
  // over a clear), INTR_TEST's pulses setting INTR_STATE; the pulses of a
  // W1P write start.
  void edge() {
    written_ = write_reg_;
    if (write_reg_ >= 0) {
      const unsigned r = unsigned(write_reg_);
      q_[r] = (q_[r] & ~kind_[r][rw] & ~(write_data_ & kind_[r][w1c])) | (write_data_ & kind_[r][rw]);
      next_pulse_[r] = write_data_ & kind_[r][w1p];
      write_reg_ = -1;
    }
    if (Map::kIntrState >= 0) set_[Map::kIntrState] |= pulse_[Map::kIntrTest];
    for (unsigned r = 0; r < Map::kCount; ++r) {
      q_[r] |= set_[r];
      set_[r] = 0;
      pulse_[r] = next_pulse_[r];
      next_pulse_[r] = 0;
    }
  }

 private:
  static constexpr unsigned rw = unsigned(RegAccess::rw), w1c = unsigned(RegAccess::w1c),
                            w1p = unsigned(RegAccess::w1p);
  uint32_t kind_[Map::kCount][4] = {}, reset_[Map::kCount] = {};
  uint32_t q_[Map::kCount] = {}, pulse_[Map::kCount] = {}, next_pulse_[Map::kCount] = {},
           set_[Map::kCount] = {};
  int write_reg_ = -1, written_ = -1;
  uint32_t write_data_ = 0;
  RegAccessCounts counts_;
};

}  // namespace t3::tb
