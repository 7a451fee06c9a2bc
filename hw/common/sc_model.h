// The SystemC module of a block's cycle model, for any block: one port per
// entry of the block's pin list (hw/<block>/<block>_pins.h), named as in the
// RTL and typed as Verilator types that port, so the module and the
// Verilated RTL bind to the same signals. Per clock it samples the input
// ports into the model's Inputs struct, calls clock() on the rising edge and
// eval() whenever an input or the state changes, and writes the Outputs
// struct to the output ports. Built with tlm_regs, its registers are also
// reachable through a TLM-2.0 target socket, regs_socket()
// (hw/common/reg_target.h): the way a loosely timed system model programs
// the block instead of its APB pins.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <systemc>
#include <type_traits>
#include <vector>

#include "reg_target.h"
#include "sc_types.h"

namespace t3 {

template <class Block>
class ScModel : public sc_core::sc_module {
 public:
  using Params = typename Block::Params;
  using Inputs = typename Block::Inputs;
  using Outputs = typename Block::Outputs;
  using Model = typename Block::Model;

  sc_core::sc_in<bool> clk_i{"clk_i"};

  // tlm_regs: with the TLM-2.0 register socket (a target socket must be
  // bound, so only where a system model binds it).
  ScModel(const sc_core::sc_module_name& name, const Params& p, bool tlm_regs = false)
      : sc_module(name), core_(p) {
    if (tlm_regs) regs_ = make_regs();
    Block::pins(p, MakePorts{this});
    SC_HAS_PROCESS(ScModel);
    SC_METHOD(on_clock);
    sensitive << clk_i.pos();
    dont_initialize();
    SC_METHOD(drive_outputs);
    sensitive << state_changed_;
    for (sc_core::sc_port_base* port : input_ports_) sensitive << *port;
  }

  // The port of a pin, as the Verilated model types it (see sc_types.h).
  template <class T>
  sc_core::sc_in<T>& in(const std::string& pin) { return port<sc_core::sc_in<T>>(pin, "sc_in"); }
  template <class T>
  sc_core::sc_out<T>& out(const std::string& pin) { return port<sc_core::sc_out<T>>(pin, "sc_out"); }

  const Model& core() const { return core_; }
  tlm_utils::simple_target_socket<RegTarget>& regs_socket() {
    if (!regs_) throw std::logic_error(std::string(Block::kName) + " built without its register socket");
    return regs_->socket;
  }

 private:
  // A pin's field as words, type-erased first: the port's type is chosen at
  // run time (sc::with_port_type, among those its field's capacity allows),
  // and a port built per pin for each of them took a generated module most of
  // a minute to compile under the sanitizers; so only add_in / add_out depend
  // on the port's type, instantiated once per field capacity.
  using SetField = std::function<void(Inputs&, const uint64_t*)>;
  using GetField = std::function<void(const Outputs&, uint64_t*)>;
  struct MakePorts {
    ScModel* m;
    template <class Field, class Port>
    void in(const PinInfo& pin, Field field, Port) {
      using F = std::remove_reference_t<decltype(field(std::declval<Inputs&>()))>;
      sc::require_field_fits<F>(Block::kName, pin);
      const unsigned words = pin_words(pin.width);
      m->template add_in<field_bits<F>()>(
          pin, [field, words](Inputs& in, const uint64_t* w) { field_from_words(field(in), w, words); });
    }
    template <class Field, class Port>
    void out(const PinInfo& pin, Field field, Port) {
      using F = std::remove_reference_t<decltype(field(std::declval<Outputs&>()))>;
      sc::require_field_fits<F>(Block::kName, pin);
      const unsigned words = pin_words(pin.width);
      m->template add_out<field_bits<F>()>(
          pin, [field, words](const Outputs& o, uint64_t* w) { field_to_words(field(o), w, words); });
    }
  };

