// Tracker co-simulation tests: directed cases and constrained-random traffic.
// Every output of the C++ model is compared with the Verilated RTL in every
// cycle (reset cycles included; the binary fails at the end if any cycle
// mismatched), and the transaction-level scoreboard checks the outputs.
// Run on either engine: --engine systemc (default) or --engine direct.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <random>
#include <vector>

#include "apb_access.h"
#include "cosim_config.h"
#include "reg_traffic.h"
#include "t3/tracker_regs.h"
#include "test_cosim.h"
#include "tracker_scoreboard.h"
#include "tracker_stimulus.h"

namespace t3::tb {
namespace {

Cosim<TrackerBlock>& the_cosim() { return shared_cosim<TrackerBlock>(); }
const TrackerParams& params() { return the_cosim().params(); }

uint64_t bits(unsigned w) { return w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1; }

// Cycles from a write's acceptance to its trigger on the output and its
// entry in live_o (the pipeline, docs/blocks/tracker.md).
constexpr unsigned kLat = TrackerScoreboard::kLatency;

// Region and array layout of the directed tests: fp16 elements of a
// column-major output with 256 rows, at a base away from address 0.
constexpr uint64_t kBase = 0x10000;
constexpr uint64_t kRows = 256;
constexpr uint64_t kCols = 256;

TrackerConfig ring_rs_config(uint32_t tile_size, uint32_t upe = 2, uint64_t base = kBase) {
  TrackerConfig cfg;
  cfg.enable = true;
  cfg.base = base;
  cfg.limit = base + kRows * kCols * 2;
  cfg.tile_size = tile_size;
  cfg.updates_per_elem = upe;
  return cfg;
}

// Drives the co-simulation with a scoreboard attached; every cycle checks
// model == RTL and the RTL's outputs (the register port's answers included)
// against the scoreboard. The configuration goes in through the registers,
// as the driver writes it.
class Bench : public ApbAccess<Bench> {
  friend class ApbAccess<Bench>;

 public:
  explicit Bench(const TrackerConfig& cfg) : c_(the_cosim()) { restart(cfg); }

  Cosim<TrackerBlock>& cosim() { return c_; }
  TrackerScoreboard& sb() { return *sb_; }
  ApbMaster& apb() { return apb_; }

  // One cycle presenting w (or nothing); returns whether w was accepted.
  bool step(const TileWrite* w, bool trig_ready) {
    TrackerInputs& in = c_.in();
    present(in, w ? *w : TileWrite{}, w != nullptr);
    in.trig_ready = trig_ready;
    return finish_cycle();
  }

  // The cycle with the data pins as they are: the register port's next
  // phase, the compare, the scoreboard.
  bool finish_cycle() {
    apb_.drive(c_.in().apb, c_.in().rst_n);
    const TrackerInputs in = c_.in();
    EXPECT_TRUE(c_.cycle()) << c_.first_mismatch();
    if (auto err = sb_->observe(in, c_.out()))
      ADD_FAILURE() << "cycle " << c_.cycles() - 1 << ": " << *err;
    if (auto d = apb_.after(in.apb, c_.out().apb)) apb_completed(*d);
    return in.in_valid && c_.out().in_ready;
  }

  // Presents w until accepted (trigger consumer always ready); returns cycles taken.
  unsigned send(const TileWrite& w, unsigned limit = 100) {
    for (unsigned n = 1; n <= limit; ++n)
      if (step(&w, true)) return n;
    ADD_FAILURE() << "write wg " << w.wg_id << " wf " << w.wf_id << " never accepted";
    return limit;
  }

  void idle(unsigned n, bool trig_ready = true) {
    for (unsigned i = 0; i < n; ++i) step(nullptr, trig_ready);
  }

  // A cycle of no data traffic, for a register access (apb_access.h).
  void apb_idle_cycle() { step(nullptr, c_.in().trig_ready); }

  // The pipeline's writes reach the output queue, and the consumer (ready)
  // takes a full queue.
  void expect_drained() {
    idle(kLat + TrackerCore::kTrigQueue);
    const auto err = sb_->check_drained();
    EXPECT_FALSE(err.has_value()) << *err;
  }

  // Reset (whatever is in flight), then the configuration programmed
  // through the registers.
  void restart(const TrackerConfig& cfg, unsigned reset_cycles = 2) {
    const bool trig_ready = c_.in().trig_ready;
    c_.in() = TrackerInputs{};
    c_.in().trig_ready = trig_ready;
    apb_.clear();
    EXPECT_TRUE(c_.reset(reset_cycles)) << c_.first_mismatch();
    sb_ = std::make_unique<TrackerScoreboard>(c_.params());
    reprogram(cfg);
  }
  // The configuration programmed without a reset (refused while tiles are live).
  void reprogram(const TrackerConfig& cfg) {
    // The writes still in the pipeline lock the region and the threshold
    // (busy) until they have reached their entries.
    for (unsigned i = 0; i < kLat; ++i) step(nullptr, c_.in().trig_ready);
    program(apb_, cfg);
    while (!apb_.idle()) step(nullptr, c_.in().trig_ready);
    step(nullptr, c_.in().trig_ready);  // the core takes the registers one cycle later
  }

