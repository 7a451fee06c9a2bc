// Co-simulation of any block: its C++ cycle model and its Verilated RTL on
// the same inputs, every output compared in every cycle (reset cycles
// included). Plain C++ drives it one cycle at a time:
//
//   cosim.in().in_valid = true; ...; cosim.cycle();
//   if (cosim.in().in_valid && cosim.out().in_ready) { /* accepted */ }
//
// What carries the two models is an Engine (sc_engine.h: both in SystemC;
// direct_engine.h: without the kernel); everything here works from the
// block's pin list (hw/<block>/<block>_pins.h), so it knows no block.
//
// Inputs reach both models as the wires would carry them: every field cut
// to its pin's width. On a mismatch it prints the cycle, pin and both values
// and writes a waveform of the cycles around it (inputs and both outputs).
// A block with a register port (an `apb` field) has its APB pins checked
// against the protocol in every cycle too (apb_protocol.h); a violation
// fails the cycle as a mismatch does.
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "apb_protocol.h"
#include "common/pins.h"
#include "vcd_writer.h"

namespace t3::tb {

template <class Block>
class Engine {
 public:
  using Inputs = typename Block::Inputs;
  using Outputs = typename Block::Outputs;
  virtual ~Engine() = default;
  virtual const char* name() const = 0;
  // The outputs of model and RTL for these inputs, settled before the edge.
  virtual void settle(const Inputs& in, Outputs& model, Outputs& rtl) = 0;
  // The rising edge, inputs unchanged since settle().
  virtual void edge(const Inputs& in) = 0;
};

struct CosimOptions {
  std::string mismatch_prefix = "mismatch";  // <prefix>_cycle<N>.vcd
  std::string vcd;                           // whole-run waveform, empty for none
  unsigned cycles_before = 32;
  unsigned cycles_after = 8;
  unsigned max_reports = 10;  // printed mismatch lines
  unsigned max_waveforms = 3;
};

namespace detail {
template <class Inputs>
struct CutToPins {
  Inputs& inputs;
  template <class Field, class Port>
  void in(const PinInfo& pin, Field field, Port) {
    auto& f = field(inputs);
    using F = std::remove_reference_t<decltype(f)>;
    if constexpr (is_wide_v<F>) f.truncate(pin.width);
    else if constexpr (!std::is_same_v<F, bool>) f = F(uint64_t(f) & low_mask(pin.width));
  }
  template <class Field, class Port>
  void out(const PinInfo&, Field, Port) {}
};
}  // namespace detail

// Every input field cut to its pin's width, as a wire carries it.
template <class Block>
void cut_to_pins(const typename Block::Params& p, typename Block::Inputs& in) {
  Block::pins(p, detail::CutToPins<typename Block::Inputs>{in});
}

namespace detail {
template <class T, class = void>
struct HasApb : std::false_type {};
template <class T>
struct HasApb<T, std::void_t<decltype(std::declval<T&>().apb)>> : std::true_type {};
}  // namespace detail

template <class Block>
class Cosim {
 public:
  using Params = typename Block::Params;
  using Inputs = typename Block::Inputs;
  using Outputs = typename Block::Outputs;

  Cosim(const Params& p, std::unique_ptr<Engine<Block>> engine, CosimOptions opt)
      : p_(p), engine_(std::move(engine)), opt_(std::move(opt)),
        ring_(opt_.cycles_before + opt_.cycles_after + 1) {
    require_fields_fit<Block>(p_);
    in_.rst_n = false;
    if (!opt_.vcd.empty()) full_ = std::make_unique<VcdWriter>(opt_.vcd, signals());
  }
  ~Cosim() { flush_waveforms(); }

  const Params& params() const { return p_; }
  const char* engine_name() const { return engine_->name(); }
  // Inputs driven in the next cycle() (they persist from cycle to cycle).
  Inputs& in() { return in_; }
  // The RTL's outputs in the last cycle (equal to the model's unless a
  // mismatch was reported).
  const Outputs& out() const { return rtl_; }
  // The model's outputs in the last cycle.
  const Outputs& model_out() const { return model_; }

