// The SystemC engine of a co-simulation: the block's SystemC module
// (hw/common/sc_model.h) and Verilator's SystemC output of its RTL, bound to
// one set of input signals and one set of output signals each, clocked by
// the SystemC kernel. The reference path: it is how the subsystem and the
// TLM models use the blocks. One per process (SystemC elaborates once).
//
// Signals take their types from the Verilated ports; the model's ports are
// typed by the pin list, so a pin whose width class differs between the
// list and the RTL fails here, at elaboration.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>
#include <string>
#include <systemc>
#include <vector>

#include "common/sc_model.h"
#include "cosim.h"
#include "cycle_stepper.h"

namespace t3::tb {

template <class Block, class VSc>
class ScEngine final : public Engine<Block> {
 public:
  using Params = typename Block::Params;
  using Inputs = typename Block::Inputs;
  using Outputs = typename Block::Outputs;

  explicit ScEngine(const Params& p) : model_("model", p), rtl_("rtl") {
    model_.clk_i(stepper_.clk);
    rtl_.clk_i(stepper_.clk);
    Block::pins(p, Bind{*this});
  }

  const char* name() const override { return "systemc"; }

  void settle(const Inputs& in, Outputs& model, Outputs& rtl) override {
    for (const auto& d : drive_) d(in);
    stepper_.settle();
    for (const auto& r : read_) r(model, rtl);
  }
  void edge(const Inputs&) override { stepper_.edge(); }

 private:
  struct Bind {
    ScEngine& e;
    template <class Field, class Port>
    void in(const PinInfo& pin, Field field, Port port) {
      auto& rp = port(e.rtl_);
      using T = typename std::remove_reference_t<decltype(rp)>::data_type;
      auto* sig = e.template signal<T>(std::string("in_") + pin.name);
      rp(*sig);
      e.model_.template in<T>(pin.name)(*sig);
      const unsigned words = pin_words(pin.width);
      e.drive_.push_back([sig, field, words](const Inputs& in) {
        uint64_t w[kPinMaxWords];
        field_to_words(field(in), w, words);
        sig->write(sc::port_from_words<T>(w, words));
      });
    }
    template <class Field, class Port>
    void out(const PinInfo& pin, Field field, Port port) {
      auto& rp = port(e.rtl_);
      using T = typename std::remove_reference_t<decltype(rp)>::data_type;
      auto* rs = e.template signal<T>(std::string("rtl_") + pin.name);
      auto* ms = e.template signal<T>(std::string("model_") + pin.name);
      rp(*rs);
      e.model_.template out<T>(pin.name)(*ms);
      const unsigned words = pin_words(pin.width);
      e.read_.push_back([ms, rs, field, words](Outputs& m, Outputs& r) {
        uint64_t w[kPinMaxWords];
        sc::port_to_words(ms->read(), w, words);
        field_from_words(field(m), w, words);
        sc::port_to_words(rs->read(), w, words);
        field_from_words(field(r), w, words);
      });
    }
  };

  template <class T>
  sc_core::sc_signal<T>* signal(const std::string& name) {
    auto* s = new sc_core::sc_signal<T>(name.c_str());
    signals_.emplace_back(s);
    return s;
  }

  CycleStepper stepper_;
  ScModel<Block> model_;
  VSc rtl_;
  std::vector<std::shared_ptr<void>> signals_;
  std::vector<std::function<void(const Inputs&)>> drive_;
  std::vector<std::function<void(Outputs&, Outputs&)>> read_;
};

// Signals for every pin of one SystemC form of a block (the model's module
// or the Verilated RTL), bound to its ports: drive() writes the inputs but
// those named external (which another module drives, a bus bridge say),
// read() gives the outputs, signal<T>(pin) any one of them to bind elsewhere.
template <class Block, class Dut>
class PinSignals {
 public:
  using Params = typename Block::Params;
  using Inputs = typename Block::Inputs;
  using Outputs = typename Block::Outputs;

