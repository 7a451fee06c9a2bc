// The kernel-free engine of a co-simulation: the block's C++ cycle model
// called directly and Verilator's plain C++ output of its RTL, stepped in
// lock-step from the same pin list, no SystemC kernel in between. Same
// compare, waveforms and scoreboards as the SystemC engine; several times
// faster, for long regressions.
#pragma once

#include <cstring>
#include <memory>
#include <type_traits>

#include "cosim.h"
#include "verilated.h"

namespace t3::tb {

// A field onto a Verilated plain C++ port (CData/SData/IData/QData, or
// VlWide<N> above 64 bits) and back. A t3::WideN moves as one block: on a
// little-endian host its 64-bit words are the port's 32-bit words in order
// (word by word through a temporary, the near-bank ALU's four 256-bit pins
// cost more than its model).
#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "vl_put/vl_get copy a t3::WideN's words as a VlWide's: little-endian hosts only"
#endif
template <class V, class F>
void vl_put(V& port, const F& f, unsigned width) {
  if constexpr (std::is_integral_v<V>) {
    uint64_t w[1];
    field_to_words(f, w, 1);
    port = V(w[0] & low_mask(width));
  } else if constexpr (is_wide_v<F>) {
    constexpr unsigned n = sizeof(V) / sizeof(EData);  // ceil(width / 32): the pin check holds them equal
    static_assert(n * 32 <= F::kMaxBits, "a VlWide port wider than its field");
    std::memcpy(port.data(), f.w.data(), n * sizeof(EData));
    if (width % 32) port.at(n - 1) &= (EData{1} << (width % 32)) - 1;  // a wire has no bits above
  } else {
    uint64_t w[kPinMaxWords] = {};
    const unsigned words = pin_words(width);
    field_to_words(f, w, words);
    for (unsigned i = 0; i < (width + 31) / 32; ++i) port.at(i) = EData(w[i / 2] >> (32 * (i % 2)));
  }
}

template <class V, class F>
void vl_get(const V& port, F& f, unsigned width) {
  if constexpr (!std::is_integral_v<V> && is_wide_v<F>) {
    constexpr unsigned n = sizeof(V) / sizeof(EData);
    static_assert(n * 32 <= F::kMaxBits, "a VlWide port wider than its field");
    unsigned char* b = reinterpret_cast<unsigned char*>(f.w.data());
    std::memcpy(b, port.data(), n * sizeof(EData));
    std::memset(b + n * sizeof(EData), 0, sizeof(f.w) - n * sizeof(EData));
    (void)width;
  } else {
    uint64_t w[kPinMaxWords] = {};
    if constexpr (std::is_integral_v<V>) {
      w[0] = uint64_t(port);
    } else {
      for (unsigned i = 0; i < (width + 31) / 32; ++i) w[i / 2] |= uint64_t(port.at(i)) << (32 * (i % 2));
    }
    field_from_words(f, w, pin_words(width));
  }
}

// The Verilated plain C++ model alone, stepped by hand.
template <class Block, class VTop>
class VlDriver {
 public:
  using Params = typename Block::Params;
  using Inputs = typename Block::Inputs;
  using Outputs = typename Block::Outputs;

  explicit VlDriver(const Params& p)
      : p_((require_fields_fit<Block>(p), p)), ctx_(std::make_unique<VerilatedContext>()),
        top_(std::make_unique<VTop>(ctx_.get(), "rtl")) {}
  ~VlDriver() { top_->final(); }

  void settle(const Inputs& in, Outputs& out) {
    Block::pins(p_, Put{*top_, in});
    top_->clk_i = 0;
    top_->eval();
    Block::pins(p_, Get{*top_, out});
  }
  void edge() {
    top_->clk_i = 1;
    top_->eval();
  }

 private:
  struct Put {
    VTop& top;
    const Inputs& inputs;
    template <class Field, class Port>
    void in(const PinInfo& pin, Field field, Port port) {
      vl_put(port(top), field(inputs), pin.width);
    }
    template <class Field, class Port>
    void out(const PinInfo&, Field, Port) {}
  };
  struct Get {
    VTop& top;
    Outputs& o;
    template <class Field, class Port>
    void in(const PinInfo&, Field, Port) {}
    template <class Field, class Port>
    void out(const PinInfo& pin, Field field, Port port) { vl_get(port(top), field(o), pin.width); }
  };

  Params p_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<VTop> top_;
};

template <class Block, class VTop>
class DirectEngine final : public Engine<Block> {
 public:
  using Params = typename Block::Params;
  using Inputs = typename Block::Inputs;
  using Outputs = typename Block::Outputs;

  explicit DirectEngine(const Params& p) : model_(p), rtl_(p) {}

  const char* name() const override { return "direct"; }
  // The model's edge is taken with its outputs (step(): one evaluation a
  // cycle); edge() follows settle() with the same inputs.
  void settle(const Inputs& in, Outputs& model, Outputs& rtl) override {
    model_.step(in, model);
    rtl_.settle(in, rtl);
  }
  void edge(const Inputs&) override { rtl_.edge(); }

 private:
  typename Block::Model model_;
  VlDriver<Block, VTop> rtl_;
};

}  // namespace t3::tb
