// The C++ type Verilator gives a SystemC port of a given width (Verilator
// manual, "Connecting to SystemC"): 1 bit bool, 2..32 uint32_t, 33..64
// uint64_t, wider sc_bv<width>. The model's SystemC module and the testbench
// signals use the same mapping, so either can bind where the other does.
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <systemc>

#include "pins.h"

namespace t3::sc {

template <class T>
struct Tag {
  using type = T;
};

// The widths above 64 bits a pin may have: 128, 256 and 512 (a flit, a DRAM
// burst: t3::Wide), and above that any multiple of 128 up to kPinMaxBits (a
// flit per port of a switch). Each is its own sc_bv<N>, instantiated only for
// fields that can hold it (with_port_type's MaxBits).
inline bool wide_pin_width_ok(unsigned width) {
  return width == 128 || width == 256 || width == 512 ||
         (width > 512 && width <= kPinMaxBits && width % 128 == 0);
}

inline std::string port_type_name(unsigned width) {
  if (width == 1) return "bool";
  if (width <= 32) return "uint32_t";
  if (width <= 64) return "uint64_t";
  return "sc_bv<" + std::to_string(width) + ">";
}

namespace detail {
template <unsigned N, unsigned MaxBits, class F>
void with_sc_bv(unsigned w, F& f) {
  if constexpr (N <= MaxBits) {
    if (w == N) return f(Tag<sc_dt::sc_bv<N>>{});
    with_sc_bv<N + 128, MaxBits>(w, f);
  }
}
}  // namespace detail

// Calls f(Tag<T>{}) with the port type of this pin, whose field holds at most
// MaxBits (field_bits<F>()).
template <unsigned MaxBits, class F>
void with_port_type(const PinInfo& pin, F&& f) {
  const unsigned w = pin.width;
  if (w == 0) throw std::invalid_argument(std::string("pin ") + pin.name + " has width 0");
  if (w == 1) return f(Tag<bool>{});
  if (w <= 32) return f(Tag<uint32_t>{});
  if (w <= 64) return f(Tag<uint64_t>{});
  if (w <= MaxBits && wide_pin_width_ok(w)) {
    if constexpr (MaxBits >= 128) {
      if (w == 128) return f(Tag<sc_dt::sc_bv<128>>{});
    }
    if constexpr (MaxBits >= 256) {
      if (w == 256) return f(Tag<sc_dt::sc_bv<256>>{});
    }
    if constexpr (MaxBits >= 512) {
      if (w == 512) return f(Tag<sc_dt::sc_bv<512>>{});
    }
    if constexpr (MaxBits > 512) return detail::with_sc_bv<640, MaxBits>(w, f);
  }
  throw std::invalid_argument(std::string("pin ") + pin.name + " is " + std::to_string(w) +
                              " bits wide; allowed: 1..64, 128, 256, 512, or a multiple of 128 "
                              "up to " + std::to_string(std::min(MaxBits, kPinMaxBits)) +
                              " (its field's capacity)");
}

template <class T>
void port_to_words(const T& v, uint64_t* w, unsigned words) {
  if constexpr (std::is_integral_v<T>) {
    w[0] = uint64_t(v);
  } else {
    for (unsigned i = 0; i < words; ++i)
      w[i] = uint64_t(v.get_word(int(2 * i))) | (uint64_t(v.get_word(int(2 * i + 1))) << 32);
  }
}

template <class T>
T port_from_words(const uint64_t* w, unsigned words) {
  if constexpr (std::is_same_v<T, bool>) {
    return (w[0] & 1) != 0;
  } else if constexpr (std::is_integral_v<T>) {
    return T(w[0]);
  } else {
    T v;
    for (unsigned i = 0; i < words; ++i) {
      v.set_word(int(2 * i), sc_dt::sc_digit(w[i]));
      v.set_word(int(2 * i + 1), sc_dt::sc_digit(w[i] >> 32));
    }
    return v;
  }
}

using t3::require_field_fits;

}  // namespace t3::sc
