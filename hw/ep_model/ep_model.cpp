#include "ep_model/ep_model.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "common/compose.h"
#include "common/hex.h"
#include "ep_window/ep_window_writes.h"

namespace t3 {

using pkt::Op;

const char* name(EpError e) {
  switch (e) {
    case EpError::none: return "none";
    case EpError::malformed: return "malformed";
    case EpError::no_window: return "no_window";
    case EpError::wrong_op: return "wrong_op";
    case EpError::not_home: return "not_home";
    case EpError::overcount: return "overcount";
    case EpError::wrong_dtype: return "wrong_dtype";
    case EpError::wrong_src: return "wrong_src";
  }
  return "?";
}

DmaCreditParams EpModelParams::dma_credit() const {
  DmaCreditParams d;
  d.ctrs = ctrs;
  d.flit_w = flit_w;
  d.max_len = max_len;
  return d;
}

EpWindowParams EpModelParams::ep_window() const {
  EpWindowParams w;
  w.windows = windows;
  w.flit_w = flit_w;
  w.count_depth = count_depth;
  w.mem_bytes = mem_bytes;
  return w;
}

EpTxParams EpModelParams::ep_tx() const {
  EpTxParams t;
  t.flit_w = flit_w;
  t.max_len = max_len;
  return t;
}

void EpModelParams::validate() const {
  validate_param_ranges(*this, "innet_endpoint");
  dma_credit().validate();
  ep_window().validate();
  ep_tx().validate();
}

namespace {
const EpModelParams& checked(const EpModelParams& p) {
  p.validate();
  return p;
}

}  // namespace

uint64_t EpModel::SlotQueue::push(const Wide& f, bool ready) {
  q.push_back(Slot{f, ready});
  return head_seq + q.size() - 1;
}

void EpModel::SlotQueue::fill(uint64_t seq, const Wide& f) {
  Slot& s = q.at(size_t(seq - head_seq));
  s.flit = f;
  s.ready = true;
}

EpModel::EpModel(const EpModelParams& params)
    : p_(checked(params)),
      dc_(p_.dma_credit()),
      wp_(p_.ep_window()),
      wb_(wp_),
      mem_(p_.mem_bytes, p_.flit_w),
      count_(p_.count_depth, 0),
      clen_(p_.count_depth, 0),
      ctr_(p_.ctrs),
      tx_(p_.ep_tx()),
      win_rx_(p_.windows, 0) {
  // Two packets in each queue: one leaving while the next is read.
  rspq_.cap = rx_cap_ = 2 * (1 + p_.max_len);
}

void EpModel::set_window(unsigned i, const EpWin& w) {
  if (w.valid) {
    const EpWinVerdict v = check_window(wp_, wt(), i, w);
    if (v.cause != EpWinCause::none) throw std::invalid_argument(describe(wp_, v, i, w));
  } else if (i >= p_.windows) {
    throw std::invalid_argument(describe(wp_, EpWinVerdict{EpWinCause::index, 0}, i, w));
  }
  // What the endpoint driver writes (t3_ep_set_window), through the same
  // registers, and the two cycles the window block takes to check and write it.
  for (const EpWinWrite& a : ep_window_writes(i, w))
    if (wb_.tlm_write(a.offset, a.data) != RegStatus::ok)
      throw std::logic_error("innet_endpoint: window register " + hex(a.offset));
  EpWindowInputs in;
  in.rst_n = true;
  wb_.step(in, wbo_);  // the pulse: checked
  wb_.step(in, wbo_);  // written
  win_after_ = true;
}

RegStatus EpModel::tlm_write(uint32_t offset, uint32_t data) {
  switch (offset >> 12) {
    case 0: return dc_.tlm_write(offset, data);
    case 1:
      win_pending_ = win_after_ = true;
      return wb_.tlm_write(offset & 0xFFF, data);
    default: return RegStatus::address_error;
  }
}

RegStatus EpModel::tlm_read(uint32_t offset, uint32_t& data) const {
  data = 0;
  switch (offset >> 12) {
    case 0: return dc_.tlm_read(offset, data);
    case 1: return wb_.tlm_read(offset & 0xFFF, data);
    default: return RegStatus::address_error;
  }
}

int EpModel::find_window(uint64_t a, unsigned len) const {
  return t3::find_window(wp_, wt(), a, len);
}

uint8_t EpModel::counter_of(uint64_t a) const {
  for (unsigned c = 0; c < p_.ctrs; ++c)
    if (ctr_[c].live && a >= ctr_[c].lo && a < ctr_[c].hi) return uint8_t(c);
  return 0xFF;  // past CTRS: the DMA credit controller counts a stray
}

bool EpModel::idle() const {
  return tx_.idle() && rspq_.q.empty() && rxq_[0].empty() && rxq_[1].empty() && resq_.empty() &&
         pull_.left == 0 && pull_.drop == 0 && rx_.mode == Rx::kIdle && fin_.empty() &&
         homeq_.empty() && !home_.busy && sweep_pending_ == 0 && inflight_.empty() && pull_.stage_left == 0 &&
         detq_.empty() && !det_.busy && sendq_.empty();
}

unsigned EpModel::open_lines() const {
  return unsigned(std::count_if(count_.begin(), count_.end(), [](uint8_t c) { return c != 0; }));
}

void EpModel::reset() {
  rspq_.q.clear();
  rspq_.head_seq = 0;
  rxq_[0].clear();
  rxq_[1].clear();
  resq_.clear();
  resq_reserved_ = fin_reserved_ = 0;
  pull_ = PullAns{};
  rx_ = Rx{};
  fin_.clear();
  homeq_.clear();
  home_ = Home{};
  detq_.clear();
  detq_reserved_ = 0;
  det_ = Det{};
  sweep_pending_ = 0;
  sweep_at_ = 0;
  inflight_.clear();
  std::fill(count_.begin(), count_.end(), 0);
  for (CtrRange& c : ctr_) c = CtrRange{};
  st_ = EpModelStats{};
  last_err_ = EpError::none;
  sendq_.clear();
  std::fill(win_rx_.begin(), win_rx_.end(), 0);
}

void EpModel::drop(EpError e) {
  ++st_.dropped;
  last_err_ = e;
}

void EpModel::mem_read(uint64_t addr, const ReadTag& t) {
  ++ops_;
  ++st_.mem_reads;
  inflight_.push_back(InFlight{now_ + p_.mem_lat, t, mem_.read(addr)});
}

void EpModel::mem_write(uint64_t addr, const Wide& d) {
  ++ops_;
  ++st_.mem_writes;
  mem_.write(addr, d);
}

void EpModel::mem_add(uint64_t addr, const Wide& d, uint8_t dtype) {
  ++ops_;
  ++st_.mem_adds;
  mem_.add(addr, d, dtype);
}

void EpModel::deliver(const ReadTag& t, const Wide& d) {
  switch (t.who) {
    case kTx:  // one a cycle: tx reads at most one flit a cycle, all with the same latency
      if (txi_.md_valid) throw std::logic_error("innet_endpoint: two tx answers in one cycle");
      txi_.md_valid = true;
      txi_.md_tag = uint8_t(t.seq);
      txi_.md_data = d;
      break;
    case kPull: rspq_.fill(t.seq, d); break;
    case kHome:
      rspq_.fill(t.seq, d);
      --home_.reading;
      if (home_.echo_left) home_.echo.push_back(d);
      break;
    case kDet: det_.data.push_back(d); break;
    case kFinal: {
      FinalLine& f = fin_.at(size_t((t.seq >> 8) - fin_head_seq_));
      f.data[t.seq & 0xFF] = d;
      f.got[t.seq & 0xFF] = true;
      break;
    }
  }
}

void EpModel::accept_descriptor(const Wide& hw) {
  const pkt::Header h = pkt::unpack(hw);
  if (h.op == uint8_t(Op::push)) {
    ++st_.pushes;
  } else {
    ++st_.pulls;
  }
  if (h.ctr < p_.ctrs) {
    CtrRange& c = ctr_[h.ctr];
    const uint64_t end = h.addr + uint64_t(h.len) * p_.flit_bytes();
    if (!c.live) c = CtrRange{true, h.addr, end};
    c.lo = std::min(c.lo, h.addr);
    c.hi = std::max(c.hi, end);
  }
}

void EpModel::send(uint64_t local, uint64_t net, uint32_t flits, uint8_t dst) {
  const uint64_t fb = p_.flit_bytes();
  if (flits == 0 || local % fb || net % fb || local + uint64_t(flits) * fb > p_.mem_bytes)
    throw std::invalid_argument("innet_endpoint send: local = " + hex(local) + ", net = " + hex(net) + ", flits = " +
                                std::to_string(flits) + ": flit-aligned addresses, 1 flit at least, inside MEM_BYTES");
  sendq_.push_back(Send{local, net, flits, dst});
}

// The transmit engine (ep_tx): its read when the other engines leave the
// memory a slot in this cycle, then its edge.
void EpModel::step_tx(const EpTxCoreOutputs& t) {
  txi_.mr_ready = t.mr_valid && mem_free();
  if (txi_.mr_ready) mem_read(t.mr_addr, ReadTag{kTx, t.mr_tag});
  tx_.clock(txi_);
  if (t.cp_done) sendq_.pop_front();
}

// A PULL from another GPU: answered with this GPU's data for the line.
void EpModel::step_pull() {
  std::deque<Wide>& q = rxq_[0];
  if (pull_.drop) {
    if (!q.empty()) {
      q.pop_front();
      --pull_.drop;
    }
    return;
  }
  if (pull_.stage_left) {  // a deterministic home's PUSH into its stage, or a copy's WRITE
    if (!q.empty() && mem_free()) {
      if (pull_.copy == EpWin::kCopyAdd) mem_add(pull_.addr, q.front(), wt()[pull_.win].dtype);
      else mem_write(pull_.addr, q.front());
      if (pull_.copy) ++win_rx_[pull_.win];
      q.pop_front();
      pull_.addr += p_.flit_bytes();
      if (--pull_.stage_left == 0 && pull_.completes) {
        --detq_reserved_;
        detq_.push_back(DetLine{pull_.win, pull_.line, pull_.len});
      }
    }
    return;
  }
  if (pull_.left) {
    if (mem_free()) {
      mem_read(pull_.addr, ReadTag{kPull, pull_.seq++});
      pull_.addr += p_.flit_bytes();
      --pull_.left;
    }
    return;
  }
  if (q.empty()) return;
  const pkt::Header h = pkt::unpack(q.front());
  EpError e = EpError::none;
  int w = -1;
  if (pkt::check(h, p_.max_len, p_.flit_w) != pkt::Malformed::none) e = EpError::malformed;
  else if (h.op != uint8_t(Op::pull) && h.op != uint8_t(Op::push) && h.op != uint8_t(Op::write)) e = EpError::wrong_op;
  else if ((w = find_window(h.addr, h.len)) < 0) e = EpError::no_window;
  else if (h.op == uint8_t(Op::write) ? !wt()[unsigned(w)].copy : wt()[unsigned(w)].copy) e = EpError::wrong_op;
  else if (h.op != uint8_t(Op::write) && h.dtype != wt()[unsigned(w)].dtype) e = EpError::wrong_dtype;
  else if (h.op == uint8_t(Op::push) && !wt()[unsigned(w)].det) e = EpError::wrong_op;
  if (e == EpError::none && h.op == uint8_t(Op::write)) {  // a copy: its flits to dst + offset
    const EpWin& cw = wt()[unsigned(w)];
    q.pop_front();
    pull_.stage_left = h.len;
    pull_.addr = cw.dst + (h.addr - cw.net_base);
    pull_.completes = false;
    pull_.copy = cw.copy;
    pull_.win = unsigned(w);
    return;
  }
  if (e == EpError::none && h.op == uint8_t(Op::push)) {
    if (!take_det_push(h, w)) return;
    q.pop_front();
    return;
  }
  if (e != EpError::none) {
    drop(e);
    q.pop_front();
    pull_.drop = pkt::wire_flits(h) - 1;
    return;
  }
  if (rspq_.room() < 1u + h.len) return;
  q.pop_front();
  const EpWin& win = wt()[unsigned(w)];
  pkt::Header r;
  r.op = uint8_t(Op::pull_rsp);
  r.dtype = h.dtype;
  r.len = h.len;
  r.src = node_;
  r.dst = h.src;  // the requester
  r.count = 1;
  r.ctr = h.ctr;  // echoed: the requester's counter
  r.addr = h.addr;
  rspq_.push(pkt::pack(r), true);
  pull_.seq = rspq_.head_seq + rspq_.q.size();
  for (unsigned i = 0; i < h.len; ++i) rspq_.push(Wide{}, false);
  pull_.left = h.len;
  pull_.addr = win.src + (h.addr - win.net_base);
  ++st_.pull_answers;
}

// A PUSH at a deterministic home: staged by its contributor's rank. false:
// it waits (its line would complete with no room to queue the line for the
// in-order add: requests may wait for what drains).
bool EpModel::take_det_push(const pkt::Header& h, int w) {
  const EpWin& win = wt()[unsigned(w)];
  const uint64_t off = h.addr - win.net_base;
  const uint32_t line = uint32_t(win.count_base + off / p_.flit_bytes());
  EpError e = EpError::none;
  if (h.src >= 32 || !(win.contrib_mask >> h.src & 1)) e = EpError::wrong_src;
  else if (h.count != 1 || count_[line] + 1u > win.expected) e = EpError::overcount;
  if (e != EpError::none) {
    drop(e);
    pull_.drop = pkt::wire_flits(h) - 1;
    return true;
  }
  const bool completes = count_[line] + 1u == win.expected;
  if (completes) {
    if (detq_.size() + detq_reserved_ >= p_.home_q) return false;
    ++detq_reserved_;
  }
  const unsigned rank = unsigned(__builtin_popcount(win.contrib_mask & ((1u << h.src) - 1)));
  count_[line] = uint8_t(count_[line] + 1);
  clen_[line] = h.len;
  pull_.stage_left = h.len;
  pull_.addr = win.stage + uint64_t(rank) * win.bytes + off;
  pull_.copy = EpWin::kCopyNone;
  pull_.completes = completes;
  pull_.win = unsigned(w);
  pull_.line = line;
  pull_.len = h.len;
  ++st_.staged;
  return true;
}

// A deterministic home's line: its contributions read from the stages in
// rank order and added into the merge area in that order (the first
// stored), then sent as the home sends a merged line.
void EpModel::step_det() {
  Det& d = det_;
  const unsigned dcap = 2 * p_.max_len;
  if (!d.busy) {
    if (detq_.empty()) return;
    d = Det{};
    d.busy = true;
    d.l = detq_.front();
    detq_.pop_front();
  }
  const EpWin& win = wt()[d.l.win];
  const unsigned total = unsigned(win.expected) * d.l.len;
  const uint64_t off = uint64_t(d.l.line - win.count_base) * p_.flit_bytes();
  if (d.read < total && d.reserved < dcap && mem_free()) {
    const unsigned k = d.read / d.l.len, i = d.read % d.l.len;
    mem_read(win.stage + uint64_t(k) * win.bytes + off + uint64_t(i) * p_.flit_bytes(), ReadTag{kDet, d.read});
    ++d.read;
    ++d.reserved;
  }
  if (!d.data.empty() && d.used < total && mem_free()) {
    const unsigned k = d.used / d.l.len, i = d.used % d.l.len;
    const uint64_t a = win.merge + off + uint64_t(i) * p_.flit_bytes();
    if (k == 0) mem_write(a, d.data.front());
    else mem_add(a, d.data.front(), win.dtype);
    d.data.pop_front();
    --d.reserved;
    ++d.used;
  }
  if (d.used == total && homeq_.size() < p_.home_q) {
    homeq_.push_back(HomeLine{d.l.win, d.l.line, d.l.len});
    d = Det{};
  }
}

// A response's header: what its data flits will do.
void EpModel::take_response_header() {
  std::deque<Wide>& q = rxq_[1];
  const pkt::Header h = pkt::unpack(q.front());
  EpError e = EpError::none;
  int w = -1;
  const bool known = h.op == uint8_t(Op::result) || h.op == uint8_t(Op::pull_rsp) || h.op == uint8_t(Op::partial);
  if (pkt::check(h, p_.max_len, p_.flit_w) != pkt::Malformed::none) e = EpError::malformed;
  else if (!known) e = EpError::wrong_op;
  else if ((w = find_window(h.addr, h.len)) < 0) e = EpError::no_window;
  else if (wt()[unsigned(w)].copy) e = EpError::wrong_op;  // a copy window takes WRITEs only
  else if (h.dtype != wt()[unsigned(w)].dtype) e = EpError::wrong_dtype;
  else if (h.op == uint8_t(Op::partial) && !wt()[unsigned(w)].home) e = EpError::not_home;
  const EpWin* win = w >= 0 ? &wt()[unsigned(w)] : nullptr;
  const uint64_t off = win ? h.addr - win->net_base : 0;
  const uint32_t line = win ? uint32_t(win->count_base + off / p_.flit_bytes()) : 0;
  // Contributions the line may hold: a pull's requester holds its own (the
  // PULL's count 1, docs/blocks/dma_credit.md), a home all of them.
  const unsigned need = win ? (h.op == uint8_t(Op::pull_rsp) ? win->expected - 1u : win->expected) : 0;
  if (e == EpError::none && h.op != uint8_t(Op::result) && (h.count == 0 || count_[line] + h.count > need))
    e = EpError::overcount;
  if (e != EpError::none) {
    drop(e);
    q.pop_front();
    rx_ = Rx{};
    rx_.left = pkt::wire_flits(h) - 1;
    rx_.mode = rx_.left ? Rx::kDrop : Rx::kIdle;
    return;
  }
  Rx r;
  r.hdr = h;
  r.win = unsigned(w);
  r.line = line;
  r.left = h.len;
  r.dtype = h.dtype;
  if (h.op == uint8_t(Op::result)) {
    if (!resq_room()) return;  // waits: the DMA credit controller takes results as it can
    ++resq_reserved_;
    r.mode = Rx::kWrite;
    r.addr = win->dst + off;
    r.after = Rx::kResult;
    ++st_.results;
  } else {
    const unsigned c = count_[line] + h.count;
    const bool whole = c == need;
    if (h.op == uint8_t(Op::pull_rsp)) {
      if (whole) {
        if (fin_.size() + fin_reserved_ >= fin_cap_) return;
        ++fin_reserved_;
      }
      r.addr = win->dst + off;
      r.after = whole ? Rx::kFinal : Rx::kNothing;
      ++st_.pull_rsps;
    } else {
      r.addr = win->merge + off;
      r.after = whole ? Rx::kHomeDone : Rx::kNothing;
      clen_[line] = h.len;
      ++st_.partials;
    }
    r.mode = Rx::kMerge;
    r.first = count_[line] == 0;
    count_[line] = uint8_t(c);
  }
  q.pop_front();
  rx_ = r;
}

void EpModel::finish_rx() {
  const EpWin& win = wt()[rx_.win];
  const uint64_t off = rx_.hdr.addr - win.net_base;
  switch (rx_.after) {
    case Rx::kNothing: break;
    case Rx::kResult: {
      pkt::Header r = rx_.hdr;
      r.ctr = counter_of(r.addr);
      --resq_reserved_;
      resq_.push_back(r);
      break;
    }
    case Rx::kFinal: {
      FinalLine f;
      f.src = win.src + off;
      f.dst = win.dst + off;
      f.len = rx_.hdr.len;
      f.dtype = rx_.dtype;
      f.res = rx_.hdr;
      f.data.resize(f.len);
      f.got.assign(f.len, false);
      --fin_reserved_;
      fin_.push_back(std::move(f));
      count_[rx_.line] = 0;
      break;
    }
    case Rx::kHomeDone:
      // While lines wait for the sweep, every line completed goes there too
      // (the sweep finds each line once).
      if (sweep_pending_ == 0 && homeq_.size() < p_.home_q) homeq_.push_back(HomeLine{rx_.win, rx_.line, rx_.hdr.len});
      else ++sweep_pending_;
      break;
  }
  rx_ = Rx{};
}

void EpModel::step_rx() {
  std::deque<Wide>& q = rxq_[1];
  switch (rx_.mode) {
    case Rx::kIdle:
      if (!q.empty()) take_response_header();
      return;
    case Rx::kDrop:
      if (!q.empty()) {
        q.pop_front();
        if (--rx_.left == 0) rx_ = Rx{};
      }
      return;
    case Rx::kWrite:
    case Rx::kMerge:
      if (q.empty() || !mem_free()) return;
      if (rx_.mode == Rx::kWrite || rx_.first) mem_write(rx_.addr, q.front());
      else mem_add(rx_.addr, q.front(), rx_.dtype);
      q.pop_front();
      rx_.addr += p_.flit_bytes();
      if (--rx_.left == 0) finish_rx();
      return;
  }
}

// A pulled line: the requester's own data read and added (after every
// response's merge: it starts once they are all issued).
void EpModel::step_final() {
  for (size_t i = 0; i < fin_.size() && mem_free(); ++i) {
    FinalLine& f = fin_[i];
    if (f.read < f.len) {
      mem_read(f.src + uint64_t(f.read) * p_.flit_bytes(), ReadTag{kFinal, (fin_head_seq_ + i) << 8 | f.read});
      ++f.read;
      break;
    }
  }
  if (fin_.empty()) return;
  FinalLine& f = fin_.front();
  if (f.added < f.len && f.got[f.added] && mem_free()) {
    mem_add(f.dst + uint64_t(f.added) * p_.flit_bytes(), f.data[f.added], f.dtype);
    ++f.added;
  }
  if (f.added == f.len && resq_room()) {
    resq_.push_back(f.res);
    fin_.pop_front();
    ++fin_head_seq_;
  }
}

bool EpModel::next_home_line(HomeLine& l) {
  if (!homeq_.empty()) {
    l = homeq_.front();
    return true;
  }
  if (sweep_pending_ == 0) return false;
  // One counter a cycle: a line whose count is its window's whole.
  const uint32_t i = sweep_at_;
  for (unsigned w = 0; w < p_.windows; ++w) {
    const EpWin& win = wt()[w];
    const uint64_t lines = win.bytes / p_.flit_bytes();
    // A line's count reaches expected when its last PARTIAL's header is taken;
    // it is whole once that PARTIAL's data are merged (finish_rx queues it).
    const bool merging = rx_.mode == Rx::kMerge && rx_.line == i;
    if (win.valid && win.home && !win.det && i >= win.count_base && i < win.count_base + lines &&
        count_[i] == win.expected && !merging) {
      l = HomeLine{w, i, clen_[i]};
      return true;
    }
  }
  sweep_at_ = (sweep_at_ + 1) % p_.count_depth;
  return false;
}

// The home: a line merged whole leaves as a RESULT to the other GPUs (the
// region table multicasts it to every participant but the ingress port),
// is copied to the home's own dst when that is not the merge area, and
// completes the home's own request.
void EpModel::step_home() {
  Home& h = home_;
  if (!h.busy) {
    HomeLine l;
    if (!next_home_line(l)) return;
    if (rspq_.room() < 1u + l.len || !resq_room()) return;
    if (!homeq_.empty()) homeq_.pop_front();
    else {
      --sweep_pending_;
      ++st_.home_sweeps;
      sweep_at_ = (sweep_at_ + 1) % p_.count_depth;
    }
    const EpWin& win = wt()[l.win];
    const uint64_t off = uint64_t(l.line - win.count_base) * p_.flit_bytes();
    pkt::Header r;
    r.op = uint8_t(Op::result);
    r.dtype = win.dtype;
    r.len = uint8_t(l.len);
    r.src = node_;
    r.count = win.expected;
    r.addr = win.net_base + off;
    rspq_.push(pkt::pack(r), true);
    h = Home{};
    h.busy = true;
    h.l = l;
    h.seq = rspq_.head_seq + rspq_.q.size();
    for (unsigned i = 0; i < l.len; ++i) rspq_.push(Wide{}, false);
    h.left = l.len;
    h.addr = win.merge + off;
    h.echo_left = win.merge != win.dst ? l.len : 0;
    h.echo_addr = win.dst + off;
    ++resq_reserved_;
    return;
  }
  if (h.left && mem_free()) {
    ++h.reading;
    mem_read(h.addr, ReadTag{kHome, h.seq++});
    h.addr += p_.flit_bytes();
    --h.left;
  }
  if (!h.echo.empty() && mem_free()) {
    mem_write(h.echo_addr, h.echo.front());
    h.echo.pop_front();
    h.echo_addr += p_.flit_bytes();
    --h.echo_left;
  }
  // Every read back (with merge == dst no echo waits for them): a read of
  // this line must not reach the next line's echo.
  if (h.left == 0 && h.echo_left == 0 && h.reading == 0) {
    const EpWin& win = wt()[h.l.win];
    pkt::Header r;
    r.op = uint8_t(Op::result);
    r.dtype = win.dtype;
    r.len = uint8_t(h.l.len);
    r.count = win.expected;
    r.addr = win.net_base + uint64_t(h.l.line - win.count_base) * p_.flit_bytes();
    r.ctr = counter_of(r.addr);
    --resq_reserved_;
    resq_.push_back(r);
    count_[h.l.line] = 0;
    ++st_.home_results;
    h = Home{};
  }
}

void EpModel::step(const EpModelInputs& in, EpModelOutputs& o) {
  o = EpModelOutputs{};
  // The DMA credit controller on its pins: the processor's, and the
  // endpoint's state (descriptors taken when tx can read a whole packet).
  DmaCreditInputs& d = dci_;
  d.rst_n = in.rst_n;
  window_request(in.apb, 0, d.apb);
  d.cmd_valid = in.cmd_valid;
  d.cmd_local_addr = in.cmd_local_addr;
  d.cmd_net_addr = in.cmd_net_addr;
  d.cmd_len = in.cmd_len;
  d.cmd_red_op = in.cmd_red_op;
  d.cmd_dtype = in.cmd_dtype;
  d.cmd_pull = in.cmd_pull;
  d.cmd_src = in.cmd_src;
  d.cmd_dst = in.cmd_dst;
  d.cmd_tag = in.cmd_tag;
  d.pkt_ready = in.rst_n && tx_.pkt_ready();
  d.res_valid = in.rst_n && !resq_.empty();
  d.res_hdr = d.res_valid ? pkt::pack(resq_.front()) : Wide{};
  dc_.step(d, dco_);
  // The transmit engine: the descriptors, the copy command at the head of
  // the queue, the output's ready; the memory's side comes at the edge.
  txi_.rst_n = in.rst_n;
  txi_.node = node_;
  txi_.pkt_valid = dco_.pkt_valid;
  txi_.pkt_hdr = dco_.pkt_hdr;
  txi_.pkt_local_addr = dco_.pkt_local_addr;
  txi_.cp_valid = !sendq_.empty();
  if (txi_.cp_valid) {
    txi_.cp_local = sendq_.front().local;
    txi_.cp_net = sendq_.front().net;
    txi_.cp_flits = sendq_.front().flits;
    txi_.cp_dst = sendq_.front().dst;
  }
  txi_.req_out_ready = in.req_out_ready;
  txi_.mr_ready = txi_.md_valid = false;
  const EpTxCoreOutputs txo = tx_.eval(txi_);
  // The windows' block on page 1. Its edge comes after the engines': they
  // act on the table as it is in this cycle, as the RTL's would.
  // Its state changes only at the edges of cycles of reset, of an access to
  // its page or of a write's pulse (the cycle after the write): it is
  // clocked in those and in the one after each (where an edge's change,
  // an interrupt set or a reset, first shows); in any other its outputs are
  // those of the last cycle and an edge would change nothing.
  EpWindowInputs wi;
  wi.rst_n = in.rst_n;
  window_request(in.apb, 1, wi.apb);
  const unsigned page = in.apb.paddr >> 12;
  const bool win_live = !in.rst_n || (in.apb.psel && page == 1) || win_pending_ || win_after_;
  if (win_live) wb_.eval(wi, wbo_);
  o.apb = window_response(in.apb, page == 0 ? &dco_.apb : page == 1 ? &wbo_.apb : nullptr);
  o.intr = dco_.intr || wbo_.intr;
  o.cmd_ready = dco_.cmd_ready;
  o.cpl_wr = dco_.cpl_wr;
  o.cpl_status = dco_.cpl_status;
  o.cpl_ctr = dco_.cpl_ctr;
  o.cpl_tag = dco_.cpl_tag;
  ++now_;
  if (!in.rst_n) {  // nothing taken or given in reset
    reset();
    tx_.clock(txi_);
    wb_.clock(wi);
    win_pending_ = false;
    win_after_ = true;
    return;
  }
  o.req_in_ready = rxq_[0].size() < rx_cap_;
  o.rsp_in_ready = rxq_[1].size() < rx_cap_;
  o.req_out_valid = txo.req_out_valid;
  o.req_out_flit = txo.req_out_flit;
  o.rsp_out_valid = rspq_.head_ready();
  if (o.rsp_out_valid) o.rsp_out_flit = rspq_.q.front().flit;

  // The edge. Reads due now reach their readers; the engines act on the
  // state before this edge, the responses' first (they free the network).
  while (!inflight_.empty() && inflight_.front().due <= now_) {
    deliver(inflight_.front().tag, inflight_.front().data);
    inflight_.pop_front();
  }
  ops_ = 0;
  step_rx();
  step_home();
  step_det();
  step_final();
  step_pull();
  step_tx(txo);
  if (o.rsp_out_valid && in.rsp_out_ready) {
    rspq_.q.pop_front();
    ++rspq_.head_seq;
  }
  if (in.req_in_valid && o.req_in_ready) rxq_[0].push_back(in.req_in_flit);
  if (in.rsp_in_valid && o.rsp_in_ready) rxq_[1].push_back(in.rsp_in_flit);
  if (d.res_valid && dco_.res_ready) resq_.pop_front();
  // A counter's range ends with its request (OK or TIMEOUT: the codes that
  // name a counter that was allocated).
  if (dco_.cpl_wr && dco_.cpl_status <= 1 && dco_.cpl_ctr < p_.ctrs) ctr_[dco_.cpl_ctr].live = false;
  if (dco_.pkt_valid && d.pkt_ready) accept_descriptor(dco_.pkt_hdr);
  if (win_live) wb_.clock(wi);
  win_pending_ = wi.apb.access() && wi.apb.pwrite;
  win_after_ = win_live;
}

}  // namespace t3
