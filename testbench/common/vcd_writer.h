// Writes a Value Change Dump, one sample per clock cycle, of signals of any
// width (values as 64-bit words, least significant first). Used for the
// whole-run waveform (--vcd) and for the window around a co-simulation
// mismatch, in either co-simulation engine.
#pragma once

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

namespace t3::tb {

struct VcdSignal {
  std::string scope;  // "in", "model", "rtl", "check"
  std::string name;
  unsigned width;
};

class VcdWriter {
 public:
  VcdWriter(const std::string& path, std::vector<VcdSignal> signals, unsigned period_ns = 10);
  ~VcdWriter();

  // Words of every signal, in order, pin_words(width) each.
  unsigned total_words() const { return total_words_; }
  // The values in `cycle` (cycles must increase).
  void sample(uint64_t cycle, const uint64_t* words);
  // Ends the dump after `cycle`.
  void close();

  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::ofstream f_;
  std::vector<VcdSignal> signals_;
  std::vector<unsigned> offset_;
  std::vector<uint64_t> last_;
  std::string clk_id_;
  unsigned period_ns_;
  unsigned total_words_ = 0;
  uint64_t last_cycle_ = 0;
  bool any_ = false;
};

}  // namespace t3::tb