  // Drives in(), lets the outputs settle, compares, clocks. False on a mismatch.
  bool cycle() {
    wired_ = in_;
    cut_to_pins<Block>(p_, wired_);
    engine_->settle(wired_, model_, rtl_);
    bool ok = compare();
    if constexpr (detail::HasApb<Inputs>::value) ok &= check_apb();
    record(ok);
    engine_->edge(wired_);
    ++cycle_;
    return ok;
  }
  // Holds reset for n cycles (all other inputs as they are), then releases
  // it. False if any of those cycles mismatched.
  bool reset(unsigned n = 2) {
    in_.rst_n = false;
    bool ok = true;
    for (unsigned i = 0; i < n; ++i) ok &= cycle();
    in_.rst_n = true;
    return ok;
  }

  uint64_t cycles() const { return cycle_; }
  uint64_t mismatches() const { return mismatches_; }
  const std::string& first_mismatch() const { return first_report_; }
  // APB protocol violations on the register port's input pins (0 without one).
  uint64_t apb_violations() const { return apb_.violations(); }
  std::string first_apb_violation() const { return apb_.messages().empty() ? "" : apb_.messages()[0]; }
  // Mismatches and violations: what fails a run.
  uint64_t failures() const { return mismatches_ + apb_.violations(); }
  std::string first_failure() const { return mismatches_ ? first_report_ : first_apb_violation(); }
  const std::string& last_waveform() const { return last_waveform_; }
  // Writes a pending mismatch window and ends the whole-run waveform.
  void flush_waveforms() {
    if (dump_at_ != kNone) write_window();
    if (full_) full_->close();
  }

 private:
  static constexpr uint64_t kNone = ~uint64_t{0};
  struct Row {
    uint64_t cycle;
    Inputs in;
    Outputs model, rtl;
    bool ok;
  };

  struct Cmp {
    Cosim& c;
    bool ok = true;
    template <class Field, class Port>
    void in(const PinInfo&, Field, Port) {}
    template <class Field, class Port>
    void out(const PinInfo& pin, Field field, Port) {
      if (field(c.model_) == field(c.rtl_)) return;
      ok = false;
      c.report(pin, field);
    }
  };
  bool check_apb() {
    const unsigned found = apb_.sample(wired_.rst_n, wired_.apb, rtl_.apb.pready, [this] {
      return "cycle " + std::to_string(cycle_) + " (" + engine_->name() + ") " + Block::kName +
             " APB protocol";
    });
    if (found && apb_.violations() <= apb_.messages().size())
      std::fprintf(stderr, "%s\n", apb_.messages().back().c_str());
    return found == 0;
  }

  bool compare() {
    Cmp cmp{*this};
    Block::pins(p_, cmp);
    return cmp.ok;
  }

  template <class Field>
  void report(const PinInfo& pin, Field field) {
    ++mismatches_;
    if (mismatches_ > opt_.max_reports && !first_report_.empty()) return;
    std::ostringstream msg;
    msg << "MISMATCH cycle " << cycle_ << " (" << engine_->name() << ") " << Block::kName
        << " pin " << pin.name << ": model=" << hex(field(model_), pin.width)
        << " rtl=" << hex(field(rtl_), pin.width);
    if (first_report_.empty()) first_report_ = msg.str();
    if (mismatches_ <= opt_.max_reports) std::fprintf(stderr, "%s\n", msg.str().c_str());
  }

  template <class F>
  static std::string hex(const F& f, unsigned width) {
    uint64_t w[kPinMaxWords];
    const unsigned n = pin_words(width);
    field_to_words(f, w, n);
    std::ostringstream s;
    s << "0x" << std::hex;
    for (int i = int(n) - 1; i >= 0; --i) {
      if (i == int(n) - 1) s << w[i];
      else {
        s.width(16);
        s.fill('0');
        s << w[i];
      }
    }
    return s.str();
  }

