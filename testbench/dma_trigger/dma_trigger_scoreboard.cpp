#include "dma_trigger_scoreboard.h"

#include <algorithm>
#include <sstream>

#include "dma_trigger_driver.h"
#include "t3/dma_trigger_regs.h"

namespace t3::tb {
namespace {

uint64_t ones(unsigned w) { return w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1; }

unsigned bits_for(uint64_t v) {  // $clog2(v + 1)
  unsigned b = 0;
  while (b < 64 && (uint64_t{1} << b) <= v) ++b;
  return b;
}

}  // namespace

DmaTriggerScoreboard::DmaTriggerScoreboard(const DmaTriggerParams& p)
    : p_(p), addr_mask_(ones(p.addr_w)), table_(p.entries) {
  reset();
}

void DmaTriggerScoreboard::configure() {
  enable_ = regs_.field(unsigned(DmaTriggerReg::ctrl), "enable") != 0;
  burst_log2_ = regs_.field(unsigned(DmaTriggerReg::burst), "log2");
}

DmaEntry DmaTriggerScoreboard::staged() const {
  auto f = [this](DmaTriggerReg r, const char* name) { return regs_.field(unsigned(r), name); };
  DmaEntry e;
  // The fields wider than this build's core are cut to its widths (the
  // documented rule; PARAM_WIDTHS tells firmware the widths).
  e.valid = f(DmaTriggerReg::tbl_ctrl, "valid") != 0;
  e.op = DmaOp(f(DmaTriggerReg::tbl_ctrl, "op"));
  e.src_base = wire_addr(uint64_t(f(DmaTriggerReg::tbl_src_hi, "addr")) << 32 |
                         f(DmaTriggerReg::tbl_src_lo, "addr"));
  e.dst_base = wire_addr(uint64_t(f(DmaTriggerReg::tbl_dst_hi, "addr")) << 32 |
                         f(DmaTriggerReg::tbl_dst_lo, "addr"));
  e.dst_gpu = f(DmaTriggerReg::tbl_ctrl, "dst_gpu") & unsigned(ones(p_.gpu_w));
  e.tiles_per_block = f(DmaTriggerReg::tbl_ctrl, "tiles_per_block") & unsigned(ones(bits_for(p_.slots)));
  e.elem_log2 = f(DmaTriggerReg::tbl_ctrl, "elem_log2");
  e.m = f(DmaTriggerReg::tbl_m, "value") & unsigned(ones(p_.dim_w));
  e.n = f(DmaTriggerReg::tbl_n, "value") & unsigned(ones(p_.dim_w));
  e.tile_rows = f(DmaTriggerReg::tbl_tile_rows, "value") & unsigned(ones(p_.dim_w));
  e.tile_cols = f(DmaTriggerReg::tbl_tile_cols, "value") & unsigned(ones(p_.dim_w));
  return e;
}

void DmaTriggerScoreboard::refuse(DmaWriteFault f) {
  ++n_.refused[unsigned(f)];
  if (!err_) err_cause_ = unsigned(f);
  err_ = true;
}

std::optional<uint32_t> DmaTriggerScoreboard::ro(unsigned r, bool busy,
                                                 const DmaTriggerOutputs& out, std::ostream& err) {
  const auto stat = [this](uint64_t count) { return uint32_t(count & ones(p_.stat_w)); };
  // TBL_RD_* show entry TBL_IDX (the register's 6 bits): above the table, zeros.
  const unsigned idx = regs_.field(unsigned(DmaTriggerReg::tbl_idx), "idx");
  const DmaEntry rd = idx < p_.entries ? table_[idx].f : DmaEntry{};
  const auto lo = [](uint64_t v) { return uint32_t(v); };
  const auto hi = [](uint64_t v) { return uint32_t(v >> 32); };
  switch (DmaTriggerReg(r)) {
    case DmaTriggerReg::status: {
      DmaStatus st;
      st.cfg_error = cfg_error();
      st.busy = busy;
      st.tbl_ready = !wr_pending_;
      st.tbl_err = err_;
      st.cause = err_cause_;
      st.miss = miss_;
      return st.word();
    }
    case DmaTriggerReg::miss_id:
      return (miss_wg_ << T3_DMA_TRIGGER_R_MISS_ID_WG_SHIFT & T3_DMA_TRIGGER_R_MISS_ID_WG_MASK) |
             (miss_wf_ << T3_DMA_TRIGGER_R_MISS_ID_WF_SHIFT & T3_DMA_TRIGGER_R_MISS_ID_WF_MASK);
    case DmaTriggerReg::miss_addr_lo: return lo(miss_addr_);
    case DmaTriggerReg::miss_addr_hi: return hi(miss_addr_);
    case DmaTriggerReg::tbl_rd_src_lo: return lo(rd.src_base);
    case DmaTriggerReg::tbl_rd_src_hi: return hi(rd.src_base);
    case DmaTriggerReg::tbl_rd_dst_lo: return lo(rd.dst_base);
    case DmaTriggerReg::tbl_rd_dst_hi: return hi(rd.dst_base);
    case DmaTriggerReg::tbl_rd_ctrl: {
      // The pending tiles: those taken and not yet sent (unsent) minus those
      // whose last descriptor waits in the queue (at most DESC_DEPTH). Which
      // of them have left the buffer is the generator's business, not
      // visible here: the count is held to those bounds, the rest exactly.
      uint32_t pending = 0;
      if (idx < p_.entries) {
        const uint32_t got = (out.apb.prdata & T3_DMA_TRIGGER_R_TBL_RD_CTRL_PENDING_MASK) >>
                             T3_DMA_TRIGGER_R_TBL_RD_CTRL_PENDING_SHIFT;
        const uint64_t most = std::min<uint64_t>(unsent(idx), p_.slots);
        const uint64_t least = unsent(idx) > p_.desc_depth ? unsent(idx) - p_.desc_depth : 0;
        if (got < least || got > most)
          err << "TBL_RD_CTRL.PENDING of entry " << idx << " = " << got << ", expected "
              << least << ".." << most << " (" << unsent(idx) << " tiles unsent); ";
        n_.pending_reads += unsent(idx) > 0;
        pending = std::min<uint64_t>(std::max<uint64_t>(got, least), most);
      }
      return words_of(rd, pending)[4];
    }
    case DmaTriggerReg::tbl_rd_m: return words_of(rd, 0)[5];
    case DmaTriggerReg::tbl_rd_n: return words_of(rd, 0)[6];
    case DmaTriggerReg::tbl_rd_tile_rows: return words_of(rd, 0)[7];
    case DmaTriggerReg::tbl_rd_tile_cols: return words_of(rd, 0)[8];
    case DmaTriggerReg::stat_triggers: return stat(n_.triggers);
    case DmaTriggerReg::stat_miss: return stat(n_.misses);
    case DmaTriggerReg::stat_descs: return stat(n_.descs);
    case DmaTriggerReg::stat_blocks: return stat(n_.blocks);
    case DmaTriggerReg::stat_stalls: return stat(n_.stalls);
    case DmaTriggerReg::param_table:
      return p_.entries << T3_DMA_TRIGGER_R_PARAM_TABLE_ENTRIES_SHIFT |
             p_.slots << T3_DMA_TRIGGER_R_PARAM_TABLE_SLOTS_SHIFT |
             p_.desc_depth << T3_DMA_TRIGGER_R_PARAM_TABLE_DESC_DEPTH_SHIFT |
             p_.max_burst_log2 << T3_DMA_TRIGGER_R_PARAM_TABLE_MAX_BURST_LOG2_SHIFT;
    case DmaTriggerReg::param_widths:
      return p_.addr_w << T3_DMA_TRIGGER_R_PARAM_WIDTHS_ADDR_W_SHIFT |
             p_.gpu_w << T3_DMA_TRIGGER_R_PARAM_WIDTHS_GPU_W_SHIFT |
             p_.dim_w << T3_DMA_TRIGGER_R_PARAM_WIDTHS_DIM_W_SHIFT |
             p_.stat_w << T3_DMA_TRIGGER_R_PARAM_WIDTHS_STAT_W_SHIFT;
    case DmaTriggerReg::param_ids:
      return p_.wg_id_w << T3_DMA_TRIGGER_R_PARAM_IDS_WG_ID_W_SHIFT |
             p_.wf_id_w << T3_DMA_TRIGGER_R_PARAM_IDS_WF_ID_W_SHIFT;
    default: return 0;  // no RO field
  }
}

uint64_t DmaTriggerScoreboard::descs_left(unsigned e) const {
  const Region& r = table_[e];
  uint64_t n = 0;
  for (const Block& b : r.blocks)
    for (const Tile& t : b.tiles) n += t.segments.size();
  for (const Tile& t : r.queued) n += t.segments.size();
  if (sending_ && sending_->entry == e) n += sending_->tiles.size() - sending_tile_;
  return n;
}

void DmaTriggerScoreboard::set_map(unsigned entry, const TileMap& map, uint32_t wg_first) {
  table_.at(entry).has_map = true;
  table_[entry].map = map;
  table_[entry].wg_first = wg_first;
}

void DmaTriggerScoreboard::reset() {
  regs_.reset();
  configure();
  for (Region& r : table_) {
    r = Region{};
    r.f = DmaEntry{};
  }
  wr_pending_ = false;
  wr_left_ = 0;
  wr_verdict_.reset();
  trig_seen_ = wr_ended_ = false;
  err_ = miss_ = false;
  err_cause_ = miss_wg_ = miss_wf_ = 0;
  miss_addr_ = 0;
  sending_.reset();
  sending_tile_ = 0;
  accepted_ = sent_ = 0;
  n_ = Counts{};
}

DmaWriteFault DmaTriggerScoreboard::write_fault(unsigned e, const DmaEntry& f) const {
  if (e >= p_.entries) return DmaWriteFault::index;
  if (f.valid && uint8_t(f.op) == 3) return DmaWriteFault::op;  // STORE, UPDATE or NONE only
  if (f.valid) {
    // T3 §4.2.2: a block is at least one WF tile and fits the entry's buffer;
    // the tile lies inside the M x N array; the array inside the address space.
    if (f.tiles_per_block < 1 || f.tiles_per_block > p_.slots) return DmaWriteFault::tiles_per_block;
    if (f.m < 1 || f.n < 1) return DmaWriteFault::dims_zero;
    if (f.tile_rows < 1 || f.tile_rows > f.m) return DmaWriteFault::tile_rows;
    if (f.tile_cols < 1 || f.tile_cols > f.n) return DmaWriteFault::tile_cols;
    const long double bytes = (long double)f.m * f.n * (1u << f.elem_log2);
    const long double room = (long double)ones(p_.addr_w) - (long double)f.src_base + 1;
    if (bytes > room) return DmaWriteFault::region_overflow;
  }
  return DmaWriteFault::none;
}

std::optional<unsigned> DmaTriggerScoreboard::covering(uint64_t addr) const {
  for (unsigned e = 0; e < p_.entries; ++e) {
    const DmaEntry& f = table_[e].f;
    if (!f.valid) continue;
    const uint64_t col = uint64_t(f.m) << f.elem_log2;
    const uint64_t region_end = f.src_base + uint64_t(f.n) * col;  // may be 2^64: wraps to 0
    const uint64_t tile_last = addr + uint64_t(f.tile_cols - 1) * col +
                               (uint64_t(f.tile_rows) << f.elem_log2) - 1;
    // The whole tile, first byte to last, inside [src_base, region_end).
    if (addr >= f.src_base && tile_last >= addr && tile_last - f.src_base < region_end - f.src_base)
      return e;
  }
  return std::nullopt;
}

std::vector<DmaTriggerScoreboard::Interval> DmaTriggerScoreboard::tile_bytes(
    const Region& r, uint32_t wg, uint32_t wf, uint64_t addr, std::string& err) const {
  std::vector<Interval> segs;
  const uint64_t seg = uint64_t(r.f.tile_rows) << r.f.elem_log2;
  if (r.has_map) {
    // The driver's tiling: which elements {wg, wf} writes (one definition,
    // hw/common/tile_map.h), whatever start address the trigger carries.
    const uint32_t wgi = uint32_t((wg - r.wg_first) & ones(p_.wg_id_w));
    if (wgi >= r.map.wgs() || wf >= r.map.wfs_per_wg) {
      err = "trigger {wg " + std::to_string(wg) + ", wf " + std::to_string(wf) +
            "} is not a tile of the region's map";
      return segs;
    }
    for (uint32_t c = 0; c < r.map.wf_cols(); ++c) {
      const uint64_t b = r.map.addr(r.map.row0(wgi), r.map.col0(wgi, wf) + c);
      segs.push_back({b, b + uint64_t(r.map.wg_rows) * r.map.elem_bytes});
    }
  } else {
    const uint64_t col = uint64_t(r.f.m) << r.f.elem_log2;
    for (uint32_t c = 0; c < r.f.tile_cols; ++c)
      segs.push_back({addr + c * col, addr + c * col + seg});
  }
  return segs;
}

void DmaTriggerScoreboard::check_desc(const DmaTriggerOutputs& out, std::ostream& err) {
  ++n_.descs;
  const uint64_t src = out.desc_src, bytes = out.desc_bytes;
  if (!sending_) {
    // A new block: the oldest due block of some entry, whose first tile this
    // descriptor belongs to (entries take turns; which one goes first is
    // the table's choice).
    std::optional<unsigned> e;
    for (unsigned i = 0; i < p_.entries && !e; ++i) {
      if (table_[i].blocks.empty()) continue;
      const Tile& first = table_[i].blocks.front().tiles.front();
      if (first.wg != out.desc_wg || first.wf != out.desc_wf) continue;
      for (const Interval& s : first.segments)
        if (src >= s.begin && src < s.end) e = i;
    }
    if (!e) {
      err << "descriptor src 0x" << std::hex << src << std::dec << " (wg " << out.desc_wg
          << ", wf " << out.desc_wf << ") starts no block that is due; ";
      return;
    }
    // Round robin: an entry with a whole block waits for at most one block
    // of each other entry (ENTRIES - 1), plus the blocks the table had
    // already picked when this one became whole but whose first descriptor
    // had not left yet: at most DESC_DEPTH in the queue (one descriptor
    // each), one waiting for room, one picked in the cycle this block's last
    // tile was taken.
    const uint32_t bound = p_.entries - 1 + p_.desc_depth + 2;
    for (unsigned i = 0; i < p_.entries; ++i) {
      Region& w = table_[i];
      if (i == *e || w.blocks.empty()) continue;
      most_passed_over_ = std::max(most_passed_over_, ++w.passed_over);
      if (w.passed_over > bound)
        err << "entry " << i << " has had a whole block waiting while " << w.passed_over
            << " blocks of other entries started (round robin: at most " << bound << "); ";
    }
    table_[*e].passed_over = 0;
    sending_ = std::move(table_[*e].blocks.front());
    table_[*e].blocks.pop_front();
    sending_tile_ = 0;
  }
  Region& r = table_[sending_->entry];
  Tile& t = sending_->tiles[sending_tile_];
  if (out.desc_wg != t.wg || out.desc_wf != t.wf)
    err << "descriptor of {wg " << out.desc_wg << ", wf " << out.desc_wf << "} while tile {wg "
        << t.wg << ", wf " << t.wf << "} of entry " << sending_->entry << " is being sent; ";
  if (out.desc_gpu != r.f.dst_gpu) err << "desc_gpu " << out.desc_gpu << " != " << r.f.dst_gpu << "; ";
  if (out.desc_op != (r.f.op == DmaOp::update)) err << "desc_op " << out.desc_op << " wrong; ";
  const uint64_t want_dst = wire_addr(src - r.f.src_base + r.f.dst_base);
  if (out.desc_dst != want_dst)
    err << "desc_dst 0x" << std::hex << out.desc_dst << " for src 0x" << src << ", expected 0x"
        << want_dst << std::dec << "; ";
  // BURST is locked while descriptors are in flight: the size in force now
  // is the one they were cut by.
  const uint64_t burst = uint64_t{1} << burst_log2_;
  if (bytes == 0 || (src & (burst - 1)) + bytes > burst)
    err << "descriptor 0x" << std::hex << src << std::dec << " + " << bytes
        << " bytes crosses a " << burst << "-byte boundary (or is empty); ";
  if (bytes < uint64_t(r.f.tile_rows) << r.f.elem_log2) ++n_.split_bursts;
  // Inside one column segment of the tile, and not sent before.
  const Interval* seg = nullptr;
  for (const Interval& s : t.segments)
    if (src >= s.begin && src + bytes <= s.end) seg = &s;
  if (!seg) {
    err << "descriptor 0x" << std::hex << src << " + " << std::dec << bytes
        << " is not inside one column segment of tile {wg " << t.wg << ", wf " << t.wf << "}; ";
  } else {
    auto next = t.covered.lower_bound(src);
    const bool overlaps_next = next != t.covered.end() && next->first < src + bytes;
    const bool overlaps_prev = next != t.covered.begin() && std::prev(next)->second > src;
    if (overlaps_next || overlaps_prev) {
      err << "descriptor 0x" << std::hex << src << std::dec << " + " << bytes
          << " sends bytes of tile {wg " << t.wg << ", wf " << t.wf << "} a second time; ";
    } else {
      t.covered[src] = src + bytes;
      t.left -= bytes;
    }
  }
  const bool tile_done = t.left == 0;
  const bool block_done = tile_done && sending_tile_ + 1 == sending_->tiles.size();
  if (out.desc_last != block_done)
    err << "desc_last = " << out.desc_last << " but the block " << (block_done ? "ends" : "goes on")
        << " here; ";
  if (tile_done) {
    ++r.sent;
    ++sent_;
    ++sending_tile_;
  }
  if (block_done) {
    ++n_.blocks;
    if (sending_->tiles.size() > 1) ++n_.multi_tile_blocks;
    sending_.reset();
  }
}

std::optional<std::string> DmaTriggerScoreboard::observe(const DmaTriggerInputs& in,
                                                         const DmaTriggerOutputs& out) {
  std::ostringstream& err = complaints_.fresh();
  // The registers as the core reads them in this cycle: the configuration,
  // and the pulses of TBL_CMD.WRITE and CTRL.ERR_CLEAR written in the last.
  const bool cfg_error = this->cfg_error();
  const bool tbl_we = regs_.pulses(unsigned(DmaTriggerReg::tbl_cmd)) & T3_DMA_TRIGGER_R_TBL_CMD_WRITE_MASK;
  const bool err_clear = regs_.pulses(unsigned(DmaTriggerReg::ctrl)) & T3_DMA_TRIGGER_R_CTRL_ERR_CLEAR_MASK;
  const bool busy = wr_pending_ || out.desc_valid || accepted_ != sent_;

  // ---- registers: this cycle's access, on the state before the edge
  // (BURST locked while busy); the interrupt line.
  regs_.observe(in.apb, out.apb, busy, [&](unsigned r) { return ro(r, busy, out, err); }, err);
  if (out.intr != regs_.intr())
    err << "intr_o = " << out.intr << ", expected " << regs_.intr() << " (INTR_STATE 0x" << std::hex
        << regs_.value(unsigned(DmaTriggerReg::intr_state)) << ", INTR_ENABLE 0x"
        << regs_.value(unsigned(DmaTriggerReg::intr_enable)) << std::dec << "); ";

  // ---- registered outputs: everything up to the last edge
  if (out.tbl_err != err_ || out.tbl_err_cause != err_cause_)
    err << "tbl_err_o/cause = " << out.tbl_err << "/" << out.tbl_err_cause << ", expected "
        << err_ << "/" << err_cause_ << "; ";
  if (out.miss != miss_ || out.miss_wg != miss_wg_ || out.miss_wf != miss_wf_ ||
      out.miss_addr != miss_addr_)
    err << "miss capture {" << out.miss << ", wg " << out.miss_wg << ", addr 0x" << std::hex
        << out.miss_addr << "}, expected {" << miss_ << ", wg " << std::dec << miss_wg_
        << ", addr 0x" << std::hex << miss_addr_ << std::dec << "}; ";
  auto counter = [&](const char* pin, uint64_t got, uint64_t count) {
    check_counter(err, pin, got, count, p_.stat_w);
  };
  counter("stat_triggers_o", out.stat_triggers, n_.triggers);
  counter("stat_miss_o", out.stat_miss, n_.misses);
  counter("stat_descs_o", out.stat_descs, n_.descs);
  counter("stat_blocks_o", out.stat_blocks, n_.blocks);
  counter("stat_stalls_o", out.stat_stalls, n_.stalls);
  if (out.busy != busy) err << "busy_o = " << out.busy << ", expected " << busy << "; ";

  // ---- the trigger port
  const bool active = enable_ && !cfg_error;
  const uint64_t taddr = wire_addr(in.trig_addr);
  const std::optional<unsigned> cover = covering(taddr);
  if (out.trig_ready && (!active || wr_pending_ || !trig_seen_ || wr_ended_))
    err << "trig_ready_o while "
        << (wr_pending_ ? "a table write is in progress"
            : !active   ? "inactive"
            : wr_ended_ ? "a table write's verdict was given at the last edge"
                        : "no trigger waited in the last cycle")
        << "; ";
  if (in.trig_valid && !out.trig_ready && active && !wr_pending_ && trig_seen_ && !wr_ended_) {
    if (!cover) err << "a trigger no entry covers was refused (it must be taken and flagged); ";
    else if (table_[*cover].f.op == DmaOp::none)
      err << "trigger for entry " << *cover << " (NONE: counted, never buffered) refused; ";
    else if (unsent(*cover) < p_.slots)
      err << "trigger for entry " << *cover << " refused with only " << unsent(*cover)
          << " of " << p_.slots << " tiles unsent; ";
  }

  // ---- the edge: the interrupts' events of this cycle (levels: the
  // captured errors as they are in it), then the core's state.
  regs_.set_event(unsigned(DmaTriggerReg::intr_state),
                  (err_ ? T3_DMA_TRIGGER_R_INTR_STATE_TBL_ERROR_MASK : 0) |
                      (miss_ ? T3_DMA_TRIGGER_R_INTR_STATE_MISS_MASK : 0));
  if (err_clear) {
    err_ = miss_ = false;
    err_cause_ = miss_wg_ = miss_wf_ = 0;
    miss_addr_ = 0;
  }
  // A command while a write is in progress is refused (port_busy), after
  // the verdict on that write, which was commanded first.
  const bool port_busy = tbl_we && wr_pending_;
  wr_ended_ = wr_pending_ && wr_left_ == 1;
  if (wr_pending_ && --wr_left_ == 0) {
    // Committed on the state before this edge (T3 §4.4: the entry's fields
    // must not change under tiles it holds).
    DmaWriteFault f = write_fault(wr_idx_, wr_);
    if (f == DmaWriteFault::none && wr_idx_ < p_.entries) {
      if (descs_left(wr_idx_) > p_.desc_depth) f = DmaWriteFault::entry_busy;
      else if (unsent(wr_idx_) != 0 || (sending_ && sending_->entry == wr_idx_))
        wr_verdict_ = f;  // marker: undecidable from the pins
    }
    const bool undecidable = wr_verdict_.has_value();
    wr_verdict_.reset();
    if (undecidable)
      err << "testbench: write to entry " << wr_idx_ << " committed while it may or may not be "
          << "busy (the stimulus must write idle entries, or busy ones with the queue stalled); ";
    ++n_.writes;
    if (f != DmaWriteFault::none) {
      refuse(f);
    } else {
      Region& r = table_[wr_idx_];
      r.f = wr_;
      r.has_map = false;  // set_map() again for the new region
    }
    wr_pending_ = false;
  } else if (!wr_pending_ && tbl_we) {
    // The entry the staging registers hold, at TBL_IDX: all of its 6 bits
    // (an index above the table is refused, not wrapped).
    wr_pending_ = true;
    wr_left_ = p_.write_cycles();
    wr_idx_ = regs_.field(unsigned(DmaTriggerReg::tbl_idx), "idx");
    wr_ = staged();
  }
  if (port_busy) refuse(DmaWriteFault::port_busy);
  if (out.desc_valid && in.desc_ready) check_desc(out, err);
  if (in.trig_valid && out.trig_ready) {
    const uint32_t wg = in.trig_wg_id & unsigned(ones(p_.wg_id_w));
    const uint32_t wf = in.trig_wf_id & unsigned(ones(p_.wf_id_w));
    if (cover && table_[*cover].f.op == DmaOp::none) {
      // The tile is complete and stays here: counted, not sent.
      ++n_.triggers;
      ++n_.none_triggers;
    } else if (cover) {
      Region& r = table_[*cover];
      std::string why;
      Tile t{wg, wf, taddr, tile_bytes(r, wg, wf, taddr, why), {}, 0};
      if (!why.empty()) err << why << "; ";
      for (const Interval& s : t.segments) t.left += s.end - s.begin;
      r.queued.push_back(std::move(t));
      ++r.accepted;
      ++accepted_;
      ++n_.triggers;
      if (r.queued.size() >= r.f.tiles_per_block) {
        Block b{*cover, {}};
        for (uint32_t k = 0; k < r.f.tiles_per_block; ++k) {
          b.tiles.push_back(std::move(r.queued.front()));
          r.queued.pop_front();
        }
        r.blocks.push_back(std::move(b));
      }
    } else {
      ++n_.misses;
      if (!miss_) {
        miss_wg_ = wg;
        miss_wf_ = wf;
        miss_addr_ = taddr;
      }
      miss_ = true;
    }
  }
  if (in.trig_valid && !out.trig_ready) ++n_.stalls;
  trig_seen_ = in.trig_valid && !out.trig_ready;
  // The registers' edge; a write to CTRL or BURST is in force from the next cycle.
  regs_.edge();
  const int w = regs_.written();
  if (w == int(DmaTriggerReg::ctrl) || w == int(DmaTriggerReg::burst)) configure();
  if (err.tellp() == 0) return std::nullopt;
  return err.str();
}

std::optional<std::string> DmaTriggerScoreboard::check_drained() const {
  std::ostringstream err;
  if (sending_) err << "a block of entry " << sending_->entry << " was sent only in part; ";
  for (unsigned e = 0; e < p_.entries; ++e) {
    const Region& r = table_[e];
    if (!r.blocks.empty()) err << r.blocks.size() << " whole block(s) of entry " << e << " never sent; ";
    if (r.queued.size() >= std::max<uint32_t>(1, r.f.tiles_per_block))
      err << "entry " << e << " holds a whole block that never formed; ";
  }
  if (err.tellp() == 0) return std::nullopt;
  return err.str();
}

}  // namespace t3::tb