  PinSignals(const Params& p, Dut& dut, const std::string& prefix,
             std::set<std::string> external = {})
      : dut_(dut), prefix_(prefix), external_(std::move(external)) {
    Block::pins(p, Bind{*this});
  }
  void drive(const Inputs& in) const {
    for (const auto& d : drive_) d(in);
  }
  void read(Outputs& out) const {
    for (const auto& r : read_) r(out);
  }
  template <class T>
  sc_core::sc_signal<T>& signal(const std::string& pin) {
    const auto it = by_name_.find(pin);
    auto* s = it == by_name_.end() ? nullptr : dynamic_cast<sc_core::sc_signal<T>*>(it->second);
    if (!s) throw std::invalid_argument(std::string(Block::kName) + " has no pin " + pin + " of that type");
    return *s;
  }

 private:
  struct Bind {
    PinSignals& e;
    template <class Field, class Port>
    void in(const PinInfo& pin, Field field, Port port) {
      e.template bind_port<true>(pin, field, port);
    }
    template <class Field, class Port>
    void out(const PinInfo& pin, Field field, Port port) {
      e.template bind_port<false>(pin, field, port);
    }
  };

  // As in ScModel (hw/common/sc_model.h): the field type-erased first, so
  // that the port types of the model's pins are instantiated once per field
  // capacity, not once for each pin.
  using SetField = std::function<void(Outputs&, const uint64_t*)>;
  using GetField = std::function<void(const Inputs&, uint64_t*)>;
  template <bool kIn, class Field, class Port>
  void bind_port(const PinInfo& pin, Field field, Port port) {
    const unsigned words = pin_words(pin.width);
    GetField get;
    SetField set;
    if constexpr (kIn)
      get = [field, words](const Inputs& in, uint64_t* w) { field_to_words(field(in), w, words); };
    else
      set = [field, words](Outputs& o, const uint64_t* w) { field_from_words(field(o), w, words); };
    if constexpr (std::is_same_v<Dut, ScModel<Block>>) {
      using F = std::remove_reference_t<decltype(field(std::declval<std::conditional_t<kIn, Inputs, Outputs>&>()))>;
      sc::with_port_type<field_bits<F>()>(pin, [&](auto tag) {
        using T = typename decltype(tag)::type;
        auto* sig = add_signal<kIn, T>(pin, get, set);
        if constexpr (kIn) dut_.template in<T>(pin.name)(*sig);
        else dut_.template out<T>(pin.name)(*sig);
      });
    } else {
      auto& p = port(dut_);
      using T = typename std::remove_reference_t<decltype(p)>::data_type;
      p(*add_signal<kIn, T>(pin, get, set));
    }
  }

  template <bool kIn, class T>
  sc_core::sc_signal<T>* add_signal(const PinInfo& pin, const GetField& get, const SetField& set) {
    auto* sig = new sc_core::sc_signal<T>((prefix_ + pin.name).c_str());
    signals_.emplace_back(sig);
    by_name_[pin.name] = sig;
    const unsigned words = pin_words(pin.width);
    if constexpr (kIn) {
      if (external_.count(pin.name)) return sig;
      drive_.push_back([sig, get, words](const Inputs& in) {
        uint64_t w[kPinMaxWords];
        get(in, w);
        sig->write(sc::port_from_words<T>(w, words));
      });
    } else {
      read_.push_back([sig, set, words](Outputs& o) {
        uint64_t w[kPinMaxWords];
        sc::port_to_words(sig->read(), w, words);
        set(o, w);
      });
    }
    return sig;
  }

  Dut& dut_;
  std::string prefix_;
  std::set<std::string> external_;
  std::vector<std::shared_ptr<void>> signals_;
  std::map<std::string, sc_core::sc_object*> by_name_;
  std::vector<std::function<void(const Inputs&)>> drive_;
  std::vector<std::function<void(Outputs&)>> read_;
};

// One form alone in SystemC (the model's module or the Verilated RTL), for
// the benchmark: what each costs under the kernel.
template <class Block, class Dut>
class ScSingle {
 public:
  using Params = typename Block::Params;
  using Inputs = typename Block::Inputs;
  using Outputs = typename Block::Outputs;

  template <class... A>
  explicit ScSingle(const Params& p, A&&... dut_args)
      : dut_(std::forward<A>(dut_args)...), pins_(p, dut_, "sig_") {
    dut_.clk_i(stepper_.clk);
  }
  void step(const Inputs& in, Outputs& out) {
    pins_.drive(in);
    stepper_.settle();
    pins_.read(out);
    stepper_.edge();
  }

 private:
  CycleStepper stepper_;
  Dut dut_;
  PinSignals<Block, Dut> pins_;
};

}  // namespace t3::tb
