#include "run_options.h"

#include <chrono>
#include <cstdlib>
#include <stdexcept>

namespace t3::tb {
namespace {

uint64_t parse_u64(const std::string& option, const std::string& text) {
  size_t used = 0;
  uint64_t v = 0;
  try {
    v = std::stoull(text, &used, 0);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size() || text[0] == '-')
    throw std::invalid_argument(option + " = '" + text +
                                "' is not a number; allowed: 0..18446744073709551615");
  return v;
}

EngineKind parse_engine(const std::string& option, const std::string& text) {
  if (text == "systemc") return EngineKind::systemc;
  if (text == "direct") return EngineKind::direct;
  throw std::invalid_argument(option + " = '" + text + "' is not known; allowed: systemc, direct");
}

}  // namespace

const char* engine_name(EngineKind k) { return k == EngineKind::direct ? "direct" : "systemc"; }

std::string run_options_help() {
  return "  --seed N        random seed (default: $T3_SEED, else from the clock; always printed)\n"
         "  --cycles N      random cycles (default: $T3_CYCLES, else the program's default)\n"
         "  --engine E      systemc: the SystemC module against Verilator's SystemC output in\n"
         "                  the kernel (default, the reference); direct: the C++ model against\n"
         "                  Verilator's plain C++ output without the kernel (faster; same\n"
         "                  checks). Default: $T3_ENGINE, else systemc\n"
         "  --vcd FILE      write a waveform of the whole run\n"
         "  --out DIR       folder for mismatch waveforms (default: .)\n"
         "  --list-pins     print the pins (name, direction, width) at the built parameters\n"
         "  --list-params   print the parameters the RTL was built with\n"
         "  --help          this text\n";
}

uint32_t parse_option_in_range(const std::string& option, const char* text, uint32_t lo,
                               uint32_t hi) {
  char* end = nullptr;
  const unsigned long v = std::strtoul(text, &end, 10);
  if (!end || *end || v < lo || v > hi)
    throw std::invalid_argument(option + " = '" + text + "' is out of range; allowed: " +
                                std::to_string(lo) + ".." + std::to_string(hi));
  return uint32_t(v);
}

RunOptions parse_run_options(int argc, char** argv) {
  RunOptions opt;
  if (const char* s = std::getenv("T3_SEED")) opt.seed = parse_u64("T3_SEED", s);
  if (const char* s = std::getenv("T3_CYCLES")) opt.cycles = parse_u64("T3_CYCLES", s);
  if (const char* s = std::getenv("T3_ENGINE")) opt.engine = parse_engine("T3_ENGINE", s);
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(a + " needs a value");
      return argv[++i];
    };
    if (a == "--seed") opt.seed = parse_u64(a, value());
    else if (a == "--cycles") opt.cycles = parse_u64(a, value());
    else if (a == "--engine") opt.engine = parse_engine(a, value());
    else if (a == "--vcd") opt.vcd = value();
    else if (a == "--list-pins") opt.list_pins = true;
    else if (a == "--list-params") opt.list_params = true;
    else if (a == "--out") opt.out_dir = value();
    else if (a == "--help" || a == "-h") opt.help = true;
    else throw std::invalid_argument("unknown option '" + a + "'; see --help");
  }
  return opt;
}

uint64_t resolve_seed(RunOptions& opt) {
  if (opt.seed == 0)
    opt.seed = uint64_t(std::chrono::steady_clock::now().time_since_epoch().count()) | 1;
  return opt.seed;
}

}  // namespace t3::tb
