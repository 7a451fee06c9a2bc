#include "ep_mem_arb/ep_mem_arb_core.h"

#include "common/bits.h"

namespace t3 {

void EpMemArbParams::validate() const { validate_param_ranges(*this, "ep_mem_arb"); }

EpMemArbCore::EpMemArbCore(const EpMemArbParams& p) : p_((p.validate(), p)) {}

namespace {

// Flit i of a packed bus of FLIT_W-bit flits (whole 64-bit words) into
// flit j of another.
template <class To, class From>
void copy_flit(To& to, unsigned j, const From& from, unsigned i, unsigned flit_w) {
  const unsigned n = flit_w / 64;
  for (unsigned k = 0; k < n; ++k) to.w[j * n + k] = from.w[i * n + k];
}

}  // namespace

EpMemArbCoreOutputs EpMemArbCore::decide(const EpMemArbCoreInputs& in, Cycle& c) const {
  EpMemArbCoreOutputs o;
  const unsigned tw = p_.tag_w, pw = p_.port_w(), lw = p_.ltag_w(), fw = p_.flit_w;
  // The grant: the first MEM_OPS ports that ask, in port order.
  unsigned lane = 0;
  for (unsigned i = 0; i < p_.ports; ++i) {
    if (!(in.rq_valid >> i & 1)) continue;
    if (lane == p_.mem_ops) {
      ++c.waits;
      continue;
    }
    const uint32_t op = in.rq_op >> (2 * i) & 3;
    o.rq_ready |= 1u << i;
    o.mem_valid |= 1u << lane;
    o.mem_op |= op << (2 * lane);
    o.mem_dtype |= (in.rq_dtype >> (2 * i) & 3) << (2 * lane);
    o.mem_addr.set_bits(48 * lane, 48, in.rq_addr.bits(48 * i, 48));
    copy_flit(o.mem_data, lane, in.rq_data, i, fw);
    o.mem_tag.set_bits(lw * lane, lw, uint64_t{i} << tw | in.rq_tag.bits(tw * i, tw));
    ++(op == kRead ? c.reads : c.writes);
    ++lane;
  }
  // The answers, to the ports their tags name; the lowest lane first.
  for (unsigned k = 0; k < p_.mem_ops; ++k) {
    if (!(in.ans_valid >> k & 1)) continue;
    const uint64_t t = in.ans_tag.bits(lw * k, lw);
    const unsigned port = unsigned(t >> tw & low_mask(pw));
    if (port >= p_.ports) {
      ++c.strays;
    } else if (o.md_valid >> port & 1) {
      ++c.clashes;
    } else {
      o.md_valid |= 1u << port;
      o.md_tag.set_bits(tw * port, tw, t & low_mask(tw));
      copy_flit(o.md_data, port, in.ans_data, k, fw);
    }
  }
  o.lost = c.strays + c.clashes != 0;
  const uint64_t m = low_mask(p_.stat_w);
  o.stat.reads = uint32_t(reads_ & m);
  o.stat.writes = uint32_t(writes_ & m);
  o.stat.waits = uint32_t(waits_ & m);
  o.stat.strays = uint32_t(strays_ & m);
  o.stat.clashes = uint32_t(clashes_ & m);
  return o;
}

EpMemArbCoreOutputs EpMemArbCore::eval(const EpMemArbCoreInputs& in) const {
  Cycle c;
  return decide(in, c);
}

void EpMemArbCore::clock(const EpMemArbCoreInputs& in) {
  if (!in.rst_n) {
    reads_ = writes_ = waits_ = strays_ = clashes_ = 0;
    return;
  }
  Cycle c;
  decide(in, c);
  reads_ += c.reads;
  writes_ += c.writes;
  waits_ += c.waits;
  strays_ += c.strays;
  clashes_ += c.clashes;
}

}  // namespace t3
