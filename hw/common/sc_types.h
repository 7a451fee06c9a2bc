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

// The widths above 64 bits a pin may have: multiples of 128 up to
// kPinMaxBits (a flit, a DRAM burst: t3::Wide, 512 bits; a flit per port of
// a switch: a WideN). Each is its own sc_bv<N>, instantiated only for fields
// that can hold it (with_port_type's MaxBits).
inline bool wide_pin_width_ok(unsigned width) { return width % 128 == 0 && width <= kPinMaxBits; }

inline std::string port_type_name(unsigned width) {
  if (width == 1) return "bool";
  if (width <= 32) return "uint32_t";
  if (width <= 64) return "uint64_t";
  return "sc_bv<" + std::to_string(width) + ">";
}

namespace detail {
// Calls f with sc_bv<w>, for w a multiple of 128 from N to MaxBits; false if
// w is none of them.
template <unsigned N, unsigned MaxBits, class F>
bool with_sc_bv(unsigned w, F& f) {
  if constexpr (N <= MaxBits) {
    if (w == N) {
      f(Tag<sc_dt::sc_bv<N>>{});
      return true;
    }
    return with_sc_bv<N + 128, MaxBits>(w, f);
  } else {
    return false;
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
  if (w <= MaxBits && wide_pin_width_ok(w) && detail::with_sc_bv<128, MaxBits>(w, f)) return;
  throw std::invalid_argument(std::string("pin ") + pin.name + " is " + std::to_string(w) +
                              " bits wide; allowed: 1..64, or a multiple of 128 up to " +
                              std::to_string(std::min(MaxBits, kPinMaxBits)) +
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
