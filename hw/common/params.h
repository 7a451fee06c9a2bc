// A block's parameters are listed once, in its description hw/<block>/<block>.yaml;
// scripts/blockgen.py writes them into hw/<block>/<block>_params.def as
//   T3_PARAM(RTL_NAME, cpp_field, default, min, max, rule, "meaning")
// with rule `any` (every value in min..max) or `pow2` (powers of two only).
// The same file is read by the C++ model (this header's macros turn it into
// the fields of <Block>Params and a table of them), by CMake (the Verilator
// -G values of every co-simulation build) and by scripts/synth.py. The RTL
// repeats the defaults (SystemVerilog needs them) and checks the ranges at
// elaboration; scripts/check_params.py holds the two together.
//
// The derived values the block's boundary uses (pin widths), each with its
// value as a C++ expression of the fields (a localparam of the RTL top):
//   T3_DERIVED(LIVE_W, live_w, clog2(uint64_t{sets} * uint64_t{ways} + 1), "meaning")
// become methods of <Block>Params (here, `unsigned live_w() const`).
//
// The list may also say how scripts/synth.py reports the block:
//   T3_SYNTH(label,   "{SETS}x{WAYS}")             a configuration's name
//   T3_SYNTH(storage, "SETS * WAYS * (...)")        storage bits (a Python expression)
//   T3_SYNTH(sweep,   "SETS=4 | SETS=16 WAYS=4")    the --sweep points
// C++ ignores those lines.
#pragma once

#include <cstdint>
#include <stdexcept>

#include "common/bits.h"
#include <string>
#include <vector>

namespace t3 {

enum class ParamRule { any, pow2 };

template <class P>
struct ParamSpec {
  const char* rtl_name;
  const char* field;
  unsigned def, lo, hi;
  ParamRule rule;
  const char* doc;
  unsigned P::*member;
};

template <class P>
using ParamTable = std::vector<ParamSpec<P>>;

inline std::string param_range_text(unsigned lo, unsigned hi, ParamRule rule) {
  return (rule == ParamRule::pow2 ? "a power of two from " : "") + std::to_string(lo) +
         (rule == ParamRule::pow2 ? " to " : "..") + std::to_string(hi);
}

inline bool param_in_range(unsigned v, unsigned lo, unsigned hi, ParamRule rule) {
  return v >= lo && v <= hi && (rule == ParamRule::any || (v & (v - 1)) == 0);
}

// Throws std::invalid_argument naming the parameter and its allowed range.
inline void param_error(const char* block, const char* field, const char* rtl_name,
                        unsigned value, const std::string& allowed) {
  throw std::invalid_argument(std::string(block) + " parameter " + field + " (" + rtl_name +
                              ") = " + std::to_string(value) + " is out of range; allowed: " +
                              allowed);
}

// The min/max/rule checks of the list; a block's validate() adds the checks
// that relate two parameters.
template <class P>
void validate_param_ranges(const P& p, const char* block) {
  for (const ParamSpec<P>& s : P::table())
    if (!param_in_range(p.*s.member, s.lo, s.hi, s.rule))
      param_error(block, s.field, s.rtl_name, p.*s.member, param_range_text(s.lo, s.hi, s.rule));
}

// "SETS=256,WAYS=8" in RTL names; names not given keep their defaults.
template <class P>
P params_from_string(const std::string& text) {
  P p;
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t end = std::min(text.find(',', pos), text.size());
    const std::string item = text.substr(pos, end - pos);
    const size_t eq = item.find('=');
    bool found = false;
    for (const ParamSpec<P>& s : P::table())
      if (eq != std::string::npos && item.compare(0, eq, s.rtl_name) == 0 &&
          eq == std::string(s.rtl_name).size()) {
        p.*s.member = unsigned(std::stoul(item.substr(eq + 1)));
        found = true;
      }
    if (!found) {
      std::string names;
      for (const ParamSpec<P>& s : P::table()) names += std::string(names.empty() ? "" : ", ") + s.rtl_name;
      throw std::invalid_argument("parameter '" + item + "' is not NAME=VALUE with a known name; "
                                  "known: " + names);
    }
    pos = end + 1;
  }
  return p;
}

template <class P>
std::string params_to_string(const P& p) {
  std::string s;
  for (const ParamSpec<P>& spec : P::table())
    s += std::string(s.empty() ? "" : ",") + spec.rtl_name + "=" + std::to_string(p.*spec.member);
  return s;
}

}  // namespace t3

#define T3_SYNTH(...)
#define T3_DERIVED_METHOD(NAME, method, value, doc) \
  unsigned method() const { return unsigned(value); }

// The fields and table() of a <Block>Params struct: hw/common/param_struct.inc.
#define T3_PARAM_FIELD(NAME, field, def, lo, hi, rule, doc) unsigned field = def;
#define T3_PARAM_ROW(NAME, field, def, lo, hi, rule, doc) \
  {#NAME, #field, def, lo, hi, ::t3::ParamRule::rule, doc, &Self::field},
