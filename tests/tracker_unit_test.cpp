// Unit tests of the Tracker core cycle model's corner cases (no SystemC, no RTL).
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>

#include "tracker/tracker_core.h"

namespace t3 {
namespace {

TrackerParams small_params() {
  TrackerParams p;
  p.sets = 4;
  p.ways = 2;
  p.wg_id_w = 6;
  p.cnt_w = 8;
  return p;
}

TrackerConfig config(uint32_t tile, uint32_t upe) {
  TrackerConfig c;
  c.enable = true;
  c.base = 0x1000;
  c.limit = 0x2000;
  c.tile_size = tile;
  c.updates_per_elem = upe;
  return c;
}

// A Tracker with its inputs, stepped one clock at a time.
struct Harness {
  explicit Harness(const TrackerParams& p, const TrackerConfig& cfg) : t(p) {
    in.cfg = cfg;
    in.rst_n = false;
    t.clock(in);
    in.rst_n = true;
    in.trig_ready = true;
    t.clock(in);  // the core takes its configuration at an edge after reset
  }
  // Presents a write for one cycle; returns the outputs seen in that cycle.
  TrackerCoreOutputs write(uint32_t wg, uint32_t wf, uint64_t addr, uint32_t size) {
    in.in_valid = true;
    in.in_wg_id = wg;
    in.in_wf_id = wf;
    in.in_addr = addr;
    in.in_size = size;
    const TrackerCoreOutputs o = t.eval(in);
    t.clock(in);
    in.in_valid = false;
    return o;
  }
  TrackerCoreOutputs idle() {
    in.in_valid = false;
    const TrackerCoreOutputs o = t.eval(in);
    t.clock(in);
    return o;
  }
  // Presents a write until it is accepted (at most `limit` cycles); returns
  // the cycles it took (limit + 1 if it never was).
  unsigned send(uint32_t wg, uint32_t wf, uint64_t addr, uint32_t size, unsigned limit = 10) {
    for (unsigned n = 1; n <= limit; ++n)
      if (write(wg, wf, addr, size).in_ready) return n;
    return limit + 1;
  }
  // Two idle cycles: the pipeline's writes reach the outputs (a write
  // accepted in cycle c shows on trig_valid and live from cycle c + 3).
  void settle() {
    idle();
    idle();
  }
  TrackerCoreOutputs peek() const { return t.eval(in); }

