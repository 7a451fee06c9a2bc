// The firmware driver's configuration of GPU-0 of a 4-GPU ring
// reduce-scatter fused with its GEMM (T3 Fig. 7, 11, 12), run by two hosts
// at once in one SystemC elaboration: one on the subsystem's C++/SystemC
// model through its TLM-2.0 register socket (loosely timed), one on the
// Verilated RTL through the TLM-to-APB bridge, with the APB protocol
// checked on the pins. Checks:
//   - the writes of the configuration, as the register trace names them,
//     equal the golden trace written by hand from T3 Fig. 11-12 and the
//     register maps (ring_rs_gpu0.golden beside this file);
//   - both runs succeed, and read back every register of the four blocks
//     alike (the same block state, model and RTL);
//   - every RW field reads back as the configuration last wrote it;
//   - the APB bus saw no protocol violation.
// --write-golden FILE writes the trace it got (for a review, not to
// replace the hand-written one unread).
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>
#include <systemc>
#include <vector>

#include "Vmem_subsystem_sc.h"
#include "apb_checker.h"
#include "common/tlm_apb_bridge.h"
#include "cosim_config.h"
#include "host.h"
#include "mem_subsystem/mem_subsystem_sc.h"
#include "mem_subsystem_stimulus.h"
#include "sc_engine.h"
#include "t3/collectives.h"
#include "t3/dma_trigger_regs.h"
#include "t3/hal.h"

namespace {

using t3::MemSubsystemBlock;
constexpr t3_windows kWin = T3_MEM_SUBSYSTEM_WINDOWS;

t3::RegTrace trace_of() {
  return t3::RegTrace({{"tracker", kWin.tracker, t3::TrackerRegMap::kInfo, t3::TrackerRegMap::kCount},
                       {"dma_trigger", kWin.dma_trigger, t3::DmaTriggerRegMap::kInfo,
                        t3::DmaTriggerRegMap::kCount},
                       {"mca_arbiter", kWin.mca_arbiter, t3::McaArbiterRegMap::kInfo,
                        t3::McaArbiterRegMap::kCount},
                       {"near_bank_alu", kWin.near_bank_alu, t3::NearBankAluRegMap::kInfo,
                        t3::NearBankAluRegMap::kCount}});
}

// Every register of the four blocks: address and name.
std::vector<std::pair<uint32_t, std::string>> all_registers() {
  std::vector<std::pair<uint32_t, std::string>> r;
  auto add = [&](uint32_t base, const char* block, const t3::RegInfo* regs, unsigned n) {
    for (unsigned i = 0; i < n; ++i) r.push_back({base + regs[i].offset, std::string(block) + "." + regs[i].name});
  };
  add(kWin.tracker, "tracker", t3::TrackerRegMap::kInfo, t3::TrackerRegMap::kCount);
  add(kWin.dma_trigger, "dma_trigger", t3::DmaTriggerRegMap::kInfo, t3::DmaTriggerRegMap::kCount);
  add(kWin.mca_arbiter, "mca_arbiter", t3::McaArbiterRegMap::kInfo, t3::McaArbiterRegMap::kCount);
  add(kWin.near_bank_alu, "near_bank_alu", t3::NearBankAluRegMap::kInfo, t3::NearBankAluRegMap::kCount);
  return r;
}

// The RW bits of the register at addr (0 where none).
uint32_t rw_mask(uint32_t addr) {
  auto in = [&](uint32_t base, const t3::RegInfo* regs, unsigned n) -> std::optional<uint32_t> {
    for (unsigned i = 0; i < n; ++i)
      if (base + regs[i].offset == addr) return regs[i].mask(t3::RegAccess::rw);
    return std::nullopt;
  };
  for (auto m : {in(kWin.tracker, t3::TrackerRegMap::kInfo, t3::TrackerRegMap::kCount),
                 in(kWin.dma_trigger, t3::DmaTriggerRegMap::kInfo, t3::DmaTriggerRegMap::kCount),
                 in(kWin.mca_arbiter, t3::McaArbiterRegMap::kInfo, t3::McaArbiterRegMap::kCount),
                 in(kWin.near_bank_alu, t3::NearBankAluRegMap::kInfo, t3::NearBankAluRegMap::kCount)})
    if (m) return *m;
  return 0;
}


// One host's run: the configuration, then every register read back.
struct Run {
  int result = -1;
  std::vector<uint32_t> readback;
  std::vector<uint32_t> entries;  // the table's entries, TBL_RD_* each
};

int configure_and_read(const t3::tb::MemPhase& ph, t3::Host& host, Run& run) {
  t3_ctx c;
  int e = t3_init(&c, &kWin, ph.gpu, ph.gpus);
  if (!e) e = t3_probe(&c);
  if (!e) e = t3_mca_setup(&c, &ph.mca);
  if (!e) e = t3_set_burst(&c, ph.burst_log2);
  if (!e) e = t3_ring_reduce_scatter(&c, &ph.buf, ph.peer_addr.data(), ph.tiles_per_block);
  if (!e) e = t3_commit(&c);
  run.result = e;
  host.set_trace(nullptr);  // the trace: the configuration's accesses only
  if (e) return e;
  for (const auto& [addr, name] : all_registers()) {
    uint32_t v = 0;
    if (mmio_read32(addr, &v) != T3_MMIO_OK) v = 0xDEADBEEF;  // no register refuses a read
    run.readback.push_back(v);
  }
  // Every DMA trigger table entry, through TBL_IDX and the TBL_RD_* view.
  for (uint32_t i = 0; i < c.hw.entries; ++i) {
    if (mmio_write32(kWin.dma_trigger + T3_DMA_TRIGGER_A_TBL_IDX, i) != T3_MMIO_OK) return T3_E_MMIO;
    for (uint32_t a = T3_DMA_TRIGGER_A_TBL_RD_SRC_LO; a <= T3_DMA_TRIGGER_A_TBL_RD_TILE_COLS; a += 4) {
      uint32_t v = 0;
      if (mmio_read32(kWin.dma_trigger + a, &v) != T3_MMIO_OK) v = 0xDEADBEEF;
      run.entries.push_back(v);
    }
  }
  return 0;
}

}  // namespace

