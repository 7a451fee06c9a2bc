#include "reduction_table_scoreboard.h"

#include <cmath>
#include <sstream>

#include "common/bits.h"
#include "fp_reference.h"
#include "t3/reduction_table_regs.h"

namespace t3::tb {

// docs/packet.md's checks in its order, then the table's (the page's
// "Malformed and refused packets"): the opcodes a port takes, a region, the
// counts. Written here from the pages, not from hw/common/packet.h.
unsigned sb_malformed(const pkt::Header& h, bool rsp, const ReductionTableParams& p) {
  const unsigned op = h.op;
  const bool known = (op >= 1 && op <= 4) || (op >= 8 && op <= 12);
  if (!known) return 1;
  if (h.len < 1 || h.len > p.max_len) return 2;
  const bool red = op == 3 || op == 4 || op == 10 || op == 11 || op == 12;
  if (red && h.red_op != 0) return 3;
  if (red && h.dtype == 3) return 4;
  if (h.addr % (p.flit_w / 8) != 0) return 5;
  if (rsp ? op != 10 : (op != 3 && op != 4)) return 6;
  if (!h.hit) return 7;
  if (op == 3 && (h.count < 1 || h.count > h.expect)) return 8;  // PUSH: 1..expect
  if (op == 4 && h.count >= h.expect) return 8;                  // PULL: waits for expect - count > 0
  if (op == 10 && h.count < 1) return 8;                         // PULL_RSP: at least one
  return 0;
}

namespace {
FpFormat format_of(unsigned dtype) { return dtype == 0 ? kFp16 : dtype == 1 ? kBf16 : kFp32; }
uint64_t wrap(uint64_t v, unsigned w) { return v & low_mask(w); }

// ACC32's reading, on the host's doubles (every fp16, bf16 and fp32 value is
// a double): a 16-bit value as fp32 (exact), and an fp32 value rounded to
// the 16-bit format (nearest, ties to even, subnormals, overflow to inf, the
// canonical NaN). Written here on their own, not from hw/common/fp_convert.h.
double value_of(const FpFormat& f, uint32_t x) {
  const int bias = f.bias();
  const uint32_t e = (x >> f.man_w) & ((1u << f.exp_w) - 1), m = x & ((1u << f.man_w) - 1);
  const double sign = (x >> (f.exp_w + f.man_w)) & 1 ? -1.0 : 1.0;
  if (e == (1u << f.exp_w) - 1) return m ? std::nan("") : sign * HUGE_VAL;
  if (e == 0) return sign * std::ldexp(double(m), 1 - bias - int(f.man_w));
  return sign * std::ldexp(double(m | (1u << f.man_w)), int(e) - bias - int(f.man_w));
}
uint32_t bits_of(const FpFormat& f, double v) {
  const uint32_t exp_ones = (1u << f.exp_w) - 1;
  if (std::isnan(v)) return exp_ones << f.man_w | 1u << (f.man_w - 1);
  const uint32_t sign = std::signbit(v) ? 1u << (f.exp_w + f.man_w) : 0;
  const double a = std::fabs(v);
  if (a == 0) return sign;
  if (std::isinf(a)) return sign | exp_ones << f.man_w;
  const int bias = f.bias();
  int e;
  std::frexp(a, &e);
  e = std::max(e - 1, 1 - bias);  // a in [2^e, 2^(e+1)), or a subnormal
  double q = std::nearbyint(std::ldexp(a, int(f.man_w) - e));  // ties to even (the default mode)
  if (q >= std::ldexp(1.0, int(f.man_w) + 1)) {
    q /= 2;
    ++e;
  }
  if (e > bias) return sign | exp_ones << f.man_w;
  const uint32_t qi = uint32_t(q);
  if (qi < (1u << f.man_w)) return sign | qi;  // subnormal (or carried into the first normal)
  return sign | uint32_t(e + bias) << f.man_w | (qi & ((1u << f.man_w) - 1));
}
uint32_t to32(const FpFormat& f, uint32_t x) { return bits_of(kFp32, value_of(f, x)); }
uint32_t from32(const FpFormat& f, uint32_t x) { return bits_of(f, value_of(kFp32, x)); }
}  // namespace

ReductionTableScoreboard::ReductionTableScoreboard(const ReductionTableParams& p)
    : p_(p), in_{PktCollector(p.flit_w), PktCollector(p.flit_w)}, out_(p.flit_w) {}

ReductionTableScoreboard::Key ReductionTableScoreboard::key_of(const pkt::Header& h) const {
  const bool pull = h.op == uint8_t(pkt::Op::pull_rsp);
  if (pull) return Key{true, h.rgn, h.addr, h.dst, h.ctr, h.dtype, h.len, 0, 0};
  return Key{false, h.rgn, h.addr, 0, 0, h.dtype, h.len, h.expect, h.home};
}

// acc += the packet's lanes (the first packet sets acc). With ACC32, 16-bit
// lanes are added in fp32 (the table's accumulator): acc holds fp32 values.
void ReductionTableScoreboard::add_lanes(std::vector<uint32_t>& acc, const Packet& pk) {
  const unsigned lw = pk.h.dtype == 2 ? 32 : 16, per = p_.flit_w / lw;
  const FpFormat f = format_of(pk.h.dtype);
  const bool wide = p_.acc32 && pk.h.dtype != 2;
  const bool first = acc.empty();
  if (first) acc.resize(per * pk.data.size());
  for (size_t k = 0; k < pk.data.size(); ++k)
    for (unsigned l = 0; l < per; ++l) {
      const uint32_t v = wide ? to32(f, pk.data[k].lane(l * lw, lw)) : pk.data[k].lane(l * lw, lw);
      uint32_t& a = acc[k * per + l];
      a = first ? v : mpfr_add_bits(wide ? kFp32 : f, a, v);
    }
}

void ReductionTableScoreboard::allow_refusals(const pkt::Header& k, unsigned n) {
  probes_.push_back(ProbeKey{k.op == uint8_t(pkt::Op::pull), k.rgn, k.addr, k.dst, k.ctr});
  t_.probes += n;
}

bool ReductionTableScoreboard::is_probe(const Key& k) const {
  for (const ProbeKey& q : probes_)
    if (q.pull == std::get<0>(k) && q.rgn == std::get<1>(k) && q.addr == std::get<2>(k) &&
        (!q.pull || (q.dst == std::get<3>(k) && q.ctr == std::get<4>(k))))
      return true;
  return false;
}

void ReductionTableScoreboard::taken(unsigned s, const Packet& pk, std::ostream& err) {
  (void)err;
  ++t_.headers;
  ++cov_.headers;
  const pkt::Header& h = pk.h;
  if (const unsigned code = sb_malformed(h, s == 1, p_)) {
    ++t_.malformed;
    ++cov_.malformed[code];
    return;
  }
  if (h.op == uint8_t(pkt::Op::pull)) {
    ++t_.pulls;
    return;
  }
  if (h.op == uint8_t(pkt::Op::push) && h.count == h.expect) ++t_.alone;
  Group& g = groups_[key_of(h)];
  g.in += h.count;
  add_lanes(g.ref, pk);
  if (h.op == uint8_t(pkt::Op::pull_rsp)) g.responses.push_back(pk);
  cov_.max_ingroups = std::max<uint64_t>(cov_.max_ingroups, groups_.size());
}

void ReductionTableScoreboard::left(const Packet& pk, std::ostream& err) {
  const pkt::Header& h = pk.h;
  const unsigned op = h.op;
  if (op != 0xA && op != 0xB && op != 0xC) {
    err << "out: a packet with op " << op << " (only RESULT, PARTIAL, PULL_RSP leave); ";
    return;
  }
  if (h.red_op != 0 || h.dtype > 2 || h.len < 1 || h.len > p_.max_len || !h.hit ||
      h.addr % (p_.flit_w / 8) != 0)
    err << "out: a malformed header " << h << "; ";
  if (op == 0xB) {
    ++t_.results;
    ++cov_.results;
    if (h.count != h.expect || h.dst != h.home || h.src != 0 || h.ctr != 0)
      err << "out: RESULT " << h << " (count = expect, dst = home, src 0, ctr 0); ";
  } else if (op == 0xC) {
    ++t_.partials;
    ++cov_.partials;
    if (h.count < 1 || h.count >= h.expect || h.dst != h.home || h.src != 0 || h.ctr != 0)
      err << "out: PARTIAL " << h << " (0 < count < expect, dst = home, src 0, ctr 0); ";
  } else if (h.src != 0) {
    ++t_.bypassed;
    ++cov_.bypassed;
  } else {
    if (h.count < 1 || h.count > h.expect) err << "out: a reduced PULL_RSP " << h << " (0 < count <= expect); ";
    if (h.count == h.expect) {
      ++t_.pull_complete;
      ++cov_.pull_complete;
    } else {
      ++t_.partials;
      ++cov_.pull_partial;
    }
  }
  const Key k = key_of(h);
  auto it = groups_.find(k);
  if (it == groups_.end()) {
    err << "out: " << h << " belongs to no reduction taken (or its counts all left already); ";
    return;
  }
  Group& g = it->second;
  if (op == 0xA && h.src != 0) {
    // Passed on unreduced: exactly a response taken, once.
    bool found = false;
    for (auto r = g.responses.begin(); r != g.responses.end(); ++r)
      if (*r == pk) {
        g.responses.erase(r);
        found = true;
        break;
      }
    if (!found) err << "out: PULL_RSP " << h << " passed on, but no response taken was that packet; ";
  }
  g.out += h.count;
  if (g.out > g.in) {
    err << "out: " << h << ": " << g.out << " contributions out of " << g.in << " taken (counted twice); ";
    groups_.erase(it);
    return;
  }
  add_lanes(g.merged, pk);
  if (g.out == g.in) {
    // Every contribution taken has left: the merged value is their sum.
    ++cov_.balanced;
    // ACC32: the sum in fp32, rounded once (what left was rounded too).
    const FpFormat f = format_of(h.dtype);
    const bool wide = p_.acc32 && h.dtype != 2;
    const unsigned w = f.width();
    for (size_t i = 0; i < g.ref.size(); ++i) {
      ++cov_.lanes_checked;
      const uint32_t got = wide ? from32(f, g.merged[i]) : g.merged[i];
      const uint32_t want = wide ? from32(f, g.ref[i]) : g.ref[i];
      if ((got & low_mask(w - 1)) == 0) ++cov_.zero_results;
      else if (((got >> f.man_w) & low_mask(f.exp_w)) == 0) ++cov_.subnormal_results;
      if (got != want) {
        err << "out: " << h << ": lane " << i << " of the reduction is 0x" << std::hex << got
            << ", the sum of its " << std::dec << g.in << " contributions is 0x" << std::hex << want
            << std::dec << "; ";
        break;
      }
    }
    groups_.erase(it);
  }
}

void ReductionTableScoreboard::clear() {
  groups_.clear();
  probes_.clear();
  for (auto& c : in_) c.clear();
  out_.clear();
  t_ = Tally{};
  base_ = ReductionTableOutputs{};
  stall_[0] = stall_[1] = 0;
  wait_[0] = wait_[1] = 0;
  lru_seen_ = false;
}

std::optional<std::string> ReductionTableScoreboard::observe(const ReductionTableInputs& in,
                                                            const ReductionTableOutputs& out) {
  std::ostringstream& err = complaints_.fresh();
  const unsigned sw = p_.stat_w;

  // ---- the register port and the interrupt line, before the edge
  auto ro = [&](unsigned r) -> std::optional<uint32_t> {
    switch (ReductionTableReg(r)) {
      case ReductionTableReg::stat_alloc: return out.stat_alloc;
      case ReductionTableReg::stat_hits: return out.stat_hits;
      case ReductionTableReg::stat_completions: return out.stat_completions;
      case ReductionTableReg::stat_evict_lru: return out.stat_evict_lru;
      case ReductionTableReg::stat_evict_timeout: return out.stat_evict_timeout;
      case ReductionTableReg::stat_stall_req: return out.stat_stall_req;
      case ReductionTableReg::stat_stall_rsp: return out.stat_stall_rsp;
      case ReductionTableReg::stat_bypasses: return out.stat_bypasses;
      case ReductionTableReg::stat_pull_passed: return out.stat_pull_passed;
      case ReductionTableReg::stat_malformed: return out.stat_malformed;
      case ReductionTableReg::stat_refused: return out.stat_refused;
      case ReductionTableReg::stat_hwm: return out.stat_hwm;
      case ReductionTableReg::param_geom:
        return p_.flit_w << T3_REDUCTION_TABLE_R_PARAM_GEOM_FLIT_W_SHIFT |
               p_.max_len << T3_REDUCTION_TABLE_R_PARAM_GEOM_MAX_LEN_SHIFT |
               p_.entries << T3_REDUCTION_TABLE_R_PARAM_GEOM_ENTRIES_SHIFT;
      case ReductionTableReg::param_widths:
        return p_.acc32 << T3_REDUCTION_TABLE_R_PARAM_WIDTHS_ACC32_SHIFT |
               p_.timeout_w << T3_REDUCTION_TABLE_R_PARAM_WIDTHS_TIMEOUT_W_SHIFT |
               p_.stat_w << T3_REDUCTION_TABLE_R_PARAM_WIDTHS_STAT_W_SHIFT;
      case ReductionTableReg::status:
      case ReductionTableReg::err:
        return std::nullopt;  // the table's state: not this checker's business
      default: return 0;
    }
  };
  regs_.observe(in.apb, out.apb, false, ro, err);
  if (out.intr != regs_.intr()) err << "intr_o = " << out.intr << ", expected " << regs_.intr() << "; ";
  const uint32_t timeout = regs_.field(unsigned(ReductionTableReg::timeout), "cycles");
  const bool cfg_bad = p_.timeout_w < 32 && timeout > low_mask(p_.timeout_w);

  // ---- the counters: the stalls exactly, the others one step at most
  check_counter(err, "stat_stall_req_o", out.stat_stall_req, stall_[0], sw);
  check_counter(err, "stat_stall_rsp_o", out.stat_stall_rsp, stall_[1], sw);
  if (have_prev_) {
    unsigned i = 0;
    auto step = [&](const char* pin, uint32_t now, uint32_t before) {
      const uint64_t d = wrap(uint64_t(now) - before, sw);
      if (d > 1) err << pin << " went from " << before << " to " << now << "; ";
      cov_.steps[i++] += d;
    };
    step("stat_alloc_o", out.stat_alloc, prev_.stat_alloc);
    step("stat_hits_o", out.stat_hits, prev_.stat_hits);
    step("stat_completions_o", out.stat_completions, prev_.stat_completions);
    step("stat_evict_lru_o", out.stat_evict_lru, prev_.stat_evict_lru);
    step("stat_evict_timeout_o", out.stat_evict_timeout, prev_.stat_evict_timeout);
    step("stat_bypasses_o", out.stat_bypasses, prev_.stat_bypasses);
    step("stat_pull_passed_o", out.stat_pull_passed, prev_.stat_pull_passed);
    step("stat_malformed_o", out.stat_malformed, prev_.stat_malformed);
    step("stat_refused_o", out.stat_refused, prev_.stat_refused);
    if (out.stat_hwm < prev_.stat_hwm || out.stat_hwm > prev_.stat_hwm + 1)
      err << "stat_hwm_o went from " << prev_.stat_hwm << " to " << out.stat_hwm << "; ";
    if (out.stat_evict_lru != prev_.stat_evict_lru) lru_seen_ = true;
  }
  if (out.stat_hwm > p_.entries) err << "stat_hwm_o = " << out.stat_hwm << " above ENTRIES; ";
  if (out.stat_hwm == p_.entries) ++cov_.hwm_full;
  // A table full enough to evict its least recently used entry was full.
  if (lru_seen_ && out.stat_hwm != p_.entries)
    err << "an LRU eviction with stat_hwm_o = " << out.stat_hwm << " (the table was not full); ";

  if (!in.rst_n) {
    if (out.req_in_ready || out.rsp_in_ready || out.out_valid)
      err << "a stream moves during reset; ";
    ++cov_.resets;
    clear();
    regs_.reset();
    prev_ = ReductionTableOutputs{};
    have_prev_ = true;
    if (err.tellp() == 0) return std::nullopt;
    return err.str();
  }

  // ---- the edge: the interrupts' events (each malformed or refused packet
  // steps its counter at the edge before; CFG_ERROR a level)
  if (have_prev_) {
    uint32_t ev = 0;
    if (out.stat_malformed != prev_.stat_malformed) ev |= 1u << T3_REDUCTION_TABLE_R_INTR_STATE_MALFORMED_SHIFT;
    if (out.stat_refused != prev_.stat_refused) ev |= 1u << T3_REDUCTION_TABLE_R_INTR_STATE_REFUSED_SHIFT;
    if (cfg_bad) ev |= 1u << T3_REDUCTION_TABLE_R_INTR_STATE_CFG_ERROR_SHIFT;
    regs_.set_event(unsigned(ReductionTableReg::intr_state), ev);
  }
  regs_.edge();

  // ---- the streams
  const bool valid[2] = {in.req_in_valid, in.rsp_in_valid};
  const bool ready[2] = {out.req_in_ready, out.rsp_in_ready};
  const Wide* flit[2] = {&in.req_in_flit, &in.rsp_in_flit};
  const char* name[2] = {"req_in", "rsp_in"};
  for (unsigned s = 0; s < 2; ++s) {
    if (valid[s] && !ready[s]) {
      ++stall_[s];
      if (++wait_[s] == 100000) err << name[s] << ": a flit offered for 100000 cycles and not taken; ";
    } else {
      wait_[s] = 0;
    }
    // A data flit held: its word is still in the adders (or the output full).
    if (in_[s].mid_packet() && valid[s] && !ready[s]) ++cov_.data_held;
    if (auto pk = in_[s].observe(name[s], valid[s], ready[s], *flit[s], err)) taken(s, *pk, err);
  }
  if (out.out_valid && !in.out_ready) ++cov_.out_backpressure;
  if (out_.mid_packet() && !out.out_valid) ++cov_.mid_packet_gaps;
  if (auto pk = out_.observe("out", out.out_valid, in.out_ready, out.out_flit, err)) left(*pk, err);

  prev_ = out;
  have_prev_ = true;
  if (err.tellp() == 0) return std::nullopt;
  return err.str();
}

std::optional<std::string> ReductionTableScoreboard::check_at_rest() {
  std::ostringstream err;
  const unsigned sw = p_.stat_w;
  const ReductionTableOutputs& o = prev_;
  auto d = [&](uint32_t now, uint32_t base) { return wrap(uint64_t(now) - base, sw); };
  const uint64_t alloc = d(o.stat_alloc, base_.stat_alloc), hits = d(o.stat_hits, base_.stat_hits);
  const uint64_t compl_ = d(o.stat_completions, base_.stat_completions);
  const uint64_t lru = d(o.stat_evict_lru, base_.stat_evict_lru);
  const uint64_t tmo = d(o.stat_evict_timeout, base_.stat_evict_timeout);
  const uint64_t byp = d(o.stat_bypasses, base_.stat_bypasses);
  const uint64_t pass = d(o.stat_pull_passed, base_.stat_pull_passed);
  const uint64_t mal = d(o.stat_malformed, base_.stat_malformed);
  const uint64_t ref = d(o.stat_refused, base_.stat_refused);
  auto eq = [&](const char* what, uint64_t got, uint64_t want) {
    if (got != wrap(want, sw))
      err << what << ": " << got << " counted, " << wrap(want, sw) << " expected (" << want << "); ";
  };
  ++cov_.rests;
  eq("malformed packets", mal, t_.malformed);
  eq("completions (RESULTs and complete PULL_RSPs out)", compl_, t_.results + t_.pull_complete);
  eq("bypasses (PULL_RSPs passed on)", byp, t_.bypassed);
  // Every header taken is one of: a hit, an allocation, complete alone (a
  // PUSH with the whole count and no entry), a bypass, a PULL passed,
  // malformed, refused. Every allocation ends complete or evicted. Both
  // give the PUSHes complete alone; those are the PUSHes carrying their
  // whole count but the ones refused (an entry was there: overcount).
  const uint64_t alone = wrap(t_.headers - (hits + alloc + byp + pass + mal + ref), sw);
  eq("complete alone (headers less hits, allocations, bypasses, PULLs passed, malformed and "
     "refused) = completions + evictions - allocations", alone, compl_ + lru + tmo - alloc);
  if (sw >= 16 && (alone > t_.alone || alone + ref < t_.alone))
    err << alone << " PUSHes complete alone, " << t_.alone << " carried their whole count and "
        << ref << " were refused; ";
  // Every reduction taken has left, but where a probe's packet was refused.
  uint64_t unbalanced = 0;
  for (const auto& [k, g] : groups_) {
    if (is_probe(k)) {
      ++unbalanced;
      continue;
    }
    err << "a reduction (rgn " << unsigned(std::get<1>(k)) << ", addr 0x" << std::hex << std::get<2>(k)
        << std::dec << (std::get<0>(k) ? ", pull" : ", push") << "): " << g.in << " contributions taken, "
        << g.out << " left (lost); ";
    break;
  }
  cov_.refused_groups += unbalanced;
  if (sw >= 16) {
    if (lru + tmo < t_.partials) err << "evictions " << lru + tmo << " < partials out " << t_.partials << "; ";
    if (ref < unbalanced || ref > t_.probes)
      err << "refused " << ref << ": expected between " << unbalanced << " (probes' reductions "
          << "not all out) and " << t_.probes << " (probes sent); ";
    if (pass > t_.pulls) err << "PULLs passed " << pass << " > PULLs taken " << t_.pulls << "; ";
  }
  cov_.completes_alone += alone;
  groups_.clear();
  probes_.clear();
  t_ = Tally{};
  base_ = o;
  if (err.tellp() == 0) return std::nullopt;
  return err.str();
}

}  // namespace t3::tb
