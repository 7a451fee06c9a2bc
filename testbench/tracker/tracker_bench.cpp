// Simulation speed of the Tracker in each form (testbench/common/bench.h) on
// its constrained-random traffic: the default shape of tracker_stimulus.h
// (4 x 2 tiles, 2 updates per element, half the tiles in one hot set),
// after the configuration is programmed through the registers.
#include "bench.h"
#include "cosim_config.h"
#include "tracker_scoreboard.h"
#include "tracker_stimulus.h"

namespace {

// The configuration through the registers first, then the traffic.
struct Source {
  Source(const t3::TrackerParams& p, uint64_t seed) : stim(p, traffic, seed) {
    t3::tb::program(apb, traffic.config());
  }
  void drive(t3::TrackerInputs& in) {
    apb.drive(in.apb, in.rst_n);
    if (programmed) stim.drive(in);
  }
  void after(const t3::TrackerInputs& in, const t3::TrackerOutputs& out) {
    apb.after(in.apb, out.apb);
    if (programmed) stim.after(in, out);
    programmed = apb.idle();
  }

  t3::tb::TrackerTraffic traffic;
  t3::tb::TrackerStimulus stim;
  t3::tb::ApbMaster apb;
  bool programmed = false;
};

}  // namespace

int sc_main(int argc, char** argv) {
  return t3::tb::bench_main<t3::TrackerBlock>(
      argc, argv, [](const t3::TrackerParams& p, uint64_t seed) { return Source(p, seed); });
}
