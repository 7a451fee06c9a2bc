// The main job's in-network scenario (scripts/run.sh --scenario
// innet-allreduce): a 4-GPU all-reduce of real data on one switch, in push
// and in pull mode, the switch's RTL against its model in every cycle, the
// endpoints and links as models. Prints the fabric manager's set-up, per-GPU
// traffic, reductions, evictions and timeouts, bytes moved, the time against
// a software ring all-reduce, the checks and the mismatches; `--help` lists
// the options (the switch's parameters are the built RTL's).
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "innet_allreduce_cli.h"
#include "innet_switch_fabric.h"

#include <systemc>  // declares sc_main extern "C" (after the Verilated headers)

int sc_main(int argc, char** argv) {
  try {
    std::vector<char*> rest;
    t3::AllReduceOptions o = t3::parse_allreduce_options(argc, argv, &rest);
    t3::tb::RunOptions run;
    const std::string usage = "usage: innet_switch_demo [options]\n" + t3::allreduce_help() +
                              "  (--ports and --entries: the built RTL's only)\n";
    if (t3::tb::parse_program_options(rest, usage.c_str(), run)) return 0;
    const t3::InnetSwitchParams built = t3::tb::built_params<t3::InnetSwitchBlock>();
    t3::InnetFabricConfig c = t3::allreduce_fabric(o);
    c.sw = built;
    // The RTL is the switch whose PORTS it was built with: the one switch,
    // or on two levels the spine (PORTS = leaves) or else leaf 0.
    unsigned rtl_index = 0;
    if (!o.leaves && o.ports != built.ports)
      throw std::invalid_argument("--ports = " + std::to_string(o.ports) + ": the built RTL has PORTS = " +
                                  std::to_string(built.ports));
    if (o.leaves) {
      if (c.switch_params(o.leaves).ports == built.ports) rtl_index = o.leaves;
      else if (c.switch_params(0).ports != built.ports)
        throw std::invalid_argument("--leaves = " + std::to_string(o.leaves) + ", --gpus = " + std::to_string(o.gpus) +
                                    ": no switch has the built RTL's PORTS = " + std::to_string(built.ports) +
                                    " (the spine has leaves ports, a leaf gpus / leaves + 1)");
    }
    if (o.entries != built.entries)
      throw std::invalid_argument("--entries = " + std::to_string(o.entries) + ": the built RTL has ENTRIES = " +
                                  std::to_string(built.entries));
    auto sw = std::make_unique<t3::tb::CosimFabricSwitch>(t3::tb::make_cosim<t3::InnetSwitchBlock>(run));
    t3::InnetFabric f(c, std::move(sw), rtl_index);
    const bool pass = t3::run_allreduce_cli(f, o);
    std::printf("%s\n", pass ? "PASS" : "FAIL");
    return pass ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "innet_switch_demo: %s\n", e.what());
    return 2;
  }
}
