#include "mcr_table_scoreboard.h"

#include <sstream>

#include "common/bits.h"
#include "pkt_stream.h"
#include "t3/mcr_table_regs.h"

namespace t3::tb {
namespace {

// docs/packet.md's opcodes, as this checker reads the table there.
constexpr unsigned kWrite = 0x1, kRead = 0x2, kPush = 0x3, kPull = 0x4, kAck = 0x8, kReadRsp = 0x9,
                   kPullRsp = 0xA, kResult = 0xB, kPartial = 0xC;

bool known(unsigned op) {
  switch (op) {
    case kWrite: case kRead: case kPush: case kPull: case kAck: case kReadRsp: case kPullRsp:
    case kResult: case kPartial: return true;
    default: return false;
  }
}
bool carries_data(unsigned op) {
  return op == kWrite || op == kPush || op == kReadRsp || op == kPullRsp || op == kResult ||
         op == kPartial;
}
bool reduces(unsigned op) {
  return op == kPush || op == kPull || op == kPullRsp || op == kResult || op == kPartial;
}

uint32_t put(uint64_t v, uint32_t shift, uint32_t mask) { return uint32_t(v << shift) & mask; }

}  // namespace

McrTableScoreboard::McrTableScoreboard(const McrTableParams& p) : p_(p), table_(p.regions) {
  out_[0].last = out_[1].last = p.ports;
}

void McrTableScoreboard::clear() {
  for (McrRegion& r : table_) r = McrRegion{};
  for (unsigned k = 0; k < 2; ++k) {
    q_[k].clear();
    in_[k] = Intake{};
    out_[k] = Out{};
    out_[k].last = p_.ports;
  }
  mcast_ = miss_ = copies_ = stall_ = refused_ = malformed_ = noroute_ = 0;
  cmd_ = Cmd{};
  cmd_code_ = drop_cause_ = drop_port_ = 0;
  drop_class_ = false;
}

// The routing rules (docs/blocks/mcr_table.md, "Routing") and the drop
// causes in their order (docs/packet.md's checks, then the block's).
unsigned McrTableScoreboard::classify(unsigned k, const pkt::Header& h, unsigned in_port,
                                      uint64_t* owed, pkt::Header* stamped, bool* hit) const {
  const unsigned op = h.op;
  *owed = 0;
  *hit = false;
  if (!known(op)) return 1;
  if (h.len == 0 || h.len > p_.max_len) return 2;
  if (reduces(op) && h.red_op != 0) return 3;
  if (reduces(op) && h.dtype == 3) return 4;
  if (h.addr % (p_.flit_w / 8) != 0) return 5;
  if ((op >= 8) != (k == 1)) return 6;
  if (in_port > p_.ports) return 7;
  const McrRegion* g = nullptr;
  for (const McrRegion& r : table_)
    if (r.size && h.addr >= r.base && h.addr - r.base < r.size) g = &r;
  *hit = g != nullptr;
  if (g && reduces(op) && h.dtype != g->dtype) return 8;
  const uint64_t unit = uint64_t{1} << p_.ports;
  const uint64_t ingress = uint64_t{1} << in_port;
  bool by_dst = !g;
  if (g) {
    const uint64_t others = g->ports & ~ingress;
    switch (op) {
      case kWrite: case kResult: *owed = others; break;
      case kRead: *owed = ingress; break;
      case kPush: *owed = g->root ? unit : uint64_t{1} << g->home; break;
      case kPull: *owed = others | unit; break;
      case kPullRsp:  // from the reduction unit: reduced, for its requester
        if (in_port == p_.ports) by_dst = true;
        else *owed = unit;
        break;
      case kPartial: *owed = uint64_t{1} << g->home; break;
      default: by_dst = true; break;  // ACK, READ_RSP
    }
  }
  if (by_dst) *owed = h.dst < p_.ports ? uint64_t{1} << h.dst : 0;
  if (*owed == 0) return by_dst ? 9 : 10;
  *stamped = h;
  stamped->rgn = g ? uint8_t(g->idx) : 0;
  stamped->expect = g ? uint8_t(g->expect) : 0;
  stamped->home = g ? uint8_t(g->home) : 0;
  stamped->hit = g != nullptr;
  return 0;
}

// The command rules (docs/blocks/mcr_table.md, "Region commands"), on the
// staged registers.
unsigned McrTableScoreboard::command(bool add, bool remove, McrRegion* r) const {
  const unsigned reg_idx = unsigned(McrTableReg::rgn_idx), attr = unsigned(McrTableReg::rgn_attr);
  r->idx = regs_.field(reg_idx, "idx");
  r->base = uint64_t(regs_.field(unsigned(McrTableReg::rgn_base_hi), "addr")) << 32 |
            regs_.field(unsigned(McrTableReg::rgn_base_lo), "addr");
  r->size = uint64_t(regs_.field(unsigned(McrTableReg::rgn_size_hi), "size")) << 32 |
            regs_.field(unsigned(McrTableReg::rgn_size_lo), "size");
  r->ports = regs_.field(unsigned(McrTableReg::rgn_ports), "mask");
  r->expect = regs_.field(attr, "expect");
  r->home = regs_.field(attr, "home");
  r->root = regs_.field(attr, "root") != 0;
  r->red_op = regs_.field(attr, "red_op");
  r->dtype = regs_.field(attr, "dtype");
  if (add && remove) return 13;
  if (r->idx >= p_.regions) return 1;
  const bool used = table_[r->idx].size != 0;
  if (remove) return used ? 0 : 3;
  if (used) return 2;
  if (__builtin_popcountll(r->size) != 1) return 4;
  if (r->base % r->size != 0) return 5;
  if (r->ports == 0) return 6;
  if (p_.ports < 32 && (r->ports >> p_.ports) != 0) return 7;
  if (r->home >= p_.ports) return 8;
  if (r->expect == 0) return 9;
  if (r->red_op != 0) return 10;
  if (r->dtype == 3) return 11;
  for (const McrRegion& o : table_)
    if (o.size && r->base < o.base + o.size && o.base < r->base + r->size) return 12;
  return 0;
}

std::optional<uint32_t> McrTableScoreboard::ro(unsigned r) const {
  const uint64_t m = low_mask(p_.stat_w);
  const unsigned idx = regs_.field(unsigned(McrTableReg::rgn_idx), "idx");
  const McrRegion none;
  const McrRegion& g = idx < p_.regions && table_[idx].size ? table_[idx] : none;
  unsigned count = 0;
  for (const McrRegion& t : table_) count += t.size != 0;
  switch (McrTableReg(r)) {
    case McrTableReg::status:
      return put(cmd_code_, T3_MCR_TABLE_R_STATUS_CMD_CODE_SHIFT, T3_MCR_TABLE_R_STATUS_CMD_CODE_MASK) |
             put(drop_cause_, T3_MCR_TABLE_R_STATUS_DROP_CAUSE_SHIFT, T3_MCR_TABLE_R_STATUS_DROP_CAUSE_MASK) |
             put(drop_class_, T3_MCR_TABLE_R_STATUS_DROP_CLASS_SHIFT, T3_MCR_TABLE_R_STATUS_DROP_CLASS_MASK) |
             put(drop_port_, T3_MCR_TABLE_R_STATUS_DROP_PORT_SHIFT, T3_MCR_TABLE_R_STATUS_DROP_PORT_MASK) |
             put(count, T3_MCR_TABLE_R_STATUS_COUNT_SHIFT, T3_MCR_TABLE_R_STATUS_COUNT_MASK);
    case McrTableReg::rgn_rd_base_lo: return uint32_t(g.base);
    case McrTableReg::rgn_rd_base_hi: return uint32_t(g.base >> 32);
    case McrTableReg::rgn_rd_size_lo: return uint32_t(g.size);
    case McrTableReg::rgn_rd_size_hi: return uint32_t(g.size >> 32);
    case McrTableReg::rgn_rd_ports: return g.ports;
    case McrTableReg::rgn_rd_attr:
      return put(g.expect, T3_MCR_TABLE_R_RGN_RD_ATTR_EXPECT_SHIFT, T3_MCR_TABLE_R_RGN_RD_ATTR_EXPECT_MASK) |
             put(g.home, T3_MCR_TABLE_R_RGN_RD_ATTR_HOME_SHIFT, T3_MCR_TABLE_R_RGN_RD_ATTR_HOME_MASK) |
             put(g.root, T3_MCR_TABLE_R_RGN_RD_ATTR_ROOT_SHIFT, T3_MCR_TABLE_R_RGN_RD_ATTR_ROOT_MASK) |
             put(g.dtype, T3_MCR_TABLE_R_RGN_RD_ATTR_DTYPE_SHIFT, T3_MCR_TABLE_R_RGN_RD_ATTR_DTYPE_MASK) |
             put(g.size != 0, T3_MCR_TABLE_R_RGN_RD_ATTR_VALID_SHIFT, T3_MCR_TABLE_R_RGN_RD_ATTR_VALID_MASK);
    case McrTableReg::stat_mcast: return uint32_t(mcast_ & m);
    case McrTableReg::stat_miss: return uint32_t(miss_ & m);
    case McrTableReg::stat_copies: return uint32_t(copies_ & m);
    case McrTableReg::stat_stall: return uint32_t(stall_ & m);
    case McrTableReg::stat_refused: return uint32_t(refused_ & m);
    case McrTableReg::stat_malformed: return uint32_t(malformed_ & m);
    case McrTableReg::stat_noroute: return uint32_t(noroute_ & m);
    case McrTableReg::param_size:
      return put(p_.ports, T3_MCR_TABLE_R_PARAM_SIZE_PORTS_SHIFT, T3_MCR_TABLE_R_PARAM_SIZE_PORTS_MASK) |
             put(p_.regions, T3_MCR_TABLE_R_PARAM_SIZE_REGIONS_SHIFT, T3_MCR_TABLE_R_PARAM_SIZE_REGIONS_MASK) |
             put(p_.max_len, T3_MCR_TABLE_R_PARAM_SIZE_MAX_LEN_SHIFT, T3_MCR_TABLE_R_PARAM_SIZE_MAX_LEN_MASK) |
             put(p_.slots, T3_MCR_TABLE_R_PARAM_SIZE_SLOTS_SHIFT, T3_MCR_TABLE_R_PARAM_SIZE_SLOTS_MASK);
    case McrTableReg::param_widths:
      return put(p_.flit_w, T3_MCR_TABLE_R_PARAM_WIDTHS_FLIT_W_SHIFT, T3_MCR_TABLE_R_PARAM_WIDTHS_FLIT_W_MASK) |
             put(p_.stat_w, T3_MCR_TABLE_R_PARAM_WIDTHS_STAT_W_SHIFT, T3_MCR_TABLE_R_PARAM_WIDTHS_STAT_W_MASK);
    default: return 0;  // no RO field
  }
}

void McrTableScoreboard::check_path(unsigned k, bool valid, const Wide& flit_in, unsigned in_port,
                                    uint64_t ready, bool in_ready, bool out_valid, unsigned out_port,
                                    const Wide& out_flit, bool rst_n, std::ostream& err) {
  const char* cls = k ? "rsp" : "req";
  std::deque<Pkt>& q = q_[k];
  Intake& I = in_[k];
  Out& O = out_[k];
  ev_drop_[k] = 0;
  ev_kept_[k] = false;
  ev_hit_[k] = false;

  // ---- intake: mid-packet always; a header while fewer than SLOTS are held
  const bool want_ready = rst_n && (I.left > 0 || q.size() < p_.slots);
  if (in_ready != want_ready)
    err << cls << "_in_ready_o = " << in_ready << ", expected " << want_ready << " ("
        << q.size() << " packets held, " << I.left << " flits of a packet to come); ";
  if (rst_n && valid && !want_ready) ++cov_.full_refusals;

  // ---- output: the oldest packet, once whole and its fate known
  Pkt* head = q.empty() ? nullptr : &q.front();
  bool want_valid = false, boundary = false, retire = false;
  unsigned want_port = 0;
  const Wide* want_flit = nullptr;
  if (O.in_copy) {
    want_valid = rst_n;
    want_port = O.port;
    want_flit = &head->data[O.next];
  } else if (head && head->whole && head->known && head->why) {
    retire = rst_n;  // a dropped packet: retired, nothing sent
  } else if (head && head->whole && head->known) {
    boundary = true;
    const uint64_t cand = head->owed & ready;
    want_valid = rst_n && cand != 0;
    if (cand) {
      const uint64_t above = cand & ~low_mask(O.last + 1);
      want_port = unsigned(__builtin_ctzll(above ? above : cand));
      // A copy that went around an owed port not ready.
      if ((head->owed & ~ready & low_mask(want_port) & ~low_mask(O.last + 1)) != 0) ++cov_.rr_skips;
    }
    want_flit = &head->hdr;
    if (rst_n && !cand) {
      ++ev_stall_;
      ++cov_.stall_cycles;
    }
  }
  if (out_valid != want_valid) {
    err << cls << "_out_valid_o = " << out_valid << ", expected " << want_valid;
    if (boundary)
      err << " (a copy owed to ports 0x" << std::hex << head->owed << ", ready 0x" << ready << std::dec
          << ")";
    else if (O.in_copy)
      err << " (in a copy to port " << O.port << ")";
    else if (retire)
      err << " (a dropped packet retired)";
    err << "; ";
  } else if (want_valid) {
    if (out_port != want_port)
      err << cls << "_out_port_o = " << out_port << ", expected " << want_port
          << (boundary ? " (round robin among the owed ports that are ready)" : " (the copy's port)") << "; ";
    if (out_flit != *want_flit) {
      err << cls << "_out_flit_o wrong: ";
      if (boundary)
        err << "header " << pkt::unpack(out_flit) << ", expected " << pkt::unpack(*want_flit);
      else
        err << "data flit " << O.next << " of the copy to port " << O.port;
      err << "; ";
    }
  }
  if (!rst_n) return;

  // ---- the edge: a flit out, or a dropped packet retired
  if (retire) {
    ++cov_.retired;
    q.pop_front();
  } else if (want_valid && ((ready >> want_port) & 1)) {
    if (!O.in_copy) {
      ++ev_copies_;
      ++cov_.copies_sent;
      head->owed &= ~(uint64_t{1} << want_port);
      O.last = want_port;
      if (head->flits) {
        O.in_copy = true;
        O.port = want_port;
        O.next = 0;
      } else if (!head->owed) {
        q.pop_front();
      }
    } else if (++O.next == head->flits) {
      O.in_copy = false;
      if (!head->owed) q.pop_front();
    }
  } else if (O.in_copy) {
    ++cov_.mid_copy_waits;
  }

  // ---- the edge: the fate of the packet whose header came in the last cycle
  if (I.pend) {
    Pkt& pk = q.back();
    pk.known = true;
    I.pend = false;
    ev_port_[k] = pk.port;
    if (pk.why) {
      ev_drop_[k] = pk.why;
      ++cov_.drops[pk.why];
      if (pk.flits > p_.max_len) ++cov_.long_drops;
    } else {
      ev_kept_[k] = true;
      ev_hit_[k] = pk.hit;
    }
  }

  // ---- the edge: a flit in
  if (!(valid && want_ready)) return;
  Wide flit = flit_in;
  flit.truncate(p_.flit_w);
  if (I.left > 0) {  // a data flit (kept only for a packet that is sent)
    --I.left;
    Pkt& pk = q.back();
    if (!pk.why) pk.data.push_back(flit);
    if (I.left == 0) pk.whole = true;
    return;
  }
  ++taken_[k];
  const pkt::Header h = pkt::unpack(flit);
  const unsigned after = known(h.op) && !carries_data(h.op) ? 0 : h.len;  // docs/packet.md
  Pkt pk;
  pkt::Header stamped;
  pk.why = classify(k, h, in_port, &pk.owed, &stamped, &pk.hit);
  pk.port = in_port;
  pk.flits = after;
  pk.whole = after == 0;
  if (in_port == p_.ports) ++cov_.from_unit;
  I.left = after;
  I.pend = true;
  if (!pk.why) {
    (pk.hit ? cov_.kept_hit : cov_.kept_miss)[h.op] += 1;
    ++cov_.copies[__builtin_popcountll(pk.owed)];
    for (const McrRegion& r : table_)
      if (r.size && (h.addr == r.base || h.addr + p_.flit_w / 8 == r.base + r.size ||
                     h.addr + p_.flit_w / 8 == r.base || h.addr == r.base + r.size))
        ++cov_.region_edges;
    pk.hdr = pkt::pack(stamped);
    pk.data.reserve(after);
  }
  q.push_back(std::move(pk));
}

std::optional<std::string> McrTableScoreboard::observe(const McrTableInputs& in, const McrTableOutputs& out) {
  std::ostringstream& err = complaints_.fresh();

  // ---- the register port and the interrupt, on the state before the edge
  regs_.observe(in.apb, out.apb, false, [this](unsigned r) { return ro(r); }, err);
  if (out.intr != regs_.intr())
    err << "intr_o = " << out.intr << ", expected " << regs_.intr() << " (INTR_STATE 0x" << std::hex
        << regs_.value(unsigned(McrTableReg::intr_state)) << ", INTR_ENABLE 0x"
        << regs_.value(unsigned(McrTableReg::intr_enable)) << std::dec << "); ";

  // ---- the counters
  check_counter(err, "stat_mcast_o", out.stat_mcast, mcast_, p_.stat_w);
  check_counter(err, "stat_miss_o", out.stat_miss, miss_, p_.stat_w);
  check_counter(err, "stat_copies_o", out.stat_copies, copies_, p_.stat_w);
  check_counter(err, "stat_stall_o", out.stat_stall, stall_, p_.stat_w);
  check_counter(err, "stat_refused_o", out.stat_refused, refused_, p_.stat_w);
  check_counter(err, "stat_malformed_o", out.stat_malformed, malformed_, p_.stat_w);
  check_counter(err, "stat_noroute_o", out.stat_noroute, noroute_, p_.stat_w);

  // ---- the class paths
  ev_copies_ = ev_stall_ = 0;
  // The inputs cut to their pins, as the wires carry them.
  const uint64_t port_m = low_mask(p_.port_w()), ready_m = low_mask(p_.nout());
  check_path(0, in.req_in_valid, in.req_in_flit, unsigned(in.req_in_port & port_m),
             in.req_out_ready & ready_m, out.req_in_ready, out.req_out_valid, out.req_out_port,
             out.req_out_flit, in.rst_n, err);
  check_path(1, in.rsp_in_valid, in.rsp_in_flit, unsigned(in.rsp_in_port & port_m),
             in.rsp_out_ready & ready_m, out.rsp_in_ready, out.rsp_out_valid, out.rsp_out_port,
             out.rsp_out_flit, in.rst_n, err);

  if (!in.rst_n) {
    ++cov_.resets;
    cov_.resets_busy += !idle();
    clear();
    regs_.reset();
  } else {
    // ---- a region command: checked in the cycle of RGN_CMD's pulse, on the
    // table as it is then; its answer and its change of the table at the
    // next edge (after that cycle's headers were looked up)
    const uint32_t pulse = regs_.pulses(unsigned(McrTableReg::rgn_cmd));
    const bool add = pulse & T3_MCR_TABLE_R_RGN_CMD_ADD_MASK, remove = pulse & T3_MCR_TABLE_R_RGN_CMD_REMOVE_MASK;
    uint32_t events = 0;
    Cmd now;
    now.valid = add || remove;
    if (now.valid) {
      unsigned used = 0;
      for (const McrRegion& t : table_) used += t.size != 0;
      cov_.table_full += used == p_.regions;
      now.add = add;
      now.code = command(add, remove, &now.r);
      ++cov_.cmds[now.code];
    }
    if (cmd_.valid) {
      cmd_code_ = cmd_.code;
      if (cmd_.code != 0) {
        ++refused_;
        events |= T3_MCR_TABLE_R_INTR_STATE_REFUSED_MASK;
      } else {
        table_[cmd_.r.idx] = cmd_.add ? cmd_.r : McrRegion{};
      }
    }
    cmd_ = now;
    // ---- the packets' events
    const uint64_t m = low_mask(p_.stat_w);
    const uint64_t before[7] = {mcast_, miss_, copies_, stall_, malformed_, noroute_, refused_};
    for (int k = 1; k >= 0; --k) {  // the request class's drop shows when both drop
      if (ev_kept_[k]) (ev_hit_[k] ? mcast_ : miss_) += 1;
      const unsigned d = ev_drop_[k];
      if (!d) continue;
      if (d <= 8) {
        ++malformed_;
        events |= T3_MCR_TABLE_R_INTR_STATE_MALFORMED_MASK;
      } else {
        ++noroute_;
        events |= T3_MCR_TABLE_R_INTR_STATE_NOROUTE_MASK;
      }
      drop_cause_ = d;
      drop_class_ = k == 1;
      drop_port_ = ev_port_[k];
    }
    copies_ += ev_copies_;
    stall_ += ev_stall_;
    const uint64_t after[7] = {mcast_, miss_, copies_, stall_, malformed_, noroute_, refused_};
    for (int i = 0; i < 7; ++i) cov_.wraps += (after[i] & ~m) != (before[i] & ~m);
    regs_.set_event(unsigned(McrTableReg::intr_state), events);
    regs_.edge();
  }
  if (err.tellp() == 0) return std::nullopt;
  return err.str();
}

}  // namespace t3::tb
