// Tracker co-simulation tests: directed cases and constrained-random traffic,
// every output of the C++/SystemC model compared with the Verilated RTL in
// every cycle, and the transaction-level scoreboard checking both.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>

#include "sc_test_env.h"
#include "tracker_cosim.h"
#include "tracker_scoreboard.h"
#include "tracker_stimulus.h"

namespace t3::tb {
namespace {

TrackerCosim& shared_cosim() {
  static TrackerCosim c(test_options());
  return c;
}

// Region and array layout shared by the tests: fp16 elements of a
// column-major output with 256 rows, at a base away from address 0.
constexpr uint64_t kBase = 0x10000;
constexpr uint64_t kRows = 256;
constexpr uint64_t kCols = 256;

TrackerConfig ring_rs_config(uint32_t tile_size, uint32_t upe = 2) {
  TrackerConfig cfg;
  cfg.enable = true;
  cfg.base = kBase;
  cfg.limit = kBase + kRows * kCols * 2;
  cfg.tile_size = tile_size;
  cfg.updates_per_elem = upe;
  return cfg;
}

// Drives the co-simulation with a scoreboard attached; every cycle checks
// model == RTL and both against the scoreboard.
class Bench {
 public:
  explicit Bench(const TrackerConfig& cfg)
      : c_(shared_cosim()), sb_(std::make_unique<TrackerScoreboard>(
                         c_.params(), uint64_t(cfg.tile_size) * cfg.updates_per_elem)) {
    c_.in() = TrackerInputs{};
    c_.in().cfg = cfg;
    c_.reset();
  }

  TrackerCosim& cosim() { return c_; }
  TrackerScoreboard& sb() { return *sb_; }

  // One cycle presenting w (or nothing); returns whether w was accepted.
  bool step(const TileWrite* w, bool trig_ready) {
    TrackerInputs& in = c_.in();
    present(in, w ? *w : TileWrite{}, w != nullptr);
    in.trig_ready = trig_ready;
    return finish_cycle(w ? *w : TileWrite{});
  }

