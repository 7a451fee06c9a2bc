// One initiator, two register blocks: the same random transactions go to the
// Tracker's TLM register model (hw/common/reg_target.h) and, through the
// TLM-to-APB bridge (hw/common/tlm_apb_bridge.h), to its Verilated RTL
// register block (rtl/tracker_reg_top.sv). Both must answer alike (OK or an
// error; read data) and end with the same read-back of every register. An
// APB protocol checker (apb_checker.h) watches the bridge's bus and must
// see no violation; a second one, on a bus driven wrongly on purpose, must
// see each planted violation.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "Vtracker_reg_top_sc.h"
#include "apb_checker.h"
#include "common/reg_target.h"
#include "common/tlm_apb_bridge.h"
#include "common/tlm_word.h"
#include "tracker/tracker_regs.h"

namespace t3::tb {
namespace {

using sc_core::sc_signal;

struct Host : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Host> to_model{"to_model"}, to_rtl{"to_rtl"};
  explicit Host(sc_core::sc_module_name n) : sc_module(n) {}

  static tlm::tlm_response_status access(tlm_utils::simple_initiator_socket<Host>& s,
                                         bool write, uint64_t addr, uint32_t& data,
                                         const unsigned char* be) {
    unsigned char buf[4];
    std::memcpy(buf, &data, 4);
    tlm::tlm_generic_payload t;
    word_payload(t, write, addr, buf, be);
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    s->b_transport(t, d);
    std::memcpy(&data, buf, 4);
    return t.get_response_status();
  }
};

// The TLM model's clock edge, as a block's clocked model gives it: the
// hardware's side of the registers (here only busy), then the edge.
struct ModelClock : sc_core::sc_module {
  sc_core::sc_in<bool> clk_i{"clk_i"}, rst_ni{"rst_ni"};
  RegFile* regs = nullptr;
  const bool* busy = nullptr;
  SC_HAS_PROCESS(ModelClock);
  explicit ModelClock(sc_core::sc_module_name n) : sc_module(n) {
    SC_METHOD(edge);
    sensitive << clk_i.pos();
    dont_initialize();
  }
  void edge() {
    if (!rst_ni.read()) return regs->reset();
    TrackerHw2Reg h;
    h.busy = *busy;
    TrackerRegs::hw2reg(*regs, h);
    regs->clock();
  }
};

struct Env {
  sc_core::sc_clock clk{"clk", 10, sc_core::SC_NS};
  sc_signal<bool> rst_n{"rst_n"};
  // The bridge's bus.
  sc_signal<bool> psel{"psel"}, penable{"penable"}, pwrite{"pwrite"}, pready{"pready"},
      pslverr{"pslverr"}, intr{"intr"};
  sc_signal<uint32_t> paddr{"paddr"}, pwdata{"pwdata"}, pstrb{"pstrb"}, prdata{"prdata"};
  Vtracker_reg_top_sc rtl{"rtl"};
  sc_signal<std::remove_reference_t<decltype(rtl.reg2hw_o)>::data_type> reg2hw{"reg2hw"};
  sc_signal<std::remove_reference_t<decltype(rtl.hw2reg_i)>::data_type> hw2reg{"hw2reg"};
  TlmApbBridge bridge{"bridge"};
  ApbChecker checker{"checker"};
  // The TLM model.
  RegFile regs{TrackerRegMap::kInfo, TrackerRegMap::kCount};
  bool busy = false;
  RegTarget model{"model", regs, [this] { return busy; }};
  ModelClock model_clock{"model_clock"};
  // A bus driven wrongly on purpose, and its checker.
  sc_signal<bool> bad_sel{"bad_sel"}, bad_en{"bad_en"}, bad_write{"bad_write"}, one{"one"};
  sc_signal<uint32_t> bad_addr{"bad_addr"}, bad_wdata{"bad_wdata"}, bad_strb{"bad_strb"};
  ApbChecker bad_checker{"bad_checker"};
  Host host{"host"};

