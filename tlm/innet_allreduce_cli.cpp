#include "innet_allreduce_cli.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

#include "innet_allreduce.h"
#include "innet_data.h"
#include "innet_ring.h"

namespace t3 {

namespace {

const char* kHelp =
    "  An all-reduce of real data on GPUs on one in-network switch: the fabric\n"
    "  manager's set-up, per-GPU traffic, reductions, evictions and timeouts, the\n"
    "  time against a software ring all-reduce, the data checks; a run per mode.\n"
    "  --gpus N         GPUs, 2..PORTS on one switch, up to 32 on two levels (4)\n"
    "  --leaves L       0: one switch; 2..16: two levels, L leaf switches of gpus/L\n"
    "                   GPUs under a spine (push and deterministic modes) (0)\n"
    "  --ports N        the switch's ports, 2..16, one switch only (8)\n"
    "  --entries N      reduction table entries, 2..64 (16)\n"
    "  --bytes N        each GPU's buffer, a multiple of 16 (65536)\n"
    "  --dtype T        fp16, bf16 or fp32 (fp32)\n"
    "  --mode M[,M..]   push, pull, deterministic: a run each, in order (push,pull;\n"
    "                   deterministic: the switch forwards every PUSH to the home,\n"
    "                   which adds them in GPU order)\n"
    "  --random         random values (checked within the rounding bound) instead of\n"
    "                   small integers (checked exactly)\n"
    "  --home G         the region's home GPU (0)\n"
    "  --timeout N      the reduction table's TIMEOUT in cycles, 0 none (2000)\n"
    "  --straggler G    GPU G's request comes --delay cycles after the others'\n"
    "  --delay N        (0)\n"
    "  --link-lat N     cycles a flit takes on a link (8)\n"
    "  --link-cycles N  switch cycles a flit occupies a link: the switch's internal\n"
    "                   speedup over a link (4: its region tables move a flit a cycle\n"
    "                   for every port, docs/blocks/innet_switch.md)\n"
    "  --seed N         the data's seed (1)\n"
    "  --trace          print every register write of the set-up\n";

unsigned number(const std::string& opt, const char* text, uint64_t lo, uint64_t hi) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text ? text : "", &end, 0);
  if (!text || *end || v < lo || v > hi)
    throw std::invalid_argument(opt + " = '" + (text ? text : "") + "' is out of range; allowed: " + std::to_string(lo) +
                                ".." + std::to_string(hi));
  return unsigned(v);
}

}  // namespace

std::string allreduce_help() { return kHelp; }

AllReduceOptions parse_allreduce_options(int argc, char** argv, std::vector<char*>* rest) {
  AllReduceOptions o;
  std::string modes = "push,pull";
  if (rest) rest->push_back(argv[0]);
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const char* v = i + 1 < argc ? argv[i + 1] : nullptr;
    auto next = [&] { ++i; };
    if (a == "--help" || a == "-h") {
      o.help = true;
      if (rest) rest->push_back(argv[i]);
    } else if (a == "--gpus") o.gpus = number(a, v, 2, 32), next();
    else if (a == "--leaves") o.leaves = number(a, v, 0, 16), next();
    else if (a == "--ports") o.ports = number(a, v, 2, 16), next();
    else if (a == "--entries") o.entries = number(a, v, 2, 64), next();
    else if (a == "--bytes") o.bytes = number(a, v, 16, 1u << 24), next();
    else if (a == "--home") o.spec.home = number(a, v, 0, 31), next();
    else if (a == "--timeout") o.spec.rt_timeout = number(a, v, 0, 0xFFFFFFFFu), next();
    else if (a == "--straggler") o.spec.straggler = int(number(a, v, 0, 31)), next();
    else if (a == "--delay") o.spec.straggler_delay = number(a, v, 0, 100000000), next();
    else if (a == "--link-lat") o.link_lat = number(a, v, 1, 10000), next();
    else if (a == "--link-cycles") o.link_cycles = number(a, v, 1, 64), next();
    else if (a == "--seed") o.seed = number(a, v, 0, 0xFFFFFFFFu), next();
    else if (a == "--random") o.exact = false;
    else if (a == "--trace") o.trace = true;
    else if (a == "--dtype" || a == "--mode") {
      if (!v) throw std::invalid_argument(a + " needs a value");
      (a == "--dtype" ? o.dtype : modes) = v;
      next();
    } else if (rest) {
      rest->push_back(argv[i]);  // the program's own (a co-simulation's run options)
    } else {
      throw std::invalid_argument("unknown option '" + a + "' (--help lists them)");
    }
  }
  o.modes.clear();
  for (size_t at = 0; at <= modes.size();) {
    const size_t end = std::min(modes.find(',', at), modes.size());
    const std::string m = modes.substr(at, end - at);
    if (m != "push" && m != "pull" && m != "deterministic")
      throw std::invalid_argument("--mode = '" + m + "'; allowed: push, pull, deterministic (a comma list)");
    o.modes.push_back(m);
    at = end + 1;
  }
  if (o.dtype != "fp16" && o.dtype != "bf16" && o.dtype != "fp32")
    throw std::invalid_argument("--dtype = '" + o.dtype + "'; allowed: fp16, bf16, fp32");
  if (!o.leaves && o.gpus > o.ports)
    throw std::invalid_argument("--gpus = " + std::to_string(o.gpus) + " is out of range; allowed: 2.." +
                                std::to_string(o.ports) + " (--ports)");
  o.spec.dtype = uint8_t(o.dtype == "fp16" ? 0 : o.dtype == "bf16" ? 1 : 2);
  o.spec.bytes = o.bytes;
  o.spec.net_base = region_size(o.bytes);  // the region's base: aligned to its size
  return o;
}

