#include "mcr_table/mcr_table_core.h"

#include <cstring>

#include "common/bits.h"

namespace t3 {

void McrTableParams::validate() const { validate_param_ranges(*this, "mcr_table"); }

namespace mcr {

const char* name(Cmd c) {
  switch (c) {
    case Cmd::ok: return "ok";
    case Cmd::idx_range: return "idx_range";
    case Cmd::idx_busy: return "idx_busy";
    case Cmd::idx_empty: return "idx_empty";
    case Cmd::size: return "size";
    case Cmd::base_align: return "base_align";
    case Cmd::ports_empty: return "ports_empty";
    case Cmd::ports_range: return "ports_range";
    case Cmd::home_range: return "home_range";
    case Cmd::expect_zero: return "expect_zero";
    case Cmd::red_op: return "red_op";
    case Cmd::dtype: return "dtype";
    case Cmd::overlap: return "overlap";
    case Cmd::both: return "both";
  }
  return "?";
}

const char* name(Drop d) {
  switch (d) {
    case Drop::none: return "none";
    case Drop::unknown_op: return "unknown_op";
    case Drop::bad_len: return "bad_len";
    case Drop::bad_red_op: return "bad_red_op";
    case Drop::bad_dtype: return "bad_dtype";
    case Drop::misaligned: return "misaligned";
    case Drop::wrong_class: return "wrong_class";
    case Drop::bad_port: return "bad_port";
    case Drop::rgn_dtype: return "rgn_dtype";
    case Drop::no_route: return "no_route";
    case Drop::no_dest: return "no_dest";
  }
  return "?";
}

}  // namespace mcr

namespace {

const Wide kZeroFlit{};
constexpr uint64_t kAddrMask = low_mask(pkt::kAddrW);  // 48 bits
constexpr uint64_t kSizeMask = low_mask(pkt::kAddrW + 1);

// The first port of cand after `last`, wrapping (round robin; the paper's
// arbiter "considers the remaining outputs", §IV). cand is not 0.
inline unsigned rr_pick(uint64_t cand, unsigned last) {
  const uint64_t above = cand & ~low_mask(last + 1);
  return unsigned(__builtin_ctzll(above ? above : cand));
}

}  // namespace

McrTableCore::McrTableCore(const McrTableParams& p)
    : p_((p.validate(), p)), path_{Path(p.slots * p.max_len), Path(p.slots * p.max_len)} {
  stat_mask_ = low_mask(p_.stat_w);
  port_mask_ = low_mask(p_.ports);
  pin_mask_ = low_mask(p_.port_w());
  flit_words_ = p_.flit_w / 64;
  out_mask_ = low_mask(p_.nout());
  reset();
}

void McrTableCore::reset() {
  for (Region& r : rgn_) r = Region{};
  count_ = 0;
  ++table_gen_;
  cq_valid_ = cq_remove_ = false;
  cq_code_ = mcr::Cmd::ok;
  cq_stage_ = McrRegionStage{};
  for (Path& P : path_) {
    for (Slot& s : P.slot) s = Slot{};
    P.wr = P.rd = P.left = P.fill = P.pend_slot = P.port = P.oidx = 0;
    P.pend = P.mid = false;
    P.lk = Lookup{};  // zeros
    P.last = p_.ports;  // port 0 first after reset
  }
  cmd_code_ = drop_cause_ = drop_port_ = 0;
  drop_class_ = false;
  stat_mcast_ = stat_miss_ = stat_copies_ = stat_stall_ = stat_refused_ = stat_malformed_ =
      stat_noroute_ = 0;
}

McrRegionRead McrTableCore::region(unsigned i) const {
  McrRegionRead r;
  if (i >= p_.regions || !rgn_[i].valid) return r;
  const Region& g = rgn_[i];
  r.valid = true;
  r.base = g.base;
  r.size = uint64_t{1} << g.szl;
  r.ports = g.ports;
  r.expect = g.expect;
  r.home = g.home;
  r.root = g.root;
  r.dtype = g.dtype;
  return r;
}

// A region command on the staged fields, checked in mcr::Cmd's order.
mcr::Cmd McrTableCore::command(const McrRegionStage& s, bool add, bool remove) const {
  using mcr::Cmd;
  if (add && remove) return Cmd::both;
  const unsigned idx = s.idx & 63;
  if (idx >= p_.regions) return Cmd::idx_range;
  if (remove) return rgn_[idx].valid ? Cmd::ok : Cmd::idx_empty;
  if (rgn_[idx].valid) return Cmd::idx_busy;
  const uint64_t size = s.size & kSizeMask, base = s.base & kAddrMask;  // the pins' widths
  if (size == 0 || (size & (size - 1)) != 0) return Cmd::size;
  if ((base & (size - 1)) != 0) return Cmd::base_align;
  if (s.ports == 0) return Cmd::ports_empty;
  if ((s.ports & ~port_mask_) != 0) return Cmd::ports_range;
  if ((s.home & 0xFF) >= p_.ports) return Cmd::home_range;
  if ((s.expect & 0xFF) == 0) return Cmd::expect_zero;
  if ((s.red_op & 3) != unsigned(pkt::RedOp::add)) return Cmd::red_op;
  if ((s.dtype & 3) > unsigned(pkt::Dtype::fp32)) return Cmd::dtype;
  // Two aligned power-of-two regions overlap when one holds the other:
  // their bases agree on the bits above the larger size.
  const uint64_t hm = ~(size - 1) & kAddrMask;
  for (unsigned j = 0; j < p_.regions; ++j)
    if (rgn_[j].valid && ((base ^ rgn_[j].base) & hm & rgn_[j].himask) == 0) return Cmd::overlap;
  return Cmd::ok;
}

// A header's lookup, in the cycle it is taken: docs/packet.md's checks, the
// block's own on the header alone, the region it falls in (once, on the
// table as it is in this cycle), that region's route for the opcode
// (docs/blocks/mcr_table.md, "Routing") and its copies' header.
void McrTableCore::lookup(unsigned k, const Wide& flit, unsigned in_port, PathDecision& d) const {
  using mcr::Drop;
  const pkt::Header h = pkt::unpack(flit);
  Lookup& lk = d.lk;
  lk.nflits = pkt::wire_flits(h) - 1;
  lk.early = Drop(pkt::check(h, p_.max_len, p_.flit_w));
  if (lk.early == Drop::none && unsigned(pkt::vc_of(h.op)) != k) lk.early = Drop::wrong_class;
  if (lk.early == Drop::none && in_port > p_.ports) lk.early = Drop::bad_port;
  lk.port = in_port;
  // Regions never overlap: at most one matches.
  unsigned r = 0;
  lk.hit = false;
  for (unsigned j = 0; j < p_.regions; ++j)
    if (rgn_[j].valid && ((h.addr ^ rgn_[j].base) & rgn_[j].himask) == 0) {
      lk.hit = true;
      r = j;
    }
  const Region& g = rgn_[r];
  lk.dtype_bad = lk.hit && pkt::is_reduction(h.op) && h.dtype != g.dtype;
  const uint64_t self = uint64_t{1} << in_port, unit = uint64_t{1} << p_.ports;
  lk.rdest = 0;
  lk.by_dst = !lk.hit;
  if (lk.hit) {
    switch (pkt::Op(h.op)) {
      case pkt::Op::write:
      case pkt::Op::result: lk.rdest = g.ports & ~self; break;       // every participant but the source
      case pkt::Op::read: lk.rdest = self; break;                       // the local GPU's memory (§IV)
      case pkt::Op::push: lk.rdest = g.root ? unit : uint64_t{1} << g.home; break;
      case pkt::Op::pull: lk.rdest = (g.ports & ~self) | unit; break;   // the participants and the entry
      case pkt::Op::pull_rsp:  // reduced on its way back; once reduced, to its requester
        if (in_port == p_.ports) lk.by_dst = true;
        else lk.rdest = unit;
        break;
      case pkt::Op::partial: lk.rdest = uint64_t{1} << g.home; break;   // to the home GPU
      default: lk.by_dst = true; break;                                 // READ_RSP, ACK
    }
  }
  lk.ddest = h.dst < p_.ports ? uint64_t{1} << h.dst : 0;
  lk.rgn = r;
}

// A header's fate, in the cycle after it was taken, from its lookup: a drop
// cause in docs/blocks/mcr_table.md's order ("Drops"), or its destinations.
void McrTableCore::fate(const Lookup& lk, PathDecision& d) const {
  using mcr::Drop;
  d.dest = lk.by_dst ? lk.ddest : lk.rdest;
  if (lk.early != Drop::none) d.drop = lk.early;
  else if (lk.dtype_bad) d.drop = Drop::rgn_dtype;
  else if (d.dest == 0) d.drop = lk.by_dst ? Drop::no_route : Drop::no_dest;
  else d.drop = Drop::none;
}

// (always_inline: a call each per class and cycle was a tenth of the model's time.)
[[gnu::always_inline]] inline void McrTableCore::decide_path(unsigned k, bool rst_n, bool valid,
                                                             const Wide& flit, unsigned in_port,
                                                             uint64_t ready, PathDecision& d) const {
  const Path& P = path_[k];
  // Intake: a header needs a free slot (slots are taken in order); the
  // flits after it are taken as they come.
  const bool at_header = P.left == 0;
  d.in_ready = rst_n && (!at_header || !P.slot[P.wr].busy);
  const bool take = valid && d.in_ready;
  d.hdr_take = take && at_header;
  d.data_take = take && !at_header;
  if (d.hdr_take) lookup(k, flit, in_port, d);
  // The fate of the header taken in the last cycle.
  d.drop = mcr::Drop::none;
  d.dest = 0;
  if (P.pend) fate(P.lk, d);
  // Output, from the oldest packet once it is whole and its fate known: a
  // copy's header to a port owed and ready in this cycle, then its data
  // flits to that port; a dropped packet is retired (a cycle, nothing sent).
  const Slot& r = P.slot[P.rd];
  d.copy_start = d.stall = d.out_take = d.out_valid = d.retire = false;
  d.out_port = 0;
  if (P.mid) {
    d.out_valid = rst_n;
    d.out_port = P.port;
    d.out_take = d.out_valid && ((ready >> P.port) & 1);
  } else if (r.busy && r.done && r.known) {
    const uint64_t cand = r.owed & ready;
    d.retire = rst_n && r.owed == 0;
    d.out_valid = rst_n && cand != 0;
    if (d.out_valid) d.out_port = rr_pick(cand, P.last);
    d.out_take = d.copy_start = d.out_valid;
    d.stall = rst_n && r.owed != 0 && cand == 0;
  }
}

void McrTableCore::decide(const McrTableDataIn& pins, const McrTableCoreInputs& regs, Decision& d) const {
  decide_path(0, pins.rst_n, pins.req_in_valid, pins.req_in_flit, pins.req_in_port & pin_mask_,
              pins.req_out_ready & out_mask_, d.path[0]);
  decide_path(1, pins.rst_n, pins.rsp_in_valid, pins.rsp_in_flit, pins.rsp_in_port & pin_mask_,
              pins.rsp_out_ready & out_mask_, d.path[1]);
  d.cmd = pins.rst_n && (regs.cmd_add || regs.cmd_remove);
  d.code = d.cmd ? command(regs.rgn, regs.cmd_add, regs.cmd_remove) : mcr::Cmd::ok;
}

void McrTableCore::outputs(const McrTableCoreInputs& regs, const Decision& d) const {
  McrTableCoreOutputs& o = out_;
  for (unsigned k = 0; k < 2; ++k) {
    const PathDecision& pd = d.path[k];
    const Path& P = path_[k];
    const Slot& r = P.slot[P.rd];
    bool& in_ready = k ? o.rsp_in_ready : o.req_in_ready;
    bool& valid = k ? o.rsp_out_valid : o.req_out_valid;
    uint32_t& port = k ? o.rsp_out_port : o.req_out_port;
    Wide& flit = k ? o.rsp_out_flit : o.req_out_flit;
    in_ready = pd.in_ready;
    valid = pd.out_valid;
    port = pd.out_port;
    // Only the flit's words: those above FLIT_W stay 0 in out_ (as the flits
    // kept and the headers made are 0 there).
    const Wide* src = P.mid ? &P.mem.rdata() : (r.busy && r.done && r.known) ? &r.hdr : &kZeroFlit;
    switch (flit_words_) {
      case 2: std::memcpy(flit.w.data(), src->w.data(), 16); break;
      case 4: std::memcpy(flit.w.data(), src->w.data(), 32); break;
      default: flit = *src; break;
    }
  }
  o.stat_mcast = stat_mcast_;
  o.stat_miss = stat_miss_;
  o.stat_copies = stat_copies_;
  o.stat_stall = stat_stall_;
  o.stat_refused = stat_refused_;
  o.stat_malformed = stat_malformed_;
  o.stat_noroute = stat_noroute_;
  o.cmd_code = cmd_code_;
  o.refused = cq_valid_ && cq_code_ != mcr::Cmd::ok;
  o.malformed = mcr::malformed(d.path[0].drop) || mcr::malformed(d.path[1].drop);
  o.noroute = mcr::no_route(d.path[0].drop) || mcr::no_route(d.path[1].drop);
  o.drop_cause = drop_cause_;
  o.drop_class = drop_class_;
  o.drop_port = drop_port_;
  o.count = count_;
  // RGN_RD_*: entry RGN_IDX, looked up again only when it or the table changed.
  const unsigned idx = regs.rgn.idx & 63;
  if (idx != rd_idx_ || table_gen_ != rd_gen_) {
    o.rd = region(idx);
    rd_idx_ = idx;
    rd_gen_ = table_gen_;
  }
}

const McrTableCoreOutputs& McrTableCore::eval(const McrTableDataIn& pins, const McrTableCoreInputs& regs) const {
  Decision d;
  decide(pins, regs, d);
  outputs(regs, d);
  return out_;
}

void McrTableCore::clock(const McrTableDataIn& pins, const McrTableCoreInputs& regs) {
  Decision d;
  decide(pins, regs, d);
  apply(pins, regs, d);
}

const McrTableCoreOutputs& McrTableCore::step(const McrTableDataIn& pins, const McrTableCoreInputs& regs) {
  Decision d;
  decide(pins, regs, d);
  outputs(regs, d);
  apply(pins, regs, d);
  return out_;
}

[[gnu::always_inline]] inline void McrTableCore::apply_path(unsigned k, const PathDecision& d,
                                                            const Wide& flit) {
  Path& P = path_[k];
  const unsigned ml = p_.max_len;
  bool we = false, re = false;
  uint32_t waddr = 0, raddr = 0;
  // The fate of the header taken in the last cycle.
  if (P.pend) {
    Slot& s = P.slot[P.pend_slot];
    s.owed = d.drop == mcr::Drop::none ? d.dest : 0;
    s.known = true;
  }
  P.pend = d.hdr_take;
  if (d.hdr_take) {
    Slot& s = P.slot[P.wr];
    const unsigned n = d.lk.nflits;
    s.busy = true;
    s.done = n == 0;
    s.known = false;
    s.len = n;
    // The copies' header: bits 95:0 as taken, the switch-internal fields
    // stamped (0 on a miss), the rest 0 (docs/packet.md).
    const Region& g = rgn_[d.lk.rgn];
    s.hdr = Wide{};
    s.hdr.w[0] = flit.w[0];
    s.hdr.w[1] = flit.w[1] & 0xFFFFFFFFu;
    if (d.lk.hit)
      s.hdr.w[1] |= uint64_t(d.lk.rgn) << (pkt::kRgnLsb - 64) | uint64_t(g.expect) << (pkt::kExpectLsb - 64) |
                    uint64_t(g.home) << (pkt::kHomeLsb - 64) | uint64_t{1} << (pkt::kHitLsb - 64);
    P.pend_slot = P.wr;
    P.lk = d.lk;
    P.left = n;
    P.fill = 0;
    if (!n) P.wr = next_slot(P.wr);
  } else if (d.data_take) {
    // Flits past MAX_LEN (a malformed packet's) are taken, not kept.
    we = P.fill < ml;
    waddr = P.wr * ml + P.fill;
    ++P.fill;
    if (--P.left == 0) {
      P.slot[P.wr].done = true;
      P.wr = next_slot(P.wr);
    }
  }
  Slot& r = P.slot[P.rd];
  if (d.retire) {
    r.busy = false;
    P.rd = next_slot(P.rd);
  } else if (d.copy_start) {
    r.owed &= ~(uint64_t{1} << d.out_port);
    P.last = d.out_port;
    if (r.len) {
      P.mid = true;
      P.port = d.out_port;
      P.oidx = 0;
      re = true;
      raddr = P.rd * ml;
    } else if (!r.owed) {
      r.busy = false;
      P.rd = next_slot(P.rd);
    }
  } else if (d.out_take) {  // a data flit of the copy under way
    if (P.oidx + 1 == r.len) {
      P.mid = false;
      if (!r.owed) {
        r.busy = false;
        P.rd = next_slot(P.rd);
      }
    } else {
      ++P.oidx;
      re = true;
      raddr = P.rd * ml + P.oidx;
    }
  }
  if (we || re) P.mem.clock(we, waddr, flit, re, raddr);
}

void McrTableCore::apply(const McrTableDataIn& in, const McrTableCoreInputs& regs, const Decision& d) {
  if (!in.rst_n) {
    reset();
    return;
  }
  auto bump = [this](uint32_t& c, unsigned n) { c = uint32_t((c + n) & stat_mask_); };
  unsigned mcast = 0, miss = 0, bad = 0, lost = 0, copies = 0, stall = 0;
  for (int k = 1; k >= 0; --k) {  // the request class's drop is shown when both drop
    const PathDecision& pd = d.path[k];
    const Path& P = path_[k];
    copies += pd.copy_start;
    stall += pd.stall;
    if (!P.pend) continue;
    if (pd.drop == mcr::Drop::none) {
      mcast += P.lk.hit;
      miss += !P.lk.hit;
      continue;
    }
    bad += mcr::malformed(pd.drop);
    lost += mcr::no_route(pd.drop);
    drop_cause_ = uint32_t(pd.drop);
    drop_class_ = k == 1;
    drop_port_ = P.lk.port;
  }
  apply_path(0, d.path[0], in.req_in_flit);
  apply_path(1, d.path[1], in.rsp_in_flit);
  bump(stat_mcast_, mcast);
  bump(stat_miss_, miss);
  bump(stat_malformed_, bad);
  bump(stat_noroute_, lost);
  bump(stat_copies_, copies);
  bump(stat_stall_, stall);
  // The command checked in the last cycle changes the table now (after the
  // headers of this cycle were looked up, and stamped, in the table before).
  if (cq_valid_) {
    cmd_code_ = uint32_t(cq_code_);
    if (cq_code_ != mcr::Cmd::ok) {
      bump(stat_refused_, 1);
    } else {
      const McrRegionStage& s = cq_stage_;
      Region& g = rgn_[s.idx & 63];
      ++table_gen_;
      if (cq_remove_) {
        g.valid = false;
        --count_;
      } else {
        ++count_;
        const uint64_t size = s.size & kSizeMask;
        g.valid = true;
        g.base = s.base & kAddrMask;
        g.szl = unsigned(__builtin_ctzll(size));
        g.himask = ~(size - 1) & kAddrMask;
        g.ports = s.ports;
        g.expect = s.expect & 0xFF;
        g.home = s.home & 0xFF;
        g.root = s.root;
        g.dtype = s.dtype & 3;
      }
    }
  }
  // This cycle's command, checked on the table as it is in this cycle.
  cq_valid_ = d.cmd;
  if (d.cmd) {
    cq_code_ = d.code;
    cq_remove_ = regs.cmd_remove;
    cq_stage_ = regs.rgn;
  }
}

}  // namespace t3
