// The endpoint's translation windows (ISCA 2020 in-network collectives
// paper, §IV: the endpoint translates a network address to a local one,
// "ATS"), cycle model. Plain C++, no SystemC. Per clock: eval() gives the
// outputs for the current state and inputs, clock() advances the state as
// the rising edge of rtl/ep_window_core.sv does; the two are cycle- and
// bit-exact. Firmware reaches the core through its generated registers
// (hw/ep_window/ep_window.h): it stages a window and writes it with
// WIN_CMD.WRITE; the core checks it (check_window(), the one definition of
// the rules, which the endpoint's model uses too) and writes it or refuses
// it with the cause. docs/blocks/ep_window.md.
#pragma once

#include <cstdint>
#include <string>

#include "common/params.h"
#include "common/wide.h"

namespace t3 {

struct EpWindowParams {
#define T3_PARAMS_DEF "ep_window/ep_window_params.def"
#define T3_PARAMS_SELF EpWindowParams
#include "common/param_struct.inc"

  unsigned flit_bytes() const { return flit_w / 8; }
  // Throws std::invalid_argument naming the parameter and its allowed range.
  void validate() const;
};

// A translation window: a region's network range and what this GPU keeps
// for it in local memory. The record of tbl_o (ep_window_pkg::ep_win_t).
struct EpWin {
  bool valid = false;
  bool home = false;  // this GPU is the region's home: it merges PARTIALs
  // Deterministic mode (a home only): the switch does not reduce (the
  // region's root bit clear sends every PUSH to the home); the home stages
  // each contributor's line at stage + rank * bytes (rank: the
  // contributor's place in contrib_mask, by its src) and, once all are in,
  // adds them in rank order: the same bits whatever order they came in.
  bool det = false;
  uint8_t dtype = 0;   // 0 fp16, 1 bf16, 2 fp32
  // A plain copy's window (a software collective on the same fabric, the
  // baseline the in-network one is measured against): WRITEs into its range
  // go to dst + offset, added in dtype (kCopyAdd: a ring reduce-scatter's
  // step) or stored (kCopyStore: its all-gather). kCopyNone: a region's.
  uint8_t copy = 0;
  uint8_t expected = 0;       // the region's contributors
  uint32_t count_base = 0;  // its first contribution counter (bytes / (FLIT_W/8) of them)
  uint64_t net_base = 0;    // the region's range [net_base, net_base + bytes)
  uint32_t bytes = 0;
  uint32_t src = 0;    // this GPU's contribution (read for a PUSH or a PULL's answer)
  uint32_t dst = 0;    // where the reduced buffer goes
  uint32_t merge = 0;  // the home's merge area (may be dst when dst != src)
  uint32_t stage = 0;  // a deterministic home's staging area
  uint32_t contrib_mask = 0;  // a deterministic home's contributors' src ids (a bit a GPU)

