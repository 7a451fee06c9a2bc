// ep_window's constrained-random traffic: windows staged and written or
// cleared through the register port (most of them valid, placed so that
// they overlap now and then; the others breaking one rule each, every rule
// in turn), read back; lookups at the edges of the windows the table holds
// (tbl_o), of every length; a reset now and then. The co-simulation test and
// the benchmark (testbench/common/bench.h) drive the block with it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <random>

#include "ep_window/ep_window.h"
#include "ep_window/ep_window_writes.h"
#include "stim_base.h"
#include "t3/ep_window_regs.h"

namespace t3::tb {

class EpWindowStimulus : public StimBase {
 public:
  EpWindowStimulus(const EpWindowParams& p, uint64_t seed) : StimBase(seed), p_(p) {}

  // Sets every input of this cycle, rst_n and the register port included.
  void drive(EpWindowInputs& in) {
    in.rst_n = reset_cycle();
    if (apb_.idle() && u() < 0.2) program();
    look(in.la_addr, in.la_len);
    look(in.lb_addr, in.lb_len);
    const EpWin w = some_window();
    const uint64_t lines = w.bytes / p_.flit_bytes();
    const uint64_t c = u() < 0.5 ? w.count_base + lines - (rng_() % 3) + 1 : rng_() % p_.count_depth;
    in.lc_ctr = uint32_t(c & low_mask(p_.ctr_w()));
    apb_.drive(in.apb, in.rst_n);
  }
  void after(const EpWindowInputs& in, const EpWindowOutputs& out) {
    tbl_ = out.tbl;
    apb_.after(in.apb, out.apb);
  }

  uint64_t commands() const { return commands_; }

 private:
  EpWin some_window() { return unpack_window(tbl_, unsigned(pick(p_.windows))); }

  // An address at an edge of a window the table holds (or anywhere).
  void look(uint64_t& a, uint8_t& len) {
    const EpWin w = some_window();
    const uint64_t fb = p_.flit_bytes();
    const double r = u();
    if (r < 0.3) a = w.net_base + fb * pick(w.bytes / fb + 2);
    else if (r < 0.5) a = w.net_base + w.bytes - fb * pick(4);
    else if (r < 0.6) a = w.net_base - fb * pick(3);
    else if (r < 0.7) a = w.net_base + pick(fb);  // unaligned
    else a = rng_();
    a &= low_mask(48);
    len = uint8_t(u() < 0.8 ? pick(5) : rng_());
  }

  // A window staged and written (or cleared), then STATUS read.
  void program() {
    const uint64_t fb = p_.flit_bytes(), mb = p_.mem_bytes;
    const unsigned idx = u() < 0.95 ? unsigned(pick(p_.windows)) : unsigned(pick(16));
    ++commands_;
    if (u() < 0.15) {
      apb_.write(T3_EP_WINDOW_A_WIN_IDX, idx);
      apb_.write(T3_EP_WINDOW_A_WIN_CMD, T3_EP_WINDOW_R_WIN_CMD_CLEAR_MASK);
      read_back();
      return;
    }
    EpWin w;
    const uint64_t max_lines = std::max<uint64_t>(1, std::min<uint64_t>(64, mb / fb / 8));
    w.bytes = uint32_t(fb * (1 + pick(max_lines)));
    // A few slots of net space, so that windows meet and overlap.
    w.net_base = (pick(8) * 16 * max_lines * fb + fb * pick(4 * max_lines)) + (u() < 0.5 ? 0 : 0xFFFF00000000ull);
    auto buf = [&] { return uint32_t(fb * pick((mb - w.bytes) / fb + 1)); };
    w.src = buf();
    w.dst = buf();
    w.merge = buf();
    w.expected = uint8_t(2 + pick(6));
    w.dtype = uint8_t(pick(3));
    w.copy = u() < 0.2 ? uint8_t(1 + pick(2)) : 0;
    w.home = !w.copy && u() < 0.5;
    w.det = w.home && u() < 0.4;
    const uint64_t lines = w.copy ? 0 : w.bytes / fb;
    w.count_base = uint32_t(pick(p_.count_depth > lines ? p_.count_depth - lines + 1 : 1));
    if (w.home && w.merge < w.src + w.bytes && w.src < w.merge + w.bytes) w.merge = w.dst;
    if (w.det) {
      for (unsigned k = 0; k < w.expected;) {
        const uint32_t b = uint32_t(1) << pick(32);
        if (!(w.contrib_mask & b)) {
          w.contrib_mask |= b;
          ++k;
        }
      }
      w.stage = buf();
    } else {
      w.contrib_mask = uint32_t(rng_());
      w.stage = uint32_t(rng_());
    }
    if (u() < 0.35) break_one(w);
    w.valid = true;  // staged and written (WIN_IDX, every WIN_* field, WIN_CMD.WRITE)
    for (const EpWinWrite& a : ep_window_writes(idx, w)) apb_.write(a.offset, a.data);
    read_back();
  }

