// The main job (scripts/run.sh): GPU g's memory side during its part of a
// collective fused with its GEMM (T3 Fig. 7, 9, 11, 12), co-simulated, C++/
// SystemC model against RTL, every output of every cycle.
//
// The host model (tlm/host.h) runs the firmware driver (firmware/) over
// TLM-2.0: its transactions reach the co-simulated subsystem's APB port
// (testbench/common/cosim_tlm_port.h), model and RTL alike, and every access
// is printed as the register trace. Then the GEMM's writes, the peers'
// remote stores and DMA updates, and the DMA engine's reads flow through the
// subsystem (testbench traffic, mem_subsystem_stimulus.h); the end-to-end
// scoreboard checks that every tile leaves once, to where the maps say, and
// that the DMA engine reads what was reduced.
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <systemc>
#include <vector>

#include "common/bits.h"
#include "common/hex.h"
#include "cosim_config.h"
#include "cosim_tlm_port.h"
#include "cycle_stepper.h"
#include "host.h"
#include "mem_subsystem_harness.h"
#include "mem_subsystem_stimulus.h"
#include "run_options.h"
#include "t3/dma_trigger_regs.h"
#include "t3/hal.h"
#include "t3/mca_arbiter_regs.h"
#include "t3/tracker_regs.h"

namespace {

using t3::hex;
using t3::tb::Collective;
using t3::tb::MemPhase;

const char* kUsage =
    "usage: mem_subsystem_demo [--collective C] [--gpu G] [--gpus N] [--m ROWS] [--n COLS]\n"
    "                          [--seed N] [--engine systemc|direct] [--vcd FILE] [--out DIR]\n"
    "Runs GPU g's memory side (Tracker, DMA trigger table, MCA arbiter, near-bank ALU) through\n"
    "its part of a collective fused with a GEMM, programmed by the firmware driver over TLM-2.0,\n"
    "C++/SystemC model and Verilated RTL compared every cycle, and prints what happened.\n"
    "  --collective C  ring-rs (default), direct-rs, all-gather or all-to-all (T3 Fig. 7, §7.1)\n"
    "  --gpu G         this GPU, 0..N-1 (default 0)\n"
    "  --gpus N        GPUs in the node, 2..16 (default 4)\n"
    "  --m ROWS        GEMM output rows, a multiple of 64 (default 512)\n"
    "  --n COLS        GEMM output columns, a multiple of 64 x N (default 512)\n";

constexpr t3_windows kWin = T3_MEM_SUBSYSTEM_WINDOWS;

// Descriptors that left, per stage.
struct StageSent {
  uint64_t descs = 0, bytes = 0, lo = ~uint64_t{0}, hi = 0;
  uint32_t gpu = 0;
  bool update = false;
};

}  // namespace