  template <unsigned MaxBits>
  void add_in(const PinInfo& pin, const SetField& set) {
    sc::with_port_type<MaxBits>(pin, [&](auto tag) {
      using T = typename decltype(tag)::type;
      auto* port = add<sc_core::sc_in<T>>(pin);
      input_ports_.push_back(port);
      const unsigned words = pin_words(pin.width);
      readers_.push_back([port, set, words](Inputs& in) {
        uint64_t w[kPinMaxWords];
        sc::port_to_words(port->read(), w, words);
        set(in, w);
      });
    });
  }
  template <unsigned MaxBits>
  void add_out(const PinInfo& pin, const GetField& get) {
    sc::with_port_type<MaxBits>(pin, [&](auto tag) {
      using T = typename decltype(tag)::type;
      auto* port = add<sc_core::sc_out<T>>(pin);
      const unsigned words = pin_words(pin.width);
      writers_.push_back([port, get, words](const Outputs& o) {
        uint64_t w[kPinMaxWords];
        get(o, w);
        port->write(sc::port_from_words<T>(w, words));
      });
    });
  }

  template <class P>
  P* add(const PinInfo& pin) {
    auto* p = new P(pin.name);
    ports_.emplace_back(p);
    by_name_[pin.name] = p;
    widths_[pin.name] = pin.width;
    return p;
  }

  template <class P>
  P& port(const std::string& pin, const char* kind) {
    const auto it = by_name_.find(pin);
    if (it == by_name_.end())
      throw std::invalid_argument(std::string(Block::kName) + " has no pin " + pin);
    if (auto* p = dynamic_cast<P*>(it->second)) return *p;
    throw std::invalid_argument(std::string(Block::kName) + " pin " + pin + " is not an " + kind +
                                "<" + sc::port_type_name(widths_[pin]) +
                                "> of the type asked for");
  }

  // A register access over the socket takes as long as the APB transfer it
  // stands for, two clock cycles: a write (applied at once, as at the last
  // edge) has reached the core at the edge in between before an initiator
  // that waits out its delay makes its next access. Without that, a poll
  // right after a command could read the state from before it.
  void end_of_elaboration() override {
    if (!regs_) return;
    if (const auto* clk = dynamic_cast<const sc_core::sc_clock*>(clk_i.get_interface()))
      regs_->set_access_time(2 * clk->period());
  }

  Inputs sample() const {
    Inputs in;
    for (const auto& r : readers_) r(in);
    return in;
  }
  void on_clock() {
    core_.clock(sample());
    state_changed_.notify(sc_core::SC_ZERO_TIME);
  }
  void drive_outputs() {
    const Outputs o = core_.eval(sample());
    for (const auto& w : writers_) w(o);
  }

  // A model with registers (hw/common/reg_block.h) gets the socket.
  template <class M, class = void>
  struct HasRegs : std::false_type {};
  template <class M>
  struct HasRegs<M, std::void_t<decltype(std::declval<M&>().tlm_write(0u, 0u))>> : std::true_type {};
  // The bytes its register port decodes: Model::kRegSpanBytes where it
  // says (a subsystem of several windows), one block's window otherwise.
  template <class M, class = void>
  struct RegSpan : std::integral_constant<uint64_t, kRegWindowBytes> {};
  template <class M>
  struct RegSpan<M, std::void_t<decltype(M::kRegSpanBytes)>>
      : std::integral_constant<uint64_t, M::kRegSpanBytes> {};
  std::unique_ptr<RegTarget> make_regs() {
    if constexpr (!HasRegs<Model>::value) {
      throw std::invalid_argument(std::string(Block::kName) + " has no registers");
    } else {
      return std::make_unique<RegTarget>(
          "regs", RegAccessFns{[this](uint32_t o, uint32_t d) {
                                 const RegStatus st = core_.tlm_write(o, d);
                                 state_changed_.notify(sc_core::SC_ZERO_TIME);
                                 return st;
                               },
                               [this](uint32_t o, uint32_t& d) { return core_.tlm_read(o, d); },
                               RegSpan<Model>::value});
    }
  }

  Model core_;
  std::unique_ptr<RegTarget> regs_;
  std::vector<std::shared_ptr<void>> ports_;
  std::map<std::string, sc_core::sc_object*> by_name_;
  std::map<std::string, unsigned> widths_;
  std::vector<sc_core::sc_port_base*> input_ports_;
  std::vector<std::function<void(Inputs&)>> readers_;
  std::vector<std::function<void(const Outputs&)>> writers_;
  sc_core::sc_event state_changed_;
};

}  // namespace t3
