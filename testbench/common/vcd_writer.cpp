#include "vcd_writer.h"

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

void put_value(std::ofstream& f, const uint64_t* w, unsigned width, const std::string& id) {
  if (width == 1) {
    f << ((w[0] & 1) ? '1' : '0') << id << '\n';
    return;
  }
  std::string bits;
  bool lead = true;  // VCD left-extends with 0: leading zeros need not be written
  for (int b = int(width) - 1; b >= 0; --b) {
    const bool one = (w[b / 64] >> (b % 64)) & 1;
    if (one) lead = false;
    if (!lead) bits += one ? '1' : '0';
  }
  f << 'b' << (bits.empty() ? "0" : bits) << ' ' << id << '\n';
}

}  // namespace

VcdWriter::VcdWriter(const std::string& path, std::vector<VcdSignal> signals, unsigned period_ns)
    : path_(path), f_(path), signals_(std::move(signals)), period_ns_(period_ns) {
  if (!f_) throw std::runtime_error("cannot write waveform " + path);
  for (const VcdSignal& s : signals_) {
    offset_.push_back(total_words_);
    total_words_ += (s.width + 63) / 64;
  }
  last_.assign(total_words_, 0);
  f_ << "$timescale 1ns $end\n$scope module cosim $end\n";
  clk_id_ = vcd_id(signals_.size());
  f_ << "$var wire 1 " << clk_id_ << " clk_i $end\n";
  std::map<std::string, std::vector<size_t>> by_scope;
  for (size_t s = 0; s < signals_.size(); ++s) by_scope[signals_[s].scope].push_back(s);
  for (const auto& [scope, members] : by_scope) {
    f_ << "$scope module " << scope << " $end\n";
    for (size_t s : members)
      f_ << "$var wire " << signals_[s].width << " " << vcd_id(s) << " " << signals_[s].name
         << " $end\n";
    f_ << "$upscope $end\n";
  }
  f_ << "$upscope $end\n$enddefinitions $end\n";
}

VcdWriter::~VcdWriter() { close(); }

void VcdWriter::sample(uint64_t cycle, const uint64_t* words) {
  // A sample is what the rising edge that ends the cycle sees; the edge is
  // drawn at the start of the next cycle's slot.
  const uint64_t t = cycle * period_ns_;
  f_ << '#' << t << "\n0" << clk_id_ << '\n';
  for (size_t s = 0; s < signals_.size(); ++s) {
    const unsigned o = offset_[s], n = (signals_[s].width + 63) / 64;
    bool changed = !any_;
    for (unsigned i = 0; i < n && !changed; ++i) changed = words[o + i] != last_[o + i];
    if (!changed) continue;
    put_value(f_, words + o, signals_[s].width, vcd_id(s));
    for (unsigned i = 0; i < n; ++i) last_[o + i] = words[o + i];
  }
  f_ << '#' << t + period_ns_ / 2 << "\n1" << clk_id_ << '\n';
  any_ = true;
  last_cycle_ = cycle;
}

void VcdWriter::close() {
  if (!f_.is_open()) return;
  if (any_) f_ << '#' << (last_cycle_ + 1) * period_ns_ << '\n';
  f_.close();
}

}  // namespace t3::tb