  Env() {
    rtl.clk_i(clk);
    rtl.rst_ni(rst_n);
    rtl.psel_i(psel);
    rtl.penable_i(penable);
    rtl.pwrite_i(pwrite);
    rtl.paddr_i(paddr);
    rtl.pwdata_i(pwdata);
    rtl.pstrb_i(pstrb);
    rtl.prdata_o(prdata);
    rtl.pready_o(pready);
    rtl.pslverr_o(pslverr);
    rtl.reg2hw_o(reg2hw);
    rtl.hw2reg_i(hw2reg);
    rtl.intr_o(intr);
    bridge.clk_i(clk);
    bridge.psel_o(psel);
    bridge.penable_o(penable);
    bridge.pwrite_o(pwrite);
    bridge.paddr_o(paddr);
    bridge.pwdata_o(pwdata);
    bridge.pstrb_o(pstrb);
    bridge.prdata_i(prdata);
    bridge.pready_i(pready);
    bridge.pslverr_i(pslverr);
    checker.clk_i(clk);
    checker.rst_ni(rst_n);
    checker.psel_i(psel);
    checker.penable_i(penable);
    checker.pwrite_i(pwrite);
    checker.paddr_i(paddr);
    checker.pwdata_i(pwdata);
    checker.pstrb_i(pstrb);
    checker.pready_i(pready);
    bad_checker.clk_i(clk);
    bad_checker.rst_ni(one);
    bad_checker.psel_i(bad_sel);
    bad_checker.penable_i(bad_en);
    bad_checker.pwrite_i(bad_write);
    bad_checker.paddr_i(bad_addr);
    bad_checker.pwdata_i(bad_wdata);
    bad_checker.pstrb_i(bad_strb);
    bad_checker.pready_i(one);
    host.to_model.bind(model.socket);
    model_clock.clk_i(clk);
    model_clock.rst_ni(rst_n);
    model_clock.regs = &regs;
    model_clock.busy = &busy;
    host.to_rtl.bind(bridge.socket);
  }
};
Env* env = nullptr;

struct Result {
  unsigned accesses = 0, errors = 0, differ = 0;
  std::vector<std::string> diffs;
} result;

void compare(bool write, uint32_t addr, uint32_t data, const unsigned char* be) {
  uint32_t m = data, r = data;
  const auto sm = Host::access(env->host.to_model, write, addr, m, be);
  const auto sr = Host::access(env->host.to_rtl, write, addr, r, be);
  ++result.accesses;
  const bool ok_m = sm == tlm::TLM_OK_RESPONSE, ok_r = sr == tlm::TLM_OK_RESPONSE;
  result.errors += !ok_m;
  if (ok_m != ok_r || (!write && ok_m && m != r)) {
    ++result.differ;
    if (result.diffs.size() < 10)
      result.diffs.push_back(std::string(write ? "write" : "read") + " of " + std::to_string(addr) +
                             ": model " + (ok_m ? "OK" : "error") + " " + std::to_string(m) +
                             ", RTL " + (ok_r ? "OK" : "error") + " " + std::to_string(r));
  }
}

void run_host() {
  std::mt19937 rng(2026);
  env->rst_n.write(false);
  env->one.write(true);
  sc_core::wait(25, sc_core::SC_NS);
  env->rst_n.write(true);
  sc_core::wait(10, sc_core::SC_NS);
  const unsigned char partial[4] = {TLM_BYTE_ENABLED, TLM_BYTE_DISABLED, TLM_BYTE_ENABLED,
                                    TLM_BYTE_ENABLED};
  for (unsigned i = 0; i < 3000; ++i) {
    // Busy, for both, between transactions (hw2reg_i's last bit).
    env->busy = rng() % 4 == 0;
    auto h = env->hw2reg.read();
    h[0] = env->busy;
    env->hw2reg.write(h);
    sc_core::wait(sc_core::SC_ZERO_TIME);
    const unsigned pick = rng() % 10;
    const uint32_t addr = pick < 8 ? TrackerRegMap::kInfo[rng() % TrackerRegMap::kCount].offset
                                   : uint32_t(rng() % 0x1000);
    compare(rng() % 2, addr, uint32_t(rng()), rng() % 10 == 0 ? partial : nullptr);
  }
  // The same state: every register read back through both.
  env->busy = false;
  auto h = env->hw2reg.read();
  h[0] = false;
  env->hw2reg.write(h);
  for (unsigned r = 0; r < TrackerRegMap::kCount; ++r)
    compare(false, TrackerRegMap::kInfo[r].offset, 0, nullptr);

  // The wrong bus: an access phase without a setup phase, an address that
  // changes between setup and access, PENABLE without PSEL.
  auto edge = [] { sc_core::wait(env->clk.posedge_event()); };
  edge();
  env->bad_sel.write(true), env->bad_en.write(true), edge();      // 1: no setup
  env->bad_sel.write(false), env->bad_en.write(false), edge();
  env->bad_sel.write(true), env->bad_addr.write(4), edge();       // setup at 4
  env->bad_en.write(true), env->bad_addr.write(8), edge();        // 2: access at 8
  env->bad_sel.write(false), env->bad_en.write(true), edge();     // 3: PENABLE alone
  env->bad_en.write(false), edge();
  edge();
  sc_core::sc_stop();
}

TEST(TlmApbBridge, ModelAndRtlAnswerAlikeAndTheBusKeepsTheProtocol) {
  sc_core::sc_spawn(&run_host);
  sc_core::sc_start();
  for (const auto& d : result.diffs) ADD_FAILURE() << d;
  EXPECT_EQ(result.differ, 0u) << "of " << result.accesses << " accesses";
  EXPECT_GT(result.errors, 300u) << "the traffic must reach the error rules";
  EXPECT_EQ(env->bridge.transfers(), env->checker.transfers());
  EXPECT_GT(env->checker.transfers(), 2500u);  // reads with partial byte enables make none
  for (const auto& m : env->checker.messages()) ADD_FAILURE() << "APB: " << m;
  EXPECT_EQ(env->checker.violations(), 0u);
  // Each planted violation was seen (the checker is not blind).
  EXPECT_EQ(env->bad_checker.violations(), 3u);
  for (const auto& m : env->bad_checker.messages()) std::printf("planted, caught: %s\n", m.c_str());
  std::printf("%u accesses (%u errors) to model and RTL alike; %llu APB transfers, 0 violations\n",
              result.accesses, result.errors,
              static_cast<unsigned long long>(env->checker.transfers()));
}

}  // namespace
}  // namespace t3::tb

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  t3::tb::env = new t3::tb::Env;
  const int rc = RUN_ALL_TESTS();
  delete t3::tb::env;
  return rc;
}
