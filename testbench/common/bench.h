// Simulation speed of a block in each of its forms, for any block.
//
// The block's traffic source (its constrained-random stimulus) runs against
// the C++ model and its inputs are recorded cycle by cycle, a chunk at a
// time; the form under test replays each chunk, so each row measures the
// form itself, not the stimulus. Replaying is exact because every form is
// cycle-equivalent (the co-simulation tests hold them to it). The stimulus's own cost is
// reported on its own row: (source + model) minus the model's replay.
//
// Forms: core (the C++ model), systemc (its SystemC module in the kernel),
// rtl_systemc (Verilated RTL, SystemC output, in the kernel), rtl_c
// (Verilated RTL, plain C++ output), cosim_systemc and cosim_direct (both
// models in lock-step with the every-cycle compare, by either engine).
// SystemC elaborates once per process, so each form runs in a child process.
// Wall-clock noise only ever adds time (this VM shows runs 1.7x slower now
// and then), so each form runs --runs times, the rounds interleaved, and the fastest run counts.
//
// A block's bench is a few lines: its sc_main calls bench_main<Block>() with
// a function that makes its traffic source; a source has
//   void drive(Inputs&);                          // this cycle's inputs
//   void after(const Inputs&, const Outputs&);    // what the DUT answered
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <systemc>
#include <vector>

#include "block_build.h"

namespace t3::tb {

template <class Block, class MakeSource>
int bench_main(int argc, char** argv, MakeSource make_source) {
  using Inputs = typename Block::Inputs;
  using Outputs = typename Block::Outputs;
  using Clock = std::chrono::steady_clock;
  const char* usage =
      "usage: %s_bench [--cycles N] [--seed N] [--runs N] [--form F]\n"
      "Simulation speed of each form of the block on its random traffic (recorded a chunk\n"
      "at a time, each chunk replayed to the form). Without --form: every form in a child\n"
      "process, --runs times (default 3; the fastest counts), and a table.\n"
      "Forms: source, core, systemc, rtl_systemc, rtl_c, cosim_systemc, cosim_direct.\n";
  std::string form;
  uint64_t cycles = 1000000, seed = 12345, runs = 3;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto num = [&](const char* what) {
      char* end = nullptr;
      const unsigned long long v = i + 1 < argc ? std::strtoull(argv[++i], &end, 10) : 0;
      if (!end || *end || v == 0) {
        std::fprintf(stderr, "%s_bench: %s needs a positive number\n", Block::kName, what);
        std::exit(2);
      }
      return uint64_t(v);
    };
    if (a == "--form" && i + 1 < argc) form = argv[++i];
    else if (a == "--cycles") cycles = num("--cycles");
    else if (a == "--seed") seed = num("--seed");
    else if (a == "--runs") runs = num("--runs");
    else {
      std::printf(usage, Block::kName);
      return a == "--help" || a == "-h" ? 0 : 2;
    }
  }
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  const typename Block::Params p = built_params<Block>();