  TrackerCore t;
  TrackerCoreInputs in;
};

TEST(TrackerParams, DefaultsMatchThePaperAndItsStorage) {
  TrackerParams p;
  EXPECT_NO_THROW(p.validate());
  EXPECT_EQ(p.sets, 256u);  // T3 §4.2.1: 256 entries indexed by wg_lsb (8 bits)
  EXPECT_EQ(p.wf_id_w, 3u);
  EXPECT_EQ(p.entries(), 2048u);
  EXPECT_EQ(p.tag_w(), 4u + 3u);
  // 2048 x (1 + 7 + 48 + 16) bits = 18 KiB, against the paper's 19 KB.
  EXPECT_EQ(p.storage_bits(), 2048u * 72u);
}

TEST(TrackerParams, BadValuesNameTheParameterAndRange) {
  auto message = [](TrackerParams p) {
    try {
      p.validate();
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  TrackerParams p;
  p.sets = 100;
  EXPECT_NE(message(p).find("sets (SETS) = 100"), std::string::npos) << message(p);
  EXPECT_NE(message(p).find("power of two"), std::string::npos);
  p = TrackerParams{};
  p.wg_id_w = 8;  // no bits left for the tag above 256 sets
  EXPECT_NE(message(p).find("wg_id_w (WG_ID_W) = 8"), std::string::npos) << message(p);
  EXPECT_NE(message(p).find("9..32"), std::string::npos) << message(p);
  p = TrackerParams{};
  p.ways = 0;
  EXPECT_NE(message(p).find("ways (WAYS) = 0"), std::string::npos);
  p = TrackerParams{};
  p.cnt_w = 40;
  EXPECT_THROW(TrackerCore{p}, std::invalid_argument);
  EXPECT_NE(message(p).find("cnt_w (CNT_W) = 40 is out of range; allowed: 1..31"),
            std::string::npos) << message(p);
}

TEST(TrackerConfig, CheckNamesTheField) {
  const TrackerParams p = small_params();  // cnt_w 8: threshold <= 255
  EXPECT_FALSE(config(8, 2).check(p).has_value());
  EXPECT_NE(config(0, 2).check(p)->find("tile_size = 0"), std::string::npos);
  EXPECT_NE(config(8, 0).check(p)->find("updates_per_elem = 0"), std::string::npos);
  EXPECT_NE(config(100, 3).check(p)->find("does not fit the counter; allowed: 1..255"),
            std::string::npos);
  TrackerConfig c = config(8, 2);
  c.limit = c.base;
  EXPECT_NE(c.check(p)->find("region"), std::string::npos);
}

// The hardware's rule (cfg_error_o) has one definition, fault(); check()
// reports the same causes by name.
TEST(TrackerConfig, FaultIsTheOneRuleAndCheckNamesEachCause) {
  const TrackerParams p = small_params();  // CNT_W 8, UPE_W 4, ADDR_W 48
  struct Case {
    TrackerConfig cfg;
    TrackerFault fault;
    const char* message;
  };
  TrackerConfig upe0 = config(8, 2), wide = config(128, 2), empty = config(8, 2),
                reversed = config(8, 2), edge = config(255, 1), one_byte = config(8, 2);
  upe0.updates_per_elem = 0;
  empty.limit = empty.base;
  reversed.limit = reversed.base - 1;
  one_byte.limit = one_byte.base + 1;
  const Case cases[] = {
      {config(0, 2), TrackerFault::threshold_zero, "tile_size = 0"},
      {upe0, TrackerFault::threshold_zero, "updates_per_elem = 0"},
      {wide, TrackerFault::threshold_too_wide, "= 256 does not fit the counter"},
      {empty, TrackerFault::region_empty, "is empty; allowed: base < limit"},
      {reversed, TrackerFault::region_empty, "is empty; allowed: base < limit"},
      {edge, TrackerFault::none, nullptr},
      {one_byte, TrackerFault::none, nullptr},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(c.cfg.fault(p), c.fault) << (c.message ? c.message : "valid");
    const auto msg = c.cfg.check(p);
    EXPECT_EQ(msg.has_value(), c.message != nullptr);
    if (msg && c.message) {
      EXPECT_NE(msg->find(c.message), std::string::npos) << *msg;
    }
  }
  // Fields wider than their pins: the hardware would see their low bits;
  // the driver-side check refuses them by name.
  TrackerConfig big = config(8, 2);
  big.limit = uint64_t{1} << 48;
  EXPECT_NE(big.check(p)->find("limit = 281474976710656 is out of range"), std::string::npos);
  EXPECT_NE(config(256, 1).check(p)->find("tile_size = 256 is out of range; allowed: 1..255"),
            std::string::npos);
}

TEST(TrackerParams, TheListIsTheOneSource) {
  const auto& table = TrackerParams::table();
  ASSERT_EQ(table.size(), 8u);
  EXPECT_STREQ(table[0].rtl_name, "SETS");
  EXPECT_STREQ(table[7].rtl_name, "STAT_W");
  const TrackerParams p = params_from_string<TrackerParams>("SETS=4,WAYS=2,UPE_W=3");
  EXPECT_EQ(p.sets, 4u);
  EXPECT_EQ(p.ways, 2u);
  EXPECT_EQ(p.upe_w, 3u);
  EXPECT_EQ(p.cnt_w, 16u) << "unnamed parameters keep their defaults";
  EXPECT_EQ(params_to_string(p), "SETS=4,WAYS=2,WG_ID_W=12,WF_ID_W=3,ADDR_W=48,CNT_W=16,UPE_W=3,STAT_W=32");
  EXPECT_THROW(params_from_string<TrackerParams>("SETZ=4"), std::invalid_argument);
}

TEST(Tracker, CountsUntilTileTimesUpdatesThenFiresOnceAndFrees) {
  Harness h(small_params(), config(4, 2));
  EXPECT_TRUE(h.write(1, 2, 0x1010, 4).in_ready);
  h.settle();
  EXPECT_EQ(h.peek().live, 1u);
  EXPECT_TRUE(h.write(1, 2, 0x1010, 3).in_ready);
  h.settle();
  EXPECT_FALSE(h.peek().trig_valid);  // 7 of 8
  h.write(1, 2, 0x1016, 1);           // 8 of 8
  EXPECT_FALSE(h.peek().trig_valid) << "the trigger is two cycles in the pipeline";
  h.settle();
  TrackerCoreOutputs o = h.peek();
  EXPECT_TRUE(o.trig_valid);
  EXPECT_EQ(o.trig_wg_id, 1u);
  EXPECT_EQ(o.trig_wf_id, 2u);
  EXPECT_EQ(o.trig_addr, 0x1010u);
  EXPECT_EQ(o.live, 0u);
  EXPECT_EQ(o.stat_triggers, 1u);
  EXPECT_EQ(o.stat_updates, 3u);
  h.idle();  // consumer ready: trigger taken
  EXPECT_FALSE(h.peek().trig_valid);
  EXPECT_EQ(h.peek().stat_triggers, 1u);
}

// The timing table "One tile's life" in docs/blocks/tracker.md, cycle by
// cycle: four writes on consecutive cycles, each reading the entry the one
// before it has not written yet (forwarded), the trigger three cycles after
// the completing write.
TEST(Tracker, OneTilesLifeAsDocumented) {
  Harness h(small_params(), config(2, 2));
  struct Row {
    bool valid;
    uint32_t src;
    uint64_t addr;
    bool trig_ready;
    bool want_trig_valid;
    uint32_t want_live;  // live_o in this cycle
  };
  const Row rows[] = {{true, 0, 0x1002, true, false, 0}, {true, 0, 0x1000, true, false, 0},
                      {true, 2, 0x1000, true, false, 0}, {true, 2, 0x1002, true, false, 1},
                      {false, 0, 0, true, false, 1},     {false, 0, 0, true, false, 1},
                      {false, 0, 0, false, true, 0},     {false, 0, 0, true, true, 0},
                      {false, 0, 0, true, false, 0}};
  for (int c = 0; c < 9; ++c) {
    h.in.in_valid = rows[c].valid;
    h.in.in_wg_id = 5;
    h.in.in_wf_id = 3;
    h.in.in_addr = rows[c].addr;
    h.in.in_size = 1;
    h.in.in_src = rows[c].src;
    h.in.trig_ready = rows[c].trig_ready;
    const TrackerCoreOutputs o = h.t.eval(h.in);
    EXPECT_TRUE(o.in_ready) << "cycle " << c;
    EXPECT_EQ(o.trig_valid, rows[c].want_trig_valid) << "cycle " << c;
    EXPECT_EQ(o.live, rows[c].want_live) << "cycle " << c;
    // Counted at the edge after the decision: shown from the second cycle after.
    EXPECT_EQ(o.stat_updates, uint32_t(std::min(std::max(c - 1, 0), 4))) << "cycle " << c;
    if (o.trig_valid) {
      EXPECT_EQ(o.trig_wg_id, 5u);
      EXPECT_EQ(o.trig_wf_id, 3u);
      EXPECT_EQ(o.trig_addr, 0x1000u);
      EXPECT_EQ(o.stat_triggers, 1u);
    }
    h.t.clock(h.in);
  }
}

// Back-to-back updates to one entry, and to two entries of one set in turn:
// each write's lookup reads the rows before the one or two writes ahead of it
// have landed, and takes their results forwarded (wb, then lw). Every write is
// accepted in its first cycle and counted exactly.
TEST(Tracker, BackToBackUpdatesToOneEntryAreForwarded) {
  Harness h(small_params(), config(8, 1));
  for (int i = 0; i < 8; ++i)
    EXPECT_TRUE(h.write(2, 1, 0x1000 + 2 * (7 - i), 1).in_ready) << "write " << i;
  h.settle();
  TrackerCoreOutputs o = h.peek();
  EXPECT_TRUE(o.trig_valid);
  EXPECT_EQ(o.trig_addr, 0x1000u);
  EXPECT_EQ(o.stat_triggers, 1u);
  EXPECT_EQ(o.live, 0u);
  h.idle();
  // Two tiles of set 2 (WG 2 and WG 6, its 2 ways) alternating: once both
  // are known to hold their ways (from the third cycle after their first
  // writes), one write a cycle; before that the first ones wait a cycle or
  // two (the set looks full to P while the other tile's way is in flight).
  unsigned cycles = 0;
  for (int i = 0; i < 7; ++i) {
    const unsigned a = h.send(2, 0, 0x1100 + i, 1), b = h.send(6, 0, 0x1200 + i, 1);
    cycles += a + b;
    if (i >= 2) {
      EXPECT_EQ(a + b, 2u) << "write " << i;
    }
  }
  EXPECT_LE(cycles, 14u + 3u);
  h.settle();
  EXPECT_EQ(h.peek().live, 2u);
  EXPECT_FALSE(h.peek().trig_valid);
  EXPECT_EQ(h.send(10, 0, 0x1300, 1), 11u) << "set 2 is full: the third tile waits";
  EXPECT_TRUE(h.write(10, 0, 0x1300, 1).set_full) << "decided: its set is full";
  h.in.trig_ready = false;  // keep the trigger to look at it
  EXPECT_TRUE(h.write(2, 0, 0x10f0, 1).in_ready) << "a tile known to hold a way: at once";
  EXPECT_LE(h.send(10, 0, 0x1300, 1), 3u) << "a way was freed";
  h.settle();
  o = h.peek();
  EXPECT_EQ(o.stat_triggers, 2u);
  EXPECT_EQ(o.trig_addr, 0x10f0u);
  EXPECT_EQ(o.live, 2u);
}

TEST(Tracker, KeepsTheLowestAddress) {
  Harness h(small_params(), config(4, 1));
  h.write(0, 0, 0x1100, 1);
  h.write(0, 0, 0x1040, 1);
  h.write(0, 0, 0x10c0, 1);
  h.write(0, 0, 0x1080, 1);
  h.settle();
  EXPECT_EQ(h.peek().trig_addr, 0x1040u);
}

TEST(Tracker, TagSeparatesWorkgroupsOfOneSetAndWavefronts) {
  Harness h(small_params(), config(4, 1));
  h.write(1, 0, 0x1000, 3);  // set 1
  h.write(5, 0, 0x1100, 3);  // set 1, other WG-id MSBs
  h.settle();
  EXPECT_EQ(h.peek().live, 2u);
  // Set 1 holds two ways: WG 1/WF 0 and WG 5/WF 0; WG 1/WF 1 needs a third.
  // Refused at once (no free way in the valid bits); from its third cycle
  // the Tracker has looked it up and says why.
  for (int i = 0; i < 3; ++i) {
    const TrackerCoreOutputs o = h.write(1, 1, 0x1200, 1);
    EXPECT_EQ(o.set_full, i == 2) << "cycle " << i;
    EXPECT_FALSE(o.in_ready);
  }
  EXPECT_LE(h.send(1, 0, 0x1002, 1), 3u);  // hits WG 1/WF 0 alone: 4 of 4
  h.settle();
  EXPECT_EQ(h.peek().trig_wg_id, 1u);
  EXPECT_EQ(h.peek().trig_wf_id, 0u);
  EXPECT_EQ(h.peek().trig_addr, 0x1000u);
}

TEST(Tracker, FullSetRefusesAMissButTakesHitsAndCompletions) {
  Harness h(small_params(), config(4, 1));
  EXPECT_TRUE(h.write(1, 0, 0x1000, 2).in_ready);
  EXPECT_TRUE(h.write(5, 0, 0x1100, 2).in_ready);  // both ways free: taken at once
  for (int i = 0; i < 3; ++i) {  // third tile in set 1 (2 ways)
    const TrackerCoreOutputs o = h.write(9, 0, 0x1200, 2);
    EXPECT_FALSE(o.in_ready);
    EXPECT_EQ(o.set_full, i == 2) << "cycle " << i;
  }
  h.idle();  // the counters count a cycle after the decision
  EXPECT_EQ(h.peek().stat_stalls, 3u);
  EXPECT_EQ(h.peek().stat_updates, 2u);
  // A write that completes a tile on its own needs no way: taken once the
  // Tracker has looked it up.
  EXPECT_EQ(h.send(13, 0, 0x1300, 4), 3u);
  h.idle();
  // A hit needs no way either (and a tile known to hold a way goes in at
  // once); completing WG 1 frees one.
  EXPECT_EQ(h.send(1, 0, 0x1004, 2), 1u);
  h.idle();
  EXPECT_LE(h.send(9, 0, 0x1200, 2), 3u);
  h.settle();
  EXPECT_EQ(h.peek().live, 2u);
}

// A full set does not hold back a write to one of its tiles when the set's
// owner summary knows the tile: the WG that owns the set (the first to take
// a way of it) and its WF's bit. A tile of another WG in the same set is
// not summarized: once the list of recently written tiles has forgotten it,
// a write to it waits for its lookup (decided in its third cycle).
TEST(Tracker, FullSetOfItsOwnersTilesTakesTheirWritesAtOnce) {
  TrackerParams p = small_params();
  p.sets = 16;
  p.wf_id_w = 1;
  Harness h(p, config(4, 1));
  EXPECT_TRUE(h.write(1, 0, 0x1000, 1).in_ready);   // set 1: WG 1 owns it
  EXPECT_TRUE(h.write(1, 1, 0x1010, 1).in_ready);   // set 1 full: WG 1's two WF tiles
  EXPECT_TRUE(h.write(2, 0, 0x1020, 1).in_ready);   // set 2: WG 2 owns it
  EXPECT_TRUE(h.write(18, 0, 0x1030, 1).in_ready);  // set 2 full: WG 2 and WG 18
  // Eight other tiles, in other sets, push these four out of the list of
  // tiles known from recent writes.
  for (uint32_t k = 0; k < TrackerCore::kKnown; ++k)
    EXPECT_TRUE(h.write(3 + k, k % 2, 0x1100 + 16 * k, 1).in_ready) << "tile " << k;
  h.settle();
  EXPECT_EQ(h.peek().live, 4u + TrackerCore::kKnown);
  EXPECT_TRUE(h.write(1, 0, 0x1002, 1).in_ready);   // the owner's tiles: at once
  EXPECT_TRUE(h.write(1, 1, 0x1012, 1).in_ready);
  EXPECT_TRUE(h.write(2, 0, 0x1022, 1).in_ready);
  EXPECT_EQ(h.send(18, 0, 0x1032, 1), 3u);         // not the owner's: looked up first
  EXPECT_EQ(h.send(17, 0, 0x1040, 1), 11u);        // a third WG in full set 1: waits
  // WG 1's tiles complete and leave: set 1 empties, the next WG to take a
  // way owns it.
  for (uint32_t k = 0; k < 2; ++k) EXPECT_TRUE(h.write(1, 0, 0x1004, 1).in_ready);
  for (uint32_t k = 0; k < 2; ++k) EXPECT_TRUE(h.write(1, 1, 0x1014, 1).in_ready);
  h.settle();
  EXPECT_LE(h.send(17, 0, 0x1040, 1), 3u);
  h.settle();
  EXPECT_TRUE(h.write(17, 0, 0x1042, 1).in_ready);  // WG 17 owns set 1 now
}

TEST(Tracker, OutputBackPressureRefusesOnlyCompletingWrites) {
  Harness h(small_params(), config(2, 1));
  h.in.trig_ready = false;
  // Completing writes fill the output queue while the consumer waits.
  unsigned cycles = 0;
  for (unsigned k = 0; k < TrackerCore::kTrigQueue; ++k) cycles += h.send(k, 0, 0x1000, 2);
  EXPECT_LT(cycles, 2 * TrackerCore::kTrigQueue + 4);
  h.settle();
  EXPECT_TRUE(h.peek().trig_valid);
  EXPECT_EQ(h.peek().stat_triggers, TrackerCore::kTrigQueue);
  const uint32_t stalls = h.peek().stat_stalls;
  EXPECT_EQ(h.send(1, 1, 0x1000, 1), 3u);    // not completing: accepted once decided
  EXPECT_EQ(h.send(1, 1, 0x1000, 1), 11u);   // completing: waits
  // The consumer takes one: room from the next cycle, not in the same one
  // (in_ready_o does not depend on trig_ready_i).
  h.in.trig_ready = true;
  EXPECT_FALSE(h.write(1, 1, 0x1000, 1).in_ready);
  h.in.trig_ready = false;
  EXPECT_TRUE(h.write(1, 1, 0x1000, 1).in_ready);
  h.settle();
  TrackerCoreOutputs o = h.peek();
  EXPECT_TRUE(o.trig_valid);
  EXPECT_EQ(o.stat_triggers, TrackerCore::kTrigQueue + 1);
  EXPECT_EQ(o.stat_stalls - stalls, 2u + 11u);
}

TEST(Tracker, UntrackedWhenOutsideRegionDisabledOrMisconfigured) {
  Harness h(small_params(), config(2, 1));
  EXPECT_TRUE(h.write(0, 0, 0x0fff, 5).in_ready);
  EXPECT_TRUE(h.write(0, 0, 0x2000, 5).in_ready);
  h.idle();  // the counters count a cycle after the decision
  EXPECT_EQ(h.peek().stat_untracked, 2u);
  EXPECT_EQ(h.peek().live, 0u);
  h.in.cfg.tile_size = 200;
  h.in.cfg.updates_per_elem = 2;  // 400 > 255: does not fit CNT_W = 8
  EXPECT_FALSE(h.peek().cfg_error) << "the core takes its configuration at the edge";
  h.idle();
  EXPECT_TRUE(h.peek().cfg_error);
  h.write(0, 0, 0x1000, 1);
  h.in.cfg.enable = false;
  h.idle();
  EXPECT_FALSE(h.peek().cfg_error);
  h.write(0, 0, 0x1000, 1);
  h.idle();
  EXPECT_EQ(h.peek().stat_untracked, 4u);
  EXPECT_EQ(h.peek().live, 0u);
}

TEST(Tracker, InputsAreTruncatedToTheirPortWidths) {
  Harness h(small_params(), config(4, 1));
  h.write(1 + 64, 0 + 8, 0x1000, 2 + 256);  // wg_id_w 6, wf_id_w 3, cnt_w 8
  h.write(1, 0, 0x1002, 2);
  h.settle();
  EXPECT_TRUE(h.peek().trig_valid);
  EXPECT_EQ(h.peek().trig_wg_id, 1u);
}

TEST(Tracker, StatusCountersWrapAtStatW) {
  TrackerParams p = small_params();
  p.stat_w = 2;
  Harness h(p, config(2, 1));
  for (int i = 0; i < 5; ++i) h.write(0, 0, 0x0, 1);  // untracked
  h.idle();
  EXPECT_EQ(h.peek().stat_untracked, 1u);
}

TEST(Tracker, ResetClearsEntriesTriggerAndCounters) {
  Harness h(small_params(), config(2, 1));
  h.in.trig_ready = false;
  h.write(0, 0, 0x1000, 2);
  h.write(1, 0, 0x1000, 1);
  h.in.rst_n = false;
  h.idle();
  h.in.rst_n = true;
  const TrackerCoreOutputs o = h.peek();
  EXPECT_FALSE(o.trig_valid);
  EXPECT_EQ(o.live, 0u);
  EXPECT_EQ(o.stat_updates + o.stat_triggers + o.stat_stalls + o.stat_untracked, 0u);
  EXPECT_FALSE(o.cfg_error);
  h.idle();  // tracking is off in the first cycle after reset
  h.write(1, 0, 0x1000, 1);
  h.settle();
  EXPECT_FALSE(h.peek().trig_valid) << "the entry from before reset must be gone";
  EXPECT_EQ(h.peek().live, 1u);
}

}  // namespace
}  // namespace t3