  void record(bool ok) {
    Row& r = ring_[ring_next_];
    r = Row{cycle_, wired_, model_, rtl_, ok};
    ring_next_ = (ring_next_ + 1) % ring_.size();
    if (ring_count_ < ring_.size()) ++ring_count_;
    if (full_) write_row(*full_, r);
    if (!ok && dump_at_ == kNone) {
      mismatch_cycle_ = cycle_;
      dump_at_ = cycle_ + opt_.cycles_after;
    }
    if (cycle_ >= dump_at_) write_window();
  }

  // The order write_row() puts the values in: inputs, then per output
  // the model's and the RTL's, then the mismatch flag.
  struct Sig {
    std::vector<VcdSignal> ins, outs;
    template <class Field, class Port>
    void in(const PinInfo& pin, Field, Port) { ins.push_back({"in", pin.name, pin.width}); }
    template <class Field, class Port>
    void out(const PinInfo& pin, Field, Port) {
      outs.push_back({"model", pin.name, pin.width});
      outs.push_back({"rtl", pin.name, pin.width});
    }
  };
  std::vector<VcdSignal> signals() const {
    Sig s;
    Block::pins(p_, s);
    s.ins.insert(s.ins.end(), s.outs.begin(), s.outs.end());
    s.ins.push_back({"check", "mismatch", 1});
    return s.ins;
  }

  // A row's values in the order of signals().
  struct Put {
    const Row& r;
    std::vector<uint64_t>& w;
    bool outputs;  // first pass inputs, second pass outputs
    template <class Field, class Port>
    void in(const PinInfo& pin, Field field, Port) {
      if (!outputs) put(field(r.in), pin.width);
    }
    template <class Field, class Port>
    void out(const PinInfo& pin, Field field, Port) {
      if (!outputs) return;
      put(field(r.model), pin.width);
      put(field(r.rtl), pin.width);
    }
    template <class F>
    void put(const F& f, unsigned width) {
      const size_t at = w.size();
      w.resize(at + pin_words(width));
      field_to_words(f, w.data() + at, pin_words(width));
    }
  };
  void write_row(VcdWriter& vcd, const Row& r) const {
    row_words_.clear();
    Block::pins(p_, Put{r, row_words_, false});
    Block::pins(p_, Put{r, row_words_, true});
    row_words_.push_back(r.ok ? 0 : 1);
    vcd.sample(r.cycle, row_words_.data());
  }

  void write_window() {
    dump_at_ = kNone;
    if (waveforms_ >= opt_.max_waveforms) return;
    ++waveforms_;
    last_waveform_ = opt_.mismatch_prefix + "_cycle" + std::to_string(mismatch_cycle_) + ".vcd";
    const uint64_t from =
        mismatch_cycle_ > opt_.cycles_before ? mismatch_cycle_ - opt_.cycles_before : 0;
    VcdWriter vcd(last_waveform_, signals());
    uint64_t first = kNone, last = 0;
    for (size_t i = 0; i < ring_count_; ++i) {
      const Row& r = ring_[(ring_next_ + ring_.size() - ring_count_ + i) % ring_.size()];
      if (r.cycle < from) continue;
      write_row(vcd, r);
      if (first == kNone) first = r.cycle;
      last = r.cycle;
    }
    vcd.close();
    std::fprintf(stderr, "waveform of cycles %llu..%llu written to %s\n",
                 static_cast<unsigned long long>(first), static_cast<unsigned long long>(last),
                 last_waveform_.c_str());
    ring_count_ = 0;  // the next window starts after this one
  }

  Params p_;
  std::unique_ptr<Engine<Block>> engine_;
  CosimOptions opt_;
  Inputs in_{}, wired_{};
  Outputs model_{}, rtl_{};
  uint64_t cycle_ = 0;
  uint64_t mismatches_ = 0;
  ApbProtocol apb_;
  std::string first_report_, last_waveform_;
  std::vector<Row> ring_;
  size_t ring_next_ = 0, ring_count_ = 0;
  uint64_t dump_at_ = kNone, mismatch_cycle_ = 0;
  unsigned waveforms_ = 0;
  std::unique_ptr<VcdWriter> full_;
  mutable std::vector<uint64_t> row_words_;
};

}  // namespace t3::tb
