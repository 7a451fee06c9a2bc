// What the stimulus of the endpoint's engines that take packets against the
// translation windows (ep_rx, ep_req) shares: a random table of windows, a
// packet placed in a window or anywhere, malformed now and then, put on the
// stream with random data, and the counter port answered as ep_count
// answers.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "common/packet.h"
#include "common/wide.h"
#include "ep_window/ep_window_core.h"
#include "pkt_stream.h"
#include "stim_base.h"

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
// such operator), then it and its data flits (random) onto the stream.
inline void ep_push_packet(pkt::Header h, unsigned max_len, unsigned flit_w, PktDriver& flits,
                           std::mt19937_64& rng) {
  auto u = [&] { return std::uniform_real_distribution<double>(0, 1)(rng); };
  auto pick = [&](uint64_t n) { return n ? rng() % n : 0; };
  const unsigned fb = flit_w / 8;
  if (u() < 0.01) h.len = uint8_t(max_len + 1 + pick(4));
  if (u() < 0.01) h.addr += 1 + pick(fb - 1);
  if (u() < 0.01) h.red_op = 1;
  flits.push_flit(pkt::pack(h));
  for (unsigned i = 1; i < pkt::wire_flits(h); ++i) {
    Wide d;
    for (unsigned j = 0; j < flit_w / 64; ++j) d.w[j] = rng();
    flits.push_flit(d);
  }
}

// The chances, per window of a random table, of each kind.
struct EpTableMix {
  double copy = 0.1;  // a copy window (stored or added, half each)
  double home = 0.5;  // of the others, a region's home
  double det = 0.0;   // of the homes, a deterministic one
};

// How the counter port's stand-in answers an ADD.
struct EpCntMix {
  unsigned over_pct = 10;   // OVER (BAD is 3 %)
  double whole = 0.35;      // the line whole, when the asker has room (else 0.7: HELD)
  bool any_count = false;   // a DONE's count before any byte (an engine that must not read it)
};

// A packet-taking engine's neighbours: the table of windows on tbl_i, the
// packet stream in, and the counter port (ep_count's ADD and CLEAR).
class EpPacketStim : public StimBase {
 protected:
  EpPacketStim(uint64_t seed, unsigned windows, unsigned flit_w, const EpCntMix& mix = {})
      : StimBase(seed), win_(windows), drv_(flit_w), mix_(mix) {}

  // Windows on disjoint network ranges of 1..64 flits; some invalid, the
  // kinds as mix says; counters from random bases, 10 % of the time one
  // that runs past count_depth (a merge there is refused, cause COUNTER).
  void new_table(unsigned fb, uint32_t count_depth, const EpTableMix& mix) {
    tbl_ = EpWinTable{};
    uint64_t base = pick(64) * fb;
    for (unsigned i = 0; i < win_.size(); ++i) {
      EpWin w;
      w.valid = u() < 0.85;
      w.copy = u() < mix.copy ? uint8_t(1 + pick(2)) : 0;
      w.home = !w.copy && u() < mix.home;
      w.det = w.home && u() < mix.det;
      w.dtype = uint8_t(pick(3));
      w.expected = uint8_t(u() < 0.05 ? 0 : 1 + pick(8));
      const bool fits = u() < 0.9;
      const uint64_t lines = 1 + pick(fits ? std::min<uint64_t>(64, count_depth) : 64);
      w.bytes = uint32_t(lines * fb);
      w.net_base = base;
      base += w.bytes + pick(4) * fb;
      w.count_base = uint32_t(fits ? pick(count_depth - lines + 1) : pick(count_depth + 8));
      w.src = uint32_t(pick(1u << 20) * fb);
      w.dst = uint32_t(pick(1u << 20) * fb);
      w.merge = uint32_t(pick(1u << 20) * fb);
      w.stage = uint32_t(pick(uint64_t(1) << 32) / fb * fb);
      w.contrib_mask = uint32_t(rng_()) | (u() < 0.5 ? 0x80000001u : 0);
      win_[i] = w;
      pack_window(tbl_, i, w);
    }
    span_ = base + 8 * fb;
  }

  // Now and then a new table: mostly between packets (the engine idle and
  // nothing offered in the last cycle), and at any time, between a header's
  // lookup and its decode included (the decode reads the record of the
  // window the lookup found, as the table holds it then).
  bool table_due() { return (quiet_ && u() < 2e-3) || u() < 5e-4; }

  // The table, the stream (a packet made when the last is all offered, a
  // flit offered with chance in_rate while none is) and the counter's answer
  // to last cycle's grant.
  template <class Inputs, class MakePacket>
  void drive_common(Inputs& in, bool& valid, Wide& flit, double in_rate, MakePacket make_packet) {
    in.tbl = tbl_;
    if (drv_.idle()) make_packet();
    drv_.drive(valid, flit, rng_, 1.0 - in_rate);
    in.cnt_ready = u() < 0.7;
    in.cnt_rsp_valid = answer_;
    in.cnt_rsp_code = code_;
    in.cnt_rsp_count = count_;
    in.cnt_rsp_whole = whole_;
  }

  // After the cycle: a reset drops the packet on the way in half its
  // cycles (else the rest of it arrives after the reset as headers, which
  // the engine must resynchronise on); ep_count's answer to a request
  // granted now, for the next cycle: to an ADD, BAD 3 %, OVER as mix_
  // says, else DONE with the line whole or not (more often whole when the
  // asker has no room: then HELD) and the count before 0 or up to the room
  // under the limit (any byte with mix_.any_count); to a CLEAR, DONE.
  template <class Inputs, class Outputs>
  void after_common(const Inputs& in, const Outputs& out, bool valid, bool ready) {
    drv_.after(valid, ready);
    if (!in.rst_n && u() < 0.5) drv_.clear();
    quiet_ = out.idle && !valid;
    answer_ = in.rst_n && out.cnt_valid && in.cnt_ready;
    code_ = count_ = 0;
    whole_ = false;
    if (!answer_) return;
    if (out.cnt_op != 1) {
      count_ = uint8_t(pick(4));
      return;
    }
    const unsigned k = unsigned(pick(100));
    if (k < 3) {
      code_ = 3;  // BAD
    } else if (k < 3 + mix_.over_pct) {
      code_ = 1;  // OVER
    } else {
      const bool whole = u() < (out.cnt_whole_ok ? mix_.whole : 0.7);
      if (whole && !out.cnt_whole_ok) {
        code_ = 2;  // HELD
      } else {
        whole_ = whole;
        const unsigned room = out.cnt_limit > out.cnt_n ? out.cnt_limit - out.cnt_n : 0;
        count_ = uint8_t(u() < 0.4 || room == 0 ? 0 : 1 + pick(room));
      }
    }
    if (code_ != 0 || mix_.any_count) count_ = uint8_t(pick(256));
  }

  std::vector<EpWin> win_;
  EpWinTable tbl_;
  uint64_t span_ = 0;
  PktDriver drv_;

 private:
  EpCntMix mix_;
  bool quiet_ = false;
  bool answer_ = false, whole_ = false;
  uint8_t code_ = 0, count_ = 0;
};

}  // namespace t3::tb