namespace {

}  // namespace

namespace {
// ring: the software ring's cycles on this fabric and buffer (0: not run
// yet; run once, with the first mode).
bool run_one(InnetFabric& f, const AllReduceOptions& o, const std::string& mode, uint64_t& ring);
}  // namespace

InnetFabricConfig allreduce_fabric(const AllReduceOptions& o) {
  InnetFabricConfig c;
  c.gpus = o.gpus;
  c.leaves = o.leaves;
  c.sw.ports = o.ports;
  c.sw.entries = o.entries;
  c.link_lat = o.link_lat;
  c.link_cycles = o.link_cycles;
  // src, dst, merge and the deterministic home's stages, in a power of two.
  c.ep.mem_bytes = unsigned(std::max<uint64_t>(4096, region_size((3 + o.gpus) * o.bytes)));
  c.ep.count_depth = unsigned(std::max<uint64_t>(2, o.bytes / 16));
  return c;
}

bool run_allreduce_cli(InnetFabric& f, const AllReduceOptions& opts) {
  bool all = true;
  uint64_t ring = 0;
  for (const std::string& mode : opts.modes) {
    AllReduceOptions o = opts;
    o.spec.pull = mode == "pull";
    o.spec.deterministic = mode == "deterministic";
    all &= run_one(f, o, mode, ring);
  }
  return all;
}

