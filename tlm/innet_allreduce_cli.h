// The in-network all-reduce run as a program shows it (innet_allreduce_demo
// on the switch's model, innet_switch_demo on its RTL against the model,
// scripts/run.sh --scenario innet-allreduce): options, the fabric they
// describe, and a run per mode printed with its checks.
#pragma once

#include <string>
#include <vector>

#include "innet_allreduce.h"

namespace t3 {

struct AllReduceOptions {
  unsigned gpus = 4, leaves = 0, ports = 8, entries = 16, link_lat = 8, link_cycles = 4, seed = 1;
  uint64_t bytes = 65536;
  std::string dtype = "fp32";
  std::vector<std::string> modes = {"push", "pull"};
  bool exact = true, trace = false, help = false;
  AllReduceSpec spec;
};

// The options' help text (after a program's usage line).
std::string allreduce_help();
// Parses argv. Options it does not know go to *rest (with argv[0] first),
// or, without rest, are an error. Throws std::invalid_argument naming the
// option and its allowed values.
AllReduceOptions parse_allreduce_options(int argc, char** argv, std::vector<char*>* rest = nullptr);
// The fabric the options describe.
InnetFabricConfig allreduce_fabric(const AllReduceOptions& o);
// A run per mode on f, printed: set-up, traffic, reductions, time, checks,
// and (an RTL switch) the model-against-RTL mismatches. True when all pass.
bool run_allreduce_cli(InnetFabric& f, const AllReduceOptions& o);

}  // namespace t3