  void read_back() {
    apb_.read(T3_EP_WINDOW_A_STATUS);
    if (u() < 0.3) {
      const uint32_t rd[] = {T3_EP_WINDOW_A_WIN_VALID,   T3_EP_WINDOW_A_WIN_RD_NET_LO, T3_EP_WINDOW_A_WIN_RD_NET_HI,
                             T3_EP_WINDOW_A_WIN_RD_BYTES, T3_EP_WINDOW_A_WIN_RD_SRC,   T3_EP_WINDOW_A_WIN_RD_DST,
                             T3_EP_WINDOW_A_WIN_RD_MERGE, T3_EP_WINDOW_A_WIN_RD_STAGE,
                             T3_EP_WINDOW_A_WIN_RD_COUNT_BASE, T3_EP_WINDOW_A_WIN_RD_CTRL,
                             T3_EP_WINDOW_A_WIN_RD_MASK};
      for (uint32_t a : rd) apb_.read(a);
    }
  }

  // One rule broken, each in turn; values at and past each edge.
  void break_one(EpWin& w) {
    const uint64_t fb = p_.flit_bytes(), mb = p_.mem_bytes;
    switch (rule_++ % 14) {
      case 0: w.bytes = u() < 0.5 ? 0 : uint32_t(w.bytes + 1 + pick(fb - 1)); break;
      case 1: w.net_base = u() < 0.5 ? w.net_base + 1 + pick(fb - 1) : (uint64_t{1} << 48) - w.bytes + fb * pick(3); break;
      case 2: w.src = uint32_t(u() < 0.5 ? mb - w.bytes + fb * pick(3) : w.src + 1 + pick(fb - 1)); break;
      case 3: w.dst = uint32_t(u() < 0.5 ? mb - w.bytes + fb * pick(3) : uint32_t(rng_())); break;
      case 4: w.merge = uint32_t(u() < 0.5 ? mb - w.bytes + fb * pick(3) : w.merge + 1 + pick(fb - 1)); break;
      case 5: w.count_base = uint32_t(p_.count_depth - pick(3)); break;
      case 6: w.expected = uint8_t(pick(3)); break;
      case 7: w.dtype = 3; break;
      case 8: w.home = true; w.copy = 0; w.merge = w.src + uint32_t(fb * pick(2)); break;
      case 9: w.copy = uint8_t(1 + pick(3)); w.home = u() < 0.5; break;
      case 10: w.det = true; w.home = u() < 0.3; break;
      case 11: w.det = w.home = true; w.copy = 0; w.contrib_mask ^= uint32_t(1) << pick(32); break;
      case 12: w.det = w.home = true; w.copy = 0; w.stage = uint32_t(mb - pick(3) * fb * w.expected); break;
      case 13: w.det = w.home = true; w.copy = 0; w.stage = w.src; break;
    }
  }

  EpWindowParams p_;
  EpWinTable tbl_;
  unsigned rule_ = 0;
  uint64_t commands_ = 0;
};

}  // namespace t3::tb