namespace {
bool run_one(InnetFabric& f, const AllReduceOptions& o, const std::string& mode, uint64_t& ring) {
  const InnetFabricConfig& c = f.config();

  const uint8_t d = o.spec.dtype;
  const Buffers in = all_reduce_buffers(o.gpus, o.bytes, d, o.exact, o.seed);
  Buffers out;

  const std::string where =
      c.leaves ? std::to_string(c.leaves) + " leaf switches of " + std::to_string(c.per_leaf()) + " under a spine"
               : "one switch";
  std::printf("\n== %s\ninnet all-reduce: %u GPUs on %s (%u ports, %u-bit flits, %u reduction entries), links of %u cycles, "
              "a flit every %u cycle(s)\n",
              mode.c_str(), o.gpus, where.c_str(), c.switch_params(0).ports, c.sw.flit_w, c.sw.entries, o.link_lat,
              o.link_cycles);
  for (unsigned s = 0; s < f.switches(); ++s)
    if (f.sw(s).compared() || s == 0)
      std::printf("switch %u: %s\n", s, f.sw(s).name());
  std::printf("buffer: %llu bytes of %s per GPU, %s mode, home GPU %u, reduction table timeout %u cycles\n",
              static_cast<unsigned long long>(o.bytes), o.dtype.c_str(), mode.c_str(), o.spec.home, o.spec.rt_timeout);
  const uint64_t c0 = f.cycle();
  const auto t0 = std::chrono::steady_clock::now();
  auto mismatches = [&] {
    uint64_t m = 0;
    for (unsigned s = 0; s < f.switches(); ++s) m += f.sw(s).mismatches();
    return m;
  };
  bool rtl = false;
  for (unsigned s = 0; s < f.switches(); ++s) rtl |= f.sw(s).compared();
  const uint64_t mism0 = mismatches();
  const AllReduceReport r = run_all_reduce(f, o.spec, in, out);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::printf("set-up: %zu register writes by the fabric manager and the endpoint driver%s\n", r.setup.size(),
              o.trace ? ":" : " (--trace prints them)");
  if (o.trace)
    for (const auto& s : r.setup) std::printf("  %s\n", s.c_str());

  std::printf("\n| GPU | flits up | flits down | PUSH | PULL | answers | RESULTs | PULL_RSPs | PARTIALs merged | staged | home RESULTs |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
  uint64_t moved = 0;
  for (unsigned g = 0; g < o.gpus; ++g) {
    const FabricGpuStats& e = r.ep[g];
    moved += (r.up_flits[g] + r.down_flits[g]) * (c.sw.flit_w / 8);
    std::printf("| %u | %llu | %llu | %llu | %llu | %llu | %llu | %llu | %llu | %llu | %llu |\n", g,
                static_cast<unsigned long long>(r.up_flits[g]), static_cast<unsigned long long>(r.down_flits[g]),
                static_cast<unsigned long long>(e.pushes), static_cast<unsigned long long>(e.pulls),
                static_cast<unsigned long long>(e.pull_answers), static_cast<unsigned long long>(e.results),
                static_cast<unsigned long long>(e.pull_rsps), static_cast<unsigned long long>(e.partials),
                static_cast<unsigned long long>(e.staged), static_cast<unsigned long long>(e.home_results));
  }
  std::printf("\nswitch: %u entries allocated, %u reductions completed, %u LRU evictions, %u timeouts, %u PULL_RSPs passed\n",
              r.allocs, r.completions, r.evict_lru, r.evict_timeout, r.bypasses);
  std::printf("bytes moved on the links (both ways, headers included): %llu\n", static_cast<unsigned long long>(moved));

  std::printf("simulated %llu cycles in %.2f s (%.0f cycles/s: the switches, %u endpoints and their links)\n",
              static_cast<unsigned long long>(f.cycle() - c0), wall, double(f.cycle() - c0) / std::max(wall, 1e-9), o.gpus);

  // The software baseline on the same fabric and buffers: a ring all-reduce
  // by the GPUs' copy engines (tlm/innet_ring.h), run once; its data are
  // checked as the in-network run's are.
  size_t ring_bad = 0;
  const uint64_t fb = c.sw.flit_w / 8;
  if (ring == 0 && !c.leaves && o.bytes % (o.gpus * fb) == 0) {
    RingSpec rs;
    rs.dtype = d;
    rs.bytes = o.bytes;
    std::vector<std::vector<uint8_t>> rout;
    const RingReport rr = run_ring_all_reduce(f, rs, in, rout);
    for (const auto& e : rr.errors) std::printf("error: ring: %s\n", e.c_str());
    ring_bad = rr.errors.size() + check_all_reduce(in, rout, d, o.exact).mismatches;
    ring = rr.cycles;
  }
  if (ring)
    std::printf("time: %llu cycles; a software ring all-reduce of the same buffers on the same links (the GPUs' copy "
                "engines, run): %llu cycles; in-network %.2fx\n",
                static_cast<unsigned long long>(r.cycles), static_cast<unsigned long long>(ring),
                double(ring) / double(std::max<uint64_t>(1, r.cycles)));
  else
    std::printf("time: %llu cycles (no ring baseline: it needs one switch and bytes a multiple of GPUs x %llu)\n",
                static_cast<unsigned long long>(r.cycles), static_cast<unsigned long long>(fb));

  // The checks: against the exact sum (small integers) or within the bound
  // of any order's rounding (tlm/innet_data.h says why).
  const AllReduceCheck chk = check_all_reduce(in, out, d, o.exact);
  const size_t bad = chk.mismatches, differ = chk.differ_between_gpus;
  std::printf("checks: %s: %zu mismatches; GPUs whose bits differ from GPU 0's: %zu elements%s\n",
              o.exact ? "every element exact" : "every element within the rounding bound", bad, differ,
              o.spec.pull ? " (pull mode reduces once per GPU, in each one's order)" : "");
  const uint64_t mism = mismatches() - mism0;
  if (rtl)
    std::printf("switch model against RTL: %llu cycles compared, every output: %llu mismatches\n",
                static_cast<unsigned long long>(f.cycle() - c0), static_cast<unsigned long long>(mism));
  for (const auto& e : r.errors) std::printf("error: %s\n", e.c_str());
  if (ring_bad) std::printf("error: the ring baseline: %zu elements or errors wrong\n", ring_bad);
  const bool pass =
      r.finished && r.errors.empty() && bad == 0 && (o.spec.pull || differ == 0) && mism == 0 && ring_bad == 0;
  std::printf("%s: %s\n", mode.c_str(), pass ? "PASS" : "FAIL");
  return pass;
}
}  // namespace

}  // namespace t3