int sc_main(int argc, char** argv) {
  Collective coll = Collective::ring_rs;
  uint32_t gpu = 0, gpus = 4, m = 512, n = 512;
  t3::tb::RunOptions opt;
  try {
    std::vector<char*> rest{argv[0]};
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      const bool more = i + 1 < argc;
      if (a == "--collective" && more) {
        const auto c = t3::tb::collective_from(argv[++i]);
        if (!c)
          throw std::invalid_argument(std::string("--collective = '") + argv[i] +
                                      "' is not known; allowed: ring-rs, direct-rs, all-gather, all-to-all");
        coll = *c;
      } else if (a == "--gpu" && more) gpu = t3::tb::parse_option_in_range(a, argv[++i], 0, 15);
      else if (a == "--gpus" && more) gpus = t3::tb::parse_option_in_range(a, argv[++i], 2, 16);
      else if (a == "--m" && more) m = t3::tb::parse_option_in_range(a, argv[++i], 64, 1u << 14);
      else if (a == "--n" && more) n = t3::tb::parse_option_in_range(a, argv[++i], 64, 1u << 14);
      else rest.push_back(argv[i]);
    }
    if (t3::tb::parse_program_options(rest, kUsage, opt)) return 0;
    if (gpu >= gpus)
      throw std::invalid_argument("--gpu = " + std::to_string(gpu) + " is out of range; allowed: 0.." +
                                  std::to_string(gpus - 1));
    if (m % 64) throw std::invalid_argument("--m = " + std::to_string(m) + " must be a multiple of 64");
    if (n % (64 * gpus))
      throw std::invalid_argument("--n = " + std::to_string(n) + " must be a multiple of " +
                                  std::to_string(64 * gpus) + " (64 x gpus)");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "mem_subsystem_demo: %s\n%s", e.what(), kUsage);
    return 2;
  }
  if (opt.vcd == "none") opt.vcd.clear();
  const uint64_t seed = t3::tb::resolve_seed(opt);
  const t3::MemSubsystemParams p = t3::tb::built_params<t3::MemSubsystemBlock>();

  // The GEMM's output on this GPU, and where the collective's buffer lies on
  // every GPU (T3 Fig. 11: the same shape).
  const MemPhase ph = MemPhase::gemm(p, coll, gpu, gpus, m, n);
  const t3_buffer& b = ph.buf;
  if (!ph.fits(p)) {
    const uint64_t span = uint64_t(p.burst_bytes) * p.bg << p.bank_addr_w;
    std::fprintf(stderr, "mem_subsystem_demo: a %u x %u output does not fit the modelled DRAM (%llu "
                 "bytes); use a smaller --m or --n\n", m, n, static_cast<unsigned long long>(span));
    return 2;
  }

  // The co-simulation, the DRAM array beside it, the scoreboard, the host.
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  auto cosim = t3::tb::make_cosim<t3::MemSubsystemBlock>(opt);
  t3::tb::MemSubsystemHarness h(*cosim, seed);
  t3::tb::MemSubsystemScoreboard& sb = h.sb();
  t3::tb::CosimTlmPort port("port", h.apb(), T3_MEM_SUBSYSTEM_SPAN);
  const t3::RegTrace regmap({{"tracker", kWin.tracker, t3::TrackerRegMap::kInfo, t3::TrackerRegMap::kCount},
                             {"dma_trigger", kWin.dma_trigger, t3::DmaTriggerRegMap::kInfo,
                              t3::DmaTriggerRegMap::kCount},
                             {"mca_arbiter", kWin.mca_arbiter, t3::McaArbiterRegMap::kInfo,
                              t3::McaArbiterRegMap::kCount},
                             {"near_bank_alu", kWin.near_bank_alu, t3::NearBankAluRegMap::kInfo,
                              t3::NearBankAluRegMap::kCount}});
  t3::Host host("host", regmap);
  host.socket.bind(port.socket);
  std::ostringstream trace;
  host.set_trace(&trace);
  const bool kernel_free = opt.engine == t3::tb::EngineKind::direct;

  t3_ctx ctx{};
  std::unique_ptr<t3::tb::MemSubsystemStimulus> stim;
  std::map<uint32_t, StageSent> sent;  // by stage
  uint64_t errors = 0, cycles = 0, max_occupancy = 0, desc_stalls = 0;
  auto stage_of = [&](uint64_t addr) -> int {
    for (uint32_t i = 0; i < ctx.n_maps; ++i) {
      const t3_map& mp = ctx.maps[i];
      const uint64_t lo = b.addr + uint64_t(mp.chunk.col0) * m * b.elem_bytes;
      if (addr >= lo && addr < lo + uint64_t(mp.chunk.cols) * m * b.elem_bytes) return int(mp.stage);
    }
    return -1;
  };
  auto cycle = [&] {
    const t3::tb::MemSubsystemHarness::Cycle r = h.cycle();
    const t3::MemSubsystemInputs& seen = r.in;
    const t3::MemSubsystemOutputs& out = cosim->out();
    if (!r.compared) ++errors;
    if (r.sb_error && ++errors <= 5)
      std::fprintf(stderr, "scoreboard, cycle %llu: %s\n", static_cast<unsigned long long>(cycles),
                   r.sb_error->c_str());
    if (r.apb_done) port.completed(*r.apb_done);
    if (out.desc_valid && seen.desc_ready) {
      StageSent& s = sent[uint32_t(stage_of(out.desc_src))];
      ++s.descs;
      s.bytes += out.desc_bytes;
      s.lo = std::min<uint64_t>(s.lo, out.desc_dst);
      s.hi = std::max<uint64_t>(s.hi, out.desc_dst + out.desc_bytes);
      s.gpu = out.desc_gpu;
      s.update = out.desc_op;
    }
    desc_stalls += out.desc_valid && !seen.desc_ready;
    max_occupancy = std::max<uint64_t>(max_occupancy, out.occupancy);
    ++cycles;
    // The host's firmware thread runs in SystemC time: the SystemC engine
    // advanced it by this cycle; without the kernel, let it run here.
    if (kernel_free) sc_core::sc_start(sc_core::sc_time(t3::tb::CycleStepper::kPeriodNs, sc_core::SC_NS));
  };
  auto run_firmware = [&](std::function<int()> fw) {
    host.run(std::move(fw));
    for (unsigned i = 0; !host.done() && i < 1000000; ++i) cycle();
    return host.done() ? host.result() : T3_E_TIMEOUT;
  };

  std::printf("T3 memory side of GPU-%u: %s over %u GPUs, fused with its GEMM (T3 Fig. 7, 9, 11, 12)\n",
              gpu, t3::tb::to_string(coll), gpus);
  std::printf("  GEMM output %u x %u fp16 (column-major) at %s, WG tile 64 x 64 of 8 WFs (WF tile 64 x 8)\n",
              m, n, hex(b.addr).c_str());
  std::printf("  subsystem: Tracker %u x %u, DMA table %u entries, DRAM queue %u, %u B bursts, %u bank groups\n",
              p.sets, p.ways, p.entries, p.queue_depth, p.burst_bytes, p.bg);
  std::printf("  model and RTL co-simulated (engine %s), seed %llu\n\n", cosim->engine_name(),
              static_cast<unsigned long long>(seed));

  cosim->in().rst_n = false;
  for (int i = 0; i < 2; ++i) cycle();
  cosim->in().rst_n = true;

  // The firmware: probe, the collective's maps (t3/collectives.h), commit.
  const int rc = run_firmware([&] {
    int e = t3_init(&ctx, &kWin, gpu, gpus);
    if (!e) e = t3_probe(&ctx);
    if (!e) e = t3_mca_setup(&ctx, &ph.mca);
    if (!e) e = t3_set_burst(&ctx, ph.burst_log2);
    if (!e) e = ph.map(ctx);
    if (!e) e = t3_commit(&ctx);
    return e;
  });
  std::printf("firmware over TLM-2.0 (t3_probe, the %s maps, t3_commit): every register access\n%s\n",
              t3::tb::to_string(coll), trace.str().c_str());
  if (rc != T3_OK) {
    std::printf("the driver refused: %s (%s)\nFAIL\n", t3_message(&ctx), t3_strerror(rc));
    return 1;
  }
  std::printf("the maps (T3 Fig. 12):\n");
  for (uint32_t i = 0; i < ctx.n_maps; ++i) {
    const t3_map& mp = ctx.maps[i];
    std::printf("  stage %u: columns %4u..%4u  ", mp.stage, mp.chunk.col0, mp.chunk.col0 + mp.chunk.cols - 1);
    if (mp.kind == T3_MAP_REMOTE)
      std::printf("remote_map -> GPU %u at %s, %s (the GEMM writes it there)\n", mp.peer,
                  hex(mp.peer_addr).c_str(), mp.op == T3_UPDATE ? "UPDATE" : "STORE");
    else if (mp.kind == T3_MAP_DMA)
      std::printf("dma_map    -> GPU %u at %s, %s, after %u update(s) per element, %u WF tile(s) a block\n",
                  mp.peer, hex(mp.peer_addr).c_str(), mp.op == T3_UPDATE ? "UPDATE" : "STORE",
                  mp.updates_per_elem, mp.wf_tiles_per_block);
    else
      std::printf("track_map, kept here, after %u update(s) per element\n", mp.updates_per_elem);
  }

  // The traffic, until everything it brings has been sent and read.
  sb.configure(ctx);
  stim = std::make_unique<t3::tb::MemSubsystemStimulus>(p, ph, ctx, t3::tb::MemTraffic{}, seed);
  h.set_traffic(stim.get());
  const uint64_t start = cycles;
  std::printf("\nco-simulating the GEMM's writes, the peers' updates and the DMA engine ...\n");
  const bool drained = h.drain(5000000, [&] {
    cycle();
    return true;
  });
  const uint64_t traffic_cycles = cycles - start;
  const t3::tb::MemSubsystemStimulus& s = *stim;
  const uint64_t local = s.local_writes(), peer = s.peer_writes(), other = s.other(), reads = s.dma_reads();
  const uint64_t remote_tiles = s.remote_writes();
  h.set_traffic(nullptr);
  stim.reset();
  if (auto err = sb.check_drained()) {
    ++errors;
    std::fprintf(stderr, "scoreboard at the end: %s\n", err->c_str());
  }

  // The blocks' own counts, read by the firmware.
  uint32_t trk_triggers = 0, trk_stalls = 0, dma_descs = 0, wait_cmp = 0, wait_com = 0, starved = 0;
  uint32_t intr_state[4] = {}, intr_enable[4] = {};
  // Every block's window starts with INTR_STATE and INTR_ENABLE (OpenTitan's layout).
  const uint32_t windows[4] = {kWin.tracker, kWin.dma_trigger, kWin.mca_arbiter, kWin.near_bank_alu};
  constexpr uint32_t kIntrEnable = T3_TRACKER_A_INTR_ENABLE;
  trace.str("");
  const int rc2 = run_firmware([&] {
    return mmio_read32(kWin.tracker + T3_TRACKER_A_STAT_TRIGGERS, &trk_triggers) |
           mmio_read32(kWin.tracker + T3_TRACKER_A_STAT_STALLS, &trk_stalls) |
           mmio_read32(kWin.dma_trigger + T3_DMA_TRIGGER_A_STAT_DESCS, &dma_descs) |
           mmio_read32(kWin.mca_arbiter + T3_MCA_ARBITER_A_STAT_WAIT_CMP, &wait_cmp) |
           mmio_read32(kWin.mca_arbiter + T3_MCA_ARBITER_A_STAT_WAIT_COM, &wait_com) |
           mmio_read32(kWin.mca_arbiter + T3_MCA_ARBITER_A_STAT_STARVED, &starved) |
           mmio_read32(windows[0], &intr_state[0]) | mmio_read32(windows[1], &intr_state[1]) |
           mmio_read32(windows[2], &intr_state[2]) | mmio_read32(windows[3], &intr_state[3]) |
           mmio_read32(windows[0] + kIntrEnable, &intr_enable[0]) |
           mmio_read32(windows[1] + kIntrEnable, &intr_enable[1]) |
           mmio_read32(windows[2] + kIntrEnable, &intr_enable[2]) |
           mmio_read32(windows[3] + kIntrEnable, &intr_enable[3]);
  });
  cosim->flush_waveforms();
  errors += rc2 != 0;

  uint64_t descs = 0;
  for (const auto& kv : sent) descs += kv.second.descs;
  std::printf("\nsummary (%llu cycles of traffic)\n", static_cast<unsigned long long>(traffic_cycles));
  std::printf("  requests taken     %llu GEMM writes, %llu from the peers, %llu DMA reads, %llu other\n",
              static_cast<unsigned long long>(local), static_cast<unsigned long long>(peer),
              static_cast<unsigned long long>(reads), static_cast<unsigned long long>(other));
  if (remote_tiles)
    std::printf("  remote_map         %llu WF tiles written by the GEMM straight into the peer's memory\n",
                static_cast<unsigned long long>(remote_tiles));
  std::printf("  triggers           %llu WF tiles complete (Tracker STAT_TRIGGERS %u)\n",
              static_cast<unsigned long long>(sb.tiles_completed()), trk_triggers);
  for (uint32_t i = 0; i < ctx.n_maps; ++i) {
    const t3_map& mp = ctx.maps[i];
    if (mp.kind == T3_MAP_REMOTE) continue;
    const auto it = sent.find(mp.stage);
    if (mp.kind == T3_MAP_TRACK || it == sent.end()) {
      std::printf("  stage %u            kept here: its tiles counted, nothing sent\n", mp.stage);
      continue;
    }
    const StageSent& st = it->second;
    std::printf("  stage %u DMA        -> GPU %u [%s, %s): %llu descriptors, %llu bytes, %s\n", mp.stage,
                st.gpu, hex(st.lo).c_str(), hex(st.hi).c_str(), static_cast<unsigned long long>(st.descs),
                static_cast<unsigned long long>(st.bytes), st.update ? "UPDATE" : "STORE");
  }
  std::printf("  DMA table          %u descriptors (STAT_DESCS), %llu cycles the DMA engine held them back\n",
              dma_descs, static_cast<unsigned long long>(desc_stalls));
  std::printf("  back-pressure      MCA: compute waited %u cycles, communication %u (%u starvation grants);\n"
              "                     Tracker held writes back %u cycles; DRAM queue up to %llu of %u\n",
              wait_cmp, wait_com, starved, trk_stalls, static_cast<unsigned long long>(max_occupancy),
              p.queue_depth);
  std::printf("  co-simulation      %llu mismatching outputs between model and RTL, %llu APB protocol violations\n",
              static_cast<unsigned long long>(cosim->mismatches()),
              static_cast<unsigned long long>(cosim->apb_violations()));
  std::printf("  scoreboard         %s\n",
              errors ? "FAILED (see above)"
                     : "every tile sent once, to where the maps say; every DMA read the reduced data");
  // Pending events (a starvation grant, a set that filled) are news; an
  // enabled one (the driver enables the errors) is a failure.
  for (int b = 0; b < 4; ++b)
    if (intr_state[b]) {
      const bool error = intr_state[b] & intr_enable[b];
      std::string line = regmap.line("", false, windows[b], intr_state[b], "");
      line = line.substr(line.find(" R ") + 3);
      std::printf("  %s %s\n", error ? "ERROR pending     " : "events pending    ", line.c_str());
      errors += error;
    }
  if (!opt.vcd.empty()) std::printf("  waveform           %s\n", opt.vcd.c_str());
  // The blocks' counters against what the testbench saw (STAT_W wide).
  const uint64_t stat_mask = p.stat_w >= 64 ? ~uint64_t{0} : (uint64_t{1} << p.stat_w) - 1;
  const bool counts_agree =
      trk_triggers == (sb.tiles_completed() & stat_mask) && dma_descs == (descs & stat_mask);
  if (!counts_agree)
    std::printf("  the blocks' counters disagree with the testbench: %u triggers, %u descriptors\n",
                trk_triggers, dma_descs);
  const bool ok = errors == 0 && drained && cosim->failures() == 0 && descs == sb.descriptors() &&
                  counts_agree;
  if (!drained) std::printf("  the traffic did not drain: deadlock\n");
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
