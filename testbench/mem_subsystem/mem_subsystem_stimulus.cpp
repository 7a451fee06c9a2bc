#include "mem_subsystem_stimulus.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

#include "common/bits.h"
#include "common/tile_map.h"
#include "t3/collectives.h"

namespace t3::tb {
namespace {

constexpr t3_windows kWindows = T3_MEM_SUBSYSTEM_WINDOWS;

uint64_t pick(std::mt19937_64& rng, uint64_t lo, uint64_t hi) {
  return std::uniform_int_distribution<uint64_t>(lo, hi)(rng);
}

bool coin(std::mt19937_64& rng, double p) { return std::uniform_real_distribution<double>(0, 1)(rng) < p; }

TileMap tiles_of(const t3_buffer& b, const t3_chunk& ch) {
  TileMap t;
  t.base = b.addr;
  t.m = b.m;
  t.first_col = ch.col0;
  t.cols = ch.cols;
  t.elem_bytes = b.elem_bytes;
  t.wg_rows = b.wg_rows;
  t.wg_cols = b.wg_cols;
  t.wfs_per_wg = b.wfs_per_wg;
  return t;
}

}  // namespace

const char* to_string(Collective c) {
  switch (c) {
    case Collective::ring_rs: return "ring-rs";
    case Collective::direct_rs: return "direct-rs";
    case Collective::ring_ag: return "all-gather";
    case Collective::all_to_all: return "all-to-all";
  }
  return "?";
}

std::optional<Collective> collective_from(const std::string& name) {
  for (Collective c : {Collective::ring_rs, Collective::direct_rs, Collective::ring_ag, Collective::all_to_all})
    if (name == to_string(c)) return c;
  return std::nullopt;
}

t3_hw hw_of(const MemSubsystemParams& p) {
  t3_hw h{};
  h.sets = p.sets;
  h.ways = p.ways;
  h.tracker_addr_w = p.addr_w;
  h.cnt_w = p.cnt_w;
  h.upe_w = p.tracker().upe_w;
  h.entries = p.entries;
  h.slots = p.slots;
  h.max_burst_log2 = p.max_burst_log2;
  h.dma_addr_w = p.addr_w;
  h.gpu_w = p.gpu_w;
  h.dim_w = p.dim_w;
  h.occ_w = p.occ_w();
  h.mca_cnt_w = p.mca_arbiter().cnt_w;
  h.learn_w = p.mca_arbiter().learn_w;
  h.burst_bytes = p.burst_bytes;
  return h;
}

t3_mca MemPhase::default_mca(const MemSubsystemParams& p) {
  const uint32_t depth = std::min(p.queue_depth, 32u);
  auto scaled = [&](uint32_t v) { return std::max<uint32_t>(1, v * depth / 32); };
  t3_mca m{};
  m.policy = 2;
  m.thr_auto = 1;
  m.thr_sel = 3;
  m.level[0] = scaled(5);
  m.level[1] = scaled(10);
  m.level[2] = scaled(30);
  m.bound[0] = std::min(scaled(20), p.queue_depth);
  m.bound[1] = scaled(10);
  m.bound[2] = scaled(3);
  m.learn_log2 = std::min(8u, p.mca_arbiter().learn_w);
  m.starve_limit = 64;
  return m;
}

int MemPhase::map(t3_ctx& c) const {
  const int e = t3_mca_setup(&c, &mca);
  if (e) return e;
  switch (coll) {
    case Collective::ring_rs: return t3_ring_reduce_scatter(&c, &buf, peer_addr.data(), tiles_per_block);
    case Collective::direct_rs: return t3_direct_reduce_scatter(&c, &buf, peer_addr.data());
    case Collective::ring_ag: return t3_ring_all_gather(&c, &buf, peer_addr.data(), tiles_per_block);
    case Collective::all_to_all: return t3_all_to_all(&c, &buf, peer_addr.data());
  }
  return T3_E_ARG;
}

std::string MemPhase::describe() const {
  std::ostringstream s;
  s << to_string(coll) << " on GPU " << gpu << " of " << gpus << ": " << buf.m << " x " << buf.n
    << " " << (fmt == 0 ? "fp16" : fmt == 1 ? "bf16" : "fp32") << " at 0x" << std::hex << buf.addr
    << std::dec << ", WG tile " << buf.wg_rows << " x " << buf.wg_cols << " of " << buf.wfs_per_wg
    << " WFs, " << tiles_per_block << " tile(s) a DMA block, bursts of " << (1u << burst_log2) << " B";
  return s.str();
}

MemPhase MemPhase::random(const MemSubsystemParams& p, std::mt19937_64& rng) {
  const t3_hw hw = hw_of(p);
  // The DRAM array holds this many bytes (higher address bits alias).
  const uint64_t span = uint64_t(p.burst_bytes) * p.bg << p.bank_addr_w;
  const uint64_t dim_max = low_mask(p.dim_w);
  for (int attempt = 0; attempt < 10000; ++attempt) {
    MemPhase ph;
    ph.coll = Collective(pick(rng, 0, 3));
    ph.gpus = uint32_t(pick(rng, 2, std::min<uint64_t>(4, uint64_t(1) << p.gpu_w)));
    ph.gpu = uint32_t(pick(rng, 0, ph.gpus - 1));
    ph.fmt = uint32_t(pick(rng, 0, 2));
    t3_buffer& b = ph.buf;
    b.elem_bytes = ph.fmt == 2 ? 4 : 2;
    b.wfs_per_wg = 1u << pick(rng, 0, std::min<uint64_t>(3, clog2(p.ways)));
    b.wg_cols = b.wfs_per_wg << pick(rng, 0, 2);
    b.wg_rows = 1u << pick(rng, 1, 5);
    b.m = b.wg_rows * uint32_t(pick(rng, 1, 8));
    b.n = ph.gpus * b.wg_cols * uint32_t(pick(rng, 1, 3));
    if (b.m > dim_max || b.wg_rows > dim_max) continue;
    const uint64_t bytes = uint64_t(b.m) * b.n * b.elem_bytes;
    // The buffer, then (all-to-all) the receive buffer, then other traffic's.
    ph.scratch_bytes = 8 * uint64_t(p.burst_bytes);
    if (3 * bytes + ph.scratch_bytes > span) continue;
    b.addr = pick(rng, 0, (span - 3 * bytes - ph.scratch_bytes) / p.burst_bytes) * p.burst_bytes;
    ph.scratch = b.addr + 2 * bytes;
    // Peers' buffers are only DMA destinations: anywhere the address width allows.
    ph.peer_addr.resize(ph.gpus);
    for (uint32_t g = 0; g < ph.gpus; ++g)
      ph.peer_addr[g] = g == ph.gpu ? (ph.coll == Collective::all_to_all ? b.addr + bytes : b.addr)
                                    : pick(rng, 0, low_mask(p.addr_w) - bytes) & ~uint64_t(b.elem_bytes - 1);
    // Any policy; levels ascending and bounds descending within the queue.
    t3_mca& m = ph.mca;
    m = default_mca(p);
    m.policy = uint32_t(pick(rng, 0, 2));
    m.thr_auto = uint32_t(pick(rng, 0, 1));
    m.thr_sel = uint32_t(pick(rng, 0, 3));
    for (int i = 0; i < 3; ++i) m.level[i] = uint32_t(pick(rng, 1, p.queue_depth));
    std::sort(m.level, m.level + 3);
    for (int i = 0; i < 3; ++i) m.bound[i] = uint32_t(pick(rng, 0, p.queue_depth));
    std::sort(m.bound, m.bound + 3, [](uint32_t a, uint32_t b) { return a > b; });
    m.learn_log2 = uint32_t(pick(rng, 2, std::min(8u, p.mca_arbiter().learn_w)));
    m.starve_limit = uint32_t(pick(rng, 0, 200));
    ph.tiles_per_block = uint32_t(pick(rng, 1, std::min<uint64_t>(p.slots, 4)));
    ph.burst_log2 = uint32_t(pick(rng, clog2(b.elem_bytes), std::min<uint64_t>(p.max_burst_log2, 8)));
    t3_ctx c;
    t3_init(&c, &kWindows, ph.gpu, ph.gpus);
    c.hw = hw;
    c.probed = 1;
    t3_set_burst(&c, ph.burst_log2);
    if (ph.map(c) == T3_OK && t3_check(&c) == T3_OK) return ph;
  }
  throw std::invalid_argument("mem_subsystem: no collective fits these parameters");
}

MemPhase MemPhase::gemm(const MemSubsystemParams& p, Collective coll, uint32_t gpu, uint32_t gpus,
                        uint32_t m, uint32_t n) {
  MemPhase ph;
  ph.coll = coll;
  ph.gpu = gpu;
  ph.gpus = gpus;
  t3_buffer& b = ph.buf;
  b.addr = 0x100000;
  b.m = m;
  b.n = n;
  b.elem_bytes = 2;
  b.wg_rows = 64;
  b.wg_cols = 64;
  b.wfs_per_wg = 8;  // T3 §4.2.1
  const uint64_t bytes = uint64_t(m) * n * b.elem_bytes;
  for (uint32_t g = 0; g < gpus; ++g)
    ph.peer_addr.push_back(g == gpu ? (coll == Collective::all_to_all ? b.addr + bytes : b.addr)
                                    : (uint64_t(g + 1) << 36) + b.addr);
  ph.scratch = b.addr + 2 * bytes;
  ph.scratch_bytes = 64 * uint64_t(p.burst_bytes);
  ph.tiles_per_block = 1;
  ph.burst_log2 = 6;
  ph.mca = default_mca(p);
  return ph;
}

bool MemPhase::fits(const MemSubsystemParams& p) const {
  const uint64_t span = uint64_t(p.burst_bytes) * p.bg << p.bank_addr_w;
  return scratch + scratch_bytes <= span;
}

// ------------------------------------------------------------------ traffic

void MemSubsystemStimulus::Stream::pop() {
  if (++next >= stages[stage].size()) {
    next = 0;
    ++stage;
    while (stage < stages.size() && stages[stage].empty()) ++stage;
  }
}

MemRequest MemSubsystemStimulus::burst_write(uint64_t addr, uint32_t elems, uint32_t op,
                                             uint32_t wg, uint32_t wf, uint32_t src) {
  MemRequest r;
  r.op = op;
  r.fmt = ph_.fmt;
  r.addr = addr;
  r.wg = wg;
  r.wf = wf;
  r.size = elems;
  r.src = src;
  const unsigned off = unsigned(addr % p_.burst_bytes);
  for (unsigned b = 0; b < elems * ph_.buf.elem_bytes; ++b) {
    const unsigned i = off + b;
    r.mask.set_byte(i / 8, uint8_t(r.mask.byte(i / 8) | (1u << (i % 8))));
  }
  for (unsigned w = 0; w < p_.burst_bytes / 8; ++w) r.data.w[w] = rng_();
  return r;
}

// A chunk's WF tiles, each column segment cut at burst boundaries; a WG's
// WFs take turns (they store in lockstep); WGs in order, or reversed (a
// peer produced its copy in its own order, T3 Fig. 7).
void MemSubsystemStimulus::add_tile_writes(std::vector<MemRequest>& out, const t3_chunk& ch,
                                           uint32_t wg_base, uint32_t op, uint32_t src,
                                           bool reverse) {
  const TileMap tm = tiles_of(ph_.buf, ch);
  const uint32_t eb = ph_.buf.elem_bytes, wgs = tm.wgs();
  const uint32_t id_mask = uint32_t(low_mask(p_.wg_id_w));
  for (uint32_t i = 0; i < wgs; ++i) {
    const uint32_t wg = reverse ? wgs - 1 - i : i;
    std::vector<std::vector<MemRequest>> per_wf(tm.wfs_per_wg);
    for (uint32_t wf = 0; wf < tm.wfs_per_wg; ++wf)
      for (uint32_t c = 0; c < tm.wf_cols(); ++c)
        for (uint32_t r = 0; r < tm.wg_rows;) {
          const uint64_t a = tm.addr(tm.row0(wg) + r, tm.col0(wg, wf) + c);
          const uint32_t room = uint32_t((p_.burst_bytes - a % p_.burst_bytes) / eb);
          const uint32_t n = std::min(room, tm.wg_rows - r);
          per_wf[wf].push_back(burst_write(a, n, op, (wg_base + wg) & id_mask, wf, src));
          r += n;
        }
    for (size_t k = 0; k < per_wf[0].size(); ++k)
      for (uint32_t wf = 0; wf < tm.wfs_per_wg; ++wf)
        if (k < per_wf[wf].size()) out.push_back(per_wf[wf][k]);
  }
}

MemSubsystemStimulus::MemSubsystemStimulus(const MemSubsystemParams& p, const MemPhase& ph,
                                           const t3_ctx& cfg, const MemTraffic& t, uint64_t seed)
    : p_(p), ph_(ph), t_(t), rng_(seed) {
  const uint32_t add = uint32_t(MemOp::add), store = uint32_t(MemOp::store);
  std::vector<const t3_map*> maps;
  for (uint32_t i = 0; i < cfg.n_maps; ++i) maps.push_back(&cfg.maps[i]);
  std::sort(maps.begin(), maps.end(), [](const t3_map* a, const t3_map* b) { return a->stage < b->stage; });
  uint32_t wg_base = 0;
  for (const t3_map* m : maps) {
    const uint32_t wgs = tiles_of(ph_.buf, m->chunk).wgs();
    if (m->kind == T3_MAP_REMOTE) {
      // The producer writes this chunk straight into the peer's memory.
      n_remote_ += uint64_t(wgs) * ph_.buf.wfs_per_wg;
      continue;
    }
    local_.stages.emplace_back();
    peer_.stages.emplace_back();
    switch (ph_.coll) {
      case Collective::ring_rs:  // the local partial sum and GPU g+1's
        add_tile_writes(local_.stages.back(), m->chunk, wg_base, add, 0, false);
        add_tile_writes(peer_.stages.back(), m->chunk, wg_base, add, m->stage == 2 ? 1 : 2, true);
        break;
      case Collective::direct_rs:  // the local partial sum and every peer's, stored remotely
        add_tile_writes(local_.stages.back(), m->chunk, wg_base, add, 0, false);
        for (uint32_t g = 1; g < ph_.gpus; ++g)
          add_tile_writes(peer_.stages.back(), m->chunk, wg_base, add, 1, g % 2 == 1);
        break;
      case Collective::ring_ag:  // GPU g+1's copy, forwarded
        add_tile_writes(peer_.stages.back(), m->chunk, wg_base, store, m->stage == 2 ? 1 : 2, true);
        break;
      case Collective::all_to_all:
        break;
    }
    wg_base += wgs;
  }
  if (ph_.coll == Collective::all_to_all) {
    // Nothing tracked: the producer's own chunk stays here; the peers store
    // their chunks for this GPU into its receive buffer.
    const uint32_t cols = ph_.buf.n / ph_.gpus;
    const t3_chunk own{ph_.gpu * cols, cols};
    local_.stages.emplace_back();
    peer_.stages.emplace_back();
    add_tile_writes(local_.stages.back(), own, 0, store, 0, false);
    t3_buffer recv = ph_.buf;
    recv.addr = ph_.peer_addr[ph_.gpu];
    std::swap(ph_.buf, recv);
    for (uint32_t g = 0; g < ph_.gpus; ++g)
      if (g != ph_.gpu) add_tile_writes(peer_.stages.back(), t3_chunk{g * cols, cols}, 0, store, 1, false);
    std::swap(ph_.buf, recv);
  }
  for (Stream* s : {&local_, &peer_})
    while (s->stage < s->stages.size() && s->stages[s->stage].empty()) ++s->stage;
}

MemRequest MemSubsystemStimulus::other_request() {
  MemRequest r;
  const bool read = rng_() & 1;
  r.op = read ? uint32_t(MemOp::read) : uint32_t(MemOp::store);
  r.addr = ph_.scratch + pick(rng_, 0, ph_.scratch_bytes / p_.burst_bytes - 1) * p_.burst_bytes;
  r.wg = uint32_t(rng_() & low_mask(p_.wg_id_w));
  r.wf = uint32_t(rng_() & low_mask(p_.wf_id_w));
  r.size = uint32_t(pick(rng_, 1, p_.burst_bytes / 2));
  for (unsigned w = 0; w < p_.burst_bytes / 8; ++w) r.data.w[w] = rng_();
  for (unsigned b = 0; b < p_.burst_bytes; ++b)
    if (coin(rng_, 0.7)) r.mask.set_byte(b / 8, uint8_t(r.mask.byte(b / 8) | (1u << (b % 8))));
  return r;
}

void MemSubsystemStimulus::drive(MemSubsystemInputs& in) {
  in.learn = !learned_;
  learned_ = true;
  in.drain = local_.done() && !drained_;
  drained_ |= in.drain;

  // The producer: a stage starts once the updates of the stage before last
  // are in.
  if (!cmp_ && coin(rng_, t_.p_local)) {
    if (!local_.done() && coin(rng_, t_.p_other)) {
      cmp_ = other_request();
      cmp_local_ = false;
    } else if (!local_.done() && peer_.stage + 1 >= local_.stage) {
      cmp_ = local_.head();
      cmp_local_ = true;
    }
  }
  in.cmp_valid = cmp_.has_value();
  if (cmp_) in.cmp = *cmp_;

  // The communication stream: the DMA engine's reads and the peers' updates.
  if (!com_) {
    const bool peer_ready = !peer_.done() && cycle_ >= t_.peer_lag && coin(rng_, t_.p_peer);
    if (!reads_.empty() && (!peer_ready || (rng_() & 1))) {
      com_ = reads_.front();
      com_is_read_ = true;
    } else if (peer_ready) {
      com_ = peer_.head();
      com_is_read_ = false;
    }
  }
  in.com_valid = com_.has_value();
  if (com_) in.com = *com_;

  if (busy_left_ > 0) {
    --busy_left_;
    in.desc_ready = false;
  } else if (coin(rng_, t_.p_desc_burst)) {
    busy_left_ = t_.desc_burst_len;
    in.desc_ready = false;
  } else {
    in.desc_ready = coin(rng_, t_.p_desc_ready);
  }
}

void MemSubsystemStimulus::after(const MemSubsystemInputs& in, const MemSubsystemOutputs& out) {
  ++cycle_;
  if (in.cmp_valid && out.cmp_ready) {
    if (cmp_local_) {
      local_.pop();
      ++n_local_;
    } else {
      ++n_other_;
    }
    cmp_.reset();
  }
  if (in.com_valid && out.com_ready) {
    if (com_is_read_) {
      reads_.pop_front();
      ++n_reads_;
    } else {
      peer_.pop();
      ++n_peer_;
    }
    com_.reset();
  }
  // The DMA engine reads every burst of a descriptor it takes, to send it.
  if (out.desc_valid && in.desc_ready) {
    const uint64_t b = p_.burst_bytes;
    for (uint64_t a = out.desc_src / b * b; a < out.desc_src + out.desc_bytes; a += b) {
      MemRequest r;
      r.op = uint32_t(MemOp::read);
      r.addr = a;
      r.src = 2;
      reads_.push_back(r);
    }
  }
}

bool MemSubsystemStimulus::idle() const {
  return local_.done() && peer_.done() && reads_.empty() && !cmp_ && !com_;
}

}  // namespace t3::tb

namespace t3::tb {

std::string MemSubsystemStimulus::describe() const {
  std::ostringstream o;
  auto stream = [&](const char* name, const Stream& st) {
    o << name << " at stage " << st.stage << " of " << st.stages.size();
    if (!st.done()) o << " (" << st.next << " of " << st.stages[st.stage].size() << " writes)";
  };
  stream("producer", local_);
  o << ", ";
  stream("peers", peer_);
  o << ", " << reads_.size() << " DMA reads to issue" << (cmp_ ? ", a compute request offered" : "")
    << (com_ ? ", a communication request offered" : "");
  return o.str();
}

}  // namespace t3::tb
