#include "innet_switch/innet_switch.h"

#include "common/compose.h"
#include "common/packet.h"

namespace t3 {

McrTableParams InnetSwitchParams::mcr_table() const {
  McrTableParams m;
  m.flit_w = flit_w;
  m.ports = ports;
  m.regions = regions;
  m.max_len = max_len;
  m.slots = slots;
  m.stat_w = stat_w;
  return m;
}

ReductionTableParams InnetSwitchParams::reduction_table() const {
  ReductionTableParams r;
  r.flit_w = flit_w;
  r.entries = entries;
  r.max_len = max_len;
  r.acc32 = acc32;
  r.timeout_w = timeout_w;
  r.stat_w = stat_w;
  return r;
}

void InnetSwitchParams::validate() const {
  validate_param_ranges(*this, "innet_switch");
  // A port competes once its whole packet is in its queue, and a copy
  // starts only where the whole packet fits.
  if (in_depth < 1 + max_len)
    param_error("innet_switch", "in_depth", "IN_DEPTH", in_depth,
                std::to_string(1 + max_len) + "..64 (a whole packet: 1 + MAX_LEN)");
  if (out_depth < 1 + max_len)
    param_error("innet_switch", "out_depth", "OUT_DEPTH", out_depth,
                std::to_string(1 + max_len) + "..64 (a whole packet: 1 + MAX_LEN)");
  mcr_table().validate();
  reduction_table().validate();
}

Wide bus_flit(const SwitchBus& b, unsigned p, unsigned flit_w) {
  Wide f;
  const unsigned n = flit_w / 64, at = p * n;
  for (unsigned i = 0; i < n; ++i) f.w[i] = b.w[at + i];
  return f;
}

void set_bus_flit(SwitchBus& b, unsigned p, unsigned flit_w, const Wide& f) {
  const unsigned n = flit_w / 64, at = p * n;
  for (unsigned i = 0; i < n; ++i) b.w[at + i] = f.w[i];
}

namespace {
const InnetSwitchParams& checked(const InnetSwitchParams& p) {
  p.validate();
  return p;
}

uint32_t in_valid(const InnetSwitchInputs& in, unsigned k) { return k ? in.rsp_in_valid : in.req_in_valid; }
const SwitchBus& in_flit(const InnetSwitchInputs& in, unsigned k) { return k ? in.rsp_in_flit : in.req_in_flit; }
uint32_t out_ready(const InnetSwitchInputs& in, unsigned k) { return k ? in.rsp_out_ready : in.req_out_ready; }
bool bit(uint64_t v, unsigned i) { return (v >> i) & 1; }
}  // namespace

InnetSwitch::InnetSwitch(const InnetSwitchParams& params)
    : p_(checked(params)), mcr_in_(p_.mcr_table()), rt_(p_.reduction_table()), mcr_out_(p_.mcr_table()) {
  for (unsigned k = 0; k < 2; ++k) {
    for (unsigned p = 0; p < p_.ports; ++p) {
      inq_[k].emplace_back(p_.in_depth);
      outq_[k].emplace_back(p_.out_depth);
    }
    eg_[k].resize(p_.ports);
  }
}

unsigned InnetSwitch::packet_flits(const Wide& header) { return pkt::wire_flits(pkt::unpack(header)); }

bool InnetSwitch::complete(unsigned k, unsigned port) const {
  const Fifo<Wide>& q = inq_[k][port];
  return q.valid() && (q.count() >= packet_flits(q.rdata()) || q.full());
}

// A copy may start only where its whole packet fits (so that once started
// it is never held by its egress), from the source whose turn it is; the
// rest of a packet only from the source it came from.
bool InnetSwitch::egress_ready(unsigned k, unsigned port, Src s) const {
  const Egress& e = eg_[k][port];
  const Fifo<Wide>& q = outq_[k][port];
  if (e.own != kNone) return e.own == s && !q.full();
  const bool turn = k == 0 ? s == kMcrIn : e.tok == s;
  return turn && q.depth() - q.count() >= 1 + p_.max_len;
}

// The combinational part of a cycle, in the order the wires depend on each
// other (rtl/innet_switch.sv has the same wires). Every block's readies and
// output valid depend on its state alone: the reduction table is looked at
// first for those, then mcr_out (fed by its output), mcr_in, and the
// reduction table again with mcr_in's copies to it. With Self non-const
// (step(), clock()) each block is clocked as it is evaluated: nothing later
// in the cycle changes its inputs.
template <class Self>
void InnetSwitch::wires(Self& self, const InnetSwitchInputs& in, Wires& w) {
  const InnetSwitchParams& p = self.p_;
  w.window = in.apb.paddr >> 12;
  auto window_apb = [&](InnetSwitchWindow b, ApbRequest& a) { window_request(in.apb, unsigned(b), a); };
  for (unsigned k = 0; k < 2; ++k) {
    w.ready_in[k] = 0;
    for (unsigned q = 0; q < p.ports; ++q) w.ready_in[k] |= uint64_t(self.egress_ready(k, q, kMcrIn)) << q;
  }
  w.ready_out = 0;
  for (unsigned q = 0; q < p.ports; ++q) w.ready_out |= uint64_t(self.egress_ready(1, q, kMcrOut)) << q;

  // The reduction table's readies and output, from its state.
  w.rt.rst_n = in.rst_n;
  w.rt.apb = ApbRequest{};
  w.rt.req_in_valid = w.rt.rsp_in_valid = w.rt.out_ready = false;
  w.rt.req_in_flit = w.rt.rsp_in_flit = Wide{};
  self.rt_.eval(w.rt, w.rt_o);

  // mcr_out: the reduction table's output, from the reduction unit.
  w.mo.rst_n = in.rst_n;
  window_apb(InnetSwitchWindow::mcr_out, w.mo.apb);
  w.mo.req_in_valid = false;
  w.mo.req_in_flit = Wide{};
  w.mo.req_in_port = 0;
  w.mo.req_out_ready = 0;
  w.mo.rsp_in_valid = w.rt_o.out_valid;
  w.mo.rsp_in_flit = w.rt_o.out_flit;
  w.mo.rsp_in_port = p.ports;
  w.mo.rsp_out_ready = w.ready_out;
  settle(self.mcr_out_, w.mo, w.mo_o);

  // The grants: the locked port, else the first port from rr whose head
  // packet is all in.
  static const Wide kZero{};
  const Wide* flit[2];
  for (unsigned k = 0; k < 2; ++k) {
    const Arb& a = self.arb_[k];
    unsigned port = 0;
    bool v = false;
    if (a.lock) {
      port = a.port;
      v = self.inq_[k][port].valid();
    } else {
      for (unsigned i = 0; i < p.ports && !v; ++i) {
        const unsigned q = (a.rr + i) % p.ports;
        if (self.complete(k, q)) port = q, v = true;
      }
    }
    w.offer[k] = v;
    w.offer_port[k] = port;
    flit[k] = v ? &self.inq_[k][port].rdata() : &kZero;
    w.offer_len[k] = v && !a.lock ? packet_flits(*flit[k]) : 0;
  }
  w.mi.rst_n = in.rst_n;
  window_apb(InnetSwitchWindow::mcr_in, w.mi.apb);
  w.mi.req_in_valid = w.offer[0];
  w.mi.req_in_flit = *flit[0];
  w.mi.req_in_port = w.offer_port[0];
  w.mi.req_out_ready = w.ready_in[0] | uint64_t(w.rt_o.req_in_ready) << p.ports;
  w.mi.rsp_in_valid = w.offer[1];
  w.mi.rsp_in_flit = *flit[1];
  w.mi.rsp_in_port = w.offer_port[1];
  w.mi.rsp_out_ready = w.ready_in[1] | uint64_t(w.rt_o.rsp_in_ready) << p.ports;
  settle(self.mcr_in_, w.mi, w.mi_o);
  w.take[0] = w.offer[0] && w.mi_o.req_in_ready;
  w.take[1] = w.offer[1] && w.mi_o.rsp_in_ready;

  // The reduction table: mcr_in's copies to the reduction unit.
  window_apb(InnetSwitchWindow::reduction_table, w.rt.apb);
  w.rt.req_in_valid = w.mi_o.req_out_valid && w.mi_o.req_out_port == p.ports;
  w.rt.req_in_flit = w.mi_o.req_out_flit;
  w.rt.rsp_in_valid = w.mi_o.rsp_out_valid && w.mi_o.rsp_out_port == p.ports;
  w.rt.rsp_in_flit = w.mi_o.rsp_out_flit;
  w.rt.out_ready = w.mo_o.rsp_in_ready;
  settle(self.rt_, w.rt, w.rt_o);
}

InnetSwitchOutputs InnetSwitch::eval(const InnetSwitchInputs& in) const {
  InnetSwitchOutputs o;
  eval(in, o);
  return o;
}

void InnetSwitch::eval(const InnetSwitchInputs& in, InnetSwitchOutputs& out) const {
  Wires w{};
  wires(*this, in, w);
  outputs(in, w, out);
}

InnetSwitchOutputs InnetSwitch::step(const InnetSwitchInputs& in) {
  InnetSwitchOutputs o;
  step(in, o);
  return o;
}

void InnetSwitch::step(const InnetSwitchInputs& in, InnetSwitchOutputs& out) {
  wires(*this, in, w_);
  outputs(in, w_, out);
  edge(in, w_);
}

void InnetSwitch::clock(const InnetSwitchInputs& in) {
  wires(*this, in, w_);
  edge(in, w_);
}

void InnetSwitch::outputs(const InnetSwitchInputs& in, const Wires& w, InnetSwitchOutputs& o) const {
  const ApbResponse* sel = nullptr;
  switch (w.window) {
    case unsigned(InnetSwitchWindow::mcr_in): sel = &w.mi_o.apb; break;
    case unsigned(InnetSwitchWindow::reduction_table): sel = &w.rt_o.apb; break;
    case unsigned(InnetSwitchWindow::mcr_out): sel = &w.mo_o.apb; break;
    default: break;
  }
  o.apb = window_response(in.apb, sel);
  o.intr = w.mi_o.intr || w.rt_o.intr || w.mo_o.intr;
  for (unsigned k = 0; k < 2; ++k) {
    uint32_t in_ready = 0, out_valid = 0;
    SwitchBus& flits = k ? o.rsp_out_flit : o.req_out_flit;
    flits = SwitchBus{};
    for (unsigned q = 0; q < p_.ports; ++q) {
      // Nothing taken or given in a reset cycle.
      in_ready |= uint32_t(in.rst_n && !inq_[k][q].full()) << q;
      const Fifo<Wide>& e = outq_[k][q];
      if (in.rst_n && e.valid()) {
        out_valid |= 1u << q;
        set_bus_flit(flits, q, p_.flit_w, e.rdata());
      }
    }
    (k ? o.rsp_in_ready : o.req_in_ready) = in_ready;
    (k ? o.rsp_out_valid : o.req_out_valid) = out_valid;
  }
}

void InnetSwitch::edge(const InnetSwitchInputs& in, const Wires& w) {
  const bool rst_n = in.rst_n;
  for (unsigned k = 0; k < 2; ++k) {
    // Ingress: the links' flits in, the granted port's head out.
    for (unsigned q = 0; q < p_.ports; ++q) {
      Fifo<Wide>& f = inq_[k][q];
      const bool push = rst_n && bit(in_valid(in, k), q) && !f.full();
      const bool pop = w.take[k] && w.offer_port[k] == q;
      f.clock(rst_n, push, bus_flit(in_flit(in, k), q, p_.flit_w), pop);
    }
    Arb& a = arb_[k];
    if (!rst_n) {
      a = Arb{};
    } else if (!a.lock) {
      if (w.offer[k]) {
        const unsigned left = w.offer_len[k] - unsigned(w.take[k]);
        if (left == 0) {
          a.rr = (w.offer_port[k] + 1) % p_.ports;
        } else {
          a.lock = true;
          a.port = w.offer_port[k];
          a.left = left;
        }
      }
    } else if (w.take[k] && --a.left == 0) {
      a.lock = false;
      a.rr = (a.port + 1) % p_.ports;
    }

    // Egress: the region tables' copies in, the links take the heads.
    const bool mi_valid = k ? w.mi_o.rsp_out_valid : w.mi_o.req_out_valid;
    const unsigned mi_port = k ? w.mi_o.rsp_out_port : w.mi_o.req_out_port;
    const Wide& mi_flit = k ? w.mi_o.rsp_out_flit : w.mi_o.req_out_flit;
    for (unsigned q = 0; q < p_.ports; ++q) {
      Egress& e = eg_[k][q];
      Fifo<Wide>& f = outq_[k][q];
      const bool from_in = mi_valid && mi_port == q && bit(w.ready_in[k], q);
      const bool from_out =
          k == 1 && w.mo_o.rsp_out_valid && w.mo_o.rsp_out_port == q && bit(w.ready_out, q);
      const bool push = from_in || from_out;
      const Wide& flit = from_in ? mi_flit : w.mo_o.rsp_out_flit;
      const bool pop = rst_n && f.valid() && bit(out_ready(in, k), q);
      if (!rst_n) {
        e = Egress{};
      } else {
        const bool free = e.own == kNone;
        if (push) {
          if (free) {
            const unsigned n = packet_flits(flit) - 1;
            if (n > 0) {
              e.own = from_in ? kMcrIn : kMcrOut;
              e.left = n;
            }
          } else if (--e.left == 0) {
            e.own = kNone;
          }
        }
        // The response class's sources take turns at starting a packet: the
        // turn passes in every cycle the queue is between packets with room
        // for one (its holder started one, or had its chance). Passing it
        // in cycles without room would let the queue's draining time decide
        // whose turn it is when room comes, the same source every time.
        if (k == 1 && free && f.depth() - f.count() >= 1 + p_.max_len)
          e.tok = e.tok == kMcrIn ? kMcrOut : kMcrIn;
      }
      f.clock(rst_n, push, flit, pop);
    }
  }
}

RegStatus InnetSwitch::tlm_write(uint32_t offset, uint32_t data) {
  const uint32_t o = offset & (kRegWindowBytes - 1);
  switch (offset >> 12) {
    case unsigned(InnetSwitchWindow::mcr_in): return mcr_in_.tlm_write(o, data);
    case unsigned(InnetSwitchWindow::reduction_table): return rt_.tlm_write(o, data);
    case unsigned(InnetSwitchWindow::mcr_out): return mcr_out_.tlm_write(o, data);
    default: return RegStatus::address_error;
  }
}

RegStatus InnetSwitch::tlm_read(uint32_t offset, uint32_t& data) const {
  const uint32_t o = offset & (kRegWindowBytes - 1);
  data = 0;
  switch (offset >> 12) {
    case unsigned(InnetSwitchWindow::mcr_in): return mcr_in_.tlm_read(o, data);
    case unsigned(InnetSwitchWindow::reduction_table): return rt_.tlm_read(o, data);
    case unsigned(InnetSwitchWindow::mcr_out): return mcr_out_.tlm_read(o, data);
    default: return RegStatus::address_error;
  }
}

}  // namespace t3
