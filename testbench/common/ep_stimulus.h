// What the stimulus of the endpoint's engines that take packets against the
// translation windows (ep_rx, ep_req) shares: a packet placed in a window or
// anywhere, malformed now and then, and put on the stream with random data.
#pragma once

#include <cstdint>
#include <deque>
#include <random>
#include <vector>

#include "common/packet.h"
#include "common/wide.h"
#include "ep_window/ep_window_core.h"

namespace t3::tb {

// h.addr and h.dtype for a packet of h.len flits: 90 % of the time in a
// random valid window that can hold it (the window's type 97 % of the
// time), else anywhere below span. The window chosen, or nullptr.
inline const EpWin* ep_place_packet(pkt::Header& h, const std::vector<EpWin>& win, uint64_t span, unsigned fb,
                                    std::mt19937_64& rng) {
  auto u = [&] { return std::uniform_real_distribution<double>(0, 1)(rng); };
  auto pick = [&](uint64_t n) { return n ? rng() % n : 0; };
  const EpWin& w = win[pick(win.size())];
  if (w.valid && u() < 0.9 && w.bytes >= h.len * fb) {
    h.addr = w.net_base + pick(w.bytes / fb - h.len + 1) * fb;
    h.dtype = u() < 0.97 ? w.dtype : uint8_t(pick(3));
    return &w;
  }
  h.addr = pick(span / fb) * fb;
  h.dtype = uint8_t(pick(3));
  return nullptr;
}

// The header malformed 1 % of the time each way (too long, misaligned, no
// such operator), then it and its data flits (random) onto flits.
inline void ep_push_packet(pkt::Header h, unsigned max_len, unsigned flit_w, std::deque<Wide>& flits,
                           std::mt19937_64& rng) {
  auto u = [&] { return std::uniform_real_distribution<double>(0, 1)(rng); };
  auto pick = [&](uint64_t n) { return n ? rng() % n : 0; };
  const unsigned fb = flit_w / 8;
  if (u() < 0.01) h.len = uint8_t(max_len + 1 + pick(4));
  if (u() < 0.01) h.addr += 1 + pick(fb - 1);
  if (u() < 0.01) h.red_op = 1;
  flits.push_back(pkt::pack(h));
  for (unsigned i = 1; i < pkt::wire_flits(h); ++i) {
    Wide d;
    for (unsigned j = 0; j < flit_w / 64; ++j) d.w[j] = rng();
    flits.push_back(d);
  }
}

}  // namespace t3::tb
