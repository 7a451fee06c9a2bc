#include "tracker_scoreboard.h"

#include <sstream>

namespace t3::tb {
namespace {

uint64_t bits(unsigned w) { return w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1; }

}  // namespace

TrackerScoreboard::TrackerScoreboard(const TrackerParams& p, const TrackerConfig& cfg) : p_(p) {
  base_ = cfg.base & bits(p.addr_w);
  limit_ = cfg.limit & bits(p.addr_w);
  threshold_ = uint64_t(cfg.tile_size & bits(p.cnt_w)) * (cfg.updates_per_elem & bits(p.upe_w));
  enable_ = cfg.enable;
  // T3 §4.2.1: the counter must be able to hold wf_tile_size x updates per
  // element, and the tracked region must hold at least one byte.
  valid_ = threshold_ >= 1 && threshold_ < (uint64_t{1} << p.cnt_w) && limit_ > base_;
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

bool TrackerScoreboard::expect_set_full(const TileWrite& raw) const {
  const TileWrite w = wired(raw);
  if (!tracked(w) || fires(w)) return false;
  const Tile* t = find(w);
  if (t && t->has_entry) return false;
  const auto it = entries_per_set_.find(set_of(w.wg_id));
  return it != entries_per_set_.end() && it->second >= p_.ways;
}

bool TrackerScoreboard::expect_ready(const TileWrite& raw, bool trig_valid,
                                     bool trig_ready) const {
  const TileWrite w = wired(raw);
  if (!tracked(w)) return true;
  if (fires(w)) return !trig_valid || trig_ready;
  return !expect_set_full(w);
}

std::optional<std::string> TrackerScoreboard::observe(bool in_valid, const TileWrite& raw,
                                                      bool trig_ready,
                                                      const TrackerOutputs& out) {
  const TileWrite w = wired(raw);
  std::ostringstream& err = complaints_.fresh();
  if (out.cfg_error != (enable_ && !valid_))
    err << "cfg_error_o = " << out.cfg_error << ", expected " << (enable_ && !valid_)
        << " (threshold " << threshold_ << ", region [0x" << std::hex << base_ << ", 0x"
        << limit_ << std::dec << ")); ";
  // Registered outputs: they show everything accepted before this cycle.
  if (out.live != entries_)
    err << "live_o = " << out.live << ", expected " << entries_ << " tiles holding an entry; ";
  check_counter(err, "stat_triggers_o", out.stat_triggers, completed_, p_.stat_w);
  check_counter(err, "stat_updates_o", out.stat_updates, updates_, p_.stat_w);
  check_counter(err, "stat_untracked_o", out.stat_untracked, untracked_, p_.stat_w);
  check_counter(err, "stat_stalls_o", out.stat_stalls, stalls_, p_.stat_w);
  if (out.trig_valid != !expected_.empty())
    err << "trig_valid_o = " << out.trig_valid << " but " << expected_.size()
        << " trigger(s) are due; ";

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

  if (in_valid) {
    const bool want_ready = expect_ready(w, out.trig_valid, trig_ready);
    const bool want_full = expect_set_full(w);
    if (out.in_ready != want_ready)
      err << "in_ready_o = " << out.in_ready << ", expected " << want_ready << " for "
          << (tracked(w) ? "tracked" : "untracked") << " write wg " << w.wg_id << " wf "
          << w.wf_id << " addr 0x" << std::hex << w.addr << std::dec << " size " << w.size
          << "; ";
    if (out.set_full != want_full)
      err << "set_full_o = " << out.set_full << ", expected " << want_full << "; ";
    if (!out.in_ready) {
      ++stalls_;
      (want_full ? set_full_stalls_ : output_stalls_)++;
    } else if (!tracked(w)) {
      ++untracked_;
    } else {
      Tile& t = tiles_[key(w)];
      t.got += w.size;
      if (w.addr < t.min_addr) t.min_addr = w.addr;
      ++updates_;
      if (t.got >= threshold_) {
        if (t.has_entry) {
          --entries_;
          --entries_per_set_[set_of(w.wg_id)];
        }
        expected_.push_back({w.wg_id, w.wf_id, t.min_addr});
        ++completed_;
        tiles_.erase(key(w));
      } else if (!t.has_entry) {
        t.has_entry = true;
        ++entries_;
        ++entries_per_set_[set_of(w.wg_id)];
      }
    }
  } else if (out.set_full) {
    err << "set_full_o without a write; ";
  }
  if (err.tellp() == 0) return std::nullopt;
  return err.str();
}

void TrackerScoreboard::reset() {
  tiles_.clear();
  entries_per_set_.clear();
  expected_.clear();
  completed_ = triggers_ = updates_ = untracked_ = stalls_ = entries_ = 0;
  set_full_stalls_ = output_stalls_ = 0;
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
