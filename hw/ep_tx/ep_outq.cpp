#include "ep_tx/ep_outq.h"

#include <stdexcept>
#include <string>

namespace t3 {

EpOutq::EpOutq(unsigned flit_w, unsigned max_len, unsigned slots)
    : flit_w_(flit_w), max_len_(max_len) {
  if (slots < 1 + max_len || slots > 64)
    throw std::invalid_argument("SLOTS = " + std::to_string(slots) +
                                " is out of range; allowed: 1 + MAX_LEN (" +
                                std::to_string(1 + max_len) + ") .. 64");
  slot_.resize(slots);
}

void EpOutq::reset() {
  for (Slot& s : slot_) s = Slot{};
  head_ = count_ = 0;
}

void EpOutq::put(unsigned i, const Wide& f, bool wait) {
  Slot& s = slot_[i % slots()];
  s.flit = f;
  s.flit.truncate(flit_w_);
  s.wait = wait;
}

void EpOutq::clock(const Edge& e) {
  const unsigned tail = (head_ + count_) % slots();
  const bool pop = out_valid() && e.out_ready;
  if (e.fill && awaited(e.tag)) put(e.tag, *e.data, false);
  if (pop) {
    head_ = (head_ + 1) % slots();
    --count_;
  }
  if (e.push) {
    put(tail, *e.hdr, false);
    for (unsigned i = 1; i <= e.len && i <= max_len_; ++i) put(tail + i, Wide{}, true);
    count_ += 1 + e.len;
  }
}

}  // namespace t3
