#include "dma_trigger/dma_trigger_core.h"

#include <algorithm>
#include <stdexcept>

#include "common/bits.h"

namespace t3 {

unsigned DmaTriggerParams::idx_w() const { return std::max(1u, clog2(entries)); }

void DmaTriggerParams::validate() const { validate_param_ranges(*this, "dma_trigger"); }

const char* dma_write_fault_name(DmaWriteFault f) {
  switch (f) {
    case DmaWriteFault::none: return "none";
    case DmaWriteFault::index: return "index";
    case DmaWriteFault::tiles_per_block: return "tiles_per_block";
    case DmaWriteFault::dims_zero: return "dims_zero";
    case DmaWriteFault::tile_rows: return "tile_rows";
    case DmaWriteFault::tile_cols: return "tile_cols";
    case DmaWriteFault::region_overflow: return "region_overflow";
    case DmaWriteFault::entry_busy: return "entry_busy";
    case DmaWriteFault::port_busy: return "port_busy";
    case DmaWriteFault::op: return "op";
  }
  return "?";
}

namespace {

// The fields as the core's write port carries them.
DmaEntry wired(const DmaEntry& e, const DmaTriggerParams& p) {
  DmaEntry w = e;
  w.src_base &= low_mask(p.addr_w);
  w.dst_base &= low_mask(p.addr_w);
  w.dst_gpu &= uint32_t(low_mask(p.gpu_w));
  w.op = DmaOp(uint8_t(w.op) & 3);
  w.tiles_per_block &= uint32_t(low_mask(p.count_w()));
  w.m &= uint32_t(low_mask(p.dim_w));
  w.n &= uint32_t(low_mask(p.dim_w));
  w.elem_log2 &= 3;
  w.tile_rows &= uint32_t(low_mask(p.dim_w));
  w.tile_cols &= uint32_t(low_mask(p.dim_w));
  return w;
}

}  // namespace

DmaWriteFault DmaEntry::fault(const DmaTriggerParams& p) const {
  const DmaEntry w = wired(*this, p);
  if (uint8_t(w.op) == 3) return DmaWriteFault::op;
  if (w.tiles_per_block == 0 || w.tiles_per_block > p.slots) return DmaWriteFault::tiles_per_block;
  if (w.m == 0 || w.n == 0) return DmaWriteFault::dims_zero;
  if (w.tile_rows == 0 || w.tile_rows > w.m) return DmaWriteFault::tile_rows;
  if (w.tile_cols == 0 || w.tile_cols > w.n) return DmaWriteFault::tile_cols;
  // The region may end at the top of the address space, not beyond it.
  const unsigned __int128 end = (unsigned __int128)w.src_base + w.region_bytes();
  if (end > ((unsigned __int128)1 << p.addr_w)) return DmaWriteFault::region_overflow;
  return DmaWriteFault::none;
}

std::optional<std::string> DmaEntry::check(const DmaTriggerParams& p) const {
  auto out_of_range = [](const char* field, uint64_t v, const std::string& allowed) {
    return std::string(field) + " = " + std::to_string(v) + " is out of range; allowed: " + allowed;
  };
  const uint64_t dim_max = low_mask(p.dim_w), addr_max = low_mask(p.addr_w);
  if (src_base > addr_max) return out_of_range("src_base", src_base, "0.." + std::to_string(addr_max));
  if (dst_base > addr_max) return out_of_range("dst_base", dst_base, "0.." + std::to_string(addr_max));
  if (dst_gpu > low_mask(p.gpu_w))
    return out_of_range("dst_gpu", dst_gpu, "0.." + std::to_string(low_mask(p.gpu_w)));
  if (elem_log2 > 3) return out_of_range("elem_log2", elem_log2, "0..3 (1 to 8 bytes)");
  if (uint8_t(op) > 2) return out_of_range("op", uint8_t(op), "0 STORE, 1 UPDATE, 2 NONE");
  for (auto [name, v] : {std::pair<const char*, uint32_t>{"m", m}, {"n", n},
                         {"tile_rows", tile_rows}, {"tile_cols", tile_cols}})
    if (v > dim_max) return out_of_range(name, v, "0.." + std::to_string(dim_max) + " (DIM_W bits)");
  // The core takes log2(SLOTS + 1) bits: SLOTS + 1 and more may wrap to a
  // count it accepts.
  if (tiles_per_block == 0 || tiles_per_block > p.slots)
    return out_of_range("tiles_per_block", tiles_per_block, "1.." + std::to_string(p.slots) + " (SLOTS)");
  switch (fault(p)) {
    case DmaWriteFault::none:
    case DmaWriteFault::index:
    case DmaWriteFault::entry_busy:
    case DmaWriteFault::port_busy:
    case DmaWriteFault::op:  // refused above, on the field
      return std::nullopt;
    case DmaWriteFault::tiles_per_block:
      return out_of_range("tiles_per_block", tiles_per_block, "1.." + std::to_string(p.slots) + " (SLOTS)");
    case DmaWriteFault::dims_zero:
      return "m x n = " + std::to_string(m) + " x " + std::to_string(n) + " is empty; allowed: m, n >= 1";
    case DmaWriteFault::tile_rows:
      return out_of_range("tile_rows", tile_rows, "1..m = " + std::to_string(m));
    case DmaWriteFault::tile_cols:
      return out_of_range("tile_cols", tile_cols, "1..n = " + std::to_string(n));
    case DmaWriteFault::region_overflow:
      return "region [src_base, src_base + m x n x 2^elem_log2) = [" + std::to_string(src_base) +
             ", +" + std::to_string(region_bytes()) + ") passes the top of the address space; "
             "allowed: src_base + size <= 2^" + std::to_string(p.addr_w);
  }
  return std::nullopt;
}

// The parameters are checked before the tile buffer is sized by them.
DmaTriggerCore::DmaTriggerCore(const DmaTriggerParams& params)
    : p_(params), buf_((p_.validate(), std::size_t(p_.entries) * p_.slots)) {
  addr_mask_ = low_mask(p_.addr_w);
  stat_mask_ = low_mask(p_.stat_w);
  entries_.resize(p_.entries);
  fifo_.resize(p_.desc_depth);
}

// The lowest entry whose region holds the whole tile at addr (T3 §4.2.2).
std::optional<unsigned> DmaTriggerCore::lookup(uint64_t addr) const {
  for (unsigned e : valid_) {
    const Slot& s = entries_[e];
    if (addr >= s.f.src_base && addr <= s.last_start) return e;
  }
  return std::nullopt;
}

bool DmaTriggerCore::entry_busy(unsigned e) const {
  return entries_[e].count > 0 || (blk_ && g_e_ == e);
}

// Mirrors the always_comb blocks of rtl/dma_trigger_core.sv, inputs cut to
// their port widths.
DmaTriggerCore::Decision DmaTriggerCore::decide(const DmaTriggerCoreInputs& in) const {
  Decision d{};
  d.cfg_error = (in.cfg_burst_log2 & low_mask(kDmaBurstLog2Bits)) > p_.max_burst_log2;
  d.active = in.cfg_enable && !d.cfg_error;
  // The presented trigger's lookup, made in the last cycle (a trigger is
  // taken at the earliest in the cycle after it first shows).
  d.hit = lk_hit_;
  d.entry = lk_entry_;
  d.look = d.active && wr_left_ == 0 && seen_ && !wr_end_;
  // A tile for a NONE entry is only counted: it never waits for room.
  d.ready = d.look &&
            (!d.hit || entries_[d.entry].f.op == DmaOp::none || entries_[d.entry].count < p_.slots);
  d.accept = in.trig_valid && d.ready;
  return d;
}

DmaTriggerCoreOutputs DmaTriggerCore::eval(const DmaTriggerCoreInputs& in) const {
  return outputs(in, decide(in));
}

void DmaTriggerCore::clock(const DmaTriggerCoreInputs& in) {
  apply(in, in.rst_n ? decide(in) : Decision{});
}

DmaTriggerCoreOutputs DmaTriggerCore::step(const DmaTriggerCoreInputs& in) {
  if (!in.rst_n) {
    clock(in);
    return DmaTriggerCoreOutputs{};
  }
  const Decision d = decide(in);
  const DmaTriggerCoreOutputs o = outputs(in, d);
  apply(in, d);
  return o;
}

DmaTriggerCoreOutputs DmaTriggerCore::outputs(const DmaTriggerCoreInputs& in,
                                              const Decision& d) const {
  DmaTriggerCoreOutputs o;
  o.cfg_error = d.cfg_error;
  o.tbl_ready = wr_left_ == 0;
  // The whole register index: one above the table reads zeros, not a
  // wrapped entry.
  const unsigned rd = unsigned(in.tbl_rd_idx & low_mask(kDmaIdxBits));
  if (rd < p_.entries) {
    o.tbl_rd = entries_[rd].f;
    o.tbl_rd_pending = entries_[rd].count;
  }
  o.trig_ready = d.ready;
  if (fifo_count_ > 0) {
    const Desc& h = fifo_[fifo_head_];
    o.desc_valid = true;
    o.desc_src = h.src;
    o.desc_dst = h.dst;
    o.desc_gpu = h.gpu;
    o.desc_bytes = h.bytes;
    o.desc_op = h.op;
    o.desc_wg = h.wg;
    o.desc_wf = h.wf;
    o.desc_last = h.last;
  }
  o.tbl_err = tbl_err_;
  o.tbl_err_cause = tbl_err_cause_;
  o.miss = miss_;
  o.miss_wg = miss_tile_.wg;
  o.miss_wf = miss_tile_.wf;
  o.miss_addr = miss_tile_.addr;
  o.stat_triggers = stat_triggers_;
  o.stat_miss = stat_miss_;
  o.stat_descs = stat_descs_;
  o.stat_blocks = stat_blocks_;
  o.stat_stalls = stat_stalls_;
  o.busy = blk_ || pending_ > 0 || wr_left_ > 0 || fifo_count_ > 0;
  return o;
}

// The address generator's edge, as rtl/dma_trigger_core.sv's pipeline:
// every decision on the state before the edge. pick: the round-robin search
// over the entries holding a whole block registers the entry; fetch: its
// fields; read: the block's next tile from the buffer (one cycle), while
// dst_base - src_base is registered; load: the tile's column registers;
// step: one descriptor into the queue. `pop`: the queue's head leaves in
// this cycle. `re`, `raddr`: the buffer's read port.
void DmaTriggerCore::generate(uint32_t burst_log2, bool pop, bool active, bool& re,
                              uint32_t& raddr) {
  // pick (T3 §4.4: whole blocks, entries in turn).
  bool start = false;
  unsigned start_e = 0;
  if (active && !blk_ && pending_ > 0) {
    for (unsigned i = 0, e = rr_; i < p_.entries; ++i, e = e + 1 == p_.entries ? 0 : e + 1) {
      const Slot& s = entries_[e];
      if (s.f.valid && s.count >= s.f.tiles_per_block) {
        start = true;
        start_e = e;
        break;
      }
    }
  }
  // step: bursts never cross a column segment nor a 2^burst_log2-aligned
  // boundary; what is left of both is kept in registers (t_rem_, t_tob_).
  // The burst size is locked while busy; a refused one (nothing moves) is
  // held to MAX_BURST_LOG2 here, as in the RTL.
  const bool step = active && t_ && (fifo_count_ < p_.desc_depth || pop);
  const uint64_t boundary = uint64_t{1} << std::min(burst_log2, p_.max_burst_log2);
  const bool col_done = t_rem_ <= t_tob_;
  const uint64_t bytes = col_done ? t_rem_ : t_tob_;
  const bool tile_done = col_done && t_cleft_ == 0;
  const bool block_done = tile_done && g_left_ == 1;
  const bool gen_pop = step && tile_done;
  // load; the read of the tile after it goes out in the next cycle (the
  // RTL's read enable comes from registers only).
  const bool load = rd_full_ && (!t_ || gen_pop);
  re = blk_ && g_rd_left_ != 0 && !rd_full_;
  raddr = g_e_ * p_.slots + g_rd_slot_;

  if (step) {
    // Field by field: a Desc built on the stack and copied whole stalls on
    // store forwarding.
    Desc& d = fifo_[(fifo_head_ + fifo_count_) & (p_.desc_depth - 1)];
    d.src = (col_src_ + t_off_) & addr_mask_;
    d.dst = (col_dst_ + t_off_) & addr_mask_;
    d.gpu = g_gpu_;
    d.bytes = uint32_t(bytes);
    d.op = g_op_;
    d.wg = t_wg_;
    d.wf = t_wf_;
    d.last = block_done;
    ++fifo_count_;
  }
  if (gen_pop) {
    // The tile has left the buffer with its last descriptor.
    Slot& s = entries_[g_e_];
    s.head = s.head + 1 == p_.slots ? 0 : s.head + 1;
    --s.count;
    --pending_;
  }
  if (load) {
    const Tile& t = buf_.rdata();
    t_ = true;
    t_cleft_ = g_tcm1_;
    t_off_ = 0;
    t_rem_ = g_seg_;
    t_tob_ = boundary - (t.addr & (boundary - 1));
    col_src_ = t.addr;
    col_dst_ = (t.addr + g_delta_) & addr_mask_;
    t_wg_ = t.wg;
    t_wf_ = t.wf;
  } else if (step) {
    if (tile_done) {
      t_ = false;
    } else if (!col_done) {
      // The burst ran to the boundary: the next one starts aligned.
      t_off_ += t_tob_;
      t_rem_ -= t_tob_;
      t_tob_ = boundary;
    } else {
      t_off_ = 0;
      t_rem_ = g_seg_;
      t_tob_ = boundary - ((col_src_ + g_colb_) & (boundary - 1));
      --t_cleft_;
      col_src_ = (col_src_ + g_colb_) & addr_mask_;
      col_dst_ = (col_dst_ + g_colb_) & addr_mask_;
    }
  }
  // read: the destination's offset and what the tile's steps use, from the
  // fields fetched before this edge.
  g_delta_ = (g_dst_ - g_src_) & addr_mask_;
  g_seg_ = uint64_t(g_tr_) << g_eb_;
  g_colb_ = uint64_t(g_m_) << g_eb_;
  g_tcm1_ = (g_tc_ - 1) & uint32_t(low_mask(p_.dim_w));
  if (re) {
    g_rd_slot_ = g_rd_slot_ + 1 == p_.slots ? 0 : g_rd_slot_ + 1;
    --g_rd_left_;
    rd_full_ = true;
  } else if (load) {
    rd_full_ = false;
  }
  if (gen_pop) --g_left_;
  if (pk_) {
    // fetch (the entry is busy: its fields cannot change under the block).
    const Slot& s = entries_[g_e_];
    pk_ = false;
    g_rd_slot_ = s.head;
    g_rd_left_ = g_left_ = s.f.tiles_per_block;
    g_src_ = s.f.src_base;
    g_dst_ = s.f.dst_base;
    g_gpu_ = s.f.dst_gpu;
    g_op_ = s.f.op == DmaOp::update;
    g_tr_ = s.f.tile_rows;
    g_m_ = s.f.m;
    g_tc_ = s.f.tile_cols;
    g_eb_ = s.f.elem_log2;
  }
  if (start) {
    blk_ = pk_ = true;
    g_e_ = start_e;
    rr_ = start_e + 1 == p_.entries ? 0 : start_e + 1;
  } else if (step && block_done) {
    blk_ = false;
  }
}

void DmaTriggerCore::refuse(DmaWriteFault f) {
  if (!tbl_err_) tbl_err_cause_ = uint32_t(f);
  tbl_err_ = true;
}

void DmaTriggerCore::apply(const DmaTriggerCoreInputs& in, const Decision& d) {
  if (!in.rst_n) {
    // The tile buffer (t3_mem) has no reset: its contents and rdata stay.
    for (Slot& s : entries_) {
      s.f = DmaEntry{};
      s.last_start = 0;
      s.head = s.count = 0;
    }
    valid_.clear();
    pending_ = 0;
    lk_hit_ = seen_ = wr_end_ = false;
    lk_entry_ = 0;
    wr_left_ = wr_idx_ = 0;
    blk_ = pk_ = false;
    g_e_ = rr_ = 0;
    g_rd_slot_ = g_rd_left_ = g_left_ = 0;
    g_src_ = g_dst_ = g_delta_ = 0;
    g_gpu_ = 0;
    g_op_ = false;
    g_tr_ = g_m_ = g_tc_ = g_eb_ = 0;
    g_seg_ = g_colb_ = 0;
    g_tcm1_ = 0;
    rd_full_ = false;
    t_ = false;
    t_cleft_ = 0;
    t_off_ = t_rem_ = t_tob_ = col_src_ = col_dst_ = 0;
    t_wg_ = t_wf_ = 0;
    bw_ = false;
    fifo_head_ = fifo_count_ = 0;
    tbl_err_ = miss_ = false;
    tbl_err_cause_ = 0;
    miss_tile_ = Tile{};
    stat_triggers_ = stat_miss_ = stat_descs_ = stat_blocks_ = stat_stalls_ = 0;
    return;
  }
  auto bump = [this](uint32_t& c) { c = uint32_t((c + 1) & stat_mask_); };

  // Sticky errors: a clear and a new error in one cycle leave the new one.
  if (in.err_clear) {
    tbl_err_ = miss_ = false;
    tbl_err_cause_ = 0;
    miss_tile_ = Tile{};
  }

  // A write commanded while the last is in progress is refused: with the
  // registers the command is a one-cycle pulse (TBL_CMD.WRITE), and it must
  // not vanish. Its refusal comes after the verdict on the write in
  // progress, which was commanded first: when both are refused at one edge,
  // the captured cause is that write's.
  const bool port_busy = in.tbl_we && wr_left_ > 0;

  // The presented trigger's lookup, on the table before this edge; used
  // only if the trigger is still there in the next cycle (the RTL compares
  // every cycle, and uses the result only then).
  seen_ = in.trig_valid && !d.ready;
  const std::optional<unsigned> lk =
      seen_ ? lookup(in.trig_addr & addr_mask_) : std::optional<unsigned>{};
  lk_hit_ = lk.has_value();
  lk_entry_ = lk.value_or(0);
  wr_end_ = wr_left_ == 1;

  // A table write commits (or is refused) on the state before this edge.
  if (wr_left_ > 0 && --wr_left_ == 0) {
    DmaWriteFault f = wr_idx_ >= p_.entries ? DmaWriteFault::index
                      : wr_.valid           ? wr_.fault(p_)
                                            : DmaWriteFault::none;
    if (f == DmaWriteFault::none && entry_busy(wr_idx_)) f = DmaWriteFault::entry_busy;
    if (f != DmaWriteFault::none) {
      refuse(f);
    } else {
      Slot& s = entries_[wr_idx_];
      s.f = wr_;
      const uint64_t span = uint64_t(wr_.tile_cols - 1) * wr_.column_bytes() + wr_.segment_bytes();
      s.last_start = wr_.valid ? wr_.src_base + wr_.region_bytes() - span : 0;
      valid_.clear();
      for (unsigned e = 0; e < p_.entries; ++e)
        if (entries_[e].f.valid) valid_.push_back(e);
    }
  } else if (wr_left_ == 0 && in.tbl_we) {
    wr_ = wired(in.tbl, p_);
    wr_idx_ = unsigned(in.tbl_idx & low_mask(kDmaIdxBits));
    wr_left_ = p_.write_cycles();
  }
  if (port_busy) refuse(DmaWriteFault::port_busy);

  // The queue's head leaves.
  const bool pop = fifo_count_ > 0 && in.desc_ready;
  if (pop) {
    bump(stat_descs_);
    if (fifo_[fifo_head_].last) bump(stat_blocks_);
  }

  // The tile buffer's write port: a covered trigger at its entry's tail, on
  // the state before this edge (the RTL writes it for a NONE entry too,
  // whose count stays 0: the word is never read). The word is written one
  // edge later (bw_*), off the lookup's path in the RTL.
  const bool we = d.accept && d.hit;
  uint32_t waddr = 0;
  const Tile t{in.trig_wg_id & uint32_t(low_mask(p_.wg_id_w)),
               in.trig_wf_id & uint32_t(low_mask(p_.wf_id_w)), in.trig_addr & addr_mask_};
  if (we) {
    const Slot& s = entries_[d.entry];
    const unsigned tail = s.head + s.count;
    waddr = uint32_t(d.entry * p_.slots + (tail >= p_.slots ? tail - p_.slots : tail));
  }

  // The generator works from the state before this edge (a block starts on
  // the tiles already buffered); it may take its entry's head tile.
  bool re = false;
  uint32_t raddr = 0;
  generate(in.cfg_burst_log2 & uint32_t(low_mask(kDmaBurstLog2Bits)), pop, d.active, re, raddr);
  // The read never meets the write: it reads a tile the entry held a cycle
  // ago, the write goes to a slot taken since.
  buf_.clock(bw_, bw_addr_, bw_tile_, re, raddr);
  bw_ = we;
  bw_addr_ = waddr;
  bw_tile_ = t;

  if (d.accept) {
    if (d.hit && entries_[d.entry].f.op == DmaOp::none) {
      bump(stat_triggers_);
    } else if (d.hit) {
      ++entries_[d.entry].count;
      ++pending_;
      bump(stat_triggers_);
    } else {
      if (!miss_) miss_tile_ = t;
      miss_ = true;
      bump(stat_miss_);
    }
  }
  if (in.trig_valid && !d.ready) bump(stat_stalls_);

  if (pop) {
    fifo_head_ = (fifo_head_ + 1) & (p_.desc_depth - 1);
    --fifo_count_;
  }
}

}  // namespace t3