  enum Copy : uint8_t { kCopyNone = 0, kCopyAdd = 1, kCopyStore = 2 };
  bool operator==(const EpWin& o) const;
};

// The record's layout on tbl_o, least significant field first; REC_W bits.
inline constexpr unsigned kEpWinRecBits = 276;
// tbl_o's field: WINDOWS records, window w in bits w * 276 +: 276.
using EpWinTable = WideN<4480>;
void pack_window(EpWinTable& t, unsigned w, const EpWin& r);
EpWin unpack_window(const EpWinTable& t, unsigned w);

// Why a window command was refused (STATUS.CAUSE): the first check failed.
enum class EpWinCause : uint8_t {
  none = 0,
  index = 1,       // the index is not below WINDOWS
  bytes = 2,       // 0, or not a multiple of the flit's bytes
  net_base = 3,    // not flit-aligned, or the range passes 2^48
  src = 4,         // a buffer not flit-aligned, or not inside MEM_BYTES
  dst = 5,
  merge = 6,
  count_base = 7,  // its counters pass COUNT_DEPTH
  expected = 8,      // below 2
  dtype = 9,       // above 2
  merge_src = 10,  // a home's merge area overlaps its contribution
  copy = 11,       // above 2
  copy_home = 12,  // a copy window with home or det
  det_home = 13,   // det without home
  mask = 14,       // det: contrib_mask has not expected bits set
  stage = 15,      // det: the staging area not flit-aligned, or not inside MEM_BYTES
  stage_overlap = 16,  // det: the staging area overlaps src, dst or merge
  net_overlap = 17,    // the range overlaps another valid window's
  count_overlap = 18,  // the counters overlap another valid region window's
  busy = 19,           // a command in the cycle after another's: that one is being written
};
inline constexpr unsigned kEpWinCauses = 20;
const char* name(EpWinCause c);

struct EpWinVerdict {
  EpWinCause cause = EpWinCause::none;
  unsigned with = 0;  // the window overlapped (net_overlap, count_overlap)
};
// The rules a window must meet to be written at index idx of a table of
// p.windows windows (tbl: the current ones). One definition: the core's
// WIN_CMD.WRITE and the endpoint's model call it.
EpWinVerdict check_window(const EpWindowParams& p, const EpWin* tbl, unsigned idx, const EpWin& w);
// A sentence for a refused window: the field, its value and the allowed range.
std::string describe(const EpWindowParams& p, const EpWinVerdict& v, unsigned idx, const EpWin& w);

// The window holding a packet at net address a of len flits (the lowest
// index if several), or -1.
int find_window(const EpWindowParams& p, const EpWin* tbl, uint64_t a, unsigned len);
// The engines' lookup on the table pin (rtl/ep_win_lookup.sv): find_window()
// on the records tbl holds, and the packet's offset in the window found.
struct EpWinHit {
  bool hit = false;
  unsigned win = 0;  // 0 on a miss
  uint64_t off = 0;  // a - net_base, 48 bits; 0 on a miss
};
EpWinHit lookup_window(const EpWindowParams& p, const EpWinTable& tbl, uint64_t a, unsigned len);
// Counter `line`'s offset in window w (flits of fb bytes): where its flits
// are in each of the window's buffers (rtl/ep_window_pkg.sv's line_off).
inline uint64_t line_offset(const EpWin& w, uint32_t line, unsigned fb) {
  return uint64_t(uint32_t(line - w.count_base)) * fb;
}
// The region window whose counters hold counter c, or -1.
int find_counter(const EpWindowParams& p, const EpWin* tbl, uint32_t c);

// The data pins core and block share (hw/ep_window/ep_window.yaml, pins).
struct EpWindowDataIn {
  bool rst_n = false;
  uint64_t la_addr = 0, lb_addr = 0;
  uint8_t la_len = 0, lb_len = 0;
  uint32_t lc_ctr = 0;
};

struct EpWindowDataOut {
  bool la_hit = false, lb_hit = false, lc_hit = false;
  uint8_t la_win = 0, lb_win = 0, lc_win = 0;
  EpWinTable tbl;
};

// What the registers drive and read (the description's core section).
struct EpWindowCoreInputs : EpWindowDataIn {
  bool cmd_write = false, cmd_clear = false;
  uint8_t idx = 0;
  EpWin stg;  // the staged window (its valid is not staged)
};

struct EpWindowCoreOutputs : EpWindowDataOut {
  uint8_t cause = 0, cause_with = 0;  // the last command's answer
  bool ev_refused = false;            // the last cycle's command was refused (with STATUS)
  uint32_t valid = 0;                 // a bit a window
  EpWin rd;                           // window idx (zero at or above WINDOWS)
};

class EpWindowCore {
 public:
  explicit EpWindowCore(const EpWindowParams& p);

  const EpWindowParams& params() const { return p_; }
  EpWindowCoreOutputs eval(const EpWindowCoreInputs& in) const;
  void clock(const EpWindowCoreInputs& in);
  EpWindowCoreOutputs step(const EpWindowCoreInputs& in) {
    const EpWindowCoreOutputs o = eval(in);
    clock(in);
    return o;
  }
  const EpWin& window(unsigned i) const { return tbl_[i]; }

 private:
  // The verdict on this cycle's command (write before clear), against the
  // table as it is in this cycle.
  EpWinVerdict command(const EpWindowCoreInputs& in) const;

  // tbl_o and the valid bits as packed from tbl_, kept with it: eval() runs
  // several times a cycle in a composition, the table changes rarely.
  void repack();

  EpWindowParams p_;
  EpWin tbl_[16];
  EpWinTable packed_;
  uint32_t valid_ = 0;
  uint8_t cause_ = 0, with_ = 0;
  // A command accepted in the last cycle, written into the table at this
  // cycle's edge (its check and its write in two cycles: 250 MHz).
  bool pend_ = false;
  bool refused_ = false;  // the last cycle's command refused: the REFUSED event now
  unsigned pend_idx_ = 0;
  EpWin pend_win_;
};

}  // namespace t3
