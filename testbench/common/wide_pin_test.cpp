// Pins wider than a t3::Wide through the whole co-simulation harness: a
// switch carries one flit per port on one packed pin (PORTS x FLIT_W bits,
// 1,024 at its default of 8 ports of 16 B). A small block with such pins
// (testbench/common/t3_wide_pin_tb.sv and its C++ model below) runs under
// Cosim on both engines, at 8 x 128 bits and at 5 x 128 (a width that is no
// power of two); besides the every-cycle compare of model and RTL, each cycle
// the RTL's outputs are checked against the inputs as driven, so a harness
// that cut the pins short for both sides alike would fail too.
//
// SystemC elaborates once per process: ctest runs each SystemC case in its
// own process (--gtest_filter).
// Verilator's headers first: included after <systemc>, verilated.h takes
// systemc.h's global names for granted (cosim_rtl.h.in does the same).
#include "Vt3_wide_pin_tb_5x128_c.h"
#include "Vt3_wide_pin_tb_8x128_c.h"

#include <gtest/gtest.h>

#include <fstream>
#include <random>
#include <stdexcept>
#include <string>
#include <systemc>

#include "common/pins.h"
#include "common/sc_types.h"
#include "direct_engine.h"
#if T3_RTL_SYSTEMC
#include "Vt3_wide_pin_tb_5x128_sc.h"
#include "Vt3_wide_pin_tb_8x128_sc.h"
#include "sc_engine.h"
#endif

namespace t3 {

using Bus = WideN<1024>;

struct WidePinParams {
  unsigned ports = 8;
  unsigned flit_w = 128;
  unsigned sel_w() const { return clog2(ports); }
};
struct WidePinInputs {
  bool rst_n = false;
  uint32_t sel = 0;
  Bus d;
};
struct WidePinOutputs {
  Bus q;
  Wide pick;
};

// Port p's flit of a bus (flit_w a multiple of 64).
inline Wide port_flit(const Bus& b, unsigned p, unsigned flit_w) {
  Wide f;
  for (unsigned i = 0; i < flit_w / 64; ++i) f.w[i] = b.w[p * flit_w / 64 + i];
  return f;
}
inline void set_port_flit(Bus& b, unsigned p, unsigned flit_w, const Wide& f) {
  for (unsigned i = 0; i < flit_w / 64; ++i) b.w[p * flit_w / 64 + i] = f.w[i];
}

class WidePin {
 public:
  explicit WidePin(const WidePinParams& p) : p_(p) {}
  WidePinOutputs eval(const WidePinInputs& in) const {
    WidePinOutputs o;
    o.q = q_;
    o.pick = port_flit(in.d, in.sel, p_.flit_w);
    return o;
  }
  void clock(const WidePinInputs& in) {
    if (!in.rst_n) {
      q_ = Bus{};
      return;
    }
    for (unsigned p = 0; p < p_.ports; ++p)
      set_port_flit(q_, p, p_.flit_w, port_flit(in.d, (p + 1) % p_.ports, p_.flit_w));
  }
  void step(const WidePinInputs& in, WidePinOutputs& o) {
    o = eval(in);
    clock(in);
  }

