#include "mem_subsystem_scoreboard.h"

#include <ios>
#include <sstream>

#include "common/bits.h"
#include "fp_reference.h"

namespace t3::tb {
namespace {

// The near-bank ALU's lane formats (cmd_fmt_i).
FpFormat lane_format(uint32_t fmt) { return fmt == 0 ? kFp16 : fmt == 1 ? kBf16 : kFp32; }

}  // namespace

MemSubsystemScoreboard::MemSubsystemScoreboard(const MemSubsystemParams& p,
                                               std::function<Wide(uint64_t)> read_burst)
    : p_(p), read_burst_(std::move(read_burst)) {}

void MemSubsystemScoreboard::configure(const t3_ctx& cfg) {
  chunks_.clear();
  tiles_.clear();
  buf_ = cfg.buf;
  burst_log2_ = cfg.burst_log2;
  for (uint32_t i = 0; i < cfg.n_maps; ++i) {
    const t3_map& m = cfg.maps[i];
    if (m.kind == T3_MAP_REMOTE) continue;
    Chunk c;
    c.map = m;
    c.tiles.base = buf_.addr;
    c.tiles.m = buf_.m;
    c.tiles.first_col = m.chunk.col0;
    c.tiles.cols = m.chunk.cols;
    c.tiles.elem_bytes = buf_.elem_bytes;
    c.tiles.wg_rows = buf_.wg_rows;
    c.tiles.wg_cols = buf_.wg_cols;
    c.tiles.wfs_per_wg = buf_.wfs_per_wg;
    upe_ = m.updates_per_elem;
    chunks_.push_back(c);
  }
}

void MemSubsystemScoreboard::reset() {
  chunks_.clear();
  tiles_.clear();
  pending_reads_.clear();
  golden_.clear();  // from the array again: a reset loses what had not reached it
}

std::optional<std::pair<uint32_t, TileMap::Owner>> MemSubsystemScoreboard::locate(
    uint64_t addr) const {
  for (uint32_t c = 0; c < chunks_.size(); ++c)
    if (const auto o = chunks_[c].tiles.owner(addr)) return std::make_pair(c, *o);
  return std::nullopt;
}

uint64_t MemSubsystemScoreboard::tile_elems() const {
  return uint64_t(buf_.wg_rows) * (buf_.wg_cols / buf_.wfs_per_wg);
}

MemSubsystemScoreboard::Tile& MemSubsystemScoreboard::tile(uint32_t chunk, TileMap::Owner o) {
  Tile& t = tiles_[uint64_t(chunk) << 48 | uint64_t(o.wg) << 16 | o.wf];
  t.map = chunk;
  return t;
}

// The DRAM cell a burst maps to (the subsystem's interleaving, with higher
// address bits aliasing as the array has them).
Wide& MemSubsystemScoreboard::golden(uint64_t burst) {
  const uint64_t cell = burst & low_mask(clog2(p_.bg) + p_.bank_addr_w);
  const auto it = golden_.find(cell);
  if (it != golden_.end()) return it->second;
  return golden_[cell] = read_burst_(cell);
}

void MemSubsystemScoreboard::apply(const MemRequest& r, std::ostream& err) {
  Wide& g = golden(r.addr >> p_.burst_log2());
  if (r.op == uint32_t(MemOp::store)) {
    for (unsigned b = 0; b < p_.burst_bytes; ++b)
      if (r.mask.byte(b / 8) >> (b % 8) & 1) g.set_byte(b, r.data.byte(b));
    return;
  }
  if (r.fmt > 2) {
    err << "request ADD with format " << r.fmt << " (refused by the ALU): a stimulus bug; ";
    return;
  }
  // ADD: each lane whole, written back where the mask is set (T3 §4.3).
  const FpFormat f = lane_format(r.fmt);
  const unsigned lane_bytes = f.width() / 8;
  for (unsigned l = 0; l < p_.burst_bytes / lane_bytes; ++l) {
    Wide sum = g;
    sum.set_lane(l * f.width(), f.width(),
                 mpfr_add_bits(f, g.lane(l * f.width(), f.width()), r.data.lane(l * f.width(), f.width())));
    for (unsigned b = l * lane_bytes; b < (l + 1) * lane_bytes; ++b)
      if (r.mask.byte(b / 8) >> (b % 8) & 1) g.set_byte(b, sum.byte(b));
  }
}

void MemSubsystemScoreboard::request(const MemRequest& r, std::ostream& err) {
  if (r.op == uint32_t(MemOp::read)) {
    pending_reads_.push_back(golden(r.addr >> p_.burst_log2()));
    return;
  }
  if (r.op != uint32_t(MemOp::store) && r.op != uint32_t(MemOp::add)) {
    err << "request op " << r.op << " (refused by the ALU): a stimulus bug; ";
    return;
  }
  ++writes_;
  apply(r, err);
  const auto at = locate(r.addr);
  if (!at) return;  // outside the tracked chunks
  Tile& t = tile(at->first, at->second);
  if (!t.seen) {
    t.seen = true;
    t.wg = r.wg;
    t.wf = r.wf;
  } else if (t.wg != r.wg || t.wf != r.wf) {
    err << "a write to tile {wg " << t.wg << ", wf " << t.wf << "} carries {wg " << r.wg
        << ", wf " << r.wf << "}: a stimulus bug; ";
  }
  t.updates += r.size;
  if (!t.complete && t.updates >= tile_elems() * upe_) {
    t.complete = true;
    ++completed_;
  }
}

void MemSubsystemScoreboard::descriptor(const MemSubsystemOutputs& o, std::ostream& err) {
  ++descs_;
  const auto at = locate(o.desc_src);
  std::ostringstream what;
  what << "descriptor {src 0x" << std::hex << o.desc_src << ", dst 0x" << o.desc_dst << std::dec
       << ", " << o.desc_bytes << " bytes, GPU " << o.desc_gpu << ", op " << o.desc_op << ", wg "
       << o.desc_wg << ", wf " << o.desc_wf << "}";
  if (!at) {
    err << what.str() << " is of no tracked chunk; ";
    return;
  }
  const Chunk& c = chunks_[at->first];
  Tile& t = tile(at->first, at->second);
  if (c.map.kind != T3_MAP_DMA) {
    err << what.str() << " is of a chunk tracked only (stage " << c.map.stage << "), sent nowhere; ";
    return;
  }
  if (!t.complete) {
    err << what.str() << " before its tile had all its updates (" << t.updates << " of "
        << tile_elems() * upe_ << "); ";
    return;
  }
  const uint64_t eb = buf_.elem_bytes, col_bytes = uint64_t(buf_.m) * eb;
  const uint64_t chunk_base = buf_.addr + uint64_t(c.map.chunk.col0) * col_bytes;
  const uint64_t bytes = o.desc_bytes, last = o.desc_src + bytes - 1;
  const auto end = locate(last);
  if (bytes == 0 || bytes > (uint64_t{1} << burst_log2_) || bytes % eb || (o.desc_src - buf_.addr) % eb)
    err << what.str() << ": " << bytes << " bytes; allowed: whole elements, 1.."
        << (uint64_t{1} << burst_log2_) << "; ";
  if ((o.desc_src >> burst_log2_) != (last >> burst_log2_))
    err << what.str() << " crosses a 2^" << burst_log2_ << "-byte boundary; ";
  if ((o.desc_src - buf_.addr) / col_bytes != (last - buf_.addr) / col_bytes || !end ||
      end->first != at->first || end->second.wg != at->second.wg || end->second.wf != at->second.wf)
    err << what.str() << " leaves its tile's column segment; ";
  if (o.desc_dst != ((c.map.peer_addr + (o.desc_src - chunk_base)) & low_mask(p_.addr_w)) ||
      o.desc_gpu != c.map.peer || o.desc_op != (c.map.op == T3_UPDATE))
    err << what.str() << " but stage " << c.map.stage << "'s map says GPU " << c.map.peer
        << " at 0x" << std::hex << (c.map.peer_addr + (o.desc_src - chunk_base)) << std::dec
        << ", op " << (c.map.op == T3_UPDATE) << "; ";
  if (o.desc_wg != t.wg || o.desc_wf != t.wf)
    err << what.str() << " but its tile was written as {wg " << t.wg << ", wf " << t.wf << "}; ";
  // Coverage: each byte of the tile once.
  const uint64_t rows = buf_.wg_rows, tile_bytes = tile_elems() * eb;
  if (t.covered.empty()) t.covered.assign(tile_bytes, false);
  const TileMap& tm = c.tiles;
  const uint64_t tile_col0 = tm.col0(at->second.wg, at->second.wf), row0 = tm.row0(at->second.wg);
  for (uint64_t a = o.desc_src; a <= last && a >= o.desc_src; ++a) {
    const uint64_t e = (a - buf_.addr) / eb, col = e / buf_.m, row = e % buf_.m;
    if (col < tile_col0 || row < row0 || row >= row0 + rows) break;  // reported above
    const uint64_t off = ((col - tile_col0) * rows + (row - row0)) * eb + (a - buf_.addr) % eb;
    if (off >= tile_bytes) break;
    if (t.covered[off]) {
      err << what.str() << " sends byte 0x" << std::hex << a << std::dec << " a second time; ";
      break;
    }
    t.covered[off] = true;
    ++t.covered_bytes;
  }
  if (t.covered_bytes == tile_bytes) ++sent_;
  if (o.desc_last && t.covered_bytes != tile_bytes)
    err << what.str() << " ends its DMA block with " << t.covered_bytes << " of the tile's "
        << tile_bytes << " bytes sent; ";
}

bool MemWindowMap::holds(uint32_t offset) const {
  for (unsigned r = 0; r < count; ++r)
    if (info[r].offset == offset) return true;
  return false;
}

const MemWindowMap& mem_window_map(unsigned window) {
  static const MemWindowMap maps[kMemSubsystemWindows] = {
      {TrackerRegMap::kInfo, TrackerRegMap::kCount},
      {DmaTriggerRegMap::kInfo, DmaTriggerRegMap::kCount},
      {McaArbiterRegMap::kInfo, McaArbiterRegMap::kCount},
      {NearBankAluRegMap::kInfo, NearBankAluRegMap::kCount}};
  return maps[window];
}

std::optional<std::string> MemSubsystemScoreboard::observe(const MemSubsystemInputs& in,
                                                           const MemSubsystemOutputs& out) {
  std::ostringstream& err = complaints_.fresh();
  if (out.intr && no_intr_) err << "intr_o: a block reports an error; ";
  if (in.apb.access()) {
    const uint32_t window = in.apb.paddr >> 12, offset = in.apb.paddr & (kRegWindowBytes - 1);
    const bool none = window >= kMemSubsystemWindows;
    if ((none || !mem_window_map(window).holds(offset)) && !out.apb.pslverr)
      err << (in.apb.pwrite ? "a write to 0x" : "a read of 0x") << std::hex << in.apb.paddr
          << std::dec << (none ? ", in no block's window," : ", where its block has no register,")
          << " answered without PSLVERR; ";
    if (none && !in.apb.pwrite && out.apb.prdata != 0)
      err << "a read of 0x" << std::hex << in.apb.paddr << ", in no block's window, returned 0x"
          << out.apb.prdata << std::dec << "; ";
  }
  const bool cmp = in.cmp_valid && out.cmp_ready, com = in.com_valid && out.com_ready;
  if (cmp && com) err << "both streams granted in one cycle; ";
  if (cmp) {
    MemRequest r = in.cmp;
    r.src = 0;
    request(r, err);
  }
  if (com) request(in.com, err);
  if (out.desc_valid && in.desc_ready) descriptor(out, err);
  if (out.rsp_valid) {
    if (pending_reads_.empty()) {
      err << "rsp_valid_o without a READ; ";
    } else {
      if (out.rsp_data != pending_reads_.front()) err << "a READ returned other data than the golden burst; ";
      pending_reads_.pop_front();
      ++reads_;
    }
  }
  if (err.tellp() == 0) return std::nullopt;
  return err.str();
}

uint64_t MemSubsystemScoreboard::tiles_due() const {
  const uint64_t tile_bytes = tile_elems() * buf_.elem_bytes;
  uint64_t n = 0;
  for (const auto& kv : tiles_) {
    const Tile& t = kv.second;
    n += t.complete && chunks_[t.map].map.kind == T3_MAP_DMA && t.covered_bytes != tile_bytes;
  }
  return n;
}

std::optional<std::string> MemSubsystemScoreboard::check_drained() const {
  std::ostringstream err;
  const uint64_t tile_bytes = tile_elems() * buf_.elem_bytes;
  unsigned unsent = 0;
  for (const auto& [key, t] : tiles_)
    if (t.complete && chunks_[t.map].map.kind == T3_MAP_DMA && t.covered_bytes != tile_bytes) {
      if (++unsent <= 3)
        err << "tile {wg " << t.wg << ", wf " << t.wf << "} of stage " << chunks_[t.map].map.stage
            << " complete but " << t.covered_bytes << " of " << tile_bytes << " bytes sent; ";
    }
  if (unsent > 3) err << unsent << " tiles unsent in all; ";
  if (!pending_reads_.empty()) err << pending_reads_.size() << " READ(s) never answered; ";
  if (err.tellp() == 0) return std::nullopt;
  return err.str();
}

}  // namespace t3::tb
