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

// The block after a reset, and one APB phase a cycle on its port.
struct BlockBench {
  EpWindow b{EpWindowParams{}};
  EpWindowInputs in;
  EpWindowOutputs o;
  BlockBench() {
    in.rst_n = false;
    b.step(in, o);
    in.rst_n = true;
  }
  void step() { b.step(in, o); }
  void phase(bool write, uint32_t a, uint32_t d, bool access) {
    in.apb = ApbRequest{};
    in.apb.psel = true;
    in.apb.penable = access;
    in.apb.pwrite = write;
    in.apb.paddr = a;
    in.apb.pwdata = d;
    in.apb.pstrb = write ? 0xF : 0;
    step();
  }
  void write(uint32_t a, uint32_t d) {  // setup, then access
    phase(true, a, d, false);
    phase(true, a, d, true);
    EXPECT_FALSE(o.apb.pslverr) << std::hex << a;
    in.apb = ApbRequest{};
  }
};

// The page's cycle table: a write of WIN_CMD.WRITE in cycle 0's access
// phase pulses cmd_write in cycle 1 (checked; STATUS from cycle 2); the
// window is in the table (tbl_o, the lookups) from cycle 3.
TEST(EpWindowBlock, CycleTableOfAWindowCommand) {
  BlockBench t;
  const EpWin w = good();
  t.write(T3_EP_WINDOW_A_WIN_NET_LO, uint32_t(w.net_base));
  t.write(T3_EP_WINDOW_A_WIN_BYTES, w.bytes);
  t.write(T3_EP_WINDOW_A_WIN_DST, w.dst);
  t.write(T3_EP_WINDOW_A_WIN_MERGE, w.merge);
  t.write(T3_EP_WINDOW_A_WIN_COUNT_BASE, w.count_base);
  t.write(T3_EP_WINDOW_A_WIN_CTRL, 4 | 2 << 8);
  t.in.la_addr = w.net_base;
  t.in.la_len = 4;
  t.write(T3_EP_WINDOW_A_WIN_CMD, T3_EP_WINDOW_R_WIN_CMD_WRITE_MASK);  // cycle 0: the access phase
  EXPECT_FALSE(t.o.la_hit);
  t.step();  // cycle 1: the pulse, the check
  EXPECT_FALSE(t.o.la_hit);
  t.step();  // cycle 2: written at its end
  EXPECT_FALSE(t.o.la_hit) << "the window is written at the end of the cycle after the pulse's";
  t.step();  // cycle 3
  EXPECT_TRUE(t.o.la_hit);
  EpWin v = w;
  v.valid = true;
  EXPECT_EQ(unpack_window(t.o.tbl, 0), v);
  t.phase(false, T3_EP_WINDOW_A_STATUS, 0, false);
  t.phase(false, T3_EP_WINDOW_A_STATUS, 0, true);
  EXPECT_EQ(t.o.apb.prdata, 0u);
  EXPECT_FALSE(t.o.apb.pslverr);
}

// The same command refused, and a read of STATUS back to back with the
// write: its setup phase in the pulse's cycle, its access in the next
// returns the verdict.
TEST(EpWindowBlock, ARefusalIsInStatusForAReadBackToBack) {
  BlockBench t;
  t.write(T3_EP_WINDOW_A_WIN_CTRL, 1);  // expected 1: cause EXPECTED
  t.write(T3_EP_WINDOW_A_WIN_BYTES, 64);
  t.write(T3_EP_WINDOW_A_WIN_CMD, T3_EP_WINDOW_R_WIN_CMD_WRITE_MASK);  // cycle 0
  t.phase(false, T3_EP_WINDOW_A_STATUS, 0, false);                    // cycle 1: the pulse
  EXPECT_EQ(t.o.apb.prdata, 0u);
  t.phase(false, T3_EP_WINDOW_A_STATUS, 0, true);  // cycle 2
  EXPECT_EQ(t.o.apb.prdata, unsigned(EpWinCause::expected)) << "the verdict, back to back";
  EXPECT_FALSE(unpack_window(t.o.tbl, 0).valid);
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
