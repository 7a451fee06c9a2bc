#include "ep_tx/ep_outq.h"

#include <stdexcept>
#include <string>

namespace t3 {

EpOutq::EpOutq(unsigned flit_w, unsigned max_len, unsigned slots, unsigned fills)
    : flit_w_(flit_w), max_len_(max_len), fills_(fills) {
  if (slots < 1 + max_len || slots > 64)
    throw std::invalid_argument("SLOTS = " + std::to_string(slots) + " is out of range; allowed: 1 + MAX_LEN (" +
                                std::to_string(1 + max_len) + ") .. 64");
  if (fills < 1 || fills > kMaxFills)
    throw std::invalid_argument("FILLS = " + std::to_string(fills) + " is out of range; allowed: 1..2");
  slot_.resize(slots);
}

void EpOutq::reset() {
  for (Slot& s : slot_) s = Slot{};
  head_ = count_ = held_n_ = rel_n_ = 0;
}

bool EpOutq::fills_slot(const Fill* fills, unsigned f) const {
  const Fill& a = fills[f];
  if (!a.valid || a.tag >= slots() || !slot_[a.tag].wait) return false;
  for (unsigned g = 0; g < f; ++g)
    if (fills_slot(fills, g) && fills[g].tag == a.tag) return false;
  return true;
}

void EpOutq::put(unsigned i, const Wide& f, bool wait, bool held) {
  Slot& s = slot_[i % slots()];
  s.flit = f;
  s.flit.truncate(flit_w_);
  s.wait = wait;
  s.held = held;
}

void EpOutq::clock(const Edge& e) {
  const unsigned tail = (head_ + count_) % slots();
  const bool pop = out_valid() && e.out_ready;
  const bool pop_held = pop && slot_[head_].held;
  const bool rel_ok = e.rel && !rel_stray(e.rel);
  bool filled[kMaxFills] = {};
  for (unsigned f = 0; f < fills_; ++f) filled[f] = fills_slot(e.fill, f);
  for (unsigned f = 0; f < fills_; ++f)
    if (filled[f]) put(e.fill[f].tag, *e.fill[f].data, false, slot_[e.fill[f].tag].held);
  if (pop) head_ = (head_ + 1) % slots();
  count_ -= pop;
  held_n_ -= pop_held;
  rel_n_ = rel_n_ - pop_held + rel_ok;
  if (e.push) {
    put(tail, *e.hdr, false, e.hold && e.len == 0);
    for (unsigned i = 1; i <= e.len && i <= max_len_; ++i) put(tail + i, Wide{}, true, e.hold && i == e.len);
    count_ += 1 + e.len;
    held_n_ += e.hold;
  }
}

}  // namespace t3
