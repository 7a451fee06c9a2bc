// Simulation speed of the Tracker in each form (testbench/common/bench.h) on
// its constrained-random traffic: the default shape of tracker_stimulus.h
// (4 x 2 tiles, 2 updates per element, half the tiles in one hot set).
#include "bench.h"
#include "cosim_config.h"
#include "tracker_stimulus.h"

namespace {

struct Source {
  Source(const t3::TrackerParams& p, uint64_t seed) : stim(p, traffic, seed) {}
  void drive(t3::TrackerInputs& in) {
    in.cfg = traffic.config();
    stim.drive(in);
  }
  void after(const t3::TrackerInputs& in, const t3::TrackerOutputs& out) { stim.after(in, out); }

  t3::tb::TrackerTraffic traffic;
  t3::tb::TrackerStimulus stim;
};

}  // namespace

int sc_main(int argc, char** argv) {
  return t3::tb::bench_main<t3::TrackerBlock>(
      argc, argv, [](const t3::TrackerParams& p, uint64_t seed) { return Source(p, seed); });
}
