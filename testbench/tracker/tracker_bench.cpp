// Simulation speed of the Tracker in its four forms, on the same
// constrained-random traffic (tracker_stimulus.h, default shape):
//   stimulus  the traffic generator alone (the floor under every other row)
//   core      the C++ cycle model, called directly
//   systemc   the SystemC module around it, clocked by SystemC
//   rtl       the Verilated RTL alone, clocked by SystemC
//   cosim     both in lock-step with the every-cycle comparison
// SystemC elaborates once per process, so each form runs in a child process
// of this program; the parent prints the table.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <systemc>

#include "Vtracker.h"
#include "cycle_stepper.h"
#include "run_options.h"
#include "tracker/tracker_sc.h"
#include "tracker_cosim.h"
#include "tracker_pins.h"
#include "tracker_stimulus.h"

namespace {

using Clock = std::chrono::steady_clock;

t3::tb::TrackerTraffic bench_traffic() {
  t3::tb::TrackerTraffic t;
  t.cfg.enable = true;
  t.cfg.base = 0x10000;
  t.cfg.limit = t.cfg.base + 256 * 256 * 2;
  t.cfg.tile_size = 8;
  t.cfg.updates_per_elem = 2;
  t.m_rows = 256;
  t.wg_stride = 128;
  t.wg_count = 8;
  t.pending_target = 128;
  return t;
}

// Runs `cycles` cycles of traffic through step(in) -> outputs; returns seconds.
template <typename Step>
double run(uint64_t cycles, Step step) {
  const t3::TrackerParams p = t3::tb::tracker_params();
  const t3::tb::TrackerTraffic t = bench_traffic();
  t3::tb::TrackerStimulus stim(p, t, 12345);
  t3::tb::TrackerScoreboard sink(p, 16);  // drive() registers tiles; not checked here
  t3::TrackerInputs in;
  in.cfg = t.cfg;
  in.rst_n = false;
  step(in);
  in.rst_n = true;
  const auto t0 = Clock::now();
  for (uint64_t i = 0; i < cycles; ++i) {
    stim.drive(in, sink);
    const t3::TrackerOutputs o = step(in);
    stim.after_cycle(in, o);
  }
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// One DUT bound to pins and stepped by SystemC.
template <typename Dut>
double run_sc(uint64_t cycles, Dut& dut) {
  t3::tb::CycleStepper stepper;
  t3::tb::InputPins pins;
  t3::tb::OutputPins out;
  t3::tb::bind(dut, stepper.clk, pins, out);
  return run(cycles, [&](const t3::TrackerInputs& in) {
    pins.drive(in);
    stepper.settle();
    const t3::TrackerOutputs o = out.read();
    stepper.edge();
    return o;
  });
}

double run_mode(const std::string& mode, uint64_t cycles) {
  const t3::TrackerParams p = t3::tb::tracker_params();
  if (mode == "stimulus") {
    return run(cycles, [](const t3::TrackerInputs&) {
      t3::TrackerOutputs o;
      o.in_ready = true;
      return o;
    });
  }
  if (mode == "core") {
    t3::Tracker core(p);
    return run(cycles, [&](const t3::TrackerInputs& in) {
      const t3::TrackerOutputs o = core.eval(in);
      core.clock(in);
      return o;
    });
  }
  if (mode == "systemc") {
    t3::TrackerSc dut("model", p);
    return run_sc(cycles, dut);
  }
  if (mode == "rtl") {
    Vtracker dut("rtl");
    return run_sc(cycles, dut);
  }
  if (mode == "cosim") {
    t3::tb::RunOptions opt;
    t3::tb::TrackerCosim cosim(opt);
    const double s = run(cycles, [&](const t3::TrackerInputs& in) {
      cosim.in() = in;
      cosim.cycle();
      return cosim.out();
    });
    if (cosim.mismatches()) throw std::runtime_error("model and RTL disagree");
    return s;
  }
  throw std::invalid_argument("--mode = '" + mode +
                              "' is not known; allowed: stimulus, core, systemc, rtl, cosim");
}

}  // namespace

int sc_main(int argc, char** argv) {
  std::string mode;
  uint64_t cycles = 1000000;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--mode" && i + 1 < argc) {
      mode = argv[++i];
    } else if (a == "--cycles" && i + 1 < argc) {
      cycles = std::strtoull(argv[++i], nullptr, 10);
      if (cycles == 0) {
        std::fprintf(stderr, "tracker_bench: --cycles must be a positive number\n");
        return 2;
      }
    } else {
      std::printf("usage: tracker_bench [--cycles N] [--mode stimulus|core|systemc|rtl|cosim]\n"
                  "Without --mode: runs every form in a child process and prints a table.\n");
      return a == "--help" || a == "-h" ? 0 : 2;
    }
  }
  sc_core::sc_report_handler::set_actions(sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  if (!mode.empty()) {
    try {
      const double s = run_mode(mode, cycles);
      std::printf("RESULT %s %.6f\n", mode.c_str(), s);
      return 0;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "tracker_bench: %s\n", e.what());
      return 2;
    }
  }
  const t3::TrackerParams p = t3::tb::tracker_params();
  std::printf("Tracker %u sets x %u ways, %llu cycles of random traffic per form\n", p.sets, p.ways,
              static_cast<unsigned long long>(cycles));
  std::printf("| form     | seconds | cycles/s   |\n|----------|---------|------------|\n");
  for (const char* m : {"stimulus", "core", "systemc", "rtl", "cosim"}) {
    const std::string cmd = std::string(argv[0]) + " --mode " + m + " --cycles " +
                            std::to_string(cycles) + " 2>&1";
    FILE* f = popen(cmd.c_str(), "r");
    if (!f) return 1;
    char line[512];
    double s = -1;
    while (std::fgets(line, sizeof line, f)) {
      char name[64];
      if (std::sscanf(line, "RESULT %63s %lf", name, &s) == 2) break;
    }
    pclose(f);
    if (s < 0) {
      std::fprintf(stderr, "tracker_bench: form %s failed\n", m);
      return 1;
    }
    std::printf("| %-8s | %7.3f | %10.0f |\n", m, s, double(cycles) / s);
  }
  return 0;
}
