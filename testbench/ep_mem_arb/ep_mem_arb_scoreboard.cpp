#include "ep_mem_arb_scoreboard.h"

#include <vector>

#include "common/bits.h"
#include "common/hex.h"
#include "t3/ep_mem_arb_regs.h"

namespace t3::tb {

namespace {

// One operation or answer, unpacked.
struct Op {
  unsigned port = 0;
  uint32_t op = 0, dtype = 0;
  uint64_t addr = 0, tag = 0;
  std::vector<uint64_t> data;
  bool operator==(const Op& o) const {
    return port == o.port && op == o.op && dtype == o.dtype && addr == o.addr && tag == o.tag && data == o.data;
  }
};

template <class W>
std::vector<uint64_t> flit_of(const W& bus, unsigned i, unsigned flit_w) {
  std::vector<uint64_t> d;
  for (unsigned k = 0; k < flit_w / 64; ++k) d.push_back(bus.bits(i * flit_w + 64 * k, 64));
  return d;
}

}  // namespace

std::optional<std::string> EpMemArbScoreboard::observe(const EpMemArbInputs& in, const EpMemArbOutputs& out) {
  std::ostringstream& err = complaints_.fresh();
  const uint64_t m = low_mask(p_.stat_w);
  const unsigned fw = p_.flit_w, tw = p_.tag_w, lw = p_.ltag_w();

  auto ro = [&](unsigned r) -> std::optional<uint32_t> {
    switch (EpMemArbReg(r)) {
      case EpMemArbReg::stat_reads: return uint32_t(stat_[0] & m);
      case EpMemArbReg::stat_writes: return uint32_t(stat_[1] & m);
      case EpMemArbReg::stat_waits: return uint32_t(stat_[2] & m);
      case EpMemArbReg::stat_strays: return uint32_t(stat_[3] & m);
      case EpMemArbReg::stat_clashes: return uint32_t(stat_[4] & m);
      case EpMemArbReg::param:
        return p_.flit_w | p_.ports << 10 | p_.mem_ops << 15 | p_.tag_w << 19 | p_.stat_w << 24;
      default: return 0;
    }
  };
  regs_.observe(in.apb, out.apb, false, ro, err);
  if (out.intr != regs_.intr()) err << "intr_o = " << out.intr << ", expected " << regs_.intr() << "; ";

  // ---- the grant: the operations asked, in port order
  std::vector<Op> asked;
  for (unsigned i = 0; i < p_.ports; ++i) {
    if (!(in.rq_valid >> i & 1)) continue;
    Op o;
    o.port = i;
    o.op = in.rq_op >> (2 * i) & 3;
    o.dtype = in.rq_dtype >> (2 * i) & 3;
    o.addr = in.rq_addr.bits(48 * i, 48);
    o.tag = in.rq_tag.bits(tw * i, tw);
    o.data = flit_of(in.rq_data, i, fw);
    asked.push_back(o);
  }
  const size_t granted = std::min<size_t>(asked.size(), p_.mem_ops);
  uint32_t ready = 0;
  for (size_t k = 0; k < granted; ++k) ready |= 1u << asked[k].port;
  want_pin(err, "rq_ready_o", out.rq_ready, ready);
  for (unsigned k = 0; k < p_.mem_ops; ++k) {
    const bool v = out.mem_valid >> k & 1;
    Op got;
    const uint64_t lt = out.mem_tag.bits(lw * k, lw);
    got.port = unsigned(lt >> tw);
    got.tag = lt & low_mask(tw);
    got.op = out.mem_op >> (2 * k) & 3;
    got.dtype = out.mem_dtype >> (2 * k) & 3;
    got.addr = out.mem_addr.bits(48 * k, 48);
    got.data = flit_of(out.mem_data, k, fw);
    if (v != (k < granted)) {
      err << "lane " << k << ": mem_valid " << v << ", expected " << (k < granted) << "; ";
    } else if (v && !(got == asked[k])) {
      err << "lane " << k << ": port " << got.port << " tag " << got.tag << " op " << got.op << " addr 0x"
          << std::hex << got.addr << std::dec << ", expected port " << asked[k].port << "'s operation (tag "
          << asked[k].tag << " op " << asked[k].op << " addr 0x" << std::hex << asked[k].addr << std::dec
          << ") whole; ";
    } else if (!v && !(got == Op{0, 0, 0, 0, 0, std::vector<uint64_t>(fw / 64, 0)})) {
      err << "lane " << k << ": fields not 0 while mem_valid is low; ";
    }
  }

  // ---- the answers
  uint32_t md = 0;
  unsigned strays = 0, clashes = 0;
  std::vector<Op> want(p_.ports);
  for (unsigned k = 0; k < p_.mem_ops; ++k) {
    if (!(in.ans_valid >> k & 1)) continue;
    const uint64_t lt = in.ans_tag.bits(lw * k, lw);
    const unsigned port = unsigned(lt >> tw);
    if (port >= p_.ports) {
      ++strays;
    } else if (md >> port & 1) {
      ++clashes;
    } else {
      md |= 1u << port;
      want[port].tag = lt & low_mask(tw);
      want[port].data = flit_of(in.ans_data, k, fw);
    }
  }
  want_pin(err, "md_valid_o", out.md_valid, md);
  for (unsigned i = 0; i < p_.ports; ++i) {
    const uint64_t tag = out.md_tag.bits(tw * i, tw);
    const std::vector<uint64_t> data = flit_of(out.md_data, i, fw);
    const uint64_t wt = md >> i & 1 ? want[i].tag : 0;
    const std::vector<uint64_t> wd = md >> i & 1 ? want[i].data : std::vector<uint64_t>(fw / 64, 0);
    if (tag != wt || data != wd)
      err << "port " << i << ": md_tag " << tag << " and its data, expected tag " << wt
          << (md >> i & 1 ? " and the answer's data" : " and 0 (no answer)") << "; ";
  }

  // ---- the edge
  if (!in.rst_n) {
    regs_.reset();
    for (uint64_t& c : stat_) c = 0;
    return complaints_.result();
  }
  for (size_t k = 0; k < granted; ++k) {
    const uint32_t op = asked[k].op;
    ++(op == 0 ? n_.reads : op == 1 ? n_.writes : n_.adds);
    ++stat_[op == 0 ? 0 : 1];
    if (asked[k].port == p_.ports - 1) ++n_.last_port_granted;
  }
  if (granted == p_.mem_ops) ++n_.full_cycles;
  n_.waits += asked.size() - granted;
  stat_[2] += asked.size() - granted;
  n_.strays += strays;
  n_.clashes += clashes;
  n_.answers += __builtin_popcount(md);
  stat_[3] += strays;
  stat_[4] += clashes;
  if (strays + clashes) regs_.set_event(unsigned(EpMemArbReg::intr_state), T3_EP_MEM_ARB_R_INTR_STATE_LOST_MASK);
  regs_.edge();
  return complaints_.result();
}

}  // namespace t3::tb
