// A block's pins are listed once, in its description hw/<block>/<block>.yaml;
// scripts/blockgen.py writes them into hw/<block>/<block>_pins.h as an X-macro
//   #define T3_<BLOCK>_PINS(X)
//     X(in,  in_valid_i, 1,        in_valid)
//     X(in,  in_addr_i,  p.addr_w, in_addr)
//     X(out, in_ready_o, 1,        in_ready)
// naming, per pin, its direction, its RTL name, its width (an expression in
// the block's parameters `p`) and the field of the block's Inputs (in) or
// Outputs (out) struct that carries it. The clock, clk_i, is implicit.
//
// T3_BLOCK_PINS turns the list into `pins(p, v)`, which calls v.in(...) or
// v.out(...) once per pin with
//   - a PinInfo {name, direction, width},
//   - a field accessor: field(s) is the struct member (Inputs or Outputs),
//   - a port accessor: port(d) is the member of that name of a Verilated
//     model (SystemC or plain C++ output alike).
// Everything that handles pins (the SystemC module's ports, the testbench
// signals, binding, the every-cycle compare, the waveform, the kernel-free
// lock-step, the check against the Verilated ports) is a visitor of it.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "bits.h"
#include "wide.h"

namespace t3 {

enum class PinDir { in, out };

struct PinInfo {
  const char* name;
  PinDir dir;
  unsigned width;
};

inline unsigned pin_words(unsigned width) { return (width + 63) / 64; }

// How many bits a field of type F can carry.
template <class F>
constexpr unsigned field_bits() {
  if constexpr (std::is_same_v<F, bool>) return 1;
  else if constexpr (is_wide_v<F>) return F::kMaxBits;
  else if constexpr (std::is_enum_v<F>) return 8 * sizeof(F);
  else {
    static_assert(std::is_integral_v<F> && std::is_unsigned_v<F>,
                  "a pin's field is bool, an unsigned integer, an enum or a t3::WideN");
    return 8 * sizeof(F);
  }
}

// A field as 64-bit words (least significant first) and back.
template <class F>
void field_to_words(const F& f, uint64_t* w, unsigned words) {
  if constexpr (is_wide_v<F>) {
    for (unsigned i = 0; i < words; ++i) w[i] = f.w[i];
  } else {
    w[0] = uint64_t(f);
    for (unsigned i = 1; i < words; ++i) w[i] = 0;
  }
}

template <class F>
void field_from_words(F& f, const uint64_t* w, unsigned words) {
  if constexpr (is_wide_v<F>) {
    f = F{};
    for (unsigned i = 0; i < words; ++i) f.w[i] = w[i];
  } else if constexpr (std::is_same_v<F, bool>) {
    f = (w[0] & 1) != 0;
  } else {
    f = F(w[0]);
  }
}

// Throws unless a field of type F can carry the pin (a width that depends on
// parameters can outgrow its field: the words beyond it would be read).
template <class F>
void require_field_fits(const char* block, const PinInfo& pin) {
  if (pin.width > field_bits<F>())
    throw std::invalid_argument(std::string(block) + " pin " + pin.name + " is " +
                                std::to_string(pin.width) + " bits wide; its field holds " +
                                std::to_string(field_bits<F>()));
}

namespace detail {
template <class Block>
struct FieldsFit {
  template <class Field, class Port>
  void in(const PinInfo& pin, Field field, Port) {
    using F = std::remove_reference_t<decltype(field(std::declval<typename Block::Inputs&>()))>;
    require_field_fits<F>(Block::kName, pin);
  }
  template <class Field, class Port>
  void out(const PinInfo& pin, Field field, Port) {
    using F = std::remove_reference_t<decltype(field(std::declval<typename Block::Outputs&>()))>;
    require_field_fits<F>(Block::kName, pin);
  }
};

template <class Outputs>
struct SameOutputs {
  const Outputs& a;
  const Outputs& b;
  bool same = true;
  template <class Field, class Port>
  void in(const PinInfo&, Field, Port) {}
  template <class Field, class Port>
  void out(const PinInfo& pin, Field field, Port) {
    using F = std::remove_const_t<std::remove_reference_t<decltype(field(a))>>;
    uint64_t x[kPinMaxWords], y[kPinMaxWords];
    const unsigned n = pin_words(pin.width);
    field_to_words<F>(field(a), x, n);
    field_to_words<F>(field(b), y, n);
    for (unsigned i = 0; i < n; ++i) {
      const uint64_t m = (i + 1 == n && pin.width % 64) ? (uint64_t{1} << (pin.width % 64)) - 1 : ~uint64_t{0};
      if ((x[i] ^ y[i]) & m) same = false;
    }
  }
};

struct CollectPins {
  std::vector<PinInfo> pins;
  template <class Field, class Port>
  void in(const PinInfo& i, Field, Port) { pins.push_back(i); }
  template <class Field, class Port>
  void out(const PinInfo& i, Field, Port) { pins.push_back(i); }
};
}  // namespace detail

// Whether two of a block's output sets agree on every output pin at
// parameters p (a composition checks that its wires have settled).
template <class Block>
bool outputs_equal(const typename Block::Params& p, const typename Block::Outputs& a,
                   const typename Block::Outputs& b) {
  detail::SameOutputs<typename Block::Outputs> c{a, b};
  Block::pins(p, c);
  return c.same;
}

// Throws unless every pin of the block at parameters p fits its field (what
// a harness checks before it moves a pin's words).
template <class Block>
void require_fields_fit(const typename Block::Params& p) {
  Block::pins(p, detail::FieldsFit<Block>{});
}

// The pins of a block, resolved at parameters p, the clock first.
template <class Block>
std::vector<PinInfo> pin_list(const typename Block::Params& p) {
  detail::CollectPins c;
  c.pins.push_back(PinInfo{"clk_i", PinDir::in, 1});
  Block::pins(p, c);
  return c.pins;
}

}  // namespace t3

#define T3_PIN(dir, name, width, field)                                              \
  v.dir(::t3::PinInfo{#name, ::t3::PinDir::dir, static_cast<unsigned>(width)},      \
        [](auto& s_) -> auto& { return s_.field; }, [](auto& d_) -> auto& { return d_.name; });

// Inside a block's traits struct (which defines Params): the pins() visitor.
#define T3_BLOCK_PINS(LIST)                                \
  template <class V>                                       \
  static void pins(const Params& p, V&& v) {               \
    (void)p;                                               \
    LIST(T3_PIN)                                           \
  }

// A block's traits, <Name>Block: its RTL name, its types (<Name>Params,
// <Name>Inputs, <Name>Outputs and the model <Name>) and its pins. What the
// generic machinery (SystemC module, co-simulation, bench) is written against.
#define T3_BLOCK(Name, rtl_name, LIST)                     \
  struct Name##Block {                                     \
    static constexpr const char* kName = rtl_name;         \
    using Params = Name##Params;                           \
    using Inputs = Name##Inputs;                           \
    using Outputs = Name##Outputs;                         \
    using Model = Name;                                    \
    T3_BLOCK_PINS(LIST)                                    \
  };