int sc_main(int argc, char** argv) {
  std::string golden_out;
  for (int i = 1; i + 1 < argc; ++i)
    if (std::string(argv[i]) == "--write-golden") golden_out = argv[i + 1];
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  const t3::MemSubsystemParams p = t3::tb::built_params<MemSubsystemBlock>();

  // GPU-0 of 4: the main job's GEMM (512 x 512 fp16, 64 x 64 WG tiles of 8 WFs).
  t3::tb::MemPhase ph;
  ph.gpu = 0;
  ph.gpus = 4;
  ph.buf = t3_buffer{0x100000, 512, 512, 2, 64, 64, 8};
  for (uint32_t g = 0; g < 4; ++g) ph.peer_addr.push_back(g == 0 ? ph.buf.addr : (uint64_t(g + 1) << 36) + ph.buf.addr);
  ph.tiles_per_block = 1;
  ph.burst_log2 = 6;
  ph.mca = t3::tb::MemPhase::default_mca(p);

  sc_core::sc_clock clk("clk", sc_core::sc_time(10, sc_core::SC_NS));
  t3::MemSubsystemSc model("model", p, /*tlm_regs=*/true);
  Vmem_subsystem_sc rtl("rtl");
  model.clk_i(clk);
  rtl.clk_i(clk);
  using ModelPins = t3::tb::PinSignals<MemSubsystemBlock, t3::MemSubsystemSc>;
  using RtlPins = t3::tb::PinSignals<MemSubsystemBlock, Vmem_subsystem_sc>;
  ModelPins mpins(p, model, "model_");
  RtlPins rpins(p, rtl, "rtl_", {"psel_i", "penable_i", "pwrite_i", "paddr_i", "pwdata_i", "pstrb_i"});
  t3::TlmApbBridge bridge("bridge", uint64_t{1} << t3::kMemSubsystemApbAddrBits);
  bridge.clk_i(clk);
  bridge.psel_o(rpins.signal<bool>("psel_i"));
  bridge.penable_o(rpins.signal<bool>("penable_i"));
  bridge.pwrite_o(rpins.signal<bool>("pwrite_i"));
  bridge.paddr_o(rpins.signal<uint32_t>("paddr_i"));
  bridge.pwdata_o(rpins.signal<uint32_t>("pwdata_i"));
  bridge.pstrb_o(rpins.signal<uint32_t>("pstrb_i"));
  bridge.prdata_i(rpins.signal<uint32_t>("prdata_o"));
  bridge.pready_i(rpins.signal<bool>("pready_o"));
  bridge.pslverr_i(rpins.signal<bool>("pslverr_o"));
  t3::tb::ApbChecker checker("checker");
  checker.clk_i(clk);
  checker.rst_ni(rpins.signal<bool>("rst_ni"));
  checker.psel_i(rpins.signal<bool>("psel_i"));
  checker.penable_i(rpins.signal<bool>("penable_i"));
  checker.pwrite_i(rpins.signal<bool>("pwrite_i"));
  checker.paddr_i(rpins.signal<uint32_t>("paddr_i"));
  checker.pwdata_i(rpins.signal<uint32_t>("pwdata_i"));
  checker.pstrb_i(rpins.signal<uint32_t>("pstrb_i"));
  checker.pready_i(rpins.signal<bool>("pready_o"));
  t3::Host on_model("on_model", trace_of()), on_rtl("on_rtl", trace_of());
  on_model.socket.bind(model.regs_socket());
  on_rtl.socket.bind(bridge.socket);
  std::ostringstream model_trace, rtl_trace;
  on_model.set_trace(&model_trace);
  on_rtl.set_trace(&rtl_trace);

  // Reset, then idle traffic pins; the hosts program what they reach.
  t3::MemSubsystemInputs in{};
  in.rst_n = false;
  mpins.drive(in);
  rpins.drive(in);
  sc_core::sc_start(sc_core::sc_time(25, sc_core::SC_NS));
  in.rst_n = true;
  mpins.drive(in);
  rpins.drive(in);
  Run m, r;
  on_model.run([&] { return configure_and_read(ph, on_model, m); });
  on_rtl.run([&] { return configure_and_read(ph, on_rtl, r); });
  for (int i = 0; i < 10000 && !(on_model.done() && on_rtl.done()); ++i)
    sc_core::sc_start(sc_core::sc_time(1, sc_core::SC_US));

  int failures = 0;
  auto fail = [&](const std::string& what) {
    std::printf("FAIL: %s\n", what.c_str());
    ++failures;
  };
  if (!on_model.done() || !on_rtl.done()) fail("a host did not finish");
  if (m.result != T3_OK) fail("the configuration on the model: " + std::string(t3_strerror(m.result)));
  if (r.result != T3_OK) fail("the configuration on the RTL: " + std::string(t3_strerror(r.result)));

  // The configuration's writes against the golden trace, on both.
  const std::vector<std::string> mw = t3::trace_writes(model_trace.str()), rw = t3::trace_writes(rtl_trace.str());
  if (!golden_out.empty()) {
    std::ofstream g(golden_out);
    for (const std::string& l : mw) g << l << "\n";
  }
  std::vector<std::string> golden;
  try {
    golden = t3::golden_writes(T3_GOLDEN_TRACE);
  } catch (const std::runtime_error& e) {
    fail(e.what());
  }
  auto compare = [&](const char* who, const std::vector<std::string>& got) {
    for (size_t i = 0; i < std::max(got.size(), golden.size()); ++i) {
      const std::string a = i < got.size() ? got[i] : "(nothing)", b = i < golden.size() ? golden[i] : "(nothing)";
      if (a != b) {
        fail(std::string(who) + " write " + std::to_string(i + 1) + ":\n    got    " + a + "\n    golden " + b);
        return;
      }
    }
  };
  compare("model", mw);
  compare("RTL", rw);

  // The same state, model and RTL; the RW fields as last written.
  const auto regs = all_registers();
  std::map<uint32_t, uint32_t> last;
  for (const std::string& l : mw) {
    unsigned a = 0, v = 0;
    if (std::sscanf(l.c_str(), "W 0x%x %*s = 0x%x", &a, &v) == 2) last[a] = v;
  }
  unsigned rw_checked = 0;
  for (size_t i = 0; i < regs.size() && i < m.readback.size() && i < r.readback.size(); ++i) {
    if (m.readback[i] != r.readback[i]) {
      char b[160];
      std::snprintf(b, sizeof b, "%s reads 0x%08x on the model, 0x%08x on the RTL", regs[i].second.c_str(),
                    m.readback[i], r.readback[i]);
      fail(b);
    }
    const uint32_t mask = rw_mask(regs[i].first);
    const auto w = last.find(regs[i].first);
    if (mask && w != last.end()) {
      ++rw_checked;
      if ((m.readback[i] & mask) != (w->second & mask)) fail(regs[i].second + ": RW bits read back other than written");
    }
  }
  if (m.readback.size() != regs.size() || r.readback.size() != regs.size()) fail("not every register read back");
  // The table as the maps say, alike on both: entries 0..2 the three
  // tracked stages (the golden trace's TBL_CTRL values), the rest invalid.
  const unsigned per = (T3_DMA_TRIGGER_A_TBL_RD_TILE_COLS - T3_DMA_TRIGGER_A_TBL_RD_SRC_LO) / 4 + 1;
  const unsigned ctrl_at = (T3_DMA_TRIGGER_A_TBL_RD_CTRL - T3_DMA_TRIGGER_A_TBL_RD_SRC_LO) / 4;
  const uint32_t want_ctrl[] = {0x00010313, 0x00010313, 0x00010015};
  if (m.entries != r.entries) fail("the DMA trigger table differs between model and RTL");
  for (size_t e = 0; e * per < m.entries.size(); ++e) {
    const uint32_t ctrl = m.entries[e * per + ctrl_at] & 0x00FFFFFF;  // without PENDING
    const uint32_t want = e < 3 ? want_ctrl[e] : 0;
    if ((e < 3 && ctrl != want) || (e >= 3 && (ctrl & 1)))
      fail("table entry " + std::to_string(e) + " TBL_RD_CTRL reads " + std::to_string(ctrl));
  }
  if (m.entries.size() != size_t(p.entries) * per || r.entries.size() != m.entries.size())
    fail("not every table entry read back");
  if (checker.violations()) fail(std::to_string(checker.violations()) + " APB protocol violations");
  std::printf("%zu writes of the configuration (golden: %zu), %zu registers read back alike on model and "
              "RTL, %u RW registers as written, %llu APB transfers, %llu protocol violations\n",
              mw.size(), golden.size(), regs.size(), rw_checked,
              static_cast<unsigned long long>(bridge.transfers()),
              static_cast<unsigned long long>(checker.violations()));
  std::printf("%s\n", failures ? "FAIL" : "PASS");
  return failures ? 1 : 0;
}