  bool finish_cycle(const TileWrite& w) {
    const TrackerInputs in = c_.in();
    const bool same = c_.cycle();
    EXPECT_TRUE(same) << c_.first_mismatch();
    if (auto err = sb_->observe(in.in_valid, w, in.trig_ready, c_.out()))
      ADD_FAILURE() << "cycle " << c_.cycles() - 1 << ": " << *err;
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

  void expect_drained() {
    idle(4);
    const auto err = sb_->check_drained();
    EXPECT_FALSE(err.has_value()) << *err;
  }

  void restart(const TrackerConfig& cfg) {
    c_.in().cfg = cfg;
    c_.reset();
    sb_ = std::make_unique<TrackerScoreboard>(c_.params(),
                                              uint64_t(cfg.tile_size) * cfg.updates_per_elem);
  }

 private:
  TrackerCosim& c_;
  std::unique_ptr<TrackerScoreboard> sb_;
};

TileWrite write(uint32_t wg, uint32_t wf, uint64_t elem, uint32_t size, uint32_t src = 0) {
  TileWrite w;
  w.wg_id = wg;
  w.wf_id = wf;
  w.addr = kBase + elem * 2;
  w.size = size;
  w.src = src;
  return w;
}

// Writes of one tile: `tile` elements at elem0.., each pass one write of
// `chunk` elements at a time; pass 0 local, later passes remote.
std::vector<TileWrite> tile_writes(uint32_t wg, uint32_t wf, uint64_t elem0, uint32_t tile,
                                   uint32_t upe, uint32_t chunk) {
  std::vector<TileWrite> ws;
  for (uint32_t pass = 0; pass < upe; ++pass)
    for (uint32_t e = 0; e < tile; e += chunk)
      ws.push_back(write(wg, wf, elem0 + e, std::min(chunk, tile - e), pass == 0 ? 0 : 1));
  return ws;
}

TEST(TrackerCosim, RingRsTileCompletesExactlyOnce) {
  const uint32_t tile = 16;
  Bench b(ring_rs_config(tile, 2));
  b.sb().begin_tile(5, 3);
  auto ws = tile_writes(5, 3, 40, tile, 2, 4);
  // Remote update of the lowest element arrives last: the start address must
  // still be the lowest one seen.
  std::swap(ws.front(), ws.back());
  for (size_t i = 0; i < ws.size(); ++i) {
    b.send(ws[i]);
    // out() shows the registers in the cycle the write was accepted: the
    // state after the previous write.
    EXPECT_EQ(b.cosim().model_out().stat_triggers, 0u);
    EXPECT_EQ(b.cosim().out().live, i > 0 ? 1u : 0u);
  }
  b.idle(1);
  EXPECT_EQ(b.cosim().out().stat_triggers, 1u);
  EXPECT_EQ(b.sb().triggers_seen(), 1u);
  b.idle(20);
  EXPECT_EQ(b.cosim().out().stat_triggers, 1u);
  EXPECT_EQ(b.cosim().out().live, 0u);
  b.expect_drained();
}

TEST(TrackerCosim, ManyWorkgroupsInterleaved) {
  const auto& p = shared_cosim().params();
  const uint32_t tile = 8;
  Bench b(ring_rs_config(tile, 2));
  // As many tiles as the Tracker holds, spread over every set, written
  // round-robin one write per tile at a time.
  std::vector<std::vector<TileWrite>> tiles;
  const uint32_t wgs = std::min<uint32_t>(p.sets * 2, 1u << p.wg_id_w);
  for (uint32_t wg = 0; wg < wgs; ++wg)
    for (uint32_t wf = 0; wf < p.ways / 2 && wf < (1u << p.wf_id_w); ++wf) {
      b.sb().begin_tile(wg, wf);
      tiles.push_back(tile_writes(wg, wf, uint64_t(tiles.size()) * tile, tile, 2, 2));
    }
  for (size_t round = 0; round < tiles[0].size(); ++round)
    for (const auto& t : tiles) b.send(t[round]);
  b.expect_drained();
  EXPECT_EQ(b.sb().triggers_seen(), tiles.size());
}

TEST(TrackerCosim, BackToBackUpdatesToOneEntry) {
  const uint32_t tile = 32;
  Bench b(ring_rs_config(tile, 2));
  b.sb().begin_tile(7, 1);
  // One element per write, one write per cycle: every cycle reads the entry
  // the previous cycle wrote.
  unsigned cycles = 0;
  for (const TileWrite& w : tile_writes(7, 1, 100, tile, 2, 1)) cycles += b.send(w);
  EXPECT_EQ(cycles, 2 * tile) << "a write to a live entry was refused";
  b.expect_drained();
  EXPECT_EQ(b.sb().triggers_seen(), 1u);
}

TEST(TrackerCosim, FullSetBackPressuresThenDrains) {
  const auto& p = shared_cosim().params();
  const uint32_t tile = 4;
  Bench b(ring_rs_config(tile, 2));
  // ways tiles of WGs that share set 0 (WG-id LSBs equal), each half done.
  std::vector<std::vector<TileWrite>> tiles;
  for (uint32_t k = 0; k <= p.ways; ++k) {
    const uint32_t wg = k * p.sets;  // wg_id_w > log2(sets), so these differ in the tag
    b.sb().begin_tile(wg, 0);
    tiles.push_back(tile_writes(wg, 0, k * tile, tile, 2, tile));
  }
  for (uint32_t k = 0; k < p.ways; ++k) b.send(tiles[k][0]);
  b.idle(1);
  EXPECT_EQ(b.cosim().model_out().live, p.ways);

  // The (ways+1)-th tile waits: refused, visibly, for as long as it is offered.
  const unsigned stall = 25;
  const uint32_t stalls_before = b.cosim().out().stat_stalls;
  for (unsigned i = 0; i < stall; ++i) {
    EXPECT_FALSE(b.step(&tiles[p.ways][0], true));
    EXPECT_TRUE(b.cosim().out().set_full);
  }
  b.idle(1);
  EXPECT_EQ(b.cosim().out().stat_stalls - stalls_before, stall);
  EXPECT_EQ(b.cosim().out().stat_updates, p.ways);

  // The queue offers the other writes; one tile completes and frees a way,
  // then the waiting write goes in, and everything drains.
  b.send(tiles[0][1]);
  EXPECT_EQ(b.send(tiles[p.ways][0]), 1u);
  for (uint32_t k = 1; k < p.ways; ++k) b.send(tiles[k][1]);
  b.send(tiles[p.ways][1]);
  b.expect_drained();
  EXPECT_EQ(b.sb().triggers_seen(), p.ways + 1);
  EXPECT_EQ(b.cosim().out().live, 0u);
}

TEST(TrackerCosim, TriggerBackPressureHoldsTheCompletingWrite) {
  const uint32_t tile = 2;
  Bench b(ring_rs_config(tile, 1));
  b.sb().begin_tile(1, 0);
  b.sb().begin_tile(2, 0);
  b.send(write(1, 0, 0, 2));  // fires; the trigger waits in the output register
  EXPECT_TRUE(b.cosim().model_out().in_ready);
  const TileWrite w2 = write(2, 0, 8, 2);
  for (int i = 0; i < 10; ++i) EXPECT_FALSE(b.step(&w2, false)) << "second trigger would be lost";
  EXPECT_TRUE(b.step(&w2, true));  // consumer takes the first, the second replaces it
  b.expect_drained();
  EXPECT_EQ(b.sb().triggers_seen(), 2u);
}

TEST(TrackerCosim, UntrackedWritesPassAndAreCounted) {
  const uint32_t tile = 4;
  TrackerConfig cfg = ring_rs_config(tile, 2);
  Bench b(cfg);
  TileWrite below = write(3, 0, 0, 4);
  below.addr = kBase - 2;
  below.tracked = false;
  TileWrite above = write(3, 0, 0, 4);
  above.addr = cfg.limit;
  above.tracked = false;
  for (int i = 0; i < 5; ++i) {
    EXPECT_TRUE(b.step(&below, false));
    EXPECT_TRUE(b.step(&above, false));
  }
  b.idle(1);
  EXPECT_EQ(b.cosim().out().stat_untracked, 10u);
  EXPECT_EQ(b.cosim().out().live, 0u);
  EXPECT_EQ(b.cosim().out().stat_triggers, 0u);

  // Disabled, or enabled with an unusable configuration: nothing is tracked.
  TrackerConfig off = cfg;
  off.enable = false;
  TrackerConfig bad = cfg;
  bad.updates_per_elem = 0;
  for (const TrackerConfig& c : {off, bad}) {
    b.restart(c);
    TileWrite inside = write(3, 0, 0, 4);
    inside.tracked = false;
    for (int i = 0; i < 3; ++i) EXPECT_TRUE(b.step(&inside, true));
    b.idle(1);
    EXPECT_EQ(b.cosim().out().cfg_error, c.enable);
    EXPECT_EQ(b.cosim().out().stat_untracked, 3u);
    EXPECT_EQ(b.cosim().out().live, 0u);
  }
}

// Constrained-random traffic; returns the scoreboard's view for coverage checks.
struct RandomResult {
  uint64_t cycles = 0, triggers = 0, set_full_stalls = 0, output_stalls = 0, resets = 0;
};

TrackerTraffic default_traffic(const TrackerParams& p) {
  TrackerTraffic t;
  t.cfg = ring_rs_config(8, 2);
  t.tile_rows = 4;
  t.m_rows = kRows;
  // Two sets for the big Tracker, all sets for the small one: enough tiles
  // per set to fill it now and then.
  t.wg_stride = p.sets >= 16 ? p.sets / 2 : 1;
  t.wg_count = std::min<uint32_t>(p.sets >= 16 ? 8 : 4 * p.sets,
                                  (1u << p.wg_id_w) / std::max<uint32_t>(t.wg_stride, 1));
  t.pending_target = p.ways * 16;
  return t;
}

RandomResult run_random(uint64_t cycles, uint64_t seed, double p_reset) {
  const TrackerParams p = shared_cosim().params();
  std::mt19937_64 rng(seed);
  TrackerTraffic t = default_traffic(p);
  Bench b(t.cfg);
  const uint64_t first_cycle = b.cosim().cycles();
  auto stim = std::make_unique<TrackerStimulus>(p, t, rng());
  RandomResult r;
  const uint64_t cnt_max = (uint64_t{1} << p.cnt_w) - 1;
  auto run_cycle = [&] {
    TrackerInputs& in = b.cosim().in();
    stim->drive(in, b.sb());
    const TileWrite w = stim->presented();
    b.finish_cycle(w);
    stim->after_cycle(in, b.cosim().out());
  };
  for (uint64_t i = 0; i < cycles && !testing::Test::HasFailure(); ++i) {
    run_cycle();
    if (std::uniform_real_distribution<double>(0, 1)(rng) < p_reset) {
      // Reset in the middle of traffic; the next phase may use another tile shape.
      r.triggers += b.sb().triggers_seen();
      r.set_full_stalls += b.sb().set_full_stalls();
      r.output_stalls += b.sb().output_stalls();
      ++r.resets;
      do {
        t.tile_rows = 1u << (rng() % 4);
        t.cfg.tile_size = t.tile_rows * (1u << (rng() % 3));
        t.cfg.updates_per_elem = 1 + uint32_t(rng() % 4);
      } while (uint64_t(t.cfg.tile_size) * t.cfg.updates_per_elem > cnt_max);
      t.max_write = 1 + uint32_t(rng() % 8);
      t.p_trig_ready = 0.2 + 0.8 * std::uniform_real_distribution<double>(0, 1)(rng);
      b.restart(t.cfg);
      stim = std::make_unique<TrackerStimulus>(p, t, rng());
    }
  }
  // Drain: no new tiles, consumer eventually ready.
  stim->stop_new_tiles();
  for (unsigned i = 0; i < 100000 && !stim->idle() && !testing::Test::HasFailure(); ++i)
    run_cycle();
  EXPECT_TRUE(stim->idle()) << "traffic did not drain: deadlock";
  b.expect_drained();
  r.triggers += b.sb().triggers_seen();
  r.set_full_stalls += b.sb().set_full_stalls();
  r.output_stalls += b.sb().output_stalls();
  r.cycles = b.cosim().cycles() - first_cycle;
  return r;
}

TEST(TrackerCosim, ResetInTheMiddleOfTraffic) {
  const uint64_t seed = test_options().seed + 1;
  std::mt19937_64 rng(seed);
  const TrackerParams p = shared_cosim().params();
  TrackerTraffic t = default_traffic(p);
  Bench b(t.cfg);
  TrackerStimulus stim(p, t, rng());
  for (int i = 0; i < 3000; ++i) {
    stim.drive(b.cosim().in(), b.sb());
    b.finish_cycle(stim.presented());
    stim.after_cycle(b.cosim().in(), b.cosim().out());
  }
  ASSERT_GT(b.cosim().out().live, 0u) << "reset should hit live entries";
  b.cosim().reset(3);
  b.cosim().in().in_valid = false;
  b.cosim().cycle();
  const TrackerOutputs& o = b.cosim().out();
  EXPECT_EQ(o.live, 0u);
  EXPECT_FALSE(o.trig_valid);
  EXPECT_EQ(o.stat_updates, 0u);
  EXPECT_EQ(o.stat_triggers, 0u);
  EXPECT_EQ(o.stat_stalls, 0u);
  EXPECT_EQ(o.stat_untracked, 0u);
  // A fresh tile after reset behaves as on a new Tracker, even with a key that was live.
  b.restart(t.cfg);
  b.sb().begin_tile(t.wg_first, 0);
  for (const TileWrite& w : tile_writes(t.wg_first, 0, 0, 8, 2, 4)) b.send(w);
  b.expect_drained();
  EXPECT_EQ(b.sb().triggers_seen(), 1u);
}

TEST(TrackerCosim, RandomReadyOnTheTriggerOutput) {
  const TrackerParams p = shared_cosim().params();
  TrackerTraffic t = default_traffic(p);
  t.p_trig_ready = 0.1;
  t.p_trig_burst = 0.01;
  Bench b(t.cfg);
  TrackerStimulus stim(p, t, test_options().seed + 2);
  for (int i = 0; i < 20000 && !HasFailure(); ++i) {
    stim.drive(b.cosim().in(), b.sb());
    b.finish_cycle(stim.presented());
    stim.after_cycle(b.cosim().in(), b.cosim().out());
  }
  EXPECT_GT(b.sb().output_stalls(), 100u);
  EXPECT_GT(b.sb().triggers_seen(), 100u);
}

TEST(TrackerCosim, ConstrainedRandom) {
  const RunOptions& opt = test_options();
  const uint64_t cycles = opt.cycles ? opt.cycles : T3_RANDOM_CYCLES;
  const RandomResult r = run_random(cycles, opt.seed, 20.0 / double(cycles));
  std::printf("random: %llu cycles, %llu resets, %llu triggers, %llu set-full stalls, "
              "%llu output stalls, %llu model/RTL mismatches\n",
              static_cast<unsigned long long>(r.cycles),
              static_cast<unsigned long long>(r.resets),
              static_cast<unsigned long long>(r.triggers),
              static_cast<unsigned long long>(r.set_full_stalls),
              static_cast<unsigned long long>(r.output_stalls),
              static_cast<unsigned long long>(shared_cosim().mismatches()));
  EXPECT_GE(r.cycles, cycles);
  // Coverage: the run must have exercised completion and both back-pressures.
  EXPECT_GT(r.triggers, cycles / 200);
  EXPECT_GT(r.set_full_stalls, 0u);
  EXPECT_GT(r.output_stalls, 0u);
}

}  // namespace
}  // namespace t3::tb
