// Tracker demo: GPU-0's Tracker during a GEMM fused with a ring
// reduce-scatter (T3 §4.1, Fig. 7-9), run through the co-simulation of the
// C++/SystemC model and the RTL.
//
// The GEMM output (M x N fp16, column-major) is split into one column chunk
// per GPU. GPU-0 computes chunk after chunk in ring order; the first chunk
// goes straight to GPU-3's memory (remote_map, not seen here), every later
// chunk is written locally and also updated by the DMA from GPU-1, so each
// element gets two updates (updates_per_elem = 2). The Tracker must fire once
// per WF tile of those chunks, after both updates of all its elements.
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <random>
#include <stdexcept>
#include <string>
#include <systemc>
#include <vector>

#include "common/tile_map.h"
#include "cosim_config.h"
#include "run_options.h"
#include "tracker_scoreboard.h"

namespace {

using t3::TrackerConfig;
using t3::tb::TileWrite;

struct DemoShape {
  uint32_t gpus = 4;
  uint32_t m = 512, n = 512;       // GEMM output rows x columns
  uint32_t wg_rows = 64, wg_cols = 64;
  uint32_t wfs_per_wg = 8;          // T3 §4.2.1: 8 WFs per WG
  uint32_t burst_elems = 16;        // one 32 B store of fp16
  uint32_t dma_lag = 600;           // cycles before GPU-1's updates start arriving
  double untracked_share = 0.05;    // other traffic through the same controller
  double trig_busy = 0.1;           // the DMA trigger table is busy this often
};

const char* kUsage =
    "usage: tracker_demo [--gpus N] [--m ROWS] [--n COLS] [--seed N] [--vcd FILE] [--out DIR]\n"
    "Runs GPU-0's Tracker through a fused GEMM + ring reduce-scatter in co-simulation\n"
    "(C++/SystemC model and Verilated RTL, compared every cycle) and prints a summary.\n"
    "  --gpus N   GPUs in the ring, 2..16 (default 4)\n"
    "  --m ROWS   GEMM output rows, a multiple of 64 (default 512)\n"
    "  --n COLS   GEMM output columns, a multiple of 64 x gpus (default 512)\n"
    "  --vcd FILE waveform of the whole run (default tracker_demo.vcd; 'none' for none)\n";

std::string upper(std::string s) {
  for (char& c : s) c = char(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

}  // namespace

int sc_main(int argc, char** argv) {
  DemoShape s;
  t3::tb::RunOptions opt;
  try {
    std::vector<char*> rest{argv[0]};
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      const bool has_value = i + 1 < argc;
      if (a == "--gpus" && has_value) s.gpus = t3::tb::parse_option_in_range(a, argv[++i], 2, 16);
      else if (a == "--m" && has_value) s.m = t3::tb::parse_option_in_range(a, argv[++i], 64, 1u << 16);
      else if (a == "--n" && has_value) s.n = t3::tb::parse_option_in_range(a, argv[++i], 64, 1u << 16);
      else rest.push_back(argv[i]);
    }
    if (t3::tb::parse_program_options(rest, kUsage, opt)) return 0;
    if (s.m % s.wg_rows)
      throw std::invalid_argument("--m = " + std::to_string(s.m) + " must be a multiple of 64");
    if (s.n % (s.wg_cols * s.gpus))
      throw std::invalid_argument("--n = " + std::to_string(s.n) + " must be a multiple of " +
                                  std::to_string(s.wg_cols * s.gpus) + " (64 x gpus)");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tracker_demo: %s\n%s", e.what(), kUsage);
    return 2;
  }
  if (opt.vcd.empty()) opt.vcd = opt.out_dir + "/tracker_demo.vcd";
  if (opt.vcd == "none") opt.vcd.clear();
  const uint64_t seed = t3::tb::resolve_seed(opt);
  std::mt19937_64 rng(seed);

  const t3::TrackerParams p = t3::tb::built_params<t3::TrackerBlock>();
  const uint32_t chunk_cols = s.n / s.gpus;
  // The GEMM output buffer and the WG/WF tiling of one chunk (T3 Fig. 9(a)).
  t3::TileMap map;
  map.base = 0x100000000ull;
  map.m = s.m;
  map.cols = chunk_cols;
  map.wg_rows = s.wg_rows;
  map.wg_cols = s.wg_cols;
  map.wfs_per_wg = s.wfs_per_wg;
  const uint32_t wf_cols = map.wf_cols();
  const uint32_t wf_tile = map.wf_tile();
  const uint32_t wg_per_chunk = map.wgs();
  const uint64_t base = map.base;
  TrackerConfig cfg;
  cfg.enable = true;
  cfg.base = base;
  cfg.limit = base + uint64_t(s.m) * s.n * 2;
  cfg.tile_size = wf_tile;
  cfg.updates_per_elem = 2;
  if (auto err = cfg.check(p)) {
    std::fprintf(stderr, "tracker_demo: configuration: %s\n", err->c_str());
    return 2;
  }
  const uint32_t tracked_wgs = wg_per_chunk * (s.gpus - 1);
  if (tracked_wgs > (1u << p.wg_id_w) || wg_per_chunk > p.sets) {
    std::fprintf(stderr,
                 "tracker_demo: %u WGs per stage exceed the Tracker's %u sets; use a smaller "
                 "--m or --n\n",
                 wg_per_chunk, p.sets);
    return 2;
  }

  // The writes, stage by stage. Chunk order on GPU-0 follows the ring
  // (T3 Fig. 7): stage k works on chunk (gpus - k) mod gpus; stage 1's chunk
  // is remote. WG ids are numbered per stage (the Tracker holds one stage).
  t3::tb::TrackerScoreboard sb(p);
  std::deque<TileWrite> local, dma;
  std::vector<uint64_t> stage_tiles(s.gpus + 1, 0);
  for (uint32_t stage = 2; stage <= s.gpus; ++stage) {
    const uint32_t chunk = (s.gpus - stage + 1) % s.gpus;
    map.first_col = chunk * chunk_cols;
    std::vector<TileWrite> stage_writes;
    for (uint32_t wg = 0; wg < wg_per_chunk; ++wg) {
      const uint32_t wg_id = (stage - 2) * wg_per_chunk + wg;
      stage_tiles[stage] += s.wfs_per_wg;
      // The WG's 8 WFs store in lockstep, one 32 B burst each per step.
      for (uint32_t c = 0; c < wf_cols; ++c)
        for (uint32_t r = 0; r < s.wg_rows; r += s.burst_elems)
          for (uint32_t wf = 0; wf < s.wfs_per_wg; ++wf) {
            TileWrite w;
            w.wg_id = wg_id;
            w.wf_id = wf;
            w.addr = map.addr(map.row0(wg) + r, map.col0(wg, wf) + c);
            w.size = s.burst_elems;
            stage_writes.push_back(w);
          }
    }
    for (TileWrite w : stage_writes) {
      w.src = uint32_t(t3::WriteSource::local);
      local.push_back(w);
    }
    // GPU-1 produced its copy of the chunk in its own WG order; its DMA
    // updates arrive as its tiles complete, here in reverse WG order.
    for (auto it = stage_writes.rbegin(); it != stage_writes.rend(); ++it) {
      TileWrite w = *it;
      w.src = uint32_t(t3::WriteSource::dma);
      dma.push_back(w);
    }
  }

  const auto made = t3::tb::make_cosim<t3::TrackerBlock>(opt);
  auto& cosim = *made;
  uint64_t errors = cosim.reset() ? 0 : 1;
  // One cycle: the register port's phase, the compare, the scoreboard.
  t3::tb::ApbMaster apb;
  auto cycle = [&](uint64_t now) {
    t3::TrackerInputs& in = cosim.in();
    apb.drive(in.apb, in.rst_n);
    if (!cosim.cycle()) ++errors;
    if (auto err = sb.observe(in, cosim.out())) {
      if (++errors <= 5) std::fprintf(stderr, "scoreboard, cycle %llu: %s\n",
                                      static_cast<unsigned long long>(now), err->c_str());
    }
    if (auto d = apb.after(in.apb, cosim.out().apb)) {
      const int r = t3::tb::TrackerShadow::find(d->t.addr);
      std::printf("    cycle %3llu  W 0x%03x %-10s = 0x%08x%s\n",
                  static_cast<unsigned long long>(now), d->t.addr,
                  r < 0 ? "?" : upper(t3::TrackerRegMap::kInfo[r].name).c_str(), d->t.data,
                  d->err ? "  REFUSED" : "");
      errors += d->err;
    }
  };
  const uint64_t start_programming = cosim.cycles();
  const uint64_t local_total = local.size(), dma_total = dma.size();
  uint64_t untracked = 0, max_live = 0, first_trig = 0, last_trig = 0;
  std::vector<uint64_t> stage_done(s.gpus + 1, 0);
  std::vector<uint64_t> stage_fired(s.gpus + 1, 0);
  std::uniform_real_distribution<double> u(0.0, 1.0);
  bool have = false, from_local = false, turn_local = true, outside = false;
  TileWrite cur;
  const uint64_t cycle_limit = 20 * (local_total + dma_total) + 10000;
  std::printf("T3 Tracker demo: GPU-0 of a %u-GPU ring, GEMM output %u x %u fp16 (column-major)\n",
              s.gpus, s.m, s.n);
  std::printf("  WG tile %ux%u, %u WFs per WG, WF tile %u elements, 2 updates per element "
              "-> trigger at %u\n",
              s.wg_rows, s.wg_cols, s.wfs_per_wg, wf_tile, wf_tile * 2);
  std::printf("  seed %llu; co-simulating %llu writes (engine %s)...\n",
              static_cast<unsigned long long>(seed),
              static_cast<unsigned long long>(local_total + dma_total), cosim.engine_name());

  // The driver programs the region and the threshold, then turns tracking on.
  std::printf("  register writes (APB, offsets in the Tracker's window):\n");
  t3::tb::program(apb, cfg);
  while (!apb.idle()) cycle(cosim.cycles() - start_programming);
  cycle(cosim.cycles() - start_programming);  // the core takes the registers one cycle later
  const uint64_t start = cosim.cycles();

  // Until every write is in and every due trigger taken; the scoreboard
  // knows what is due independently of the outputs, which lag by a cycle.
  while ((!local.empty() || !dma.empty() || have || sb.triggers_due() > 0) &&
         cosim.cycles() - start < cycle_limit) {
    const uint64_t now = cosim.cycles() - start;
    const bool dma_open = now >= s.dma_lag;
    if (!have) {
      if (u(rng) < s.untracked_share) {
        cur = TileWrite{};
        outside = true;
        cur.addr = 0x2000 + (rng() % 4096) * 32;  // activations, outside the region
        cur.size = s.burst_elems;
        have = true;
        from_local = true;
      } else {
        // The memory controller alternates between the GEMM's and the DMA's queue.
        const bool pick_local = !local.empty() && (turn_local || !dma_open || dma.empty());
        const bool pick_dma = !pick_local && dma_open && !dma.empty();
        if (pick_local || pick_dma) {
          cur = pick_local ? local.front() : dma.front();
          outside = false;
          from_local = pick_local;
          have = true;
          turn_local = !pick_local;
        }
      }
    }
    t3::TrackerInputs& in = cosim.in();
    t3::tb::present(in, cur, have);
    in.trig_ready = u(rng) >= s.trig_busy;
    cycle(now);
    const t3::TrackerOutputs& o = cosim.out();
    if (o.trig_valid && in.trig_ready) {
      const uint32_t stage = 2 + o.trig_wg_id / wg_per_chunk;
      if (++stage_fired[stage] == stage_tiles[stage]) stage_done[stage] = now;
      if (!first_trig) first_trig = now;
      last_trig = now;
    }
    if (o.live > max_live) max_live = o.live;
    if (have && o.in_ready) {
      if (outside) ++untracked;
      else if (from_local) local.pop_front();
      else dma.pop_front();
      have = false;
    } else if (have) {
      // Refused (a full set, the trigger output busy, or not yet looked
      // up): the controller offers the other queue's head next, as the
      // Tracker allows; a write offered again two cycles later with nothing
      // taken in between is decided exactly.
      have = false;
      turn_local = !from_local;
    }
  }
  cosim.flush_waveforms();
  const uint64_t cycles = cosim.cycles() - start;
  if (auto err = sb.check_drained()) {
    ++errors;
    std::fprintf(stderr, "scoreboard at the end: %s\n", err->c_str());
  }
  const t3::TrackerOutputs& o = cosim.out();
  uint64_t expected = 0;
  for (uint64_t t : stage_tiles) expected += t;

  std::printf("\nsummary (%llu cycles at 1 write/cycle max)\n", static_cast<unsigned long long>(cycles));
  std::printf("  writes accepted     %llu local + %llu DMA tracked, %llu untracked (status: %u, %u)\n",
              static_cast<unsigned long long>(local_total),
              static_cast<unsigned long long>(dma_total),
              static_cast<unsigned long long>(untracked), o.stat_updates, o.stat_untracked);
  std::printf("  triggers            %llu of %llu WF tiles (status: %u), cycles %llu..%llu\n",
              static_cast<unsigned long long>(sb.triggers_seen()),
              static_cast<unsigned long long>(expected), o.stat_triggers,
              static_cast<unsigned long long>(first_trig),
              static_cast<unsigned long long>(last_trig));
  std::printf("    stage 1 (chunk 0): written to GPU-%u's memory directly (remote_map), not tracked "
              "here\n", s.gpus - 1);
  for (uint32_t stage = 2; stage <= s.gpus; ++stage)
    std::printf("    stage %u (chunk %u): %llu tiles, all triggered by cycle %llu\n", stage,
                (s.gpus - stage + 1) % s.gpus, static_cast<unsigned long long>(stage_fired[stage]),
                static_cast<unsigned long long>(stage_done[stage]));
  std::printf("  back-pressure       %u stall cycles (%llu set full, %llu trigger output busy, "
              "%llu until looked up)\n",
              o.stat_stalls, static_cast<unsigned long long>(sb.set_full_stalls()),
              static_cast<unsigned long long>(sb.output_stalls()),
              static_cast<unsigned long long>(sb.lookup_stalls()));
  std::printf("  live entries        at most %llu of %u\n", static_cast<unsigned long long>(max_live),
              p.entries());
  std::printf("  co-simulation       %llu mismatching outputs between model and RTL, %llu APB protocol violations\n",
              static_cast<unsigned long long>(cosim.mismatches()),
              static_cast<unsigned long long>(cosim.apb_violations()));
  std::printf("  scoreboard          %s\n", errors ? "FAILED (see above)"
                                                   : "every tile triggered once, lowest address "
                                                     "(checked on the RTL's outputs, equal to "
                                                     "the model's every cycle)");
  if (!opt.vcd.empty()) std::printf("  waveform            %s\n", opt.vcd.c_str());
  const bool ok = errors == 0 && cosim.failures() == 0 && sb.triggers_seen() == expected;
  std::printf("%s\n", ok ? "PASS" : "FAIL");
  return ok ? 0 : 1;
}
