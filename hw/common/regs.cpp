#include "common/regs.h"

#include <stdexcept>

namespace t3 {

const char* to_string(RegAccess a) {
  switch (a) {
    case RegAccess::rw: return "RW";
    case RegAccess::ro: return "RO";
    case RegAccess::w1c: return "W1C";
    case RegAccess::w1p: return "W1P";
  }
  return "?";
}

const char* to_string(RegStatus s) {
  switch (s) {
    case RegStatus::ok: return "ok";
    case RegStatus::address_error: return "address error (no register at this offset)";
    case RegStatus::byte_enable_error: return "byte-enable error (registers take whole words)";
    case RegStatus::command_error: return "command error (the register is read-only)";
    case RegStatus::busy_error: return "busy error (the register is locked while the block is busy)";
  }
  return "?";
}

uint32_t RegInfo::mask(RegAccess a) const {
  uint32_t m = 0;
  for (unsigned f = 0; f < n_fields; ++f)
    if (fields[f].access == a) m |= fields[f].mask();
  return m;
}

uint32_t RegInfo::reset() const {
  uint32_t v = 0;
  for (unsigned f = 0; f < n_fields; ++f) v |= (fields[f].reset << fields[f].lsb) & fields[f].mask();
  return v;
}

const RegField* RegInfo::field(const std::string& name) const {
  for (unsigned f = 0; f < n_fields; ++f)
    if (name == fields[f].name) return &fields[f];
  return nullptr;
}

RegFile::RegFile(const RegInfo* regs, unsigned n_regs)
    : regs_(regs), n_(n_regs), q_(n_regs), ro_(n_regs), pulse_(n_regs), next_pulse_(n_regs),
      set_(n_regs), masks_(n_regs), at_word_(kRegWindowBytes / 4, -1) {
  for (unsigned r = 0; r < n_; ++r) {
    const RegInfo& i = regs_[r];
    if (i.offset % 4 || i.offset >= kRegWindowBytes)
      throw std::invalid_argument(std::string("register ") + i.name + ": offset " +
                                  std::to_string(i.offset) +
                                  " is not a word offset inside the 4 KiB window");
    for (RegAccess a : {RegAccess::rw, RegAccess::ro, RegAccess::w1c, RegAccess::w1p})
      masks_[r][unsigned(a)] = i.mask(a);
    // A duplicate offset finds the first, as the search of the list did.
    if (at_word_[i.offset / 4] < 0) at_word_[i.offset / 4] = int16_t(r);
  }
  reset();
}

int RegFile::find(uint32_t offset) const {
  if (offset % 4 || offset >= kRegWindowBytes) return -1;
  return at_word_[offset / 4];
}

int RegFile::find(const std::string& name) const {
  for (unsigned r = 0; r < n_; ++r)
    if (name == regs_[r].name) return int(r);
  return -1;
}

RegStatus RegFile::check_write(uint32_t offset, uint32_t strb, bool busy) const {
  // The same order of checks as the generated RTL (rtl/reg_apb.sv).
  const int r = find(offset);
  if (r < 0) return RegStatus::address_error;
  if ((strb & 0xF) != 0xF) return RegStatus::byte_enable_error;
  if ((mask(r, RegAccess::rw) | mask(r, RegAccess::w1c) | mask(r, RegAccess::w1p)) == 0)
    return RegStatus::command_error;
  if (regs_[r].busy_locked && busy) return RegStatus::busy_error;
  return RegStatus::ok;
}

RegStatus RegFile::write(uint32_t offset, uint32_t data, uint32_t strb, bool busy) {
  const RegStatus st = check_write(offset, strb, busy);
  if (st != RegStatus::ok) return st;
  const unsigned r = unsigned(find(offset));
  const uint32_t rw = mask(r, RegAccess::rw), w1c = mask(r, RegAccess::w1c),
                 w1p = mask(r, RegAccess::w1p);
  q_[r] = (q_[r] & ~rw & ~(data & w1c)) | (data & rw);
  next_pulse_[r] |= data & w1p;
  dirty_ |= pick((data & w1p) != 0, reg_bit(r), uint64_t{0});
  changed_ |= reg_bit(r);
  return RegStatus::ok;
}

RegStatus RegFile::read(uint32_t offset, uint32_t& data) const {
  const int r = find(offset);
  data = 0;
  if (r < 0) return RegStatus::address_error;
  data = (q_[r] & (mask(r, RegAccess::rw) | mask(r, RegAccess::w1c))) | ro_[r];
  return RegStatus::ok;
}

void RegFile::clock_pending() {
  uint64_t d = dirty_;
  dirty_ = 0;
  while (d) {
    const unsigned b = unsigned(__builtin_ctzll(d));
    d &= d - 1;
    for (unsigned r = b, end = b < 63 ? b + 1 : n_; r < end; ++r) {
      const bool c = (set_[r] & ~q_[r]) != 0 || pulse_[r] != next_pulse_[r];
      changed_ |= pick(c, reg_bit(r), uint64_t{0});
      q_[r] |= set_[r];
      set_[r] = 0;
      pulse_[r] = next_pulse_[r];
      next_pulse_[r] = 0;
      // This cycle's pulses end at the next edge.
      dirty_ |= pick(pulse_[r] != 0, reg_bit(r), uint64_t{0});
    }
  }
}

void RegFile::start_pulses() {
  for (unsigned r = 0; r < n_; ++r) {
    const bool s = (next_pulse_[r] & ~pulse_[r]) != 0;
    changed_ |= pick(s, reg_bit(r), uint64_t{0});
    pulse_[r] |= next_pulse_[r];
    next_pulse_[r] = 0;
  }
}

void RegFile::reset() {
  for (unsigned r = 0; r < n_; ++r) {
    q_[r] = regs_[r].reset() & (mask(r, RegAccess::rw) | mask(r, RegAccess::w1c));
    ro_[r] = pulse_[r] = next_pulse_[r] = set_[r] = 0;
  }
  dirty_ = 0;
  changed_ = ~uint64_t{0};
}

}  // namespace t3
