#include "tracker_scoreboard.h"

#include <sstream>

namespace t3::tb {

TrackerScoreboard::TrackerScoreboard(const TrackerParams& p, uint64_t threshold)
    : p_(p), threshold_(threshold),
      stat_mask_(p.stat_w >= 64 ? ~uint64_t{0} : (uint64_t{1} << p.stat_w) - 1) {}

void TrackerScoreboard::begin_tile(uint32_t wg_id, uint32_t wf_id) {
  tiles_.emplace(key(wg_id, wf_id), Tile{});
}

bool TrackerScoreboard::allocated(uint32_t wg, uint32_t wf) const {
  const auto it = tiles_.find(key(wg, wf));
  return it != tiles_.end() && it->second.got > 0;
}

bool TrackerScoreboard::expect_set_full(const TileWrite& w) const {
  if (!w.tracked || allocated(w.wg_id, w.wf_id) || w.size >= threshold_) return false;
  const auto it = allocated_per_set_.find(set_of(w.wg_id));
  return it != allocated_per_set_.end() && it->second >= p_.ways;
}

bool TrackerScoreboard::expect_ready(const TileWrite& w, bool trig_valid, bool trig_ready) const {
  if (!w.tracked) return true;
  const auto it = tiles_.find(key(w.wg_id, w.wf_id));
  const uint64_t got = it == tiles_.end() ? 0 : it->second.got;
  if (got + w.size >= threshold_) return !trig_valid || trig_ready;
  return !expect_set_full(w);
}

std::optional<std::string> TrackerScoreboard::observe(bool in_valid, const TileWrite& w,
                                                      bool trig_ready,
                                                      const TrackerOutputs& out) {
  std::ostringstream err;
  // Registered outputs first: they show everything accepted before this cycle.
  if (out.live != allocated_)
    err << "live_o = " << out.live << ", expected " << allocated_ << " tiles in flight; ";
  if (out.stat_triggers != (completed_ & stat_mask_))
    err << "stat_triggers_o = " << out.stat_triggers << ", expected " << completed_ << "; ";
  if (out.stat_updates != (updates_ & stat_mask_))
    err << "stat_updates_o = " << out.stat_updates << ", expected " << updates_ << "; ";
  if (out.stat_untracked != (untracked_ & stat_mask_))
    err << "stat_untracked_o = " << out.stat_untracked << ", expected " << untracked_ << "; ";
  if (out.stat_stalls != (stalls_ & stat_mask_))
    err << "stat_stalls_o = " << out.stat_stalls << ", expected " << stalls_ << "; ";
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
          << (w.tracked ? "tracked" : "untracked") << " write wg " << w.wg_id << " wf "
          << w.wf_id << "; ";
    if (out.set_full != want_full)
      err << "set_full_o = " << out.set_full << ", expected " << want_full << "; ";
    if (!out.in_ready) {
      ++stalls_;
      (want_full ? set_full_stalls_ : output_stalls_)++;
    } else if (!w.tracked) {
      ++untracked_;
    } else {
      auto it = tiles_.find(key(w.wg_id, w.wf_id));
      if (it == tiles_.end()) {
        err << "testbench: write for a tile that was not begun; ";
      } else {
        Tile& t = it->second;
        if (t.got == 0 && t.got + w.size < threshold_) {
          ++allocated_;
          ++allocated_per_set_[set_of(w.wg_id)];
        }
        t.got += w.size;
        if (w.addr < t.min_addr) t.min_addr = w.addr;
        ++updates_;
        if (t.got >= threshold_) {
          if (t.got != w.size) {  // it held an entry
            --allocated_;
            --allocated_per_set_[set_of(w.wg_id)];
          }
          expected_.push_back({w.wg_id, w.wf_id, t.min_addr});
          ++completed_;
          tiles_.erase(it);
        }
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
  allocated_per_set_.clear();
  expected_.clear();
  completed_ = triggers_ = updates_ = untracked_ = stalls_ = allocated_ = 0;
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
