#include "ep_window/ep_window_core.h"

#include <string>
#include <vector>

#include "common/bits.h"
#include "common/hex.h"

namespace t3 {

void EpWindowParams::validate() const { validate_param_ranges(*this, "ep_window"); }

bool EpWin::operator==(const EpWin& o) const {
  return valid == o.valid && home == o.home && det == o.det && dtype == o.dtype && copy == o.copy &&
         expected == o.expected && count_base == o.count_base && net_base == o.net_base && bytes == o.bytes &&
         src == o.src && dst == o.dst && merge == o.merge && stage == o.stage && contrib_mask == o.contrib_mask;
}

namespace {
// The record's fields, least significant first: {width} in the order of
// rtl/ep_window_pkg.sv's ep_win_t read from its end.
constexpr unsigned kW[] = {1, 1, 1, 2, 2, 8, 21, 48, 32, 32, 32, 32, 32, 32};
static_assert([] {
  unsigned s = 0;
  for (unsigned w : kW) s += w;
  return s;
}() == kEpWinRecBits);

bool overlap(uint64_t a, uint64_t an, uint64_t b, uint64_t bn) { return a < b + bn && b < a + an; }
}  // namespace

void pack_window(EpWinTable& t, unsigned w, const EpWin& r) {
  const uint64_t v[] = {r.valid, r.home, r.det, r.dtype, r.copy, r.expected, r.count_base,
                        r.net_base, r.bytes, r.src, r.dst, r.merge, r.stage, r.contrib_mask};
  unsigned lsb = w * kEpWinRecBits;
  for (unsigned i = 0; i < 14; ++i) {
    t.set_bits(lsb, kW[i], v[i]);
    lsb += kW[i];
  }
}

EpWin unpack_window(const EpWinTable& t, unsigned w) {
  uint64_t v[14];
  unsigned lsb = w * kEpWinRecBits;
  for (unsigned i = 0; i < 14; ++i) {
    v[i] = t.bits(lsb, kW[i]);
    lsb += kW[i];
  }
  EpWin r;
  r.valid = v[0];
  r.home = v[1];
  r.det = v[2];
  r.dtype = uint8_t(v[3]);
  r.copy = uint8_t(v[4]);
  r.expected = uint8_t(v[5]);
  r.count_base = uint32_t(v[6]);
  r.net_base = v[7];
  r.bytes = uint32_t(v[8]);
  r.src = uint32_t(v[9]);
  r.dst = uint32_t(v[10]);
  r.merge = uint32_t(v[11]);
  r.stage = uint32_t(v[12]);
  r.contrib_mask = uint32_t(v[13]);
  return r;
}

const char* name(EpWinCause c) {
  static const char* const n[kEpWinCauses] = {
      "none",  "index", "bytes",    "net_base", "src",       "dst",       "merge",
      "count_base", "expected", "dtype", "merge_src", "copy",     "copy_home", "det_home",
      "mask",  "stage", "stage_overlap", "net_overlap", "count_overlap", "busy"};
  return unsigned(c) < kEpWinCauses ? n[unsigned(c)] : "?";
}

EpWinVerdict check_window(const EpWindowParams& p, const EpWin* tbl, unsigned idx, const EpWin& w) {
  using C = EpWinCause;
  const uint64_t fb = p.flit_bytes(), mb = p.mem_bytes, bytes = w.bytes;
  auto buf_bad = [&](uint64_t a) { return a % fb || a > mb || bytes > mb - a; };
  const uint64_t lines = w.copy ? 0 : bytes / fb;  // a copy window counts nothing
  const uint64_t staged = uint64_t(w.expected) * bytes;
  if (idx >= p.windows) return {C::index, 0};
  if (bytes == 0 || bytes % fb) return {C::bytes, 0};
  if (w.net_base % fb || w.net_base + bytes > (uint64_t{1} << 48)) return {C::net_base, 0};
  if (buf_bad(w.src)) return {C::src, 0};
  if (buf_bad(w.dst)) return {C::dst, 0};
  if (buf_bad(w.merge)) return {C::merge, 0};
  if (w.count_base > p.count_depth || lines > p.count_depth - w.count_base) return {C::count_base, 0};
  if (w.expected < 2) return {C::expected, 0};
  if (w.dtype > 2) return {C::dtype, 0};
  // A home merges into its merge area while its own PUSHes may still read
  // src: merging there would send merged lines as its contribution.
  if (w.home && overlap(w.merge, bytes, w.src, bytes)) return {C::merge_src, 0};
  if (w.copy > EpWin::kCopyStore) return {C::copy, 0};
  if (w.copy && (w.home || w.det)) return {C::copy_home, 0};
  if (w.det && !w.home) return {C::det_home, 0};
  if (w.det && unsigned(__builtin_popcount(w.contrib_mask)) != w.expected) return {C::mask, 0};
  if (w.det && (w.stage % fb || w.stage > mb || staged > mb - w.stage)) return {C::stage, 0};
  if (w.det && (overlap(w.stage, staged, w.src, bytes) || overlap(w.stage, staged, w.dst, bytes) ||
                overlap(w.stage, staged, w.merge, bytes)))
    return {C::stage_overlap, 0};
  for (unsigned j = 0; j < p.windows; ++j)
    if (j != idx && tbl[j].valid && overlap(w.net_base, bytes, tbl[j].net_base, tbl[j].bytes))
      return {C::net_overlap, j};
  for (unsigned j = 0; j < p.windows; ++j)
    if (j != idx && tbl[j].valid && !w.copy && !tbl[j].copy &&
        overlap(w.count_base, lines, tbl[j].count_base, tbl[j].bytes / fb))
      return {C::count_overlap, j};
  return {};
}

std::string describe(const EpWindowParams& p, const EpWinVerdict& v, unsigned idx, const EpWin& w) {
  const std::string fb = std::to_string(p.flit_bytes()), mb = hex(p.mem_bytes);
  std::string s = "ep_window window " + std::to_string(idx) + ": ";
  auto buf = [&](const char* n, uint64_t a) {
    return s + n + " = " + hex(a) + ": a multiple of " + fb + " with " + n + " + bytes <= " + mb + " (MEM_BYTES)";
  };
  switch (v.cause) {
    case EpWinCause::none: return s + "accepted";
    case EpWinCause::index: return s + "index is out of range: 0.." + std::to_string(p.windows - 1) + " (WINDOWS)";
    case EpWinCause::bytes: return s + "bytes = " + std::to_string(w.bytes) + ": a positive multiple of " + fb;
    case EpWinCause::net_base:
      return s + "net_base = " + hex(w.net_base) + ": a multiple of " + fb + " with net_base + bytes <= 2^48";
    case EpWinCause::src: return buf("src", w.src);
    case EpWinCause::dst: return buf("dst", w.dst);
    case EpWinCause::merge: return buf("merge", w.merge);
    case EpWinCause::count_base:
      return s + "count_base = " + std::to_string(w.count_base) + ": count_base + bytes / " + fb + " (" +
             std::to_string(w.copy ? 0 : w.bytes / p.flit_bytes()) + ") <= " + std::to_string(p.count_depth) +
             " (COUNT_DEPTH)";
    case EpWinCause::expected: return s + "expected = " + std::to_string(w.expected) + ": 2..255 (the region's contributors)";
    case EpWinCause::dtype: return s + "dtype = " + std::to_string(w.dtype) + ": 0..2 (fp16, bf16, fp32)";
    case EpWinCause::merge_src:
      return s + "merge = " + hex(w.merge) + " overlaps src " + hex(w.src) + ": a home merges outside its contribution";
    case EpWinCause::copy:
      return s + "copy = " + std::to_string(w.copy) + ": 0 (a region), 1 (WRITEs added), 2 (WRITEs stored)";
    case EpWinCause::copy_home: return s + "copy with home or det: a copy window is no region's";
    case EpWinCause::det_home: return s + "det = 1 without home: only the home stages and adds in order";
    case EpWinCause::mask:
      return s + "contrib_mask = " + hex(w.contrib_mask) + ": one bit per contributor, expected (" +
             std::to_string(w.expected) + ") of them";
    case EpWinCause::stage:
      return s + "stage = " + hex(w.stage) + ": a multiple of " + fb + " with stage + expected * bytes <= " + mb +
             " (MEM_BYTES)";
    case EpWinCause::stage_overlap: {
      const uint64_t n = uint64_t(w.expected) * w.bytes;
      const char* which = overlap(w.stage, n, w.src, w.bytes) ? "src" : overlap(w.stage, n, w.dst, w.bytes) ? "dst" : "merge";
      const uint64_t at = which[0] == 's' ? w.src : which[0] == 'd' ? w.dst : w.merge;
      return s + "stage = " + hex(w.stage) + " overlaps " + which + " " + hex(at) + " (the staging area is expected x bytes)";
    }
    case EpWinCause::net_overlap: return s + "net_base: range overlaps window " + std::to_string(v.with) + "'s";
    case EpWinCause::count_overlap:
      return s + "count_base: range overlaps window " + std::to_string(v.with) + "'s counters";
    case EpWinCause::busy: return s + "a command in the cycle after another's (that one was being written)";
  }
  return s + "?";
}

int find_window(const EpWindowParams& p, const EpWin* tbl, uint64_t a, unsigned len) {
  const uint64_t n = uint64_t(len) * p.flit_bytes();
  for (unsigned i = 0; i < p.windows; ++i) {
    const EpWin& w = tbl[i];
    if (w.valid && a >= w.net_base && a - w.net_base + n <= w.bytes) return int(i);
  }
  return -1;
}

EpWinHit lookup_window(const EpWindowParams& p, const EpWinTable& tbl, uint64_t a, unsigned len) {
  std::vector<EpWin> t(p.windows);
  for (unsigned i = 0; i < p.windows; ++i) t[i] = unpack_window(tbl, i);
  EpWinHit r;
  const int w = find_window(p, t.data(), a, len);
  if (w < 0) return r;
  r.hit = true;
  r.win = unsigned(w);
  r.off = (a - t[r.win].net_base) & low_mask(48);
  return r;
}

int find_counter(const EpWindowParams& p, const EpWin* tbl, uint32_t c) {
  for (unsigned i = 0; i < p.windows; ++i) {
    const EpWin& w = tbl[i];
    if (w.valid && !w.copy && c >= w.count_base && c - w.count_base < w.bytes / p.flit_bytes()) return int(i);
  }
  return -1;
}

EpWindowCore::EpWindowCore(const EpWindowParams& p) : p_(p) {
  p_.validate();
  repack();
}

void EpWindowCore::repack() {
  packed_ = EpWinTable{};
  valid_ = 0;
  for (unsigned i = 0; i < p_.windows; ++i) {
    pack_window(packed_, i, tbl_[i]);
    valid_ |= uint32_t(tbl_[i].valid) << i;
  }
}

EpWinVerdict EpWindowCore::command(const EpWindowCoreInputs& in) const {
  if (pend_) return {EpWinCause::busy, 0};
  if (in.cmd_write) return check_window(p_, tbl_, in.idx, in.stg);
  if (in.idx >= p_.windows) return {EpWinCause::index, 0};
  return {};
}

EpWindowCoreOutputs EpWindowCore::eval(const EpWindowCoreInputs& in) const {
  EpWindowCoreOutputs o;
  const uint64_t la = in.la_addr & low_mask(48), lb = in.lb_addr & low_mask(48);
  const int a = find_window(p_, tbl_, la, in.la_len), b = find_window(p_, tbl_, lb, in.lb_len);
  const int c = find_counter(p_, tbl_, uint32_t(in.lc_ctr & low_mask(p_.ctr_w())));  // the pin's width
  o.la_hit = a >= 0;
  o.la_win = uint8_t(a < 0 ? 0 : a);
  o.lb_hit = b >= 0;
  o.lb_win = uint8_t(b < 0 ? 0 : b);
  o.lc_hit = c >= 0;
  o.lc_win = uint8_t(c < 0 ? 0 : c);
  o.tbl = packed_;
  o.valid = valid_;
  o.cause = cause_;
  o.cause_with = with_;
  o.ev_refused = refused_;
  if (in.idx < p_.windows) o.rd = tbl_[in.idx];
  return o;
}

void EpWindowCore::clock(const EpWindowCoreInputs& in) {
  if (!in.rst_n) {
    for (EpWin& w : tbl_) w = EpWin{};
    repack();
    cause_ = with_ = 0;
    pend_ = refused_ = false;
    return;
  }
  const bool was_pending = pend_;
  if (pend_) {  // the last cycle's command, written now
    tbl_[pend_idx_] = pend_win_;
    repack();
    pend_ = false;
  }
  refused_ = false;
  if (!in.cmd_write && !in.cmd_clear) return;
  const EpWinVerdict v = was_pending ? EpWinVerdict{EpWinCause::busy, 0} : command(in);
  cause_ = uint8_t(v.cause);
  with_ = uint8_t(v.with);
  refused_ = v.cause != EpWinCause::none;
  if (refused_) return;
  pend_ = true;
  pend_idx_ = in.idx;
  pend_win_ = in.cmd_write ? in.stg : tbl_[in.idx];
  pend_win_.valid = in.cmd_write;
}

}  // namespace t3
