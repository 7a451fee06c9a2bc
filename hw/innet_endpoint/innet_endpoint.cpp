#include "innet_endpoint/innet_endpoint.h"

#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "common/compose.h"

namespace t3 {

DmaCreditParams InnetEndpointParams::dma_credit() const {
  DmaCreditParams d;
  d.ctrs = ctrs;
  d.flit_w = flit_w;
  d.max_len = max_len;
  d.len_w = cmd_len_w;
  d.retry_w = retry_w;
  d.timeout_w = timeout_w;
  d.cmd_depth = cmd_depth;
  d.cpl_depth = cpl_depth;
  d.stat_w = stat_w;
  return d;
}

EpWindowParams InnetEndpointParams::ep_window() const {
  EpWindowParams w;
  w.windows = windows;
  w.flit_w = flit_w;
  w.count_depth = count_depth;
  w.mem_bytes = mem_bytes;
  return w;
}

EpTxParams InnetEndpointParams::ep_tx() const {
  EpTxParams t;
  t.flit_w = flit_w;
  t.max_len = max_len;
  t.stat_w = stat_w;
  return t;
}

EpCountParams InnetEndpointParams::ep_count() const {
  EpCountParams c;
  c.count_depth = count_depth;
  c.ports = kEpCountPorts;
  c.cnt_w = 8;  // the engines' count pins are 8 bits
  c.max_len = max_len;
  c.stat_w = stat_w;
  return c;
}

EpRxParams InnetEndpointParams::ep_rx() const {
  EpRxParams r;
  r.flit_w = flit_w;
  r.max_len = max_len;
  r.windows = windows;
  r.count_depth = count_depth;
  r.resq = resq;
  r.finq = finq;
  r.stat_w = stat_w;
  return r;
}

EpFinalParams InnetEndpointParams::ep_final() const {
  EpFinalParams f;
  f.flit_w = flit_w;
  f.max_len = max_len;
  f.stat_w = stat_w;
  return f;
}

EpReqParams InnetEndpointParams::ep_req() const {
  EpReqParams r;
  r.flit_w = flit_w;
  r.max_len = max_len;
  r.windows = windows;
  r.count_depth = count_depth;
  r.slots = slots;
  r.detq = detq;
  r.stat_w = stat_w;
  return r;
}

EpHomeParams InnetEndpointParams::ep_home() const {
  EpHomeParams h;
  h.flit_w = flit_w;
  h.max_len = max_len;
  h.windows = windows;
  h.count_depth = count_depth;
  h.slots = slots;
  h.home_q = home_q;
  h.resq = resq;
  h.stat_w = stat_w;
  return h;
}

EpDetParams InnetEndpointParams::ep_det() const {
  EpDetParams d;
  d.flit_w = flit_w;
  d.max_len = max_len;
  d.windows = windows;
  d.count_depth = count_depth;
  d.buf = buf;
  d.stat_w = stat_w;
  return d;
}

EpRspqParams InnetEndpointParams::ep_rspq() const {
  EpRspqParams r;
  r.flit_w = flit_w;
  r.max_len = max_len;
  r.slots = slots;
  r.stat_w = stat_w;
  return r;
}

EpMemArbParams InnetEndpointParams::ep_mem_arb() const {
  EpMemArbParams a;
  a.flit_w = flit_w;
  a.ports = kEpMemPorts;
  a.mem_ops = mem_ops;
  a.tag_w = unsigned(arb_tag_w());
  a.stat_w = stat_w;
  return a;
}

EpResParams InnetEndpointParams::ep_res() const {
  EpResParams r;
  r.flit_w = flit_w;
  r.ctrs = ctrs;
  r.stat_w = stat_w;
  return r;
}

void InnetEndpointParams::validate() const {
  validate_param_ranges(*this, "innet_endpoint");
  // ep_rx and ep_req take a packet's header and data from their queue as
  // they come, but a queue shorter than a packet would hold the fabric's
  // link for a packet's data the endpoint cannot yet take.
  if (in_depth < 1 + max_len)
    param_error("innet_endpoint", "in_depth", "IN_DEPTH", in_depth,
                std::to_string(1 + max_len) + "..64 (a whole packet: 1 + MAX_LEN)");
  // A response packet's slots are reserved whole (docs/blocks/ep_rspq.md).
  if (slots < 1 + max_len)
    param_error("innet_endpoint", "slots", "SLOTS", slots,
                std::to_string(1 + max_len) + "..64 (a whole packet: 1 + MAX_LEN)");
  dma_credit().validate();
  ep_window().validate();
  ep_tx().validate();
  ep_count().validate();
  ep_rx().validate();
  ep_final().validate();
  ep_req().validate();
  ep_home().validate();
  ep_det().validate();
  ep_rspq().validate();
  ep_mem_arb().validate();
  ep_res().validate();
}

namespace {
const InnetEndpointParams& checked(const InnetEndpointParams& p) {
  p.validate();
  return p;
}

bool bit(uint64_t v, unsigned i) { return (v >> i) & 1; }
unsigned port(EpMemPort p) { return unsigned(p); }

// Flit i of a packed bus (FLIT_W bits each), and back.
template <unsigned N>
Wide flit_of(const WideN<N>& b, unsigned i, unsigned flit_w) {
  Wide f;
  const unsigned n = flit_w / 64, at = i * n;
  for (unsigned k = 0; k < n; ++k) f.w[k] = b.w[at + k];
  return f;
}
template <unsigned N>
void set_flit(WideN<N>& b, unsigned i, unsigned flit_w, const Wide& f) {
  const unsigned n = flit_w / 64, at = i * n;
  for (unsigned k = 0; k < n; ++k) b.w[at + k] = f.w[k];
}

constexpr uint64_t kAddrMask = (uint64_t{1} << 48) - 1;
}  // namespace

InnetEndpoint::InnetEndpoint(const InnetEndpointParams& params)
    : p_(checked(params)),
      dc_(p_.dma_credit()),
      win_(p_.ep_window()),
      tx_(p_.ep_tx()),
      cnt_(p_.ep_count()),
      rx_(p_.ep_rx()),
      fin_(p_.ep_final()),
      req_(p_.ep_req()),
      home_(p_.ep_home()),
      det_(p_.ep_det()),
      rspq_(p_.ep_rspq()),
      arb_(p_.ep_mem_arb()),
      res_(p_.ep_res()),
      wd_{unsigned(p_.arb_tag_w()),         unsigned(p_.ep_count().line_w()), unsigned(p_.ep_count().len_w()),
          unsigned(p_.ep_rspq().slot_w()),  unsigned(p_.ep_tx().tag_w()),     unsigned(p_.ep_final().tag_w()),
          unsigned(p_.ep_det().tag_w())},
      inq_{Fifo<Wide>(p_.in_depth), Fifo<Wide>(p_.in_depth)},
      seen_(std::make_unique<Wires>()) {}

// Block P's inputs from the wires' present values: the composition's glue
// (rtl/innet_endpoint.sv has the same), a block's part run just before the
// block is evaluated.
template <InnetEndpoint::Part P>
void InnetEndpoint::connect(const InnetEndpointInputs& in, Wires& w) const {
  const InnetEndpointParams& p = p_;
  const unsigned fw = p.flit_w, tw = wd_.arb_tag;
  auto apb = [&](InnetEndpointWindow b, ApbRequest& a) { window_request(in.apb, unsigned(b), a); };
  const uint32_t grant = w.arb_o.rq_ready, cgrant = w.cnt_o.req_ready, crsp = w.cnt_o.rsp_valid;
  auto md = [&](EpMemPort mp, bool& v, auto& tag, Wide& data, unsigned bits) {
    const unsigned i = port(mp);
    v = bit(w.arb_o.md_valid, i);
    tag = static_cast<std::remove_reference_t<decltype(tag)>>(w.arb_o.md_tag.bits(i * tw, bits));
    data = flit_of(w.arb_o.md_data, i, fw);
  };

  if constexpr (P == Part::dc) {
    // The DMA credit controller, its packets to ep_tx, its results from ep_res.
    DmaCreditInputs& dc = w.dc;
    dc.rst_n = in.rst_n;
    apb(InnetEndpointWindow::dma_credit, dc.apb);
    dc.cmd_valid = in.cmd_valid;
    dc.cmd_local_addr = in.cmd_local_addr;
    dc.cmd_net_addr = in.cmd_net_addr;
    dc.cmd_len = in.cmd_len;
    dc.cmd_red_op = in.cmd_red_op;
    dc.cmd_dtype = in.cmd_dtype;
    dc.cmd_pull = in.cmd_pull;
    dc.cmd_src = in.cmd_src;
    dc.cmd_dst = in.cmd_dst;
    dc.cmd_tag = in.cmd_tag;
    dc.pkt_ready = w.tx_o.pkt_ready;
    dc.res_valid = w.res_o.res_valid;
    dc.res_hdr = w.res_o.res_hdr;
  }
  if constexpr (P == Part::win) {
    // The windows: the engines read the table; the lookup ports are not used.
    EpWindowInputs& wi = w.win;  // the lookup ports stay 0 (as the wires start)
    wi.rst_n = in.rst_n;
    apb(InnetEndpointWindow::ep_window, wi.apb);
  }
  if constexpr (P == Part::tx) {
    EpTxInputs& tx = w.tx;
    tx.rst_n = in.rst_n;
    apb(InnetEndpointWindow::ep_tx, tx.apb);
    tx.pkt_valid = w.dc_o.pkt_valid;
    tx.pkt_hdr = w.dc_o.pkt_hdr;
    tx.pkt_local_addr = w.dc_o.pkt_local_addr;
    tx.cp_valid = in.cp_valid;
    tx.cp_local = in.cp_local;
    tx.cp_net = in.cp_net;
    tx.cp_flits = in.cp_flits;
    tx.cp_dst = in.cp_dst;
    tx.mr_ready = bit(grant, port(EpMemPort::tx_r));
    md(EpMemPort::tx_r, tx.md_valid, tx.md_tag, tx.md_data, wd_.tx_tag);
    tx.req_out_ready = in.req_out_ready;
  }
  if constexpr (P == Part::cnt) {
    // The counters: rx, the request receiver, the home's CLEAR, the home's
    // sweep READ.
    EpCountInputs& c = w.cnt;
    c.rst_n = in.rst_n;
    apb(InnetEndpointWindow::ep_count, c.apb);
    const unsigned lw = wd_.line, nw = 8, ew = wd_.len;
    const bool clear = w.home_o.cnt_op == 2;
    c.req_valid = uint32_t(w.rx_o.cnt_valid) | uint32_t(w.req_o.cnt_valid) << 1 |
                  uint32_t(w.home_o.cnt_valid && clear) << 2 | uint32_t(w.home_o.cnt_valid && !clear) << 3;
    c.req_op = uint32_t(w.rx_o.cnt_op) | uint32_t(w.req_o.cnt_op) << 2 | uint32_t(w.home_o.cnt_op) << 4 |
               uint32_t(w.home_o.cnt_op) << 6;
    c.req_line = uint64_t(w.rx_o.cnt_line) | uint64_t(w.req_o.cnt_line) << lw |
                 uint64_t(w.home_o.cnt_line) << (2 * lw) | uint64_t(w.home_o.cnt_line) << (3 * lw);
    c.req_n = uint64_t(w.rx_o.cnt_n) | uint64_t(w.req_o.cnt_n) << nw;
    c.req_limit = uint64_t(w.rx_o.cnt_limit) | uint64_t(w.req_o.cnt_limit) << nw;
    c.req_len = uint64_t(w.rx_o.cnt_len) | uint64_t(w.req_o.cnt_len) << ew;
    c.req_whole_ok = uint32_t(w.rx_o.cnt_whole_ok) | uint32_t(w.req_o.cnt_whole_ok) << 1 | 0xCu;
  }
  if constexpr (P == Part::rx) {
    EpRxInputs& rx = w.rx;
    rx.rst_n = in.rst_n;
    apb(InnetEndpointWindow::ep_rx, rx.apb);
    rx.rsp_in_valid = inq_[1].valid();
    rx.rsp_in_flit = inq_[1].rdata();
    rx.tbl = w.win_o.tbl;
    rx.cnt_ready = bit(cgrant, 0);
    rx.cnt_rsp_valid = bit(crsp, 0);
    rx.cnt_rsp_code = w.cnt_o.rsp_code;
    rx.cnt_rsp_count = uint8_t(w.cnt_o.rsp_count);
    rx.cnt_rsp_whole = w.cnt_o.rsp_whole;
    rx.mw_ready = bit(grant, port(EpMemPort::rx_w));
    rx.res_ready = w.res_o.rx_ready;
    rx.fin_ready = w.fin_o.fin_ready;
  }
  if constexpr (P == Part::fin) {
    EpFinalInputs& fin = w.fin;
    fin.rst_n = in.rst_n;
    apb(InnetEndpointWindow::ep_final, fin.apb);
    fin.fin_valid = w.rx_o.fin_valid;
    fin.fin_src = w.rx_o.fin_src;
    fin.fin_dst = w.rx_o.fin_dst;
    fin.fin_hdr = w.rx_o.fin_hdr;
    fin.mr_ready = bit(grant, port(EpMemPort::final_r));
    md(EpMemPort::final_r, fin.md_valid, fin.md_tag, fin.md_data, wd_.fin_tag);
    fin.mw_ready = bit(grant, port(EpMemPort::final_w));
    fin.res_ready = w.res_o.fin_ready;
  }
  if constexpr (P == Part::req) {
    EpReqInputs& rq = w.req;
    rq.rst_n = in.rst_n;
    apb(InnetEndpointWindow::ep_req, rq.apb);
    rq.req_in_valid = inq_[0].valid();
    rq.req_in_flit = inq_[0].rdata();
    rq.node = in.node;
    rq.tbl = w.win_o.tbl;
    rq.cnt_ready = bit(cgrant, 1);
    rq.cnt_rsp_valid = bit(crsp, 1);
    rq.cnt_rsp_code = w.cnt_o.rsp_code;
    rq.cnt_rsp_count = uint8_t(w.cnt_o.rsp_count);
    rq.cnt_rsp_whole = w.cnt_o.rsp_whole;
    rq.mw_ready = bit(grant, port(EpMemPort::req_w));
    rq.rq_ready = w.rspq_o.prq_ready;
    rq.rq_slot = w.rspq_o.prq_slot;
    rq.mr_ready = bit(grant, port(EpMemPort::req_r));
    rq.det_ready = w.det_o.det_ready;
  }
  if constexpr (P == Part::det) {
    EpDetInputs& det = w.det;
    det.rst_n = in.rst_n;
    apb(InnetEndpointWindow::ep_det, det.apb);
    det.tbl = w.win_o.tbl;
    det.det_valid = w.req_o.det_valid;
    det.det_win = w.req_o.det_win;
    det.det_line = w.req_o.det_line;
    det.det_len = w.req_o.det_len;
    det.mr_ready = bit(grant, port(EpMemPort::det_r));
    md(EpMemPort::det_r, det.md_valid, det.md_tag, det.md_data, wd_.det_tag);
    det.mw_ready = bit(grant, port(EpMemPort::det_w));
    det.hq_ready = w.home_o.hq_ready;
  }
  if constexpr (P == Part::home) {
    EpHomeInputs& h = w.home;
    h.rst_n = in.rst_n;
    apb(InnetEndpointWindow::ep_home, h.apb);
    h.node = in.node;
    h.tbl = w.win_o.tbl;
    h.home = w.rx_o.home;
    h.home_win = w.rx_o.home_win;
    h.home_line = w.rx_o.home_line;
    h.home_len = w.rx_o.home_len;
    h.merging = w.rx_o.merging;
    h.merge_line = w.rx_o.merge_line;
    h.hq_valid = w.det_o.hq_valid;
    h.hq_win = w.det_o.hq_win;
    h.hq_line = w.det_o.hq_line;
    h.hq_len = w.det_o.hq_len;
    h.cnt_ready = bit(cgrant, 2) || bit(cgrant, 3);
    h.cnt_rsp_valid = bit(crsp, 2) || bit(crsp, 3);
    h.cnt_rsp_code = w.cnt_o.rsp_code;
    h.cnt_rsp_count = uint8_t(w.cnt_o.rsp_count);
    h.cnt_rsp_len = w.cnt_o.rsp_len;
    h.rq_ready = w.rspq_o.hrq_ready;
    h.rq_slot = w.rspq_o.hrq_slot;
    h.mr_ready = bit(grant, port(EpMemPort::home_r));
    md(EpMemPort::home_r, h.md_valid, h.md_tag, h.md_data, wd_.slot);
    h.mw_ready = bit(grant, port(EpMemPort::home_w));
    h.res_ready = w.res_o.home_ready;
  }
  if constexpr (P == Part::rspq) {
    // The response queue: the home's RESULTs and the pull's PULL_RSPs, each
    // filled by its own read port's answers; a RESULT's last flit waits for
    // the home's CLEAR to be granted (docs/blocks/ep_rspq.md).
    EpRspqInputs& q = w.rspq;
    q.rst_n = in.rst_n;
    apb(InnetEndpointWindow::ep_rspq, q.apb);
    q.hrq_valid = w.home_o.rq_valid;
    q.hrq_hdr = w.home_o.rq_hdr;
    q.hrq_len = w.home_o.rq_len;
    q.prq_valid = w.req_o.rq_valid;
    q.prq_hdr = w.req_o.rq_hdr;
    q.prq_len = w.req_o.rq_len;
    q.hrel = bit(cgrant, 2);
    const unsigned sw = wd_.slot;
    md(EpMemPort::home_r, q.hmd_valid, q.hmd_tag, q.hmd_data, sw);
    md(EpMemPort::req_r, q.pmd_valid, q.pmd_tag, q.pmd_data, sw);
    q.rsp_out_ready = in.rsp_out_ready;
  }
  if constexpr (P == Part::arb) {
    // The memory ports. Writes: op 2 (add) or 1 (store); reads: op 0. The
    // home's and the pull's reads both fill the response queue, each through
    // its own answer port (ep_rspq's hmd_* and pmd_*).
    EpMemArbInputs& a = w.arb;
    a.rst_n = in.rst_n;
    apb(InnetEndpointWindow::ep_mem_arb, a.apb);
    a.rq_valid = a.rq_op = a.rq_dtype = 0;
    a.rq_addr = EpMemArbAddrs{};
    a.rq_data = EpMemArbFlits{};
    a.rq_tag = EpMemArbTags{};
    auto rd = [&](EpMemPort mp, bool v, uint64_t addr, uint32_t tag) {
      const unsigned i = port(mp);
      a.rq_valid |= uint32_t(v) << i;
      a.rq_addr.set_bits(48 * i, 48, addr & kAddrMask);
      a.rq_tag.set_bits(tw * i, tw, tag);
    };
    auto wr = [&](EpMemPort mp, bool v, uint64_t addr, const Wide& data, bool add, uint8_t dtype) {
      const unsigned i = port(mp);
      a.rq_valid |= uint32_t(v) << i;
      a.rq_op |= (add ? 2u : 1u) << (2 * i);
      a.rq_dtype |= uint32_t(dtype & 3) << (2 * i);
      a.rq_addr.set_bits(48 * i, 48, addr & kAddrMask);
      set_flit(a.rq_data, i, fw, data);
    };
    wr(EpMemPort::rx_w, w.rx_o.mw_valid, w.rx_o.mw_addr, w.rx_o.mw_data, w.rx_o.mw_add, w.rx_o.mw_dtype);
    rd(EpMemPort::home_r, w.home_o.mr_valid, w.home_o.mr_addr, w.home_o.mr_tag);
    wr(EpMemPort::home_w, w.home_o.mw_valid, w.home_o.mw_addr, w.home_o.mw_data, false, 0);
    rd(EpMemPort::det_r, w.det_o.mr_valid, w.det_o.mr_addr, w.det_o.mr_tag);
    wr(EpMemPort::det_w, w.det_o.mw_valid, w.det_o.mw_addr, w.det_o.mw_data, w.det_o.mw_add, w.det_o.mw_dtype);
    rd(EpMemPort::final_r, w.fin_o.mr_valid, w.fin_o.mr_addr, w.fin_o.mr_tag);
    wr(EpMemPort::final_w, w.fin_o.mw_valid, w.fin_o.mw_addr, w.fin_o.mw_data, w.fin_o.mw_add, w.fin_o.mw_dtype);
    rd(EpMemPort::req_r, w.req_o.mr_valid, w.req_o.mr_addr, w.req_o.mr_tag);
    wr(EpMemPort::req_w, w.req_o.mw_valid, w.req_o.mw_addr, w.req_o.mw_data, w.req_o.mw_add, w.req_o.mw_dtype);
    rd(EpMemPort::tx_r, w.tx_o.mr_valid, w.tx_o.mr_addr, w.tx_o.mr_tag);
    a.ans_valid = in.ans_valid;
    a.ans_tag = in.ans_tag;
    a.ans_data = in.ans_data;
  }
  if constexpr (P == Part::res) {
    // The result path: the descriptors as they leave (ranges), the
    // completions (ranges ended), the three result-header sources.
    EpResInputs& r = w.res;
    r.rst_n = in.rst_n;
    apb(InnetEndpointWindow::ep_res, r.apb);
    r.desc_valid = w.dc_o.pkt_valid;
    r.desc_ready = w.tx_o.pkt_ready;
    r.desc_hdr = w.dc_o.pkt_hdr;
    r.cpl_wr = w.dc_o.cpl_wr;
    r.cpl_status = w.dc_o.cpl_status;
    r.cpl_ctr = w.dc_o.cpl_ctr;
    r.rx_valid = w.rx_o.res_valid;
    r.rx_hdr = w.rx_o.res_hdr;
    r.home_valid = w.home_o.res_valid;
    r.home_hdr = w.home_o.res_hdr;
    r.fin_valid = w.fin_o.res_valid;
    r.fin_hdr = w.fin_o.res_hdr;
    r.res_ready = w.dc_o.res_ready;
  }
  (void)grant;
  (void)cgrant;
  (void)crsp;
  (void)md;
  (void)apb;
}

// The combinational part of a cycle. The blocks' outputs feed each other
// both ways (an engine's request into an arbiter, the grant back), each
// block's outputs depending on its state and on some of its inputs. A pass
// evaluates the blocks in an order that follows most of the wires (the
// state-only ones first, the engines' requests, the arbiters, the result
// path), each from the wires' present values; the first pass evaluates
// every block, a later one only the blocks whose inputs changed since
// their last evaluation, and the passes stop at the first that changes
// nothing: the wires have settled (the RTL settles the same wires with no
// order), exactly, whatever the order. With Self non-const (step(),
// clock()) every block is then clocked on its settled inputs. Returns the
// passes run.
template <class Self>
unsigned InnetEndpoint::wires(Self& self, const InnetEndpointInputs& in, Wires& w) {
  w.window = in.apb.paddr >> 12;
  // Each block's inputs at its last evaluation in this cycle, compared and
  // copied byte for byte: connect() writes the inputs field by field and
  // never a whole struct, so a struct's padding stays what it was and a
  // difference is a field's.
  Wires& seen = *self.seen_;
  bool again = true;
  unsigned n = 0;
  for (; again; ++n) {
    if (n == kMostPasses)
      throw std::logic_error("innet_endpoint: the wires did not settle in " + std::to_string(kMostPasses) +
                             " passes (a combinational loop through the blocks)");
    again = false;
    auto run = [&](auto part, auto& blk, auto& bin, auto& bin_seen, auto& bout) {
      self.template connect<decltype(part)::value>(in, w);
      if (n > 0 && std::memcmp(&bin, &bin_seen, sizeof bin) == 0) return;
      static_assert(std::is_trivially_copyable_v<std::remove_reference_t<decltype(bin)>>);
      std::as_const(blk).eval(bin, bout);
      std::memcpy(&bin_seen, &bin, sizeof bin);
      again = true;
    };
    using P = Part;
    run(std::integral_constant<P, P::win>{}, self.win_, w.win, seen.win, w.win_o);
    run(std::integral_constant<P, P::dc>{}, self.dc_, w.dc, seen.dc, w.dc_o);
    run(std::integral_constant<P, P::tx>{}, self.tx_, w.tx, seen.tx, w.tx_o);
    run(std::integral_constant<P, P::rx>{}, self.rx_, w.rx, seen.rx, w.rx_o);
    run(std::integral_constant<P, P::fin>{}, self.fin_, w.fin, seen.fin, w.fin_o);
    run(std::integral_constant<P, P::req>{}, self.req_, w.req, seen.req, w.req_o);
    run(std::integral_constant<P, P::det>{}, self.det_, w.det, seen.det, w.det_o);
    run(std::integral_constant<P, P::home>{}, self.home_, w.home, seen.home, w.home_o);
    run(std::integral_constant<P, P::rspq>{}, self.rspq_, w.rspq, seen.rspq, w.rspq_o);
    run(std::integral_constant<P, P::cnt>{}, self.cnt_, w.cnt, seen.cnt, w.cnt_o);
    run(std::integral_constant<P, P::arb>{}, self.arb_, w.arb, seen.arb, w.arb_o);
    run(std::integral_constant<P, P::res>{}, self.res_, w.res, seen.res, w.res_o);
  }
  if constexpr (!std::is_const_v<Self>) {
    self.win_.clock(w.win);
    self.dc_.clock(w.dc);
    self.tx_.clock(w.tx);
    self.rx_.clock(w.rx);
    self.fin_.clock(w.fin);
    self.req_.clock(w.req);
    self.det_.clock(w.det);
    self.home_.clock(w.home);
    self.rspq_.clock(w.rspq);
    self.cnt_.clock(w.cnt);
    self.arb_.clock(w.arb);
    self.res_.clock(w.res);
  }
  return n;
}

unsigned InnetEndpoint::settle_passes(const InnetEndpointInputs& in) const {
  auto w = std::make_unique<Wires>(w_);
  return wires(*this, in, *w);
}

void InnetEndpoint::outputs(const InnetEndpointInputs& in, const Wires& w, InnetEndpointOutputs& o) const {
  const ApbResponse* sel = nullptr;
  switch (w.window) {
    case unsigned(InnetEndpointWindow::dma_credit): sel = &w.dc_o.apb; break;
    case unsigned(InnetEndpointWindow::ep_window): sel = &w.win_o.apb; break;
    case unsigned(InnetEndpointWindow::ep_tx): sel = &w.tx_o.apb; break;
    case unsigned(InnetEndpointWindow::ep_count): sel = &w.cnt_o.apb; break;
    case unsigned(InnetEndpointWindow::ep_rx): sel = &w.rx_o.apb; break;
    case unsigned(InnetEndpointWindow::ep_final): sel = &w.fin_o.apb; break;
    case unsigned(InnetEndpointWindow::ep_req): sel = &w.req_o.apb; break;
    case unsigned(InnetEndpointWindow::ep_home): sel = &w.home_o.apb; break;
    case unsigned(InnetEndpointWindow::ep_det): sel = &w.det_o.apb; break;
    case unsigned(InnetEndpointWindow::ep_rspq): sel = &w.rspq_o.apb; break;
    case unsigned(InnetEndpointWindow::ep_mem_arb): sel = &w.arb_o.apb; break;
    case unsigned(InnetEndpointWindow::ep_res): sel = &w.res_o.apb; break;
    default: break;
  }
  o.apb = window_response(in.apb, sel);
  o.intr = w.dc_o.intr || w.win_o.intr || w.tx_o.intr || w.cnt_o.intr || w.rx_o.intr || w.fin_o.intr ||
           w.req_o.intr || w.home_o.intr || w.det_o.intr || w.rspq_o.intr || w.arb_o.intr || w.res_o.intr;
  o.cmd_ready = w.dc_o.cmd_ready;
  o.cpl_wr = w.dc_o.cpl_wr;
  o.cpl_status = w.dc_o.cpl_status;
  o.cpl_ctr = w.dc_o.cpl_ctr;
  o.cpl_tag = w.dc_o.cpl_tag;
  // Nothing is taken in reset (the queues are emptied then).
  o.req_in_ready = in.rst_n && !inq_[0].full();
  o.rsp_in_ready = in.rst_n && !inq_[1].full();
  o.req_out_valid = w.tx_o.req_out_valid;
  o.req_out_flit = w.tx_o.req_out_flit;
  o.rsp_out_valid = w.rspq_o.rsp_out_valid;
  o.rsp_out_flit = w.rspq_o.rsp_out_flit;
  o.mem_valid = w.arb_o.mem_valid;
  o.mem_op = w.arb_o.mem_op;
  o.mem_dtype = w.arb_o.mem_dtype;
  o.mem_addr = w.arb_o.mem_addr;
  o.mem_data = w.arb_o.mem_data;
  o.mem_tag = w.arb_o.mem_tag;
  o.cp_done = w.tx_o.cp_done;
  o.cp_rx = w.req_o.cp_rx;
  o.cp_win = w.req_o.cp_win;
  o.idle = w.tx_o.idle && w.rx_o.idle && w.fin_o.idle && w.req_o.idle && w.home_o.idle && w.det_o.idle &&
           w.rspq_o.idle && !inq_[0].valid() && !inq_[1].valid() && !w.cnt_o.clearing;
}

void InnetEndpoint::edge(const InnetEndpointInputs& in, const Wires& w) {
  const bool pops[2] = {inq_[0].valid() && w.req_o.req_in_ready, inq_[1].valid() && w.rx_o.rsp_in_ready};
  const bool valids[2] = {in.req_in_valid, in.rsp_in_valid};
  const Wide* flits[2] = {&in.req_in_flit, &in.rsp_in_flit};
  for (unsigned k = 0; k < 2; ++k) {
    Wide f = *flits[k];
    f.truncate(p_.flit_w);
    inq_[k].clock(in.rst_n, valids[k] && !inq_[k].full(), f, pops[k]);
  }
}

InnetEndpointOutputs InnetEndpoint::eval(const InnetEndpointInputs& in) const {
  InnetEndpointOutputs o;
  eval(in, o);
  return o;
}

void InnetEndpoint::eval(const InnetEndpointInputs& in, InnetEndpointOutputs& out) const {
  Wires w{};
  wires(*this, in, w);
  outputs(in, w, out);
}

InnetEndpointOutputs InnetEndpoint::step(const InnetEndpointInputs& in) {
  InnetEndpointOutputs o;
  step(in, o);
  return o;
}

void InnetEndpoint::step(const InnetEndpointInputs& in, InnetEndpointOutputs& out) {
  wires(*this, in, w_);
  outputs(in, w_, out);
  edge(in, w_);
}

void InnetEndpoint::clock(const InnetEndpointInputs& in) {
  wires(*this, in, w_);
  edge(in, w_);
}

// Calls f with the block whose window `page` is; false for a page with no
// window.
template <class Self, class F>
bool InnetEndpoint::with_window(Self& self, unsigned page, F&& f) {
  switch (page) {
    case unsigned(InnetEndpointWindow::dma_credit): f(self.dc_); return true;
    case unsigned(InnetEndpointWindow::ep_window): f(self.win_); return true;
    case unsigned(InnetEndpointWindow::ep_tx): f(self.tx_); return true;
    case unsigned(InnetEndpointWindow::ep_count): f(self.cnt_); return true;
    case unsigned(InnetEndpointWindow::ep_rx): f(self.rx_); return true;
    case unsigned(InnetEndpointWindow::ep_final): f(self.fin_); return true;
    case unsigned(InnetEndpointWindow::ep_req): f(self.req_); return true;
    case unsigned(InnetEndpointWindow::ep_home): f(self.home_); return true;
    case unsigned(InnetEndpointWindow::ep_det): f(self.det_); return true;
    case unsigned(InnetEndpointWindow::ep_rspq): f(self.rspq_); return true;
    case unsigned(InnetEndpointWindow::ep_mem_arb): f(self.arb_); return true;
    case unsigned(InnetEndpointWindow::ep_res): f(self.res_); return true;
    default: return false;
  }
}

RegStatus InnetEndpoint::tlm_write(uint32_t offset, uint32_t data) {
  RegStatus st = RegStatus::address_error;
  with_window(*this, offset >> 12, [&](auto& b) { st = b.tlm_write(offset & (kRegWindowBytes - 1), data); });
  return st;
}

RegStatus InnetEndpoint::tlm_read(uint32_t offset, uint32_t& data) const {
  RegStatus st = RegStatus::address_error;
  data = 0;
  with_window(*this, offset >> 12, [&](const auto& b) { st = b.tlm_read(offset & (kRegWindowBytes - 1), data); });
  return st;
}

}  // namespace t3
