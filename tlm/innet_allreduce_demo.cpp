// An all-reduce with real data through the in-network fabric's cycle models
// (tlm/innet_fabric.h), a run per mode; `--help` lists the options.
// testbench/innet_switch/innet_switch_demo.cpp runs the same on the switch's
// RTL against its model.
#include <cstdio>
#include <exception>

#include "innet_allreduce_cli.h"

int main(int argc, char** argv) {
  try {
    const t3::AllReduceOptions o = t3::parse_allreduce_options(argc, argv);
    if (o.help) {
      std::printf("usage: innet_allreduce_demo [options]\n%s", t3::allreduce_help().c_str());
      return 0;
    }
    t3::InnetFabric f(t3::allreduce_fabric(o));
    const bool pass = t3::run_allreduce_cli(f, o);
    std::printf("%s\n", pass ? "PASS" : "FAIL");
    return pass ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "innet_allreduce_demo: %s\n", e.what());
    return 2;
  }
}