 private:
  Cosim<TrackerBlock>& c_;
  std::unique_ptr<TrackerScoreboard> sb_;
  ApbMaster apb_;
};

TileWrite write(uint32_t wg, uint32_t wf, uint64_t elem, uint32_t size, uint32_t src = 0,
                uint64_t base = kBase) {
  TileWrite w;
  w.wg_id = wg;
  w.wf_id = wf;
  w.addr = base + elem * 2;
  w.size = size;
  w.src = src;
  return w;
}

// Writes of one tile: `tile` elements at elem0.., each pass one write of
// `chunk` elements at a time; pass 0 local, later passes remote.
std::vector<TileWrite> tile_writes(uint32_t wg, uint32_t wf, uint64_t elem0, uint32_t tile,
                                   uint32_t upe, uint32_t chunk, uint64_t base = kBase) {
  std::vector<TileWrite> ws;
  for (uint32_t pass = 0; pass < upe; ++pass)
    for (uint32_t e = 0; e < tile; e += chunk)
      ws.push_back(write(wg, wf, elem0 + e, std::min(chunk, tile - e), pass == 0 ? 0 : 1, base));
  return ws;
}

TEST(TrackerCosim, RingRsTileCompletesExactlyOnce) {
  const uint32_t tile = 16;
  Bench b(ring_rs_config(tile, 2));
  auto ws = tile_writes(5, 3, 40, tile, 2, 4);
  // Remote update of the lowest element arrives last: the start address must
  // still be the lowest one seen.
  std::swap(ws.front(), ws.back());
  for (size_t i = 0; i < ws.size(); ++i) {
    b.send(ws[i]);
    // out() shows the registers in the cycle the write was accepted: the
    // state after the writes accepted kLat cycles before or earlier (one
    // write a cycle: the first write's entry shows from the kLat-th on).
    EXPECT_EQ(b.cosim().model_out().stat_triggers, 0u);
    EXPECT_EQ(b.cosim().out().live, i >= kLat ? 1u : 0u);
  }
  b.idle(kLat);
  EXPECT_EQ(b.cosim().out().stat_triggers, 1u);
  EXPECT_EQ(b.sb().triggers_seen(), 1u);
  b.idle(20);
  EXPECT_EQ(b.cosim().out().stat_triggers, 1u);
  EXPECT_EQ(b.cosim().out().live, 0u);
  b.expect_drained();
}

TEST(TrackerCosim, ManyWorkgroupsInterleaved) {
  const TrackerParams& p = params();
  const uint32_t tile = 8;
  Bench b(ring_rs_config(tile, 2));
  // As many tiles as the Tracker holds, spread over every set, written
  // round-robin one write per tile at a time.
  std::vector<std::vector<TileWrite>> tiles;
  const uint32_t wgs = std::min<uint32_t>(p.sets * 2, 1u << p.wg_id_w);
  for (uint32_t wg = 0; wg < wgs; ++wg)
    for (uint32_t wf = 0; wf < std::max(p.ways / 2, 1u) && wf < (1u << p.wf_id_w); ++wf)
      tiles.push_back(tile_writes(wg, wf, uint64_t(tiles.size()) * tile, tile, 2, 2));
  for (size_t round = 0; round < tiles[0].size(); ++round)
    for (const auto& t : tiles) b.send(t[round]);
  b.expect_drained();
  EXPECT_EQ(b.sb().triggers_seen(), tiles.size());
}

// Every WF of one WG at once (WF ids are part of the tag): as many as the
// set has ways live together, the others waiting for a way, at every size.
TEST(TrackerCosim, SeveralWavefrontsPerWorkgroup) {
  const TrackerParams& p = params();
  const uint32_t tile = 4;
  Bench b(ring_rs_config(tile, 2));
  const uint32_t wfs = 1u << p.wf_id_w, wg = 3 % (1u << p.wg_id_w);
  std::vector<std::vector<TileWrite>> tiles;
  for (uint32_t wf = 0; wf < wfs; ++wf) tiles.push_back(tile_writes(wg, wf, wf * tile, tile, 2, 2));
  // First writes of every WF: the first `ways` take the set's ways, the
  // rest are refused (set full) until earlier WFs complete.
  std::vector<size_t> next(wfs, 0);
  unsigned refused = 0;
  for (unsigned round = 0; round < 10000; ++round) {
    bool all_done = true;
    // Newest WFs first, so that waiting WFs are offered while the set is
    // full; each for up to three cycles, the third of which the Tracker
    // decides exactly (a write to a full set it cannot decide from flops).
    for (uint32_t wf = wfs; wf-- > 0;) {
      if (next[wf] == tiles[wf].size()) continue;
      all_done = false;
      for (int tries = 0; tries < 3; ++tries) {
        if (b.step(&tiles[wf][next[wf]], true)) {
          ++next[wf];
          break;
        }
        ++refused;
      }
    }
    if (all_done) break;
  }
  b.expect_drained();
  EXPECT_EQ(b.sb().triggers_seen(), wfs);
  if (wfs > p.ways) {
    EXPECT_GT(b.sb().set_full_stalls(), 0u);
  }
  EXPECT_EQ(refused, b.sb().stalls());
}

TEST(TrackerCosim, BackToBackUpdatesToOneEntry) {
  const uint32_t tile = 32;
  Bench b(ring_rs_config(tile, 2));
  // One element per write, one write per cycle: every cycle reads the entry
  // the previous cycle wrote.
  unsigned cycles = 0;
  for (const TileWrite& w : tile_writes(7, 1, 100, tile, 2, 1)) cycles += b.send(w);
  EXPECT_EQ(cycles, 2 * tile) << "a write to a live entry was refused";
  b.expect_drained();
  EXPECT_EQ(b.sb().triggers_seen(), 1u);
}

TEST(TrackerCosim, FullSetBackPressuresThenDrains) {
  const TrackerParams& p = params();
  const uint32_t tile = 4;
  Bench b(ring_rs_config(tile, 2));
  // ways tiles of WGs that share set 0 (WG-id LSBs equal), each half done.
  std::vector<std::vector<TileWrite>> tiles;
  for (uint32_t k = 0; k <= p.ways; ++k) {
    const uint32_t wg = k * p.sets;  // wg_id_w > log2(sets), so these differ in the tag
    tiles.push_back(tile_writes(wg, 0, k * tile, tile, 2, tile));
  }
  for (uint32_t k = 0; k < p.ways; ++k) b.send(tiles[k][0]);
  b.idle(kLat);
  EXPECT_EQ(b.cosim().model_out().live, p.ways);

  // The (ways+1)-th tile waits: refused for as long as it is offered; from
  // its third cycle on the Tracker has looked it up and says why (set_full_o).
  const unsigned stall = 25;
  const uint32_t stalls_before = b.cosim().out().stat_stalls;
  for (unsigned i = 0; i < stall; ++i) {
    EXPECT_FALSE(b.step(&tiles[p.ways][0], true));
    EXPECT_EQ(b.cosim().out().set_full, i >= 2) << "cycle " << i;
  }
  b.idle(2);  // counted at the edge after each refusal
  EXPECT_EQ(b.cosim().out().stat_stalls - stalls_before, stall);
  EXPECT_EQ(b.cosim().out().stat_updates, p.ways);

  // The queue offers the other writes; one tile completes and frees a way,
  // then the waiting write goes in as soon as the Tracker sees the way free
  // (the completing write is in flight for its first cycle), and
  // everything drains.
  b.send(tiles[0][1]);
  EXPECT_LE(b.send(tiles[p.ways][0]), 3u);
  for (uint32_t k = 1; k < p.ways; ++k) b.send(tiles[k][1]);
  b.send(tiles[p.ways][1]);
  b.expect_drained();
  EXPECT_EQ(b.sb().triggers_seen(), p.ways + 1);
  EXPECT_EQ(b.cosim().out().live, 0u);
}

// A set full of one WG's WF tiles (T3 §4.2.1's layout: the set indexed by
// the WG-id LSBs, a way per WF) takes every write to them at once, even
// after the list of recently written tiles has forgotten them: the set's
// owner summary knows them (the main job's full sets, docs/blocks/tracker.md).
TEST(TrackerCosim, FullSetOfOneWgsTilesTakesItsWritesAtOnce) {
  const TrackerParams& p = params();
  const uint32_t tile = 4, wg = 1;
  const uint32_t n = std::min<uint32_t>(p.ways, 1u << std::min(p.wf_id_w, 6u));
  Bench b(ring_rs_config(tile, 1));
  for (uint32_t wf = 0; wf < n; ++wf) EXPECT_EQ(b.send(write(wg, wf, 4 * wf, 1)), 1u) << "wf " << wf;
  // Another tile, written in halves and completed, kKnown times: each half
  // makes it known anew and pushes an older tile out of the list.
  for (uint32_t k = 0; k < TrackerCore::kKnown; ++k) {
    b.send(write(0, 0, 1024, 1));
    b.send(write(0, 0, 1025, 3));
  }
  b.idle(kLat);
  EXPECT_EQ(b.cosim().out().live, n);
  for (uint32_t wf = 0; wf < n; ++wf)
    for (uint32_t e = 1; e < tile; ++e)
      EXPECT_EQ(b.send(write(wg, wf, 4 * wf + e, 1)), 1u) << "wf " << wf << " element " << e;
  b.expect_drained();
  EXPECT_EQ(b.sb().triggers_seen(), n + TrackerCore::kKnown);
}

// The output queue holds TrackerCore::kTrigQueue triggers: with the consumer
// not ready, that many completing writes go in, the next one waits (held, it
// is decided exactly from its third cycle), and goes in once the consumer
// takes one; a write that completes nothing is not held back by a full queue
// once decided.
TEST(TrackerCosim, TriggerBackPressureHoldsTheCompletingWrite) {
  Bench b(ring_rs_config(2, 1));
  const unsigned q = TrackerCore::kTrigQueue;
  for (unsigned k = 0; k < q; ++k) {
    const TileWrite w = write(1 + k, 0, 2 * k, 2);  // each completes its tile alone
    unsigned n = 0;
    while (!b.step(&w, false) && n < 10) ++n;
    EXPECT_LT(n, 10u) << "trigger " << k << " of " << q << " has room";
  }
  b.idle(kLat, false);
  EXPECT_TRUE(b.cosim().out().trig_valid);
  const TileWrite last = write(9, 0, 20, 2);
  for (int i = 0; i < 10; ++i) EXPECT_FALSE(b.step(&last, false)) << "a trigger would be lost";
  const TileWrite half = write(10, 0, 40, 1);  // half a tile: needs no room
  EXPECT_FALSE(b.step(&half, false)) << "not decided yet: the queue may fill";
  EXPECT_FALSE(b.step(&half, false));
  EXPECT_TRUE(b.step(&half, false)) << "decided: it completes nothing";
  EXPECT_LE(b.send(last), 3u);  // the consumer takes one: room
  b.idle(2 * q + kLat, true);
  b.send(write(10, 0, 41, 1));
  b.expect_drained();
  EXPECT_EQ(b.sb().triggers_seen(), q + 2);
}

// The region's edges, at the bottom and at the very top of the address
// space: base and limit - 1 count, limit and base - 1 do not.
TEST(TrackerCosim, RegionEdgesAtBothEndsOfTheAddressSpace) {
  const TrackerParams& p = params();
  const uint64_t addr_max = bits(p.addr_w);
  for (const bool top : {false, true}) {
    TrackerConfig cfg = ring_rs_config(2, 1);
    if (top) {
      cfg.limit = addr_max;  // the highest limit the pins can carry
      cfg.base = cfg.limit - kRows * kCols * 2;
    }
    Bench b(cfg);
    TileWrite at_base = write(9, 1, 0, 1, 0, cfg.base);
    TileWrite at_last = at_base;
    at_last.addr = cfg.limit - 1;
    TileWrite at_limit = at_base, below = at_base;
    at_limit.addr = cfg.limit;
    below.addr = cfg.base - 1;
    EXPECT_TRUE(b.step(&at_limit, true));
    EXPECT_TRUE(b.step(&below, true));
    EXPECT_TRUE(b.step(&at_base, true));
    EXPECT_TRUE(b.step(&at_last, true));  // completes the tile: 2 elements, 1 update each
    b.idle(kLat);
    EXPECT_EQ(b.cosim().out().stat_untracked, 2u);
    EXPECT_EQ(b.cosim().out().stat_updates, 2u);
    EXPECT_EQ(b.sb().triggers_seen(), 1u);
    b.expect_drained();
  }
}

// Each cause of cfg_error_o alone, and the valid configurations right next
// to each cause: an unusable configuration tracks nothing.
TEST(TrackerCosim, EveryConfigurationFaultAndItsNeighbour) {
  const TrackerParams& p = params();
  const uint32_t cnt_max = uint32_t(bits(p.cnt_w));
  struct Case {
    const char* what;
    TrackerConfig cfg;
    bool error;
  };
  std::vector<Case> cases;
  auto add = [&](const char* what, auto edit, bool error) {
    TrackerConfig c = ring_rs_config(2, 1);
    edit(c);
    cases.push_back({what, c, error});
  };
  add("tile_size 0", [](TrackerConfig& c) { c.tile_size = 0; }, true);
  add("updates_per_elem 0", [](TrackerConfig& c) { c.updates_per_elem = 0; }, true);
  add("threshold 2^CNT_W", [&](TrackerConfig& c) {
    c.tile_size = (cnt_max + 1) / 2;
    c.updates_per_elem = 2;
  }, true);
  add("threshold 2^CNT_W - 1", [&](TrackerConfig& c) {
    c.tile_size = cnt_max;
    c.updates_per_elem = 1;
  }, false);
  add("base == limit", [](TrackerConfig& c) { c.limit = c.base; }, true);
  add("base > limit", [](TrackerConfig& c) { c.limit = c.base - 1; }, true);
  add("base == limit - 1", [](TrackerConfig& c) { c.limit = c.base + 1; }, false);
  add("disabled", [](TrackerConfig& c) { c.enable = false; }, false);
  for (const Case& k : cases) {
    SCOPED_TRACE(k.what);
    Bench b(k.cfg);
    EXPECT_EQ(b.sb().config_valid(), !k.error);
    const TileWrite inside = write(3, 0, 0, 1);
    for (int i = 0; i < 3; ++i) EXPECT_TRUE(b.step(&inside, true));
    b.idle(1);
    const uint32_t status = b.read_reg(T3_TRACKER_A_STATUS);
    EXPECT_EQ((status & T3_TRACKER_R_STATUS_CFG_ERROR_MASK) != 0, k.error);
    EXPECT_EQ(b.cosim().out().stat_untracked, k.cfg.enable && !k.error ? 0u : 3u);
    // The interrupt: pending while the fault lasts, on the line once enabled.
    EXPECT_FALSE(b.cosim().out().intr);
    EXPECT_TRUE(b.write_reg(T3_TRACKER_A_INTR_ENABLE, T3_TRACKER_R_INTR_ENABLE_CFG_ERROR_MASK));
    b.idle(1);
    EXPECT_EQ(b.cosim().out().intr, k.error);
    // The same verdict from the driver-side check, which names the field.
    EXPECT_EQ(k.cfg.check(p).has_value(), k.error) << k.cfg.check(p).value_or("");
  }
}

TEST(TrackerCosim, ResetWhileATriggerIsPending) {
  Bench b(ring_rs_config(2, 1));
  b.step(nullptr, false);
  const TileWrite w = write(4, 2, 0, 2);
  EXPECT_TRUE(b.step(&w, false));  // fires; the consumer is not ready
  b.idle(3, false);
  EXPECT_TRUE(b.cosim().out().trig_valid);
  EXPECT_EQ(b.sb().triggers_due(), 1u);
  // Reset with the trigger still waiting: it is gone, and so is everything counted.
  b.restart(ring_rs_config(2, 1));
  b.idle(2, false);
  EXPECT_FALSE(b.cosim().out().trig_valid);
  EXPECT_EQ(b.cosim().out().stat_triggers, 0u);
  EXPECT_EQ(b.cosim().out().stat_updates, 0u);
  // The same tile afterwards triggers once, as on a new Tracker.
  b.send(w);
  b.expect_drained();
  EXPECT_EQ(b.sb().triggers_seen(), 1u);
}

// Writes of size 0 (count nothing; a first one takes an entry), writes that
// pass the threshold (fire once, the excess is not carried), writes wider
// than a column (a tile of whole columns written across the column edge).
TEST(TrackerCosim, WriteSizesZeroOvershootAndWiderThanAColumn) {
  const TrackerParams& p = params();
  {
    Bench b(ring_rs_config(4, 1));
    const TileWrite zero = write(6, 1, 8, 0);
    EXPECT_EQ(b.send(zero), 1u);
    b.idle(kLat);
    EXPECT_EQ(b.cosim().out().live, 1u) << "a size-0 write to a new tile takes an entry";
    EXPECT_EQ(b.send(zero), 1u);
    b.send(write(6, 1, 8, 3));
    b.send(write(6, 1, 11, 0));
    b.idle(1);
    EXPECT_EQ(b.sb().triggers_seen(), 0u) << "3 of 4 updates";
    b.send(write(6, 1, 11, 1));
    b.expect_drained();
    EXPECT_EQ(b.sb().triggers_seen(), 1u);
  }
  {
    Bench b(ring_rs_config(4, 1));
    b.send(write(6, 2, 0, 3));
    b.send(write(6, 2, 3, 5));  // 8 of 4: fires once
    b.idle(kLat);
    EXPECT_EQ(b.sb().triggers_seen(), 1u);
    EXPECT_EQ(b.cosim().out().live, 0u);
    b.send(write(6, 2, 0, 4));  // a new tile of the same key, from zero
    b.expect_drained();
    EXPECT_EQ(b.sb().triggers_seen(), 2u);
  }
  {
    // Tile of 2 whole columns of 4 rows (array height 4): contiguous, so a
    // 6-element write covers column 0 and half of column 1.
    const uint32_t cnt_max = uint32_t(bits(p.cnt_w));
    const uint32_t size = std::min<uint32_t>(6, cnt_max);
    Bench b(ring_rs_config(8, 1));
    b.send(write(2, 0, 4, size));
    b.send(write(2, 0, 4 + size, 8 - size));
    b.expect_drained();
    EXPECT_EQ(b.sb().triggers_seen(), 1u);
  }
}

// The region and the threshold are locked while a tile is live (the
// busy-locked registers answer pslverr and keep their value); CTRL is not.
TEST(TrackerCosim, RegionLockedWhileATileIsLive) {
  Bench b(ring_rs_config(4, 1));
  const TrackerConfig cfg = b.sb().config();
  b.send(write(5, 1, 0, 2));  // half a tile: one entry live
  b.idle(kLat);
  ASSERT_EQ(b.cosim().out().live, 1u);
  EXPECT_FALSE(b.write_reg(T3_TRACKER_A_BASE_LO, 0x40));
  EXPECT_FALSE(b.write_reg(T3_TRACKER_A_LIMIT_HI, 1));
  EXPECT_FALSE(b.write_reg(T3_TRACKER_A_TILE, 8));
  EXPECT_EQ(b.read_reg(T3_TRACKER_A_BASE_LO), uint32_t(cfg.base));
  EXPECT_TRUE(b.write_reg(T3_TRACKER_A_CTRL, T3_TRACKER_R_CTRL_ENABLE_MASK));
  b.send(write(5, 1, 2, 2));  // completes the tile
  b.idle(kLat);
  ASSERT_EQ(b.cosim().out().live, 0u);
  EXPECT_TRUE(b.write_reg(T3_TRACKER_A_BASE_LO, uint32_t(cfg.base)));
  b.expect_drained();
}

// What firmware wrote reads back; the PARAM_* registers describe the build;
// read-only, unmapped and partial accesses are refused and change nothing.
TEST(TrackerCosim, ConfigurationReadsBackAndParametersMatchTheBuild) {
  const TrackerParams& p = params();
  const TrackerConfig cfg = ring_rs_config(16, 2, 0x123456789aull & bits(p.addr_w));
  Bench b(cfg);
  EXPECT_EQ(b.read_reg(T3_TRACKER_A_BASE_LO), uint32_t(cfg.base));
  EXPECT_EQ(b.read_reg(T3_TRACKER_A_BASE_HI), uint32_t(cfg.base >> 32));
  EXPECT_EQ(b.read_reg(T3_TRACKER_A_LIMIT_LO), uint32_t(cfg.limit));
  EXPECT_EQ(b.read_reg(T3_TRACKER_A_TILE), 16u | 2u << T3_TRACKER_R_TILE_UPDATES_PER_ELEM_SHIFT);
  EXPECT_EQ(b.read_reg(T3_TRACKER_A_CTRL), T3_TRACKER_R_CTRL_ENABLE_MASK);
  const uint32_t geometry = b.read_reg(T3_TRACKER_A_PARAM_GEOMETRY);
  EXPECT_EQ(1u << ((geometry & T3_TRACKER_R_PARAM_GEOMETRY_SETS_LOG2_MASK) >>
                   T3_TRACKER_R_PARAM_GEOMETRY_SETS_LOG2_SHIFT), p.sets);
  EXPECT_EQ((geometry & T3_TRACKER_R_PARAM_GEOMETRY_WAYS_MASK) >>
                T3_TRACKER_R_PARAM_GEOMETRY_WAYS_SHIFT, p.ways);
  EXPECT_EQ((b.read_reg(T3_TRACKER_A_PARAM_WIDTHS) & T3_TRACKER_R_PARAM_WIDTHS_ADDR_W_MASK) >>
                T3_TRACKER_R_PARAM_WIDTHS_ADDR_W_SHIFT, p.addr_w);
  EXPECT_FALSE(b.write_reg(T3_TRACKER_A_STAT_UPDATES, 5));          // read-only
  EXPECT_TRUE(b.access({false, 0xFFC, 0, 0}).err);               // no register there
  EXPECT_TRUE(b.access({true, T3_TRACKER_A_BASE_LO, 7, 0x3}).err);  // partial write
  EXPECT_TRUE(b.access({false, T3_TRACKER_A_BASE_LO + 1, 0, 0}).err);  // unaligned
  EXPECT_EQ(b.read_reg(T3_TRACKER_A_BASE_LO), uint32_t(cfg.base));
}

// Interrupts: INTR_TEST sets a pending bit two edges after its write; the
// line follows INTR_ENABLE; a W1C write clears, but CFG_ERROR comes back in
// every cycle the fault lasts; SET_FULL is set by a write that waits for a way.
TEST(TrackerCosim, InterruptsSetClearAndTest) {
  const TrackerParams& p = params();
  Bench b(ring_rs_config(4, 1));
  EXPECT_TRUE(b.write_reg(T3_TRACKER_A_INTR_TEST, T3_TRACKER_R_INTR_TEST_SET_FULL_MASK));
  b.idle(1);
  EXPECT_EQ(b.read_reg(T3_TRACKER_A_INTR_STATE), T3_TRACKER_R_INTR_STATE_SET_FULL_MASK);
  EXPECT_FALSE(b.cosim().out().intr);
  EXPECT_TRUE(b.write_reg(T3_TRACKER_A_INTR_ENABLE, T3_TRACKER_R_INTR_ENABLE_SET_FULL_MASK |
                                                    T3_TRACKER_R_INTR_ENABLE_CFG_ERROR_MASK));
  EXPECT_FALSE(b.cosim().out().intr) << "the enable takes effect at the write's edge";
  b.idle(1);
  EXPECT_TRUE(b.cosim().out().intr);
  EXPECT_TRUE(b.write_reg(T3_TRACKER_A_INTR_STATE, T3_TRACKER_R_INTR_STATE_SET_FULL_MASK));
  b.idle(1);
  EXPECT_FALSE(b.cosim().out().intr);

  // An unusable threshold: the fault's interrupt, again after a clear.
  EXPECT_TRUE(b.write_reg(T3_TRACKER_A_TILE, 0));
  b.idle(3);  // the register, the core's copy of it, the interrupt state
  EXPECT_TRUE(b.cosim().out().intr);
  EXPECT_TRUE(b.write_reg(T3_TRACKER_A_INTR_STATE, T3_TRACKER_R_INTR_STATE_CFG_ERROR_MASK));
  b.idle(1);
  EXPECT_TRUE(b.cosim().out().intr) << "the fault still holds: set again";
  EXPECT_TRUE(b.write_reg(T3_TRACKER_A_TILE, 4 | 1u << T3_TRACKER_R_TILE_UPDATES_PER_ELEM_SHIFT));
  EXPECT_TRUE(b.write_reg(T3_TRACKER_A_INTR_STATE, T3_TRACKER_R_INTR_STATE_CFG_ERROR_MASK));
  b.idle(1);
  EXPECT_FALSE(b.cosim().out().intr);

  // A full set: ways tiles of one set live, one more waits.
  for (uint32_t k = 0; k < p.ways; ++k) b.send(write(k * p.sets, 0, k * 4, 1));
  const TileWrite waits = write(p.ways * p.sets, 0, p.ways * 4, 1);
  for (int i = 0; i < 3; ++i) EXPECT_FALSE(b.step(&waits, true));  // known full from the third
  b.idle(1);
  EXPECT_TRUE(b.cosim().out().intr);
  EXPECT_EQ(b.read_reg(T3_TRACKER_A_INTR_STATE), T3_TRACKER_R_INTR_STATE_SET_FULL_MASK);
}

// Constrained-random traffic (tracker_stimulus.h) phase after phase, each
// with a new random shape, region and WG mix, programmed through the
// registers either after a reset in the middle of traffic or, without one,
// once the last phase's tiles have drained (the region is locked while a
// tile is live); some phases get an unusable configuration. Random register
// traffic runs throughout (reg_traffic.h): reads, refused writes, interrupt
// enables, clears and tests, the configuration rewritten while locked.
struct RandomResult {
  uint64_t cycles = 0, triggers = 0, set_full_stalls = 0, output_stalls = 0, resets = 0;
  uint64_t reprograms = 0, bad_phases = 0;
  RegAccessCounts regs;
  std::vector<bool> sets_used;
  uint64_t addr_ones = 0, addr_zeros = 0;  // bits seen 1 / 0 in tracked writes
  uint32_t tag_ones = 0, tag_zeros = 0;    // likewise for the WG-id bits above the set index
  uint64_t at_base = 0, at_last = 0, at_limit = 0;
};

TrackerConfig break_config(TrackerConfig c, const TrackerParams& p, std::mt19937_64& rng) {
  switch (rng() % 6) {
    case 0: c.tile_size = 0; break;
    case 1: c.updates_per_elem = 0; break;
    case 2:
      c.tile_size = uint32_t(bits(p.cnt_w));
      c.updates_per_elem = 2;
      break;
    case 3: c.limit = c.base; break;
    case 4: std::swap(c.base, c.limit); break;
    default: c.enable = false; break;
  }
  return c;
}

RandomResult run_random(uint64_t cycles, uint64_t seed, unsigned phases) {
  const TrackerParams p = params();
  std::mt19937_64 rng(seed);
  RandomResult r;
  r.sets_used.assign(p.sets, false);
  TrackerTraffic t = TrackerTraffic::random(p, rng);
  Bench b(t.config());
  const uint64_t first_cycle = b.cosim().cycles();
  auto stim = std::make_unique<TrackerStimulus>(p, t, rng());
  auto regs = std::make_unique<RegTraffic<TrackerRegMap>>(rng(), 0.05);
  auto run_cycle = [&] {
    TrackerInputs& in = b.cosim().in();
    stim->drive(in);
    regs->maybe_queue(b.apb(), b.sb().regs());
    const TileWrite w = stim->presented();
    const bool tracked = in.in_valid && b.sb().tracked(w);
    const TrackerConfig cfg = b.sb().config();
    const bool accepted = b.finish_cycle();
    stim->after(in, b.cosim().out());
    if (accepted && tracked) {
      r.sets_used[w.wg_id % p.sets] = true;
      r.addr_ones |= w.addr;
      r.addr_zeros |= ~w.addr;
      r.tag_ones |= w.wg_id;
      r.tag_zeros |= ~w.wg_id;
      r.at_base += w.addr == cfg.base;
      r.at_last += w.addr == cfg.limit - 1;
    }
    r.at_limit += accepted && !tracked && w.addr == cfg.limit;
  };
  // What a scoreboard counted, before a reset replaces it.
  auto tally = [&] {
    r.triggers += b.sb().triggers_seen();
    r.set_full_stalls += b.sb().set_full_stalls();
    r.output_stalls += b.sb().output_stalls();
    r.regs += b.sb().regs().counts();
  };
  const uint64_t phase_len = cycles / phases + 1;
  for (uint64_t i = 0; i < cycles && !testing::Test::HasFailure(); ++i) {
    run_cycle();
    if ((i + 1) % phase_len == 0) {
      // The next phase has a new shape.
      t = TrackerTraffic::random(p, rng);
      TrackerConfig cfg = t.config();
      if (rng() % 6 == 0) {
        cfg = break_config(cfg, p, rng);
        ++r.bad_phases;
      }
      if (rng() % 2) {
        // Reset in the middle of traffic.
        tally();
        ++r.resets;
        b.restart(cfg, 1 + unsigned(rng() % 3));
      } else {
        // Drain, then program the new region and threshold.
        stim->stop_new_tiles();
        for (unsigned k = 0; k < 200000 && !stim->idle() && !testing::Test::HasFailure(); ++k)
          run_cycle();
        ++r.reprograms;
        b.reprogram(cfg);
      }
      stim = std::make_unique<TrackerStimulus>(p, t, rng());
    }
  }
  // Drain: no new tiles, consumer eventually ready.
  stim->stop_new_tiles();
  for (unsigned i = 0; i < 200000 && !stim->idle() && !testing::Test::HasFailure(); ++i)
    run_cycle();
  EXPECT_TRUE(stim->idle()) << "traffic did not drain: deadlock";
  b.expect_drained();
  tally();
  r.cycles = b.cosim().cycles() - first_cycle;
  return r;
}

TEST(TrackerCosim, ResetInTheMiddleOfTraffic) {
  std::mt19937_64 rng(test_options().seed + 1);
  const TrackerParams& p = params();
  TrackerTraffic t;  // tiles of 4 x 2 elements, 2 updates each: entries stay live a while
  t.p_hot = 0.9;
  Bench b(t.config());
  TrackerStimulus stim(p, t, rng());
  for (int i = 0; i < 3000; ++i) {
    stim.drive(b.cosim().in());
    b.finish_cycle();
    stim.after(b.cosim().in(), b.cosim().out());
  }
  ASSERT_GT(b.cosim().out().live, 0u) << "reset should hit live entries";
  b.restart(t.config(), 3);
  b.idle(1);
  const TrackerOutputs& o = b.cosim().out();
  EXPECT_EQ(o.live, 0u);
  EXPECT_FALSE(o.trig_valid);
  EXPECT_EQ(o.stat_updates, 0u);
  EXPECT_EQ(o.stat_triggers, 0u);
  EXPECT_EQ(o.stat_stalls, 0u);
  EXPECT_EQ(o.stat_untracked, 0u);
  // A fresh tile after reset behaves as on a new Tracker.
  TrackerConfig cfg = ring_rs_config(8, 2);
  b.restart(cfg);
  for (const TileWrite& w : tile_writes(0, 0, 0, 8, 2, 4)) b.send(w);
  b.expect_drained();
  EXPECT_EQ(b.sb().triggers_seen(), 1u);
}

TEST(TrackerCosim, RandomReadyOnTheTriggerOutput) {
  const TrackerParams& p = params();
  std::mt19937_64 rng(test_options().seed + 2);
  TrackerTraffic t;  // small tiles: many triggers
  t.tile_cols = 1;
  t.updates_per_elem = 1;
  t.p_trig_ready = 0.1;
  t.p_trig_burst = 0.01;
  Bench b(t.config());
  TrackerStimulus stim(p, t, rng());
  for (int i = 0; i < 20000 && !HasFailure(); ++i) {
    stim.drive(b.cosim().in());
    b.finish_cycle();
    stim.after(b.cosim().in(), b.cosim().out());
  }
  EXPECT_GT(b.sb().output_stalls(), 100u);
  EXPECT_GT(b.sb().triggers_seen(), 100u);
}

TEST(TrackerCosim, ConstrainedRandom) {
  const RunOptions& opt = test_options();
  const TrackerParams& p = params();
  const uint64_t cycles = opt.cycles ? opt.cycles : T3_RANDOM_CYCLES;
  const unsigned phases = unsigned(std::max<uint64_t>(1, std::min<uint64_t>(40, cycles / 20000)));
  const RandomResult r = run_random(cycles, opt.seed, phases);
  unsigned sets = 0;
  for (bool s : r.sets_used) sets += s;
  std::printf("random: %llu cycles, %llu resets, %llu reprogrammed (%llu unusable "
              "configurations), %llu triggers, "
              "%llu set-full stalls, %llu output stalls, %u of %u sets, writes at base %llu, "
              "at limit-1 %llu, at limit %llu, %llu model/RTL mismatches\n",
              static_cast<unsigned long long>(r.cycles), static_cast<unsigned long long>(r.resets),
              static_cast<unsigned long long>(r.reprograms),
              static_cast<unsigned long long>(r.bad_phases),
              static_cast<unsigned long long>(r.triggers),
              static_cast<unsigned long long>(r.set_full_stalls),
              static_cast<unsigned long long>(r.output_stalls), sets, p.sets,
              static_cast<unsigned long long>(r.at_base),
              static_cast<unsigned long long>(r.at_last),
              static_cast<unsigned long long>(r.at_limit),
              static_cast<unsigned long long>(the_cosim().mismatches()));
  std::printf("registers: %llu reads, %llu writes; refused: %llu address, %llu strobe, %llu "
              "read-only, %llu busy; %llu cycles with the interrupt up\n",
              static_cast<unsigned long long>(r.regs.reads),
              static_cast<unsigned long long>(r.regs.writes),
              static_cast<unsigned long long>(r.regs.address_errors),
              static_cast<unsigned long long>(r.regs.strobe_errors),
              static_cast<unsigned long long>(r.regs.read_only_errors),
              static_cast<unsigned long long>(r.regs.busy_errors),
              static_cast<unsigned long long>(r.regs.intr_cycles));
  EXPECT_EQ(the_cosim().failures(), 0u) << the_cosim().first_failure();
  EXPECT_GE(r.cycles, cycles);
  if (cycles < 1000000) return;  // the coverage below needs the full run
  // Coverage: completion, both back-pressures, unusable configurations,
  // every set, every tag bit and every address bit both ways, the edges.
  EXPECT_GT(r.triggers, cycles / 200);
  EXPECT_GT(r.set_full_stalls, 0u);
  EXPECT_GT(r.output_stalls, 0u);
  EXPECT_GT(r.bad_phases, 0u);
  EXPECT_GT(r.resets, 0u);
  EXPECT_GT(r.reprograms, 0u);
  EXPECT_GT(r.regs.reads, 1000u);
  EXPECT_GT(r.regs.address_errors, 0u);
  EXPECT_GT(r.regs.strobe_errors, 0u);
  EXPECT_GT(r.regs.read_only_errors, 0u);
  EXPECT_GT(r.regs.busy_errors, 0u);
  EXPECT_GT(r.regs.intr_cycles, 0u);
  EXPECT_EQ(sets, p.sets);
  const uint64_t addr_mask = bits(p.addr_w);
  EXPECT_EQ(r.addr_ones & addr_mask, addr_mask) << std::hex << (r.addr_ones & addr_mask);
  EXPECT_EQ(r.addr_zeros & addr_mask, addr_mask) << std::hex << (r.addr_zeros & addr_mask);
  const uint32_t tag_mask = uint32_t(bits(p.wg_id_w)) & ~uint32_t(p.sets - 1);
  EXPECT_EQ(r.tag_ones & tag_mask, tag_mask);
  EXPECT_EQ(r.tag_zeros & tag_mask, tag_mask);
  EXPECT_GT(r.at_base, 0u);
  EXPECT_GT(r.at_last, 0u);
  EXPECT_GT(r.at_limit, 0u);
}

}  // namespace
}  // namespace t3::tb
