#include "cycle_compare.h"

#include <cstdio>
#include <sstream>

namespace t3::tb {

CycleCompare::CycleCompare(Options opt) : opt_(std::move(opt)) {}

void CycleCompare::add_input(const std::string& name, unsigned width, Probe get) {
  signals_.push_back({"in", name, width});
  inputs_.push_back(std::move(get));
}

void CycleCompare::add_output(const std::string& name, unsigned width, Probe model, Probe rtl) {
  outputs_.push_back({name, width, std::move(model), std::move(rtl)});
}

bool CycleCompare::check(uint64_t cycle) {
  std::vector<uint64_t> row;
  row.reserve(inputs_.size() + 2 * outputs_.size() + 1);
  for (const Probe& p : inputs_) row.push_back(p());
  bool ok = true;
  for (const Output& o : outputs_) {
    const uint64_t m = o.model(), r = o.rtl();
    row.push_back(m);
    row.push_back(r);
    if (m == r) continue;
    ok = false;
    ++mismatches_;
    std::ostringstream msg;
    msg << "MISMATCH cycle " << cycle << " signal " << o.name << ": model=0x" << std::hex << m
        << " rtl=0x" << r;
    if (first_report_.empty()) first_report_ = msg.str();
    if (mismatches_ <= opt_.max_reports) std::fprintf(stderr, "%s\n", msg.str().c_str());
  }
  row.push_back(ok ? 0 : 1);

  if (history_.empty()) history_first_ = cycle;
  history_.push_back(std::move(row));
  if (!ok && dump_at_ == UINT64_MAX) {
    dump_at_ = cycle + opt_.cycles_after;
    mismatch_cycle_ = cycle;
  }
  if (cycle >= dump_at_) write_window();
  const size_t keep = opt_.cycles_before + opt_.cycles_after + 1;
  while (history_.size() > keep && dump_at_ == UINT64_MAX) {
    history_.pop_front();
    ++history_first_;
  }
  return ok;
}

void CycleCompare::flush() {
  if (dump_at_ != UINT64_MAX) write_window();
}

void CycleCompare::write_window() {
  if (waveforms_ >= opt_.max_waveforms) {
    dump_at_ = UINT64_MAX;
    return;
  }
  ++waveforms_;
  std::vector<VcdSignal> sigs = signals_;
  for (const Output& o : outputs_) {
    sigs.push_back({"model", o.name, o.width});
    sigs.push_back({"rtl", o.name, o.width});
  }
  sigs.push_back({"check", "mismatch", 1});
  // Keep the window around the first mismatch of this burst.
  const uint64_t from =
      mismatch_cycle_ > opt_.cycles_before ? mismatch_cycle_ - opt_.cycles_before : 0;
  std::vector<std::vector<uint64_t>> rows;
  uint64_t first = history_first_;
  for (size_t i = 0; i < history_.size(); ++i)
    if (history_first_ + i >= from) {
      if (rows.empty()) first = history_first_ + i;
      rows.push_back(history_[i]);
    }
  last_waveform_ = opt_.waveform_prefix + "_cycle" + std::to_string(mismatch_cycle_) + ".vcd";
  write_vcd(last_waveform_, sigs, first, rows);
  std::fprintf(stderr, "waveform of cycles %llu..%llu written to %s\n",
               static_cast<unsigned long long>(first),
               static_cast<unsigned long long>(first + rows.size() - 1), last_waveform_.c_str());
  dump_at_ = UINT64_MAX;
  history_.clear();
}

}  // namespace t3::tb
