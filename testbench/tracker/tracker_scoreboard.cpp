#include "tracker_scoreboard.h"

#include <sstream>

#include "t3/tracker_regs.h"
#include "tracker/tracker_core.h"

namespace t3::tb {
namespace {

uint64_t bits(unsigned w) { return w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1; }

}  // namespace

TileWrite presented_write(const TrackerDataIn& in) {
  TileWrite w;
  w.wg_id = in.in_wg_id;
  w.wf_id = in.in_wf_id;
  w.addr = in.in_addr;
  w.size = in.in_size;
  w.src = in.in_src;
  return w;
}

void program(ApbMaster& m, const TrackerConfig& c) {
  m.write(T3_TRACKER_A_BASE_LO, uint32_t(c.base));
  m.write(T3_TRACKER_A_BASE_HI, uint32_t(c.base >> 32));
  m.write(T3_TRACKER_A_LIMIT_LO, uint32_t(c.limit));
  m.write(T3_TRACKER_A_LIMIT_HI, uint32_t(c.limit >> 32));
  m.write(T3_TRACKER_A_TILE,
          ((c.tile_size << T3_TRACKER_R_TILE_SIZE_SHIFT) & T3_TRACKER_R_TILE_SIZE_MASK) |
              ((c.updates_per_elem << T3_TRACKER_R_TILE_UPDATES_PER_ELEM_SHIFT) &
               T3_TRACKER_R_TILE_UPDATES_PER_ELEM_MASK));
  m.write(T3_TRACKER_A_CTRL, c.enable ? T3_TRACKER_R_CTRL_ENABLE_MASK : 0);
}

TrackerScoreboard::TrackerScoreboard(const TrackerParams& p) : p_(p) {
  configure(from_regs());
  staged_ = cfg_;
}

TrackerConfig TrackerScoreboard::from_regs() const {
  auto reg = [](const char* name) { return TrackerShadow::reg(name); };
  TrackerConfig c;
  c.enable = regs_.field(reg("ctrl"), "enable") != 0;
  c.base = uint64_t(regs_.field(reg("base_hi"), "addr")) << 32 | regs_.field(reg("base_lo"), "addr");
  c.limit = uint64_t(regs_.field(reg("limit_hi"), "addr")) << 32 | regs_.field(reg("limit_lo"), "addr");
  c.tile_size = regs_.field(reg("tile"), "size");
  c.updates_per_elem = regs_.field(reg("tile"), "updates_per_elem");
  return c;
}

void TrackerScoreboard::configure(const TrackerConfig& c) {
  cfg_ = c;
  // The core takes the low bits its parameters give.
  base_ = cfg_.base & bits(p_.addr_w);
  limit_ = cfg_.limit & bits(p_.addr_w);
  threshold_ = uint64_t(cfg_.tile_size & bits(p_.cnt_w)) * (cfg_.updates_per_elem & bits(p_.upe_w));
  enable_ = cfg_.enable;
  // T3 §4.2.1: the counter must be able to hold wf_tile_size x updates per
  // element, and the tracked region must hold at least one byte.
  valid_ = threshold_ >= 1 && threshold_ < (uint64_t{1} << p_.cnt_w) && limit_ > base_;
}

std::optional<uint32_t> TrackerScoreboard::ro(unsigned r, bool set_full) const {
  const auto stat = [this](uint64_t count) { return uint32_t(count & bits(p_.stat_w)); };
  switch (TrackerReg(r)) {
    case TrackerReg::status:
      return uint32_t(enable_ && !valid_) << T3_TRACKER_R_STATUS_CFG_ERROR_SHIFT |
             uint32_t(set_full) << T3_TRACKER_R_STATUS_SET_FULL_SHIFT |
             uint32_t(shown_entries_) << T3_TRACKER_R_STATUS_LIVE_SHIFT;
    case TrackerReg::stat_updates: return stat(lagged_[1].updates);
    case TrackerReg::stat_triggers: return stat(shown_completed_);
    case TrackerReg::stat_stalls: return stat(lagged_[1].stalls);
    case TrackerReg::stat_untracked: return stat(lagged_[1].untracked);
    case TrackerReg::param_geometry: {
      unsigned log2_sets = 0;
      while ((1u << log2_sets) < p_.sets) ++log2_sets;
      return log2_sets << T3_TRACKER_R_PARAM_GEOMETRY_SETS_LOG2_SHIFT |
             p_.ways << T3_TRACKER_R_PARAM_GEOMETRY_WAYS_SHIFT;
    }
    case TrackerReg::param_widths:
      return p_.addr_w << T3_TRACKER_R_PARAM_WIDTHS_ADDR_W_SHIFT |
             p_.cnt_w << T3_TRACKER_R_PARAM_WIDTHS_CNT_W_SHIFT |
             p_.upe_w << T3_TRACKER_R_PARAM_WIDTHS_UPE_W_SHIFT |
             p_.stat_w << T3_TRACKER_R_PARAM_WIDTHS_STAT_W_SHIFT;
    default: return 0;  // no RO field
  }
}

TileWrite TrackerScoreboard::wired(const TileWrite& w) const {
  TileWrite c = w;
  c.wg_id &= uint32_t(bits(p_.wg_id_w));
  c.wf_id &= uint32_t(bits(p_.wf_id_w));
  c.addr &= bits(p_.addr_w);
  c.size &= uint32_t(bits(p_.cnt_w));
  return c;
}

bool TrackerScoreboard::tracked(const TileWrite& raw) const {
  const TileWrite w = wired(raw);
  return enable_ && valid_ && w.addr >= base_ && w.addr < limit_;
}

const TrackerScoreboard::Tile* TrackerScoreboard::find(const TileWrite& w) const {
  const auto it = tiles_.find(key(w));
  return it == tiles_.end() ? nullptr : &it->second;
}

bool TrackerScoreboard::fires(const TileWrite& w) const {
  const Tile* t = find(w);
  return (t ? t->got : 0) + w.size >= threshold_;
}

bool TrackerScoreboard::needs_full_set(const TileWrite& raw) const {
  const TileWrite w = wired(raw);
  if (!tracked(w) || fires(w)) return false;
  const Tile* t = find(w);
  if (t && t->has_entry) return false;
  const auto it = entries_per_set_.find(set_of(w.wg_id));
  return it != entries_per_set_.end() && it->second >= p_.ways;
}

bool TrackerScoreboard::must_refuse(const TileWrite& raw) const {
  const TileWrite w = wired(raw);
  if (!tracked(w)) return false;
  // Every trigger due, shown or still in the pipeline, needs its place in
  // the output queue until the consumer takes it; a take in this very cycle
  // makes room only from the next (in_ready_o does not look at trig_ready_i).
  if (fires(w)) return expected_.size() + 1 > TrackerCore::kTrigQueue;
  return needs_full_set(w);
}

std::optional<std::string> TrackerScoreboard::observe(const TrackerInputs& in,
                                                      const TrackerOutputs& out) {
  const TileWrite w = wired(presented_write(in));
  const bool in_valid = in.in_valid, trig_ready = in.trig_ready;
  const bool cfg_error = enable_ && !valid_;
  // What accepted writes did kLatency cycles ago shows now.
  while (!entry_events_.empty() && entry_events_.front().at <= cycle_) {
    shown_entries_ += entry_events_.front().delta;
    entry_events_.pop_front();
  }
  shown_completed_ = completed_;
  for (auto it = expected_.rbegin(); it != expected_.rend() && it->at > cycle_; ++it)
    --shown_completed_;
  const bool trig_shown = !expected_.empty() && expected_.front().at <= cycle_;
  // Presented two cycles ago, refused, nothing accepted since: decided exactly.
  const uint32_t tile_now = uint32_t(cfg_.tile_size & bits(p_.cnt_w));
  const uint32_t upe_now = uint32_t(cfg_.updates_per_elem & bits(p_.upe_w));
  const bool is_tracked = in_valid && tracked(w);
  const Past& two = past_[1];
  const bool decided = is_tracked && two.tracked && !two.accepted && !past_[0].accepted &&
                       two.w.wg_id == w.wg_id && two.w.wf_id == w.wf_id &&
                       two.w.size == w.size && two.tile == tile_now && two.upe == upe_now;
  const bool refuse = in_valid && must_refuse(w);
  const bool set_full = decided && needs_full_set(w);
  std::ostringstream& err = complaints_.fresh();
  // Registers: this cycle's access, on the state before the edge (live
  // tiles and writes in flight lock the region and the threshold); the
  // interrupt line.
  const bool in_flight = past_[0].accepted || past_[1].accepted;
  regs_.observe(in.apb, out.apb, shown_entries_ != 0 || in_flight,
                [&](unsigned r) { return ro(r, set_full); }, err);
  if (out.intr != regs_.intr())
    err << "intr_o = " << out.intr << ", expected " << regs_.intr() << " (INTR_STATE 0x"
        << std::hex << regs_.value(unsigned(TrackerReg::intr_state)) << ", INTR_ENABLE 0x"
        << regs_.value(unsigned(TrackerReg::intr_enable)) << std::dec << ", threshold " << threshold_
        << ", region [0x" << std::hex << base_ << ", 0x" << limit_ << std::dec << ")); ";
  // Registered outputs: they show everything accepted kLatency cycles before.
  if (out.live != shown_entries_)
    err << "live_o = " << out.live << ", expected " << shown_entries_ << " tiles holding an entry; ";
  check_counter(err, "stat_triggers_o", out.stat_triggers, shown_completed_, p_.stat_w);
  // The write port's counters count a cycle after the decision.
  check_counter(err, "stat_updates_o", out.stat_updates, lagged_[1].updates, p_.stat_w);
  check_counter(err, "stat_untracked_o", out.stat_untracked, lagged_[1].untracked, p_.stat_w);
  check_counter(err, "stat_stalls_o", out.stat_stalls, lagged_[1].stalls, p_.stat_w);
  if (out.trig_valid != trig_shown)
    err << "trig_valid_o = " << out.trig_valid << " but " << (trig_shown ? "a" : "no")
        << " trigger is due; ";

  if (out.trig_valid && trig_ready) {
    if (expected_.empty()) {
      err << "unexpected trigger wg " << out.trig_wg_id << " wf " << out.trig_wf_id << "; ";
    } else {
      const Expected e = expected_.front();
      expected_.pop_front();
      if (e.wg_id != out.trig_wg_id || e.wf_id != out.trig_wf_id || e.addr != out.trig_addr)
        err << "trigger {wg " << out.trig_wg_id << ", wf " << out.trig_wf_id << ", addr 0x"
            << std::hex << out.trig_addr << std::dec << "} but expected {wg " << e.wg_id
            << ", wf " << e.wf_id << ", addr 0x" << std::hex << e.addr << std::dec << "}; ";
      ++triggers_;
    }
  }

  bool accepted_tracked = false;
  if (in_valid) {
    auto describe = [&] {
      std::ostringstream d;
      d << (is_tracked ? "tracked" : "untracked") << " write wg " << w.wg_id << " wf " << w.wf_id
        << " addr 0x" << std::hex << w.addr << std::dec << " size " << w.size;
      return d.str();
    };
    if (out.in_ready && refuse)
      err << "in_ready_o = 1 for a " << describe() << " that must wait ("
          << (needs_full_set(w) ? "its set is full" : "the output queue is full")
          << "); ";
    if (!out.in_ready && !is_tracked) err << "in_ready_o = 0 for an " << describe() << "; ";
    if (!out.in_ready && decided && !refuse)
      err << "in_ready_o = 0 for a " << describe() << " presented two cycles before, nothing accepted since; ";
    if (out.set_full != set_full)
      err << "set_full_o = " << out.set_full << ", expected " << set_full << "; ";
    if (!out.in_ready) {
      ++stalls_;
      (!refuse ? lookup_stalls_ : needs_full_set(w) ? set_full_stalls_ : output_stalls_)++;
    } else if (!is_tracked) {
      ++untracked_;
    } else {
      accepted_tracked = true;
      const uint64_t at = cycle_ + kLatency;
      Tile& t = tiles_[key(w)];
      t.got += w.size;
      if (w.addr < t.min_addr) t.min_addr = w.addr;
      ++updates_;
      if (t.got >= threshold_) {
        if (t.has_entry) {
          --entries_;
          --entries_per_set_[set_of(w.wg_id)];
          entry_events_.push_back({at, -1});
        }
        expected_.push_back({w.wg_id, w.wf_id, t.min_addr, at});
        ++completed_;
        tiles_.erase(key(w));
      } else if (!t.has_entry) {
        t.has_entry = true;
        ++entries_;
        ++entries_per_set_[set_of(w.wg_id)];
        entry_events_.push_back({at, +1});
      }
    }
  } else if (out.set_full) {
    err << "set_full_o without a write; ";
  }
  lagged_[1] = lagged_[0];
  lagged_[0] = Counts{updates_, untracked_, stalls_};
  past_[2] = past_[1];
  past_[1] = past_[0];
  past_[0] = Past{is_tracked, accepted_tracked, w, tile_now, upe_now};
  ++cycle_;

  // The edge: the interrupts' events of this cycle (CFG_ERROR is a level),
  // then the configuration: the core takes the registers' values of this
  // cycle at this edge and works on them from the next (a register written
  // at this edge reaches it one cycle later).
  regs_.set_event(unsigned(TrackerReg::intr_state),
                  uint32_t(cfg_error) << T3_TRACKER_R_INTR_STATE_CFG_ERROR_SHIFT |
                      uint32_t(set_full) << T3_TRACKER_R_INTR_STATE_SET_FULL_SHIFT);
  configure(staged_);
  regs_.edge();
  staged_ = from_regs();
  if (err.tellp() == 0) return std::nullopt;
  return err.str();
}

void TrackerScoreboard::reset() {
  regs_.reset();
  configure(from_regs());
  staged_ = cfg_;
  tiles_.clear();
  entries_per_set_.clear();
  expected_.clear();
  entry_events_.clear();
  past_[0] = past_[1] = past_[2] = Past{};
  completed_ = triggers_ = updates_ = untracked_ = stalls_ = entries_ = 0;
  lagged_[0] = lagged_[1] = Counts{};
  shown_entries_ = shown_completed_ = 0;
  set_full_stalls_ = output_stalls_ = lookup_stalls_ = 0;
}

std::optional<std::string> TrackerScoreboard::check_drained() const {
  std::ostringstream err;
  if (!expected_.empty()) err << expected_.size() << " completed tile(s) never triggered; ";
  if (!tiles_.empty()) err << tiles_.size() << " tile(s) still incomplete; ";
  if (triggers_ != completed_)
    err << triggers_ << " triggers for " << completed_ << " completed tiles; ";
  if (err.tellp() == 0) return std::nullopt;
  return err.str();
}

}  // namespace t3::tb
