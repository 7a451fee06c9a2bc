#include "dma_trigger_stimulus.h"

#include <algorithm>

#include "t3/dma_trigger_regs.h"

namespace t3::tb {
namespace {

uint64_t ones(unsigned w) { return w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1; }

}  // namespace

DmaTriggerStimulus::DmaTriggerStimulus(const DmaTriggerParams& p, DmaTriggerScoreboard& sb,
                                       ApbMaster& apb, uint64_t seed, DmaTraffic t)
    : p_(p), sb_(sb), apb_(apb), rng_(seed), t_(t), staged_(staging_writes(DmaEntry{})) {}

void DmaTriggerStimulus::new_phase() {
  regions_.clear();
  stopping_ = false;
  phase_triggers_ = 0;
  const uint64_t dim_max = ones(p_.dim_w);
  burst_log2_ = uint32_t(rnd(0, p_.max_burst_log2));
  config_due_ = true;

  // The output array and its tiling (T3 Fig. 9(a)); the WG tile's columns
  // split among wfs_per_wg WFs.
  TileMap map;
  for (int attempt = 0; attempt < 100; ++attempt) {
    map.elem_bytes = 1u << rnd(0, 3);
    map.wg_rows = uint32_t(1) << rnd(0, 5);
    const uint32_t wf_cols = uint32_t(rnd(1, 3));
    map.wfs_per_wg = uint32_t(rnd(1, std::min<uint64_t>(8, ones(p_.wf_id_w) + 1)));
    map.wg_cols = wf_cols * map.wfs_per_wg;
    map.m = map.wg_rows * uint32_t(rnd(1, 4));
    const uint64_t seg = uint64_t(map.wg_rows) * map.elem_bytes;
    // Not so small a burst that a column segment takes more than 32 descriptors.
    if (map.m <= dim_max && map.wg_cols <= dim_max && seg <= (uint64_t(32) << burst_log2_)) break;
    map.m = 0;
  }
  if (map.m == 0) {  // a tiny address/dimension space: one-element tiles
    map = TileMap{};
    map.elem_bytes = 1;
    map.wg_rows = map.wg_cols = map.wfs_per_wg = 1;
    map.m = 1;
  }
  const unsigned n_regions = unsigned(rnd(1, std::min<unsigned>(p_.entries, 4)));
  std::vector<uint32_t> chunk_cols;
  uint64_t total_cols = 0;
  for (unsigned i = 0; i < n_regions; ++i) {
    uint32_t c = map.wg_cols * uint32_t(rnd(1, 3));
    while (c > dim_max) c -= map.wg_cols;
    chunk_cols.push_back(c);
    total_cols += c;
  }
  const uint64_t span = uint64_t(map.m) * total_cols * map.elem_bytes;
  const uint64_t top = ones(p_.addr_w) - span + 1;  // highest base (the array ends at 2^ADDR_W)
  const double where = std::uniform_real_distribution<double>(0, 1)(rng_);
  map.base = where < 0.15 ? top : where < 0.25 ? 0 : rnd(0, top);

  // Distinct entries, at random indices.
  std::vector<unsigned> idx(p_.entries);
  for (unsigned i = 0; i < p_.entries; ++i) idx[i] = i;
  std::shuffle(idx.begin(), idx.end(), rng_);
  uint32_t first_col = 0;
  const uint32_t wg_first = uint32_t(rnd(0, ones(p_.wg_id_w)));
  uint32_t wgs_before = 0;
  for (unsigned i = 0; i < n_regions; ++i) {
    Region r;
    r.entry = idx[i];
    r.map = map;
    r.map.first_col = first_col;
    r.map.cols = chunk_cols[i];
    // WG ids run on from chunk to chunk (a stage's WGs, T3 §4.2.1).
    r.wg_first = uint32_t((wg_first + wgs_before) & ones(p_.wg_id_w));
    wgs_before += r.map.wgs();
    first_col += chunk_cols[i];
    r.f.valid = true;
    r.f.src_base = r.map.addr(0, r.map.first_col);
    r.f.dst_base = rnd(0, ones(p_.addr_w));
    r.f.dst_gpu = uint32_t(rnd(0, ones(p_.gpu_w)));
    // NONE now and then: a chunk tracked to completion, sent nowhere.
    r.f.op = chance(0.15) ? DmaOp::none : chance(0.5) ? DmaOp::update : DmaOp::store;
    r.f.tiles_per_block = uint32_t(rnd(1, p_.slots));
    r.f.m = map.m;
    r.f.n = chunk_cols[i];
    r.f.elem_log2 = uint32_t(__builtin_ctz(map.elem_bytes));
    r.f.tile_rows = map.wg_rows;
    r.f.tile_cols = map.wf_cols();
    regions_.push_back(r);
  }
  // The driver programs the whole table for the new collective, before any
  // trigger: every other entry off first (no region of an earlier phase may
  // overlap these), then the regions. An entry still sending the last
  // phase's blocks is waited for.
  for (unsigned i = n_regions; i < p_.entries; ++i)
    writes_.push_back({idx[i], DmaEntry{}, -1, false, false});
  for (unsigned i = 0; i < n_regions; ++i)
    writes_.push_back({regions_[i].entry, regions_[i].f, int(i), false, false});
  programming_ = true;
}

void DmaTriggerStimulus::stop() { stopping_ = true; }

int DmaTriggerStimulus::unfinished_region() const {
  for (size_t i = 0; i < regions_.size(); ++i)
    if (regions_[i].live && regions_[i].sent % regions_[i].f.tiles_per_block) return int(i);
  return -1;
}

bool DmaTriggerStimulus::idle(const DmaTriggerOutputs& out) const {
  return stopping_ && unfinished_region() < 0 && !have_trig_ && !trig_taken_ && writes_.empty() &&
         !wr_issued_ && !config_due_ && apb_.idle() && !out.busy;
}

std::string DmaTriggerStimulus::pending(const DmaTriggerOutputs& out) const {
  std::string s;
  const int u = unfinished_region();
  if (!stopping_) s += " not stopping;";
  if (u >= 0)
    s += " region " + std::to_string(u) + " (entry " + std::to_string(regions_[u].entry) + ") has " +
         std::to_string(regions_[u].sent % regions_[u].f.tiles_per_block) + " of " +
         std::to_string(regions_[u].f.tiles_per_block) + " tiles of a block;";
  if (have_trig_ || trig_taken_) s += " a trigger in hand;";
  if (!writes_.empty() || wr_issued_) s += " table writes queued;";
  if (config_due_) s += " configuration due;";
  if (!apb_.idle()) s += " APB busy;";
  if (out.busy) s += " block busy;";
  return s;
}

DmaTriggerStimulus::Trig DmaTriggerStimulus::tile_trigger(int region) {
  const Region& r = regions_[region];
  const uint32_t wgi = uint32_t(rnd(0, r.map.wgs() - 1));
  const uint32_t wf = uint32_t(rnd(0, r.map.wfs_per_wg - 1));
  // As the Tracker reports it: the tile's lowest address (T3 §4.2.1).
  return Trig{uint32_t((r.wg_first + wgi) & ones(p_.wg_id_w)), wf, r.map.tile_start(wgi, wf), region};
}

DmaTriggerStimulus::Trig DmaTriggerStimulus::miss_trigger() {
  Trig t{uint32_t(rnd(0, ones(p_.wg_id_w))), uint32_t(rnd(0, ones(p_.wf_id_w))), 0, -1};
  // Tries until no region covers it (a tile near a region's edge may still
  // fit the neighbouring region).
  for (int attempt = 0; attempt < 20; ++attempt) {
    if (!regions_.empty() && chance(0.5)) {
      // A tile that would spill past its region: one element past the last
      // tile start, or one byte below the region.
      const Region& r = regions_[rnd(0, regions_.size() - 1)];
      const uint64_t end = r.f.src_base + r.f.region_bytes();
      const uint64_t last =
          end - (uint64_t(r.f.tile_cols - 1) * r.f.column_bytes() + r.f.segment_bytes());
      t.addr = chance(0.5) ? last + (uint64_t{1} << r.f.elem_log2) : r.f.src_base - 1;
    } else {
      t.addr = rnd(0, ones(p_.addr_w));
    }
    t.addr &= ones(p_.addr_w);
    if (!sb_.covering(t.addr)) return t;
  }
  return tile_trigger(int(rnd(0, regions_.size() - 1)));
}

// Fields one of the table's rules refuses.
DmaEntry DmaTriggerStimulus::bad_fields(unsigned& idx) {
  DmaEntry f = regions_.empty() ? DmaEntry{} : regions_[rnd(0, regions_.size() - 1)].f;
  f.valid = true;
  f.m = std::max<uint32_t>(f.m, 1);
  f.n = std::max<uint32_t>(f.n, 1);
  f.tile_rows = std::max<uint32_t>(std::min(f.tile_rows, f.m), 1);
  f.tile_cols = std::max<uint32_t>(std::min(f.tile_cols, f.n), 1);
  f.tiles_per_block = 1;
  const uint64_t dim_max = ones(p_.dim_w);
  switch (rnd(0, 7)) {
    case 0: f.tiles_per_block = 0; break;
    case 6: f.op = DmaOp(3); break;  // no operation 3
    case 1:  // one more than SLOTS, where the field has room for it
      f.tiles_per_block = p_.slots + 1 <= ones(p_.count_w()) ? p_.slots + 1 : 0;
      break;
    case 2: (chance(0.5) ? f.m : f.n) = 0; break;
    case 3:
      if (f.m < dim_max) f.tile_rows = f.m + 1;
      else f.tile_rows = 0;
      break;
    case 4:
      if (f.n < dim_max) f.tile_cols = f.n + 1;
      else f.tile_cols = 0;
      break;
    case 5:  // a region one byte past the top of the address space
      f.src_base = ones(p_.addr_w) - f.region_bytes() + 2;
      if (f.region_bytes() < 2) f.tiles_per_block = 0;
      break;
    default:  // an index at or above ENTRIES, where TBL_IDX has room for one
      if (p_.entries < (1u << kDmaIdxBits)) idx = unsigned(rnd(p_.entries, (1u << kDmaIdxBits) - 1));
      else f.tiles_per_block = 0;
      break;
  }
  // Not an entry this phase uses (a refused write leaves it as it was anyway).
  return f;
}

void DmaTriggerStimulus::queue_write(const Write& w) {
  // The staging registers that differ from what they hold, TBL_IDX, then
  // the command (twice: the second while the first runs).
  const std::array<RegWrite, 9> words = staging_writes(w.f);
  for (size_t k = 0; k < words.size(); ++k)
    if (words[k].data != staged_[k].data) apb_.write(words[k].addr, words[k].data);
  staged_ = words;
  apb_.write(T3_DMA_TRIGGER_A_TBL_IDX, w.idx);
  command_write(apb_);
  if (w.twice) command_write(apb_);
  wr_issued_ = true;
  verdicts_before_ = sb_.counts().writes;
  hold_queue_ = w.busy;
}

void DmaTriggerStimulus::queue_registers() {
  if (config_due_) {
    // The phase's burst size, now and then after one the table refuses
    // (STATUS.CFG_ERROR, read meanwhile): nothing may move until it is
    // right. The table is idle here, so BURST is not locked.
    if (chance(t_.p_bad_burst)) {
      apb_.write(T3_DMA_TRIGGER_A_BURST,
                 uint32_t(rnd(p_.max_burst_log2 + 1, T3_DMA_TRIGGER_R_BURST_LOG2_MASK)));
      for (uint64_t k = rnd(1, 4); k > 0; --k) apb_.read(T3_DMA_TRIGGER_A_STATUS);
    }
    program_config(apb_, true, burst_log2_);
    config_due_ = false;
    return;
  }
  if (wr_issued_) {
    // The driver polls STATUS.TBL_READY (the scoreboard checks each answer).
    if (chance(t_.p_poll)) apb_.read(T3_DMA_TRIGGER_A_STATUS);
    return;
  }
  if (programming_ && writes_.empty()) programming_ = false;
  if (!programming_ && writes_.empty() && !stopping_ && !regions_.empty()) {
    if (chance(t_.p_bad_write)) {
      unsigned idx = unsigned(rnd(0, p_.entries - 1));
      const DmaEntry f = bad_fields(idx);
      // Keep clear of the entries in use: their verdict would be entry_busy too.
      bool used = false;
      for (const Region& r : regions_) used |= r.entry == idx;
      if (!used) writes_.push_back({idx, f, -1, false, false});
    } else if (chance(t_.p_busy_write)) {
      // A live entry with more descriptors to come than the queue holds:
      // certainly busy, the queue being held from now until the verdict.
      for (const Region& r : regions_)
        if (r.live && sb_.descs_left(r.entry) > p_.desc_depth + 1) {
          writes_.push_back({r.entry, r.f, -1, true, false});
          break;
        }
    } else if (chance(t_.p_port_busy)) {
      // An entry this phase does not use, switched off, commanded twice.
      const unsigned idx = unsigned(rnd(0, p_.entries - 1));
      bool used = false;
      for (const Region& r : regions_) used |= r.entry == idx;
      if (!used && sb_.unsent(idx) == 0) writes_.push_back({idx, DmaEntry{}, -1, false, true});
    }
  }
  if (!writes_.empty()) {
    const Write& w = writes_.front();
    // A region's own write waits until its entry is idle (it may still be
    // sending the last phase's blocks).
    if (w.busy || w.idx >= p_.entries || sb_.unsent(w.idx) == 0) queue_write(w);
    return;
  }
  if (chance(t_.p_err_clear)) {
    clear_errors(apb_, true);
  } else if (chance(t_.p_disable)) {
    // CTRL.ENABLE low for a few cycles: STATUS read meanwhile.
    apb_.write(T3_DMA_TRIGGER_A_CTRL, 0);
    for (uint64_t k = rnd(1, 10); k > 0; --k) apb_.read(T3_DMA_TRIGGER_A_STATUS);
    apb_.write(T3_DMA_TRIGGER_A_CTRL, T3_DMA_TRIGGER_R_CTRL_ENABLE_MASK);
  } else if (chance(t_.p_readback)) {
    // The driver reads an entry back (any index TBL_IDX holds, the ones
    // above the table too).
    apb_.write(T3_DMA_TRIGGER_A_TBL_IDX, uint32_t(rnd(0, T3_DMA_TRIGGER_R_TBL_IDX_IDX_MASK)));
    for (unsigned k = 0; k < kTblRdRegs; ++k) apb_.read(tbl_rd_addr(k));
  }
}

void DmaTriggerStimulus::drive(DmaTriggerInputs& in) {
  if (apb_.idle()) queue_registers();

  if (stall_left_ > 0) --stall_left_;
  else if (chance(t_.p_desc_stall)) stall_left_ = unsigned(rnd(1, t_.desc_stall_len));
  in.desc_ready = !hold_queue_ && stall_left_ == 0 && chance(stopping_ ? 0.95 : t_.p_desc_ready);

  // Triggers, held until taken (the Tracker's output register does).
  if (!have_trig_) {
    bool live = false;
    for (const Region& r : regions_) live |= r.live;
    if (stopping_) {
      // Every region topped up to whole blocks.
      const int i = unfinished_region();
      if (i >= 0) {
        trig_ = tile_trigger(i);
        have_trig_ = true;
      }
    } else if (live && !programming_ && chance(t_.p_trig)) {
      int i;
      do i = int(rnd(0, regions_.size() - 1));
      while (!regions_[i].live);
      trig_ = chance(t_.p_miss) ? miss_trigger() : tile_trigger(i);
      if (trig_.region >= 0 && !regions_[trig_.region].live) trig_ = tile_trigger(i);
      have_trig_ = true;
    }
  }
  in.trig_valid = have_trig_;
  in.trig_wg_id = trig_.wg;
  in.trig_wf_id = trig_.wf;
  in.trig_addr = trig_.addr;
}

void DmaTriggerStimulus::after(const DmaTriggerInputs& in, const DmaTriggerOutputs& out) {
  if (wr_issued_ && sb_.counts().writes > verdicts_before_) {
    // Committed or refused at this edge; the scoreboard has seen it.
    const Write w = writes_.front();
    writes_.erase(writes_.begin());
    wr_issued_ = false;
    hold_queue_ = false;
    if (w.region >= 0) {
      Region& r = regions_[w.region];
      const DmaEntry& now = sb_.entry(r.entry);
      r.live = now.valid && now.src_base == r.f.src_base && now.m == r.f.m;
      if (r.live) sb_.set_map(r.entry, r.map, r.wg_first);
    }
  }
  // busy_o shows a trigger taken at this edge only from the next cycle on.
  trig_taken_ = in.trig_valid && out.trig_ready;
  if (trig_taken_) {
    have_trig_ = false;
    if (trig_.region >= 0) {
      ++regions_[trig_.region].sent;
      if (++phase_triggers_ >= t_.triggers_per_phase && !stopping_) stop();
    }
  }
}

}  // namespace t3::tb
