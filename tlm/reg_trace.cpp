#include "reg_trace.h"

#include <cctype>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace t3 {
namespace {
std::string upper(const char* s) {
  std::string u(s);
  for (char& c : u) c = char(std::toupper(static_cast<unsigned char>(c)));
  return u;
}
}  // namespace

const RegInfo* RegTrace::find(uint64_t addr, const TraceWindow** win) const {
  for (const TraceWindow& w : windows_) {
    if (addr < w.base || addr - w.base >= kRegWindowBytes) continue;
    *win = &w;
    for (unsigned r = 0; r < w.n_regs; ++r)
      if (w.regs[r].offset == addr - w.base) return &w.regs[r];
    return nullptr;
  }
  *win = nullptr;
  return nullptr;
}

std::string RegTrace::name(uint64_t addr) const {
  const TraceWindow* w = nullptr;
  const RegInfo* r = find(addr, &w);
  if (!w) return "unmapped";
  return w->block + "." + (r ? upper(r->name) : std::string("(no register)"));
}

std::string RegTrace::line(const std::string& time, bool write, uint64_t addr, uint32_t value,
                           const std::string& error) const {
  const TraceWindow* w = nullptr;
  const RegInfo* r = find(addr, &w);
  char head[160];
  std::snprintf(head, sizeof head, "%10s  %c 0x%08llx %-32s = 0x%08x", time.c_str(),
                write ? 'W' : 'R', static_cast<unsigned long long>(addr), name(addr).c_str(),
                value);
  std::string s = head;
  if (r && error.empty()) {
    for (unsigned f = 0; f < r->n_fields; ++f) {
      const RegField& fd = r->fields[f];
      if (write && fd.access == RegAccess::ro) continue;
      s += "  " + upper(fd.name) + "=" + std::to_string((value & fd.mask()) >> fd.lsb);
    }
  }
  if (!error.empty()) s += "  ERROR (" + error + ")";
  return s;
}

std::string trace_write_words(const std::string& line) {
  std::istringstream in(line.substr(0, line.find('#')));
  std::string w, out;
  for (int i = 0; i < 5 && in >> w; ++i) out += (i ? " " : "") + w;
  return out;
}

std::vector<std::string> trace_writes(const std::string& trace) {
  std::vector<std::string> w;
  std::istringstream in(trace);
  for (std::string line; std::getline(in, line);) {
    const size_t at = line.find(" W 0x");
    if (at != std::string::npos) w.push_back(trace_write_words(line.substr(at + 1)));
  }
  return w;
}

std::vector<std::string> golden_writes(const std::string& path) {
  std::ifstream g(path);
  if (!g) throw std::runtime_error("cannot read the golden trace " + path);
  std::vector<std::string> w;
  for (std::string line; std::getline(g, line);)
    if (!trace_write_words(line).empty()) w.push_back(trace_write_words(line));
  return w;
}

}  // namespace t3
