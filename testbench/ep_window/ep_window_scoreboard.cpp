#include "ep_window_scoreboard.h"

#include <tuple>
#include <utility>

#include "common/bits.h"
#include "t3/ep_window_regs.h"

namespace t3::tb {

namespace {
using u128 = unsigned __int128;

// [lo, hi) meets [lo2, hi2)? Empty intervals meet nothing.
bool meet(u128 lo, u128 n, u128 lo2, u128 n2) { return n && n2 && lo < lo2 + n2 && lo2 < lo + n; }

// The record on tbl_o, from the page's layout table: field offsets.
struct Field {
  unsigned lsb, width;
};
constexpr Field kValid{0, 1}, kHome{1, 1}, kDet{2, 1}, kDtype{3, 2}, kCopy{5, 2}, kExpected{7, 8},
    kCountBase{15, 21}, kNet{36, 48}, kBytes{84, 32}, kSrc{116, 32}, kDst{148, 32}, kMerge{180, 32},
    kStage{212, 32}, kMask{244, 32};
constexpr unsigned kRec = 276;

uint64_t get(const EpWinTable& t, unsigned w, Field f) {
  uint64_t v = 0;
  for (unsigned b = 0; b < f.width; ++b) {
    const unsigned at = w * kRec + f.lsb + b;
    v |= uint64_t(t.w[at / 64] >> (at % 64) & 1) << b;
  }
  return v;
}
}  // namespace

EpWindowScoreboard::Win EpWindowScoreboard::staged() const {
  auto f = [&](EpWindowReg r, const char* n) { return regs_.field(unsigned(r), n); };
  Win w;
  w.net = uint64_t(f(EpWindowReg::win_net_hi, "addr")) << 32 | f(EpWindowReg::win_net_lo, "addr");
  w.bytes = f(EpWindowReg::win_bytes, "bytes");
  w.src = f(EpWindowReg::win_src, "addr");
  w.dst = f(EpWindowReg::win_dst, "addr");
  w.merge = f(EpWindowReg::win_merge, "addr");
  w.stage = f(EpWindowReg::win_stage, "addr");
  w.count_base = f(EpWindowReg::win_count_base, "base");
  w.expected = f(EpWindowReg::win_ctrl, "expected");
  w.dtype = f(EpWindowReg::win_ctrl, "dtype");
  w.home = f(EpWindowReg::win_ctrl, "home");
  w.det = f(EpWindowReg::win_ctrl, "det");
  w.copy = f(EpWindowReg::win_ctrl, "copy");
  w.mask = f(EpWindowReg::win_mask, "mask");
  return w;
}

std::pair<unsigned, unsigned> EpWindowScoreboard::verdict(unsigned idx, const Win& w) const {
  const u128 fb = p_.flit_w / 8, mem = p_.mem_bytes, n = w.bytes;
  const u128 lines = w.copy ? 0 : n / fb, staged = u128(w.expected) * n;
  auto inside = [&](u128 a, u128 len) { return a % fb == 0 && a + len <= mem; };
  unsigned ones = 0;
  for (unsigned b = 0; b < 32; ++b) ones += unsigned(w.mask >> b & 1);
  int net_with = -1, count_with = -1;
  for (unsigned j = 0; j < p_.windows; ++j) {
    const Win& o = tbl_[j];
    if (j == idx || !o.valid) continue;
    if (net_with < 0 && meet(w.net, n, o.net, o.bytes)) net_with = int(j);
    if (count_with < 0 && !w.copy && !o.copy && meet(w.count_base, lines, o.count_base, o.bytes / fb))
      count_with = int(j);
  }
  // The page's rules, in the order STATUS reports the first one broken.
  const std::pair<unsigned, bool> rules[] = {
      {1, idx >= p_.windows},
      {2, n == 0 || n % fb != 0},
      {3, w.net % fb != 0 || u128(w.net) + n > (u128(1) << 48)},
      {4, !inside(w.src, n)},
      {5, !inside(w.dst, n)},
      {6, !inside(w.merge, n)},
      {7, u128(w.count_base) + lines > p_.count_depth},
      {8, w.expected < 2},
      {9, w.dtype > 2},
      {10, w.home && meet(w.merge, n, w.src, n)},
      {11, w.copy > 2},
      {12, w.copy != 0 && (w.home || w.det)},
      {13, w.det && !w.home},
      {14, w.det && ones != w.expected},
      {15, w.det && !inside(w.stage, staged)},
      {16, w.det && (meet(w.stage, staged, w.src, n) || meet(w.stage, staged, w.dst, n) ||
                     meet(w.stage, staged, w.merge, n))},
      {17, net_with >= 0},
      {18, count_with >= 0},
  };
  for (const auto& [cause, broken] : rules)
    if (broken) return {cause, cause == 17 ? unsigned(net_with) : cause == 18 ? unsigned(count_with) : 0};
  return {0, 0};
}

std::optional<unsigned> EpWindowScoreboard::holder(uint64_t a, unsigned len) const {
  const u128 fb = p_.flit_w / 8;
  for (unsigned j = 0; j < p_.windows; ++j) {
    const Win& w = tbl_[j];
    if (w.valid && a >= w.net && u128(a) + u128(len) * fb <= u128(w.net) + w.bytes) return j;
  }
  return std::nullopt;
}

std::optional<unsigned> EpWindowScoreboard::counter_holder(uint64_t c) const {
  for (unsigned j = 0; j < p_.windows; ++j) {
    const Win& w = tbl_[j];
    if (w.valid && !w.copy && c >= w.count_base && c < w.count_base + w.bytes / (p_.flit_w / 8)) return j;
  }
  return std::nullopt;
}

std::optional<std::string> EpWindowScoreboard::observe(const EpWindowInputs& in, const EpWindowOutputs& out) {
  std::ostringstream& err = complaints_.fresh();
  const unsigned idx = regs_.field(unsigned(EpWindowReg::win_idx), "idx");
  const Win none;
  const Win& rd = idx < p_.windows ? tbl_[idx] : none;

  // ---- the register port and the interrupt, on the state before the edge
  auto ro = [&](unsigned r) -> std::optional<uint32_t> {
    switch (EpWindowReg(r)) {
      case EpWindowReg::status: return cause_ | with_ << 8;
      case EpWindowReg::win_valid: {
        uint32_t v = 0;
        for (unsigned j = 0; j < p_.windows; ++j) v |= uint32_t(tbl_[j].valid) << j;
        return v;
      }
      case EpWindowReg::win_rd_net_lo: return uint32_t(rd.net);
      case EpWindowReg::win_rd_net_hi: return uint32_t(rd.net >> 32);
      case EpWindowReg::win_rd_bytes: return uint32_t(rd.bytes);
      case EpWindowReg::win_rd_src: return uint32_t(rd.src);
      case EpWindowReg::win_rd_dst: return uint32_t(rd.dst);
      case EpWindowReg::win_rd_merge: return uint32_t(rd.merge);
      case EpWindowReg::win_rd_stage: return uint32_t(rd.stage);
      case EpWindowReg::win_rd_count_base: return rd.count_base;
      case EpWindowReg::win_rd_ctrl:
        return rd.expected | rd.dtype << 8 | unsigned(rd.home) << 10 | unsigned(rd.det) << 11 | rd.copy << 12 |
               unsigned(rd.valid) << 16;
      case EpWindowReg::win_rd_mask: return uint32_t(rd.mask);
      case EpWindowReg::param_a: return p_.windows | p_.flit_w << 8;
      case EpWindowReg::param_b: return p_.count_depth;
      case EpWindowReg::param_c: return p_.mem_bytes;
      default: return 0;
    }
  };
  regs_.observe(in.apb, out.apb, false, ro, err);
  if (out.intr != regs_.intr()) err << "intr_o = " << out.intr << ", expected " << regs_.intr() << "; ";

  // ---- the table on its pin, record by record
  for (unsigned j = 0; j < p_.windows; ++j) {
    const Win& w = tbl_[j];
    const std::pair<Field, uint64_t> want[] = {
        {kValid, w.valid}, {kHome, w.home}, {kDet, w.det}, {kDtype, w.dtype}, {kCopy, w.copy},
        {kExpected, w.expected}, {kCountBase, w.count_base}, {kNet, w.net}, {kBytes, w.bytes},
        {kSrc, w.src}, {kDst, w.dst}, {kMerge, w.merge}, {kStage, w.stage}, {kMask, w.mask}};
    for (const auto& [f, v] : want)
      if (get(out.tbl, j, f) != v) {
        err << "tbl_o window " << j << " bits " << f.lsb << "+" << f.width << " = 0x" << std::hex
            << get(out.tbl, j, f) << ", expected 0x" << v << std::dec << "; ";
        break;
      }
  }

  // ---- the lookups
  const auto la = holder(in.la_addr, in.la_len), lb = holder(in.lb_addr, in.lb_len);
  const auto lc = counter_holder(in.lc_ctr);
  const std::tuple<const char*, std::optional<unsigned>, bool, unsigned> looks[] = {
      {"la", la, out.la_hit, out.la_win}, {"lb", lb, out.lb_hit, out.lb_win}, {"lc", lc, out.lc_hit, out.lc_win}};
  for (const auto& [n, want, hit, win] : looks)
    if (hit != want.has_value() || (hit && win != *want) || (!hit && win != 0))
      err << n << ": hit " << hit << " window " << win << ", expected "
          << (want ? "window " + std::to_string(*want) : std::string("no hit")) << "; ";
  hits_ += la.has_value() + lb.has_value();
  counter_hits_ += lc.has_value();

  // ---- the edge: the pulse of a WIN_CMD written in the last cycle
  const uint32_t cmd = regs_.pulses(unsigned(EpWindowReg::win_cmd));
  const bool write = cmd & T3_EP_WINDOW_R_WIN_CMD_WRITE_MASK, clear = cmd & T3_EP_WINDOW_R_WIN_CMD_CLEAR_MASK;
  if (!in.rst_n) {
    for (Win& w : tbl_) w = Win{};
    cause_ = with_ = 0;
    pending_.reset();
    refused_now_ = false;
    regs_.reset();
  } else {
    // The page: a command accepted in its pulse's cycle is in the table
    // from the cycle after the next; a command in between is BUSY.
    const bool busy = pending_.has_value();
    if (refused_now_)
      regs_.set_event(unsigned(EpWindowReg::intr_state), T3_EP_WINDOW_R_INTR_STATE_REFUSED_MASK);
    refused_now_ = false;
    if (pending_) {
      tbl_[pending_->first] = pending_->second;
      pending_.reset();
    }
    if (write || clear) {
      std::pair<unsigned, unsigned> v{idx >= p_.windows ? 1u : 0u, 0u};
      if (write) v = verdict(idx, staged());
      if (busy) v = {19u, 0u};
      cause_ = v.first;
      with_ = v.second;
      if (v.first) {
        ++refused_[v.first];
        refused_now_ = true;  // the REFUSED event comes with STATUS, a cycle after the pulse
      } else if (write) {
        Win w = staged();
        w.valid = true;
        pending_.emplace(idx, w);
        ++written_;
      } else {
        Win w = tbl_[idx];
        w.valid = false;
        pending_.emplace(idx, w);
        ++cleared_;
      }
    }
    regs_.edge();
  }
  if (err.tellp() == 0) return std::nullopt;
  return err.str();
}

}  // namespace t3::tb