 private:
  WidePinParams p_;
  Bus q_;
};

#define T3_WIDE_PIN_PINS(X)                          \
  X(in,  rst_ni, 1,                  rst_n)          \
  X(in,  sel_i,  p.sel_w(),          sel)            \
  X(in,  d_i,    p.ports * p.flit_w, d)              \
  X(out, q_o,    p.ports * p.flit_w, q)              \
  X(out, pick_o, p.flit_w,           pick)

T3_BLOCK(WidePin, "t3_wide_pin_tb", T3_WIDE_PIN_PINS)

namespace {

using tb::Cosim;
using tb::CosimOptions;

void run(tb::Cosim<WidePinBlock>& c, uint64_t seed, int cycles) {
  const WidePinParams p = c.params();
  std::mt19937_64 rng(seed);
  ASSERT_TRUE(c.reset());
  Bus last;  // d_i as driven in the last cycle
  bool after_reset = true;
  for (int cycle = 0; cycle < cycles; ++cycle) {
    WidePinInputs& in = c.in();
    in.rst_n = rng() % 500 != 0;
    in.sel = uint32_t(rng() % p.ports);
    in.d = Bus{};
    for (unsigned i = 0; i < p.ports * p.flit_w / 64; ++i) in.d.w[i] = rng();
    const WidePinInputs driven = in;
    ASSERT_TRUE(c.cycle()) << c.first_failure();
    const WidePinOutputs& o = c.out();
    // Every bit of every port, the top port's included, as driven.
    for (unsigned q = 0; q < p.ports; ++q) {
      const Wide want = after_reset ? Wide{} : port_flit(last, (q + 1) % p.ports, p.flit_w);
      ASSERT_EQ(port_flit(o.q, q, p.flit_w), want) << "q_o port " << q << " at cycle " << cycle;
    }
    for (unsigned i = p.ports * p.flit_w / 64; i < Bus::kWords; ++i)
      ASSERT_EQ(o.q.w[i], 0u) << "q_o has bits above its width";
    ASSERT_EQ(o.pick, port_flit(driven.d, driven.sel, p.flit_w)) << "pick_o at cycle " << cycle;
    last = driven.d;
    after_reset = !driven.rst_n;
  }
  EXPECT_EQ(c.failures(), 0u);
}

template <class V>
void run_direct(unsigned ports, int cycles, const std::string& vcd = "") {
  WidePinParams p;
  p.ports = ports;
  CosimOptions opt;
  opt.vcd = vcd;
  Cosim<WidePinBlock> c(p, std::make_unique<tb::DirectEngine<WidePinBlock, V>>(p), opt);
  run(c, ports, cycles);
}

TEST(WidePins, Direct8x128) { run_direct<Vt3_wide_pin_tb_8x128_c>(8, 20000); }
TEST(WidePins, Direct5x128) { run_direct<Vt3_wide_pin_tb_5x128_c>(5, 20000); }

// The waveform declares the bus at its width and gives values of all of it.
TEST(WidePins, WaveformCarriesTheWholeBus) {
  const std::string path = "wide_pins_5x128.vcd";
  run_direct<Vt3_wide_pin_tb_5x128_c>(5, 50, path);
  std::ifstream f(path);
  bool declared = false, top_bit = false;  // VCD values drop leading zeros
  for (std::string line; std::getline(f, line);) {
    declared |= line == "$var wire 640 # d_i $end";
    top_bit |= line.size() == 643 && line[0] == 'b' && line[1] == '1' && line.substr(641) == " #";
  }
  EXPECT_TRUE(declared) << "no 640-bit d_i in " << path;
  EXPECT_TRUE(top_bit) << "no 640-bit value of d_i with its top bit set in " << path;
}

#if T3_RTL_SYSTEMC
template <class V>
void run_systemc(unsigned ports) {
  WidePinParams p;
  p.ports = ports;
  Cosim<WidePinBlock> c(p, std::make_unique<tb::ScEngine<WidePinBlock, V>>(p), CosimOptions{});
  run(c, ports, 20000);
}
TEST(WidePinsSystemC, SystemC8x128) { run_systemc<Vt3_wide_pin_tb_8x128_sc>(8); }
TEST(WidePinsSystemC, SystemC5x128) { run_systemc<Vt3_wide_pin_tb_5x128_sc>(5); }
#endif

// The SystemC port type of a pin is chosen among the widths its field holds.
TEST(WidePins, PortTypeByWidthAndCapacity) {
  auto width_of = [](unsigned width, auto cap) {
    unsigned got = 0;
    sc::with_port_type<decltype(cap)::value>(PinInfo{"x_i", PinDir::in, width}, [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (std::is_integral_v<T>) got = 8 * sizeof(T);
      else got = unsigned(T{}.length());
    });
    return got;
  };
  using C512 = std::integral_constant<unsigned, 512>;
  using C1024 = std::integral_constant<unsigned, 1024>;
  using C8192 = std::integral_constant<unsigned, kPinMaxBits>;
  EXPECT_EQ(width_of(1, C512{}), 8u);  // bool
  EXPECT_EQ(width_of(33, C512{}), 64u);
  EXPECT_EQ(width_of(256, C512{}), 256u);
  EXPECT_EQ(width_of(640, C1024{}), 640u);
  EXPECT_EQ(width_of(1024, C1024{}), 1024u);
  EXPECT_EQ(width_of(8192, C8192{}), 8192u);
  EXPECT_EQ(width_of(3968, C8192{}), 3968u);
  EXPECT_EQ(width_of(384, C512{}), 384u);  // 3 ports of 16 B
  // Above the field's capacity, or no multiple of 128 above 64: named errors.
  for (unsigned bad : {1152u, 700u, 200u}) {
    try {
      width_of(bad, C1024{});
      FAIL() << bad << " bits were accepted";
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find("pin x_i is " + std::to_string(bad) + " bits wide"),
                std::string::npos)
          << e.what();
      EXPECT_NE(std::string(e.what()).find("up to 1024"), std::string::npos) << e.what();
    }
  }
  // A pin wider than its field is refused by name before any port is made.
  EXPECT_THROW(require_field_fits<Wide>("blk", PinInfo{"d_i", PinDir::in, 1024}),
               std::invalid_argument);
  EXPECT_NO_THROW(require_field_fits<Bus>("blk", PinInfo{"d_i", PinDir::in, 1024}));
}

// Parameters that make a pin outgrow its field are refused by the harness
// (the direct engine too, which has no SystemC port to refuse it).
TEST(WidePins, AParameterThatOutgrowsTheFieldIsRefused) {
  WidePinParams p;
  p.ports = 9;  // 9 x 128 = 1,152 bits in a 1,024-bit field
  try {
    tb::VlDriver<WidePinBlock, Vt3_wide_pin_tb_8x128_c> d(p);
    FAIL() << "a 1,152-bit pin in a 1,024-bit field was taken";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("t3_wide_pin_tb pin d_i is 1152 bits wide; its field holds 1024"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace t3

int sc_main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  sc_core::sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", sc_core::SC_DO_NOTHING);
  return RUN_ALL_TESTS();
}