  if (!form.empty()) {
    try {
      // Record a chunk, replay it to the form, record the next: the source
      // runs against its own C++ model (timed apart: the source's cost) and
      // the form sees the same inputs in the same order as if recorded whole.
      // A chunk stays in the cache: a recording of the whole run would stream
      // from memory (the near-bank ALU's inputs are 240 bytes, a third of its
      // model's time at 1 M cycles), which measures the memory, not the form.
      // Two cycles of reset first: the RTL's registers start unknown.
      constexpr uint64_t kChunk = 2048;
      std::vector<Inputs> trace(std::min(cycles, kChunk));
      auto source = make_source(p, seed);
      typename Block::Model model(p);
      Inputs in{};
      in.rst_n = false;
      uint64_t c = 0;
      auto record = [&](uint64_t n) {
        const auto t = Clock::now();
        for (uint64_t k = 0; k < n; ++k, ++c) {
          if (c == 2) in.rst_n = true;
          if (c >= 2) source.drive(in);
          trace[k] = in;
          if (c < 2) {
            model.clock(in);
            continue;
          }
          const Outputs o = model.eval(in);
          model.clock(in);
          source.after(in, o);
        }
        return std::chrono::duration<double>(Clock::now() - t).count();
      };
      double recorded = 0;
      auto replay = [&](auto step) {
        Outputs out{};
        double spent = 0;
        while (c < cycles) {
          const uint64_t n = std::min(kChunk, cycles - c);
          recorded += record(n);
          const auto t = Clock::now();
          for (uint64_t k = 0; k < n; ++k) step(trace[k], out);
          spent += std::chrono::duration<double>(Clock::now() - t).count();
        }
        return spent;
      };
      double s = 0;
      if (form == "source" || form == "core") {
        auto f = make_form<Block>("core", p);
        const double core = replay([&](const Inputs& i, Outputs& o) { f->step(i, o); });
        s = form == "core" ? core : std::max(0.0, recorded - core);
      } else if (form == "cosim_systemc" || form == "cosim_direct") {
        Cosim<Block> cosim(p, make_engine<Block>(form == "cosim_direct" ? EngineKind::direct
                                                                        : EngineKind::systemc, p),
                           CosimOptions{});
        s = replay([&](const Inputs& i, Outputs&) {
          cosim.in() = i;
          cosim.cycle();
        });
        if (cosim.failures()) throw std::runtime_error("model and RTL disagree, or the APB protocol broke");
      } else {
        auto f = make_form<Block>(form, p);
        s = replay([&](const Inputs& i, Outputs& o) { f->step(i, o); });
      }
      std::printf("RESULT %s %.6f\n", form.c_str(), s);
      return 0;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "%s_bench: %s\n", Block::kName, e.what());
      return 2;
    }
  }

  const BuildInfo& b = this_build();
  std::printf("%s (%s), %llu cycles of its random traffic per form, replayed; fastest of %llu "
              "interleaved rounds of every form\n",
              b.block.c_str(), b.params.c_str(), static_cast<unsigned long long>(cycles),
              static_cast<unsigned long long>(runs));
  std::printf("| form | what | seconds | M cycles/s |\n|---|---|---|---|\n");
  const std::pair<const char*, const char*> forms[] = {
      {"source", "the traffic generator alone (not in any row below)"},
      {"core", "C++ cycle model"},
      {"systemc", "its SystemC module, in the kernel"},
      {"rtl_systemc", "Verilated RTL (SystemC output), in the kernel"},
      {"rtl_c", "Verilated RTL (plain C++), no kernel"},
      {"cosim_systemc", "co-simulation, SystemC engine (compare every cycle)"},
      {"cosim_direct", "co-simulation, direct engine (compare every cycle)"}};
  // Rounds of every form, interleaved, the fastest of each form counting:
  // this VM's speed drifts by tens of percent over minutes, and runs of one
  // form after another put that drift into the ratios between forms (the
  // lock-step aim is one).
  constexpr size_t kForms = sizeof forms / sizeof forms[0];
  double best[kForms];
  for (double& b : best) b = -1;
  for (uint64_t r = 0; r < runs; ++r) {
    for (size_t i = 0; i < kForms; ++i) {
      const char* m = forms[i].first;
      const std::string cmd = std::string(argv[0]) + " --form " + m + " --cycles " +
                              std::to_string(cycles) + " --seed " + std::to_string(seed) + " 2>&1";
      FILE* f = popen(cmd.c_str(), "r");
      if (!f) return 1;
      char line[512];
      double t = -1;
      std::string text;
      while (std::fgets(line, sizeof line, f)) {
        char name[64];
        if (std::sscanf(line, "RESULT %63s %lf", name, &t) == 2) break;
        text += line;
      }
      pclose(f);
      if (t < 0) {
        std::fprintf(stderr, "%s_bench: form %s failed:\n%s", Block::kName, m, text.c_str());
        return 1;
      }
      best[i] = best[i] < 0 ? t : std::min(best[i], t);
    }
  }
  for (size_t i = 0; i < kForms; ++i)
    std::printf("| %s | %s | %.3f | %.2f |\n", forms[i].first, forms[i].second, best[i],
                best[i] > 0 ? double(cycles) / best[i] / 1e6 : 0.0);
  return 0;
}

}  // namespace t3::tb
