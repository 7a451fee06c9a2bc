// ep_window core and block unit tests: the cycle table of
// docs/blocks/ep_window.md, the record's layout, the rules' messages, the
// parameter checks.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

#include "ep_window/ep_window.h"
#include "t3/ep_window_regs.h"

namespace t3 {
namespace {

EpWin good() {
  EpWin w;
  w.net_base = 0x4000;
  w.bytes = 64;
  w.src = 0;
  w.dst = 64;
  w.merge = 128;
  w.expected = 4;
  w.dtype = 2;
  w.count_base = 8;
  return w;
}

// The page's cycle table: a write of WIN_CMD.WRITE in cycle 0's access
// phase pulses cmd_write in cycle 1 (checked; STATUS from cycle 2); the
// window is in the table (tbl_o, the lookups) from cycle 3.
TEST(EpWindowBlock, CycleTableOfAWindowCommand) {
  EpWindow b{EpWindowParams{}};
  EpWindowInputs in;
  EpWindowOutputs o;
  in.rst_n = false;
  b.step(in, o);
  in.rst_n = true;
  auto write = [&](uint32_t a, uint32_t d) {  // setup, then access
    in.apb = ApbRequest{};
    in.apb.psel = true;
    in.apb.pwrite = true;
    in.apb.paddr = a;
    in.apb.pwdata = d;
    in.apb.pstrb = 0xF;
    b.step(in, o);
    in.apb.penable = true;
    b.step(in, o);
    EXPECT_FALSE(o.apb.pslverr) << std::hex << a;
    in.apb = ApbRequest{};
  };
  const EpWin w = good();
  write(T3_EP_WINDOW_A_WIN_NET_LO, uint32_t(w.net_base));
  write(T3_EP_WINDOW_A_WIN_BYTES, w.bytes);
  write(T3_EP_WINDOW_A_WIN_DST, w.dst);
  write(T3_EP_WINDOW_A_WIN_MERGE, w.merge);
  write(T3_EP_WINDOW_A_WIN_COUNT_BASE, w.count_base);
  write(T3_EP_WINDOW_A_WIN_CTRL, 4 | 2 << 8);
  in.la_addr = w.net_base;
  in.la_len = 4;
  write(T3_EP_WINDOW_A_WIN_CMD, T3_EP_WINDOW_R_WIN_CMD_WRITE_MASK);  // cycle 0: the access phase
  EXPECT_FALSE(o.la_hit);
  b.step(in, o);  // cycle 1: the pulse, the check
  EXPECT_FALSE(o.la_hit);
  b.step(in, o);  // cycle 2: written at its end
  EXPECT_FALSE(o.la_hit) << "the window is written at the end of the cycle after the pulse's";
  b.step(in, o);  // cycle 3
  EXPECT_TRUE(o.la_hit);
  EXPECT_EQ(unpack_window(o.tbl, 0), [&] {
    EpWin v = w;
    v.valid = true;
    return v;
  }());
  in.apb = ApbRequest{};  // STATUS read: setup, then access
  in.apb.psel = true;
  in.apb.paddr = T3_EP_WINDOW_A_STATUS;
  b.step(in, o);
  in.apb.penable = true;
  b.step(in, o);
  EXPECT_EQ(o.apb.prdata, 0u);
  EXPECT_FALSE(o.apb.pslverr);
}

// The same command refused, and a read of STATUS back to back with the
// write: its setup phase in the pulse's cycle, its access in the next
// returns the verdict.
TEST(EpWindowBlock, ARefusalIsInStatusForAReadBackToBack) {
  EpWindow b{EpWindowParams{}};
  EpWindowInputs in;
  EpWindowOutputs o;
  in.rst_n = false;
  b.step(in, o);
  in.rst_n = true;
  auto phase = [&](bool write, uint32_t a, uint32_t d, bool access) {
    in.apb = ApbRequest{};
    in.apb.psel = true;
    in.apb.penable = access;
    in.apb.pwrite = write;
    in.apb.paddr = a;
    in.apb.pwdata = d;
    in.apb.pstrb = write ? 0xF : 0;
    b.step(in, o);
  };
  phase(true, T3_EP_WINDOW_A_WIN_CTRL, 1, false);  // expected 1: cause EXPECTED
  phase(true, T3_EP_WINDOW_A_WIN_CTRL, 1, true);
  phase(true, T3_EP_WINDOW_A_WIN_BYTES, 64, false);
  phase(true, T3_EP_WINDOW_A_WIN_BYTES, 64, true);
  phase(true, T3_EP_WINDOW_A_WIN_CMD, T3_EP_WINDOW_R_WIN_CMD_WRITE_MASK, false);
  phase(true, T3_EP_WINDOW_A_WIN_CMD, T3_EP_WINDOW_R_WIN_CMD_WRITE_MASK, true);  // cycle 0
  phase(false, T3_EP_WINDOW_A_STATUS, 0, false);                                // cycle 1: the pulse
  EXPECT_EQ(o.apb.prdata, 0u);
  phase(false, T3_EP_WINDOW_A_STATUS, 0, true);  // cycle 2
  EXPECT_EQ(o.apb.prdata, unsigned(EpWinCause::expected)) << "the verdict, back to back";
  EXPECT_FALSE(unpack_window(o.tbl, 0).valid);
}

// The record's layout, field by field at the page's bit positions (not
// through unpack_window: a layout error shared by pack and unpack shows).
TEST(EpWindowCore, TheRecordsFieldsSitWhereThePageSays) {
  struct Case {
    const char* field;
    unsigned lsb, width;
    void (*set)(EpWin&);
  };
  const Case cases[] = {
      {"valid", 0, 1, [](EpWin& w) { w.valid = true; }},
      {"home", 1, 1, [](EpWin& w) { w.home = true; }},
      {"det", 2, 1, [](EpWin& w) { w.det = true; }},
      {"dtype", 3, 2, [](EpWin& w) { w.dtype = 3; }},
      {"copy", 5, 2, [](EpWin& w) { w.copy = 3; }},
      {"expected", 7, 8, [](EpWin& w) { w.expected = 255; }},
      {"count_base", 15, 21, [](EpWin& w) { w.count_base = 0x1FFFFF; }},
      {"net_base", 36, 48, [](EpWin& w) { w.net_base = 0xFFFFFFFFFFFF; }},
      {"bytes", 84, 32, [](EpWin& w) { w.bytes = 0xFFFFFFFF; }},
      {"src", 116, 32, [](EpWin& w) { w.src = 0xFFFFFFFF; }},
      {"dst", 148, 32, [](EpWin& w) { w.dst = 0xFFFFFFFF; }},
      {"merge", 180, 32, [](EpWin& w) { w.merge = 0xFFFFFFFF; }},
      {"stage", 212, 32, [](EpWin& w) { w.stage = 0xFFFFFFFF; }},
      {"contrib_mask", 244, 32, [](EpWin& w) { w.contrib_mask = 0xFFFFFFFF; }},
  };
  for (unsigned win : {0u, 1u, 15u})
    for (const Case& c : cases) {
      EpWin w;
      c.set(w);
      EpWinTable t;
      pack_window(t, win, w);
      for (unsigned bit = 0; bit < EpWinTable::kMaxBits; ++bit) {
        const unsigned at = bit - win * kEpWinRecBits;
        const bool want = bit >= win * kEpWinRecBits && at >= c.lsb && at < c.lsb + c.width;
        ASSERT_EQ(bool(t.w[bit / 64] >> (bit % 64) & 1), want) << c.field << " in window " << win << ", bit " << bit;
      }
    }
}

// Two commands in two cycles running (a host that pulses WIN_CMD without
// the APB's two cycles a write): the second is refused BUSY, the first is
// written.
TEST(EpWindowCore, ACommandWhileTheLastIsBeingWrittenIsBusy) {
  EpWindowCore core{EpWindowParams{}};
  EpWindowCoreInputs in;
  in.rst_n = true;
  in.stg = good();
  in.cmd_write = true;
  EXPECT_FALSE(core.step(in).ev_refused);
  in.idx = 1;
  in.stg.net_base = 0x8000;
  in.stg.count_base = 100;
  EXPECT_FALSE(core.step(in).ev_refused) << "the first was accepted";
  in.cmd_write = false;
  const EpWindowCoreOutputs o = core.step(in);
  EXPECT_TRUE(o.ev_refused) << "BUSY, with STATUS";
  EXPECT_EQ(o.cause, unsigned(EpWinCause::busy));
  EXPECT_TRUE(core.window(0).valid);
  EXPECT_FALSE(core.window(1).valid);
  EXPECT_STREQ(name(EpWinCause::busy), "busy");
}

TEST(EpWindowCore, TheRecordRoundTripsAtEveryFieldsEdges) {
  EpWinTable t;
  EpWin a;
  a.valid = a.home = a.det = true;
  a.dtype = 3;
  a.copy = 3;
  a.expected = 255;
  a.count_base = 0x1FFFFF;
  a.net_base = 0xFFFFFFFFFFFF;
  a.bytes = a.src = a.dst = a.merge = a.stage = a.contrib_mask = 0xFFFFFFFF;
  EpWin b = good();
  for (unsigned i = 0; i < 16; ++i) pack_window(t, i, i % 2 ? a : b);
  for (unsigned i = 0; i < 16; ++i) EXPECT_EQ(unpack_window(t, i), i % 2 ? a : b) << i;
  EXPECT_EQ(t.bits(16 * kEpWinRecBits, 64), 0u) << "nothing past the last record";
}

TEST(EpWindowCore, EveryRefusalNamesItsFieldAndRange) {
  const EpWindowParams p;
  EpWin tbl[16] = {};
  tbl[1] = good();
  tbl[1].valid = true;
  EpWin w = good();
  EXPECT_EQ(check_window(p, tbl, 0, w).cause, EpWinCause::net_overlap);
  EXPECT_EQ(check_window(p, tbl, 0, w).with, 1u);
  EXPECT_NE(describe(p, check_window(p, tbl, 0, w), 0, w).find("overlaps window 1"), std::string::npos);
  EXPECT_EQ(check_window(p, tbl, 1, w).cause, EpWinCause::none) << "in place: no overlap with itself";
  w.src = uint32_t(p.mem_bytes) - 32;
  const std::string s = describe(p, check_window(p, tbl, 2, w), 2, w);
  EXPECT_NE(s.find("src = 0xfffe0"), std::string::npos) << s;
  EXPECT_NE(s.find("(MEM_BYTES)"), std::string::npos) << s;
  for (unsigned c = 0; c < kEpWinCauses; ++c) EXPECT_STRNE(name(EpWinCause(c)), "?");
}

TEST(EpWindowCore, ParametersOutOfRangeAreNamed) {
  EpWindowParams p;
  p.windows = 17;
  try {
    EpWindowCore c(p);
    FAIL() << "accepted WINDOWS = 17";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("WINDOWS"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace t3
