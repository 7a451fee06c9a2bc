#include "vcd_writer.h"

#include <fstream>
#include <map>
#include <stdexcept>

namespace t3::tb {
namespace {

std::string vcd_id(size_t n) {
  std::string id;
  do {
    id += char('!' + n % 94);
    n /= 94;
  } while (n);
  return id;
}

std::string value(uint64_t v, unsigned width, const std::string& id) {
  if (width == 1) return std::string(1, (v & 1) ? '1' : '0') + id;
  std::string bits;
  for (int b = int(width) - 1; b >= 0; --b) bits += ((v >> b) & 1) ? '1' : '0';
  return "b" + bits + " " + id;
}

}  // namespace

void write_vcd(const std::string& path, const std::vector<VcdSignal>& signals,
               uint64_t first_cycle, const std::vector<std::vector<uint64_t>>& samples,
               unsigned period_ns) {
  std::ofstream f(path);
  if (!f) throw std::runtime_error("cannot write waveform " + path);
  f << "$timescale 1ns $end\n$scope module cosim $end\n";
  const std::string clk_id = vcd_id(signals.size());
  f << "$var wire 1 " << clk_id << " clk $end\n";
  std::map<std::string, std::vector<size_t>> by_scope;
  for (size_t s = 0; s < signals.size(); ++s) by_scope[signals[s].scope].push_back(s);
  for (const auto& [scope, members] : by_scope) {
    f << "$scope module " << scope << " $end\n";
    for (size_t s : members)
      f << "$var wire " << signals[s].width << " " << vcd_id(s) << " " << signals[s].name
        << " $end\n";
    f << "$upscope $end\n";
  }
  f << "$upscope $end\n$enddefinitions $end\n";

  std::vector<uint64_t> last;
  for (size_t i = 0; i < samples.size(); ++i) {
    // Inputs change after a rising edge; the sample is what the next edge sees.
    const uint64_t t = (first_cycle + i) * period_ns;
    f << "#" << t << "\n1" << clk_id << "\n";
    for (size_t s = 0; s < signals.size(); ++s)
      if (i == 0 || samples[i][s] != last[s])
        f << value(samples[i][s], signals[s].width, vcd_id(s)) << "\n";
    last = samples[i];
    f << "#" << t + period_ns / 2 << "\n0" << clk_id << "\n";
  }
  f << "#" << (first_cycle + samples.size()) * period_ns << "\n";
}

}  // namespace t3::tb
