#include "reduction_table_stimulus.h"

#include <algorithm>
#include <sstream>

#include "common/bits.h"
#include "t3/reduction_table_regs.h"

namespace t3::tb {

// ------------------------------------------------------------ exact values
namespace {
struct Fmt {
  unsigned exp_w, man_w;
};
Fmt fmt(unsigned dtype) { return dtype == 0 ? Fmt{5, 10} : dtype == 1 ? Fmt{8, 7} : Fmt{8, 23}; }
}  // namespace

unsigned fmt_precision(unsigned dtype) { return fmt(dtype).man_w + 1; }
int fmt_scale_min(unsigned dtype) {
  const Fmt f = fmt(dtype);
  const int bias = (1 << (f.exp_w - 1)) - 1;
  return 1 - bias - int(f.man_w);  // the ulp of the subnormals
}
int fmt_scale_max(unsigned dtype) {
  const Fmt f = fmt(dtype);
  const int bias = (1 << (f.exp_w - 1)) - 1;
  return bias - int(f.man_w);  // (2^p - 1) * 2^s is the largest finite value
}

uint32_t exact_value(unsigned dtype, int64_t k, int s, bool neg_zero) {
  const Fmt f = fmt(dtype);
  const int bias = (1 << (f.exp_w - 1)) - 1;
  const unsigned w = 1 + f.exp_w + f.man_w;
  const uint32_t sign = (k < 0 || (k == 0 && neg_zero)) ? 1u << (w - 1) : 0;
  uint64_t m = uint64_t(k < 0 ? -k : k);
  if (m == 0) return sign;
  const int n = 64 - __builtin_clzll(m);  // bits of m
  const int e = s + n - 1;                // the value is 1.x * 2^e
  if (e >= 1 - bias) {
    const uint64_t frac = (m << (f.man_w - unsigned(n - 1))) & ((uint64_t{1} << f.man_w) - 1);
    return sign | uint32_t(e + bias) << f.man_w | uint32_t(frac);
  }
  return sign | uint32_t(m << unsigned(s - fmt_scale_min(dtype)));  // subnormal
}

// ------------------------------------------------------------ the generator
ReductionTableStimulus::ReductionTableStimulus(const ReductionTableParams& p, uint64_t seed)
    : ReductionTableStimulus(p, seed, Options{}) {}

ReductionTableStimulus::ReductionTableStimulus(const ReductionTableParams& p, uint64_t seed, Options opt)
    : p_(p), opt_(opt), rng_(seed), req_(p.flit_w), rsp_(p.flit_w), out_(p.flit_w), req_mon_(p.flit_w) {
  new_phase(true);
}

uint64_t ReductionTableStimulus::random_addr() {
  const unsigned lsb = clog2(p_.flit_w / 8);
  uint64_t a = rng_() & low_mask(pkt::kAddrW);
  if (u() < 0.2) a &= 0xFFFF;  // now and then a low address, now and then a high one
  else if (u() < 0.1) a |= low_mask(pkt::kAddrW) & ~uint64_t{0xFFFF};
  return a & ~low_mask(lsb);
}

bool ReductionTableStimulus::key_in_use(const pkt::Header& k, unsigned kind) const {
  for (const auto& [id, j] : jobs_) {
    if (j.key.rgn != k.rgn || j.key.addr != k.addr) continue;
    // Push and pull keys differ in kind; pull keys also in requester and counter.
    const bool j_push = j.kind == 0 || (j.kind == 3 && j.key.op == uint8_t(pkt::Op::push));
    const bool k_push = kind == 0 || (kind == 3 && k.op == uint8_t(pkt::Op::push));
    if (j_push != k_push) continue;
    if (j_push || (j.key.dst == k.dst && j.key.ctr == k.ctr)) return true;
  }
  return false;
}

Packet ReductionTableStimulus::contribution(const Job& j, uint8_t op, unsigned count) {
  Packet pk;
  pk.h = j.key;
  pk.h.op = op;
  pk.h.count = uint8_t(count);
  if (op == uint8_t(pkt::Op::pull_rsp)) {
    pk.h.src = uint8_t(pick(1, 255));  // a responder (the table's own packets carry src 0)
    pk.h.dst = j.key.dst;              // the requester
  } else {
    pk.h.src = uint8_t(pick(0, 255));
    pk.h.dst = uint8_t(pick(0, 255));
  }
  if (op == uint8_t(pkt::Op::push)) pk.h.ctr = uint8_t(pick(0, 255));
  const unsigned dt = j.key.dtype, lw = dt == 2 ? 32 : 16, lanes = p_.flit_w / lw;
  // The count this contribution stands for may add up to count * K, K the
  // largest |k| per GPU that keeps every partial sum of the job exact.
  const unsigned expect = std::max<unsigned>(j.kind == 0 ? j.key.expect : j.need, 1);
  const int64_t kmax = int64_t(((uint64_t{1} << fmt_precision(dt)) - 1) / expect) * count;
  for (unsigned f = 0; f < j.key.len; ++f) {
    Wide w;
    for (unsigned l = 0; l < lanes; ++l) {
      const int s = j.scale[(f * lanes + l) % j.scale.size()];
      int64_t k = std::uniform_int_distribution<int64_t>(-kmax, kmax)(rng_);
      if (u() < 0.05) k = u() < 0.5 ? kmax : -kmax;
      w.set_lane(l * lw, lw, exact_value(dt, k, s, u() < 0.5));
    }
    pk.data.push_back(w);
  }
  if (u() < 0.05) pk.h.red_op = 0;  // (kept 0: add)
  return pk;
}

namespace {
// n random positive parts summing to total.
std::vector<unsigned> split(unsigned total, unsigned n, std::mt19937_64& rng) {
  n = std::max(1u, std::min(n, total));
  std::vector<unsigned> cut;
  std::vector<unsigned> all(total - 1);
  for (unsigned i = 0; i + 1 < total; ++i) all[i] = i + 1;
  std::shuffle(all.begin(), all.end(), rng);
  cut.assign(all.begin(), all.begin() + (n - 1));
  std::sort(cut.begin(), cut.end());
  std::vector<unsigned> parts;
  unsigned prev = 0;
  for (unsigned c : cut) {
    parts.push_back(c - prev);
    prev = c;
  }
  parts.push_back(total - prev);
  return parts;
}
}  // namespace

ReductionTableStimulus::Job ReductionTableStimulus::make_push_job() {
  Job j;
  j.kind = 0;
  pkt::Header& k = j.key;
  do {
    k = pkt::Header{};
    k.op = uint8_t(pkt::Op::push);
    k.rgn = uint8_t(pick(0, 255));
    k.addr = random_addr();
  } while (key_in_use(k, 0));
  k.dtype = uint8_t(pick(0, 2));
  k.len = uint8_t(u() < 0.3 ? p_.max_len : pick(1, p_.max_len));
  const double r = u();
  k.expect = uint8_t(r < 0.7 ? pick(2, 8) : r < 0.8 ? 1 : r < 0.95 ? pick(9, 64) : pick(65, 255));
  k.home = uint8_t(pick(0, 255));
  k.hit = true;
  j.need = k.expect;
  const unsigned lanes = p_.flit_w / (k.dtype == 2 ? 32 : 16);
  const int smin = fmt_scale_min(k.dtype), smax = fmt_scale_max(k.dtype);
  j.scale.resize(lanes * k.len);
  for (int& s : j.scale) {
    const double q = u();
    s = q < 0.1 ? int(pick(0, 3)) + smin : q < 0.2 ? smax - int(pick(0, 3)) : int(pick(0, 8)) - 12;
    s = std::clamp(s, smin, smax);
  }
  const unsigned n = k.expect <= 8 ? unsigned(pick(1, k.expect)) : unsigned(pick(1, 12));
  for (unsigned c : split(k.expect, n, rng_)) j.req.push_back(contribution(j, uint8_t(pkt::Op::push), c));
  return j;
}

ReductionTableStimulus::Job ReductionTableStimulus::make_pull_job(bool bypass) {
  Job j;
  j.kind = bypass ? 2 : 1;
  pkt::Header& k = j.key;
  do {
    k = pkt::Header{};
    k.op = uint8_t(pkt::Op::pull);
    k.rgn = uint8_t(pick(0, 255));
    k.addr = random_addr();
    k.dst = uint8_t(pick(0, 255));  // the requester (the responses' dst)
    k.ctr = uint8_t(pick(0, 255));
  } while (key_in_use(k, 1));
  k.dtype = uint8_t(pick(0, 2));
  k.len = uint8_t(pick(1, p_.max_len));
  k.expect = uint8_t(u() < 0.9 ? pick(2, 12) : pick(13, 255));
  k.home = uint8_t(pick(0, 255));
  k.hit = true;
  const unsigned c0 = unsigned(pick(0, 1));
  j.need = k.expect - c0;
  const unsigned lanes = p_.flit_w / (k.dtype == 2 ? 32 : 16);
  j.scale.resize(lanes * k.len);
  for (int& s : j.scale) s = std::clamp(int(pick(0, 16)) - 8, fmt_scale_min(k.dtype), fmt_scale_max(k.dtype));
  if (!bypass) {
    Packet pl;
    pl.h = k;
    pl.h.src = k.dst;  // the PULL comes from the requester
    pl.h.dst = uint8_t(pick(0, 255));
    pl.h.count = uint8_t(c0);
    j.req.push_back(pl);
  }
  const unsigned n = unsigned(pick(1, std::min<unsigned>(j.need, 10)));
  for (unsigned c : split(j.need, n, rng_)) j.rsp.push_back(contribution(j, uint8_t(pkt::Op::pull_rsp), c));
  return j;
}

void ReductionTableStimulus::make_probe() {
  Job j;
  j.kind = 3;
  const unsigned what = unsigned(pick(0, pull_phase_ ? 4 : 1));
  pkt::Header& k = j.key;
  do {
    k = pkt::Header{};
    k.op = what < 2 ? uint8_t(pkt::Op::push) : uint8_t(pkt::Op::pull);
    k.rgn = uint8_t(pick(0, 255));
    k.addr = random_addr();
    k.dst = uint8_t(pick(0, 255));
    k.ctr = uint8_t(pick(0, 255));
  } while (key_in_use(k, 3));
  k.dtype = uint8_t(pick(0, 2));
  k.len = uint8_t(pick(1, p_.max_len));
  k.expect = 3;
  k.home = uint8_t(pick(0, 255));
  k.hit = true;
  j.need = 3;
  j.scale.assign(p_.flit_w / 16 * k.len, 0);
  ++cov_.probes;
  probe_keys_.push_back(k);
  const uint64_t id = next_id_++;
  if (what == 0) {  // a PUSH whose second differs in len, dtype, expect or home
    Packet a = contribution(j, uint8_t(pkt::Op::push), 1), b = contribution(j, uint8_t(pkt::Op::push), 1);
    const unsigned d = unsigned(pick(0, 3));
    if (d == 0 && p_.max_len > 1) {
      b.h.len = uint8_t(k.len == 1 ? 2 : k.len - 1);
      b.data.resize(b.h.len, b.data[0]);
    } else if (d == 1 || d == 0) {
      b.h.dtype = uint8_t((k.dtype + 1) % 3);
    } else if (d == 2) {
      b.h.expect = 4;
    } else {
      b.h.home = uint8_t(k.home + 1);
    }
    push_req(a, id);
    push_req(b, id);
  } else if (what == 1) {  // counts 2 and 2 of 3
    push_req(contribution(j, uint8_t(pkt::Op::push), 2), id);
    push_req(contribution(j, uint8_t(pkt::Op::push), 2), id);
  } else {
    Packet pl;
    pl.h = k;
    pl.h.src = k.dst;
    pl.h.count = 1;  // waits for 2
    push_req(pl, id);
    if (what == 2) {  // the same PULL twice
      push_req(pl, id);
    } else if (what == 3) {  // responses 1 then 2 of 2
      rsp_.push(contribution(j, uint8_t(pkt::Op::pull_rsp), 1));
      rsp_.push(contribution(j, uint8_t(pkt::Op::pull_rsp), 2));
    } else {  // responses of two lengths (or two types)
      Packet a = contribution(j, uint8_t(pkt::Op::pull_rsp), 1);
      Packet b = contribution(j, uint8_t(pkt::Op::pull_rsp), 1);
      if (p_.max_len > 1) {
        b.h.len = uint8_t(k.len == 1 ? 2 : k.len - 1);
        b.data.resize(b.h.len, b.data[0]);
      } else {
        b.h.dtype = uint8_t((k.dtype + 1) % 3);
      }
      rsp_.push(a);
      rsp_.push(b);
    }
  }
  jobs_.emplace(id, std::move(j));
}

Packet ReductionTableStimulus::malformed_packet(bool& rsp) {
  Packet pk;
  pkt::Header& h = pk.h;
  const unsigned cause = unsigned(pick(1, 8));
  ++cov_.malformed[cause];
  rsp = u() < 0.5;
  const uint8_t ok_op = rsp ? uint8_t(pkt::Op::pull_rsp)
                            : (u() < 0.5 ? uint8_t(pkt::Op::push) : uint8_t(pkt::Op::pull));
  h.op = ok_op;
  h.dtype = uint8_t(pick(0, 2));
  h.len = uint8_t(pick(1, p_.max_len));
  h.src = uint8_t(rng_());
  h.dst = uint8_t(rng_());
  h.count = 1;
  h.ctr = uint8_t(rng_());
  h.addr = random_addr();
  h.rgn = uint8_t(rng_());
  h.expect = uint8_t(pick(2, 255));
  h.home = uint8_t(rng_());
  h.hit = true;
  switch (cause) {
    case 1: {
      const uint8_t bad[] = {0x0, 0x5, 0x6, 0x7, 0xD, 0xE, 0xF};
      h.op = bad[pick(0, 6)];
      h.len = uint8_t(pick(0, p_.max_len + 2));
      break;
    }
    case 2:
      h.len = u() < 0.3 ? 0 : u() < 0.03 ? 255 : uint8_t(p_.max_len + pick(1, 4));
      if (h.len == 255) ++cov_.long_drops;
      break;
    case 3: h.red_op = uint8_t(pick(1, 3)); break;
    case 4: h.dtype = 3; break;
    case 5: h.addr |= pick(1, p_.flit_w / 8 - 1); break;
    case 6: {
      const uint8_t req_bad[] = {0x1, 0x2, 0x8, 0x9, 0xA, 0xB, 0xC};
      const uint8_t rsp_bad[] = {0x1, 0x2, 0x3, 0x4, 0x8, 0x9, 0xB, 0xC};
      h.op = rsp ? rsp_bad[pick(0, 7)] : req_bad[pick(0, 6)];
      break;
    }
    case 7: h.hit = false; break;
    case 8:
      if (h.op == uint8_t(pkt::Op::push)) {
        const unsigned w = unsigned(pick(0, 2));
        if (w == 0) h.count = 0;
        else if (w == 1) { h.expect = uint8_t(pick(1, 254)); h.count = uint8_t(h.expect + pick(1, 255 - h.expect)); }
        else { h.expect = 0; h.count = uint8_t(pick(0, 3)); }
      } else if (h.op == uint8_t(pkt::Op::pull)) {
        h.expect = uint8_t(pick(0, 8));
        h.count = uint8_t(pick(h.expect, 255));
      } else {
        h.count = 0;
      }
      break;
  }
  const unsigned data = pkt::wire_flits(h) - 1;
  for (unsigned i = 0; i < data; ++i) {
    Wide w;
    for (auto& x : w.w) x = rng_();
    pk.data.push_back(w);
  }
  return pk;
}

void ReductionTableStimulus::program_timeout(uint32_t v) {
  timeout_ = v;
  apb_.write(T3_REDUCTION_TABLE_A_TIMEOUT, v);
}

void ReductionTableStimulus::program_ctrl(bool enable, bool pull_pass) {
  enable_ = enable;
  pull_pass_ = pull_pass;
  apb_.write(T3_REDUCTION_TABLE_A_CTRL, (enable ? T3_REDUCTION_TABLE_R_CTRL_ENABLE_MASK : 0) |
                                            (pull_pass ? T3_REDUCTION_TABLE_R_CTRL_PULL_PASS_MASK : 0));
}

void ReductionTableStimulus::clear_all() {
  for (auto& [id, j] : jobs_)
    if (j.kind != 3) ++cov_.jobs_voided;
  jobs_.clear();
  probe_keys_.clear();
  req_.clear();
  rsp_.clear();
  req_ids_.clear();
  req_mon_.clear();
  out_.clear();
  apb_.clear();
}

void ReductionTableStimulus::new_phase(bool first) {
  ++cov_.phases;
  draining_ = flushed_ = false;
  quiet_ = 0;
  phase_left_ = pick(opt_.phase_min, opt_.phase_max);
  // The phase's timeout, its kind in turn (so that a run meets each):
  // small, off, tiny, medium, the largest, beyond TIMEOUT_W (refused: off,
  // STATUS.CFG_ERROR), each value random within its kind.
  const uint64_t tmax = low_mask(p_.timeout_w);
  uint32_t t;
  switch (cov_.phases % 6) {
    case 0: t = uint32_t(std::min<uint64_t>(tmax, pick(5, 60))); break;
    case 1: t = 0; break;
    case 2: t = uint32_t(std::min<uint64_t>(tmax, pick(1, 4))); break;
    case 3: t = uint32_t(std::min<uint64_t>(tmax, pick(61, 3000))); break;
    case 4: t = uint32_t(u() < 0.5 || tmax <= 3000 ? tmax : pick(3000, tmax)); break;
    default: t = p_.timeout_w == 32 ? uint32_t(pick(5, 60)) : uint32_t(tmax + 1 + pick(0, 1000)); break;
  }
  const bool bad = p_.timeout_w < 32 && t > tmax;
  cov_.cfg_errors += bad;
  cov_.timeouts_off += t == 0;
  cov_.timeouts_small += t > 0 && t <= 4;
  pull_phase_ = t != 0 && !bad;
  const bool pp = cov_.phases % 4 == 3;
  cov_.pull_pass += pp;
  if (first) reset_left_ = 2;
  // A reset in the middle of the traffic: in every fifth phase for certain
  // (a run of a million cycles has about twenty phases, so a seed cannot
  // miss it), in the others by chance.
  mid_reset_at_ = phase_left_ > 1 && (cov_.phases % 5 == 2 || u() < opt_.p_reset) ? pick(1, phase_left_ - 1) : 0;
  program_timeout(t);
  program_ctrl(true, pp);
}

bool ReductionTableStimulus::drained() const {
  if (!draining_ && !stopped_) return false;
  if (!req_.idle() || !rsp_.idle() || !apb_.idle()) return false;
  for (const auto& [id, j] : jobs_)
    if (j.kind != 3 && (j.out_count != j.need || !j.req.empty() || !j.rsp.empty())) return false;
  return true;
}

void ReductionTableStimulus::open_jobs() {
  if (draining_ || stopped_) return;
  unsigned push = 0, pull = 0;
  for (const auto& [id, j] : jobs_) {
    push += j.kind == 0;
    pull += j.kind == 1 || j.kind == 2;
  }
  const unsigned want_push = unsigned(opt_.push_jobs_per_entry * p_.entries + 0.5);
  while (push < want_push) {
    jobs_.emplace(next_id_++, make_push_job());
    ++push;
    ++cov_.push_jobs;
  }
  while (pull_phase_ && pull < opt_.pull_jobs) {
    const bool bypass = u() < opt_.p_bypass_job;
    jobs_.emplace(next_id_++, make_pull_job(bypass));
    ++pull;
    ++(bypass ? cov_.bypass_jobs : cov_.pull_jobs);
  }
  cov_.max_open = std::max<uint64_t>(cov_.max_open, jobs_.size());
}

// Keeps a little queued on each stream, from a random job that has
// something to send (or a malformed packet, or a probe pair).
void ReductionTableStimulus::feed() {
  const unsigned low = p_.max_len + 1;
  if (req_.queued_flits() < low) {
    bool rsp = false;
    if (!draining_ && !stopped_ && u() < opt_.p_malformed) {
      Packet pk = malformed_packet(rsp);
      if (rsp) rsp_.push(pk);
      else push_req(pk, 0);
    } else if (!draining_ && !stopped_ && u() < opt_.p_probe) {
      make_probe();
    } else {
      std::vector<uint64_t> ready;
      for (const auto& [id, j] : jobs_)
        if (!j.req.empty()) ready.push_back(id);
      if (!ready.empty()) {
        const uint64_t id = ready[pick(0, ready.size() - 1)];
        Job& j = jobs_.at(id);
        push_req(j.req.front(), id);
        if (j.kind == 1 && j.req.front().h.op == uint8_t(pkt::Op::pull)) j.pull_queued = true;
        j.req.pop_front();
      }
    }
  }
  if (rsp_.queued_flits() < low) {
    std::vector<uint64_t> ready;
    for (const auto& [id, j] : jobs_)
      if (!j.rsp.empty() && (j.kind == 2 || (j.pull_taken && int64_t(cycle_) >= j.release_at)))
        ready.push_back(id);
    if (!ready.empty()) {
      Job& j = jobs_.at(ready[pick(0, ready.size() - 1)]);
      rsp_.push(j.rsp.front());
      j.rsp.pop_front();
    }
  }
}

void ReductionTableStimulus::drive(ReductionTableInputs& in) {
  at_rest_ = false;
  // A reset: two cycles, everything in flight gone; the registers back at
  // their reset values, the phase's programmed again.
  if (reset_left_ > 0) {
    in = ReductionTableInputs{};
    in.rst_n = false;
    if (--reset_left_ == 0) {
      clear_all();
      program_timeout(timeout_);
      program_ctrl(enable_, pull_pass_);
    }
    ++cycle_;
    return;
  }
  in.rst_n = true;
  if (!draining_ && !stopped_) {
    if (phase_left_ > 0) --phase_left_;
    if (phase_left_ == 0) {
      // The phase's end: drain, flushing the table from the start (a PULL
      // waiting for an entry holds req_in until one times out).
      draining_ = true;
      program_timeout(1);
      program_ctrl(true, pull_pass_);
      disable_left_ = 0;
    } else if (mid_reset_at_ > 0 && --mid_reset_at_ == 0) {
      ++cov_.resets;
      reset_left_ = 1;
      in = ReductionTableInputs{};
      in.rst_n = false;
      ++cycle_;
      return;
    } else if (apb_.idle() && u() < opt_.p_regs) {
      const double r = u();
      if (r < 0.3) {
        disable_left_ = pick(1, 300);
        ++cov_.disables;
        program_ctrl(false, pull_pass_);
      } else if (r < 0.6) {
        program_ctrl(enable_, !pull_pass_);
      } else if (pull_phase_) {
        program_timeout(uint32_t(std::min<uint64_t>(low_mask(p_.timeout_w), pick(1, 200))));
      }
    }
    if (disable_left_ > 0 && --disable_left_ == 0) program_ctrl(true, pull_pass_);
  }
  if ((draining_ || stopped_) && !flushed_ && apb_.idle()) {
    flushed_ = true;
    if (timeout_ != 1) program_timeout(1);
    // A stop inside a window of CTRL.ENABLE off: the countdown above no
    // longer runs, so the drain enables the table itself (seed 102 of the
    // small configuration drained nothing for 100,000 cycles before this).
    if (!enable_) program_ctrl(true, pull_pass_);
    disable_left_ = 0;
  }
  open_jobs();
  feed();
  req_.drive(in.req_in_valid, in.req_in_flit, rng_, opt_.p_gap);
  rsp_.drive(in.rsp_in_valid, in.rsp_in_flit, rng_, opt_.p_gap);
  // Back-pressure on out: stretches of out_ready_i low, else random.
  if (stall_left_ == 0 && !draining_ && !stopped_ && u() < opt_.p_out_stall) {
    stall_left_ = pick(1, opt_.out_stall_max);
    ++cov_.out_stalls;
  }
  if (stall_left_ > 0) {
    --stall_left_;
    in.out_ready = false;
  } else {
    in.out_ready = draining_ || stopped_ ? u() < 0.95 : u() < opt_.p_out_ready;
  }
  apb_.drive(in.apb, in.rst_n);
  ++cycle_;
}

void ReductionTableStimulus::account(const Packet& o) {
  const bool pull = o.h.op == uint8_t(pkt::Op::pull_rsp);
  for (auto& [id, j] : jobs_) {
    const bool j_pull = j.kind == 1 || j.kind == 2 || (j.kind == 3 && j.key.op == uint8_t(pkt::Op::pull));
    if (j_pull != pull || j.key.rgn != o.h.rgn || j.key.addr != o.h.addr) continue;
    if (pull && (j.key.dst != o.h.dst || j.key.ctr != o.h.ctr)) continue;
    j.out_count += o.h.count;
    if (j.kind != 3 && j.out_count == j.need && j.req.empty() && j.rsp.empty()) {
      ++cov_.jobs_done;
      jobs_.erase(id);
    }
    return;
  }
}

void ReductionTableStimulus::after(const ReductionTableInputs& in, const ReductionTableOutputs& out) {
  if (!in.rst_n) return;
  std::ostringstream sink;
  req_.after(in.req_in_valid, out.req_in_ready);
  rsp_.after(in.rsp_in_valid, out.rsp_in_ready);
  if (auto pk = req_mon_.observe("req_in", in.req_in_valid, out.req_in_ready, in.req_in_flit, sink)) {
    const uint64_t id = req_ids_.empty() ? 0 : req_ids_.front();
    if (!req_ids_.empty()) req_ids_.pop_front();
    auto it = jobs_.find(id);
    if (it != jobs_.end() && it->second.kind == 1 && pk->h.op == uint8_t(pkt::Op::pull)) {
      it->second.pull_taken = true;
      it->second.release_at = int64_t(cycle_ + pick(2, 40));
    }
  }
  if (auto pk = out_.observe("out", out.out_valid, in.out_ready, out.out_flit, sink)) account(*pk);
  apb_.after(in.apb, out.apb);
  // The drain's end: everything out, then some quiet cycles (the last
  // output's counters), then the next phase.
  if (draining_ && !stopped_ && drained() && !out.out_valid) {
    if (++quiet_ >= 64) {
      at_rest_ = true;
      for (auto it = jobs_.begin(); it != jobs_.end();) it = it->second.kind == 3 ? jobs_.erase(it) : ++it;
      new_phase(false);
    }
  } else {
    quiet_ = 0;
  }
}

}  // namespace t3::tb
