#include "innet_allreduce.h"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>

#include "common/bits.h"
#include "common/hex.h"
#include "t3/dma_credit_regs.h"
#include "t3/innet_switch_map.h"
#include "t3/mcr_table_regs.h"
#include "t3/reduction_table_regs.h"

namespace t3 {

namespace {
[[noreturn]] void spec_error(const std::string& field, const std::string& what) {
  throw std::invalid_argument("all_reduce: " + field + " " + what);
}
struct Layout {
  uint64_t src, dst, merge, stage;
};
Layout layout(const AllReduceSpec& s) {
  Layout l{0, s.bytes, 2 * s.bytes, 3 * s.bytes};
  if (s.src_addr || s.dst_addr || s.merge_addr) l = Layout{s.src_addr, s.dst_addr, s.merge_addr, l.stage};
  if (s.stage_addr) l.stage = s.stage_addr;
  return l;
}
bool overlap(uint64_t a, uint64_t b, uint64_t n) { return a < b + n && b < a + n; }
}  // namespace

EpWin all_reduce_window(uint64_t net_base, uint64_t bytes, uint64_t src, uint64_t dst, uint64_t merge,
                           unsigned expect, uint8_t dtype, bool home) {
  const std::pair<const char*, uint64_t> wide[] = {{"bytes", bytes}, {"src", src}, {"dst", dst}, {"merge", merge}};
  for (const auto& [n, v] : wide)
    if (v > 0xFFFFFFFFu)
      throw std::invalid_argument(std::string("all_reduce_window: ") + n + " = " + hex(v) +
                                  ": a window's local fields are 32 bits (MEM_BYTES <= 1 GiB)");
  EpWin w;
  w.valid = true;
  w.net_base = net_base;
  w.bytes = bytes;
  w.src = src;
  w.dst = dst;
  w.merge = merge;
  w.expected = uint8_t(expect);
  w.dtype = dtype;
  w.home = home;
  return w;
}

void AllReduceSpec::validate(const InnetFabricConfig& c) const {
  const uint64_t fb = c.ep.flit_w / 8;
  if (dtype > 2) spec_error("dtype", "= " + std::to_string(dtype) + " is out of range; allowed: 0..2 (fp16, bf16, fp32)");
  if (bytes == 0 || bytes % fb || bytes / fb > (uint64_t{1} << 20) - 1)
    spec_error("bytes", "= " + std::to_string(bytes) + ": a positive multiple of " + std::to_string(fb) +
                            ", at most 2^20 - 1 flits (the DMA credit controller's LEN_W)");
  if (pull && c.leaves)
    spec_error("pull", "= 1 on two switch levels: a PULL_RSP is routed by its dst, a port number, right for one switch "
                       "only (docs/innet_fabric.md, \"Two levels\")");
  if (home >= c.gpus) spec_error("home", "= " + std::to_string(home) + " is out of range; allowed: 0.." + std::to_string(c.gpus - 1));
  const uint64_t size = region_size(bytes);
  if (net_base % size || net_base + size > (uint64_t{1} << 48))
    spec_error("net_base", "= " + hex(net_base) + ": a multiple of the region's size " + hex(size) +
                               " (the power of two >= bytes) below 2^48");
  if (straggler >= int(c.gpus)) spec_error("straggler", "= " + std::to_string(straggler) + " is out of range; allowed: -1 (none), 0.." + std::to_string(c.gpus - 1));
  const Layout l = layout(*this);
  // Pull mode adds the requester's own data last; merging into its source
  // would also change what the other GPUs' PULLs read.
  if (pull && overlap(l.src, l.dst, bytes))
    spec_error("dst_addr", "= " + hex(l.dst) + " overlaps src_addr " + hex(l.src) + ": pull mode reduces out of place");
  if (deterministic && pull) spec_error("deterministic", "= 1 with pull = 1: deterministic mode is a push mode");
  const uint64_t stage_end = deterministic ? l.stage + c.gpus * bytes : 0;
  if (std::max({l.src + bytes, l.dst + bytes, l.merge + bytes, stage_end}) > c.ep.mem_bytes)
    spec_error("bytes", "= " + std::to_string(bytes) + ": the buffers end past the endpoint's MEM_BYTES (" +
                            std::to_string(c.ep.mem_bytes) + ")");
}

AllReduceReport run_all_reduce(InnetFabric& f, const AllReduceSpec& s, const std::vector<std::vector<uint8_t>>& in,
                               std::vector<std::vector<uint8_t>>& out) {
  const InnetFabricConfig& c = f.config();
  s.validate(c);
  if (in.size() != c.gpus) spec_error("in", "has " + std::to_string(in.size()) + " buffers; one per GPU: " + std::to_string(c.gpus));
  for (const auto& b : in)
    if (b.size() != s.bytes) spec_error("in", "holds a buffer of " + std::to_string(b.size()) + " bytes; each is bytes = " + std::to_string(s.bytes));
  AllReduceReport r;
  const uint64_t fb = c.ep.flit_w / 8, size = region_size(s.bytes);
  const Layout l = layout(s);
  f.reset();

  // The fabric manager: the region in both region tables of every switch,
  // the root's reduction table's timeout (and PULL_PASS 0: the root is every
  // pull's first hop). One switch: it is the root, its ports the GPUs'. Two
  // levels (docs/innet_fabric.md, "Two levels"): the home GPU's leaf is the
  // root; every other switch sends PUSHes towards it (the spine to the
  // root's port, a leaf up) and multicasts what comes back: a region
  // table's home port is where both PUSHes and PARTIALs go, and only the
  // root's leads to the home GPU.
  const unsigned root = c.gpu_switch(s.home);
  auto sw_write = [&](unsigned sw, const char* blk, uint32_t base, uint32_t a, uint32_t d) {
    if (!f.switch_write(base + a, d, sw))
      throw std::logic_error("all_reduce: switch " + std::to_string(sw) + " refused a write to " + blk + " " + hex(a));
    r.setup.push_back("switch" + std::to_string(sw) + "." + blk + "+" + hex(a) + " = " + hex(d));
  };
  for (unsigned sw = 0; sw < c.switches(); ++sw) {
    uint32_t ports, home;
    if (!c.leaves) {
      ports = uint32_t(low_mask(c.gpus));
      home = s.home;
    } else if (sw < c.leaves) {
      const unsigned up = c.per_leaf();
      ports = uint32_t(low_mask(c.per_leaf())) | 1u << up;
      home = sw == root ? c.gpu_port(s.home) : up;
    } else {
      ports = uint32_t(low_mask(c.leaves));
      home = c.gpu_switch(s.home);
    }
    const bool reduces = sw == root && !s.deterministic;
    for (auto [blk, base] : {std::pair<const char*, uint32_t>{"mcr_in", T3_INNET_SWITCH_MCR_IN_BASE},
                             std::pair<const char*, uint32_t>{"mcr_out", T3_INNET_SWITCH_MCR_OUT_BASE}}) {
      sw_write(sw, blk, base, T3_MCR_TABLE_A_RGN_IDX, 0);
      sw_write(sw, blk, base, T3_MCR_TABLE_A_RGN_BASE_LO, uint32_t(s.net_base));
      sw_write(sw, blk, base, T3_MCR_TABLE_A_RGN_BASE_HI, uint32_t(s.net_base >> 32));
      sw_write(sw, blk, base, T3_MCR_TABLE_A_RGN_SIZE_LO, uint32_t(size));
      sw_write(sw, blk, base, T3_MCR_TABLE_A_RGN_SIZE_HI, uint32_t(size >> 32));
      sw_write(sw, blk, base, T3_MCR_TABLE_A_RGN_PORTS, ports);
      sw_write(sw, blk, base, T3_MCR_TABLE_A_RGN_ATTR,
               c.gpus << T3_MCR_TABLE_R_RGN_ATTR_EXPECT_SHIFT | home << T3_MCR_TABLE_R_RGN_ATTR_HOME_SHIFT |
                   uint32_t(reduces) << T3_MCR_TABLE_R_RGN_ATTR_ROOT_SHIFT |
                   uint32_t(s.dtype) << T3_MCR_TABLE_R_RGN_ATTR_DTYPE_SHIFT);
      sw_write(sw, blk, base, T3_MCR_TABLE_A_RGN_CMD, T3_MCR_TABLE_R_RGN_CMD_ADD_MASK);
    }
  }
  sw_write(root, "reduction_table", T3_INNET_SWITCH_REDUCTION_TABLE_BASE, T3_REDUCTION_TABLE_A_TIMEOUT, s.rt_timeout);

  // The endpoint driver: each GPU's window, its DMA credit controller's
  // limits, its buffer.
  for (unsigned g = 0; g < c.gpus; ++g) {
    FabricGpu& e = f.ep(g);
    EpWin w = all_reduce_window(s.net_base, s.bytes, l.src, l.dst, l.merge, c.gpus, s.dtype, g == s.home);
    w.det = s.deterministic && w.home;
    w.stage = l.stage;
    w.contrib_mask = uint32_t(low_mask(c.gpus));
    e.set_window(0, w);
    auto ep_write = [&](uint32_t a, uint32_t d) {
      if (e.tlm_write(a, d) != RegStatus::ok) throw std::logic_error("all_reduce: an endpoint refused a write to " + hex(a));
      r.setup.push_back("gpu" + std::to_string(g) + ".dma_credit+" + hex(a) + " = " + hex(d));
    };
    ep_write(T3_DMA_CREDIT_A_TIMEOUT, s.dma_timeout);
    ep_write(T3_DMA_CREDIT_A_INJ_LIMIT, s.inj_limit);
    e.memory().load(l.src, in[g].data(), s.bytes);
    // What a run does not write shows: the result and merge areas poisoned
    // (0xA5 bytes: in every type a tiny negative value, no sum of the tests'
    // data), not left from a run before.
    const std::vector<uint8_t> poison(s.bytes, 0xA5);
    if (!overlap(l.dst, l.src, s.bytes)) e.memory().load(l.dst, poison.data(), s.bytes);
    if (w.home) e.memory().load(l.merge, poison.data(), s.bytes);
  }
  for (int i = 0; i < 4; ++i) f.step();  // the registers' writes settle

  FabricCmd cmd;
  cmd.local = l.src;
  cmd.net = s.net_base;
  cmd.len = uint32_t(s.bytes / fb);
  cmd.dtype = s.dtype;
  cmd.pull = s.pull;
  cmd.tag = 1;
  const uint64_t start = f.cycle();
  for (unsigned g = 0; g < c.gpus; ++g) {
    if (int(g) == s.straggler) continue;
    cmd.src = uint8_t(g);
    f.submit(g, cmd);
  }
  auto all_done = [&] {
    for (unsigned g = 0; g < c.gpus; ++g)
      if (f.completions(g).empty() && !(int(g) == s.straggler && s.straggler_delay == AllReduceSpec::kNever)) return false;
    return true;
  };
  while (f.cycle() - start < s.max_cycles) {
    if (s.straggler >= 0 && f.cycle() - start == s.straggler_delay) {
      cmd.src = uint8_t(s.straggler);
      f.submit(unsigned(s.straggler), cmd);
    }
    f.step();
    if (all_done() && f.quiet()) break;
  }
  r.cycles = f.cycle() - start;
  r.finished = all_done() && f.quiet();
  for (unsigned g = 0; g < c.gpus; ++g) {
    if (!f.completions(g).empty() || int(g) == s.straggler) continue;
    uint32_t outstanding = 0;
    f.ep(g).tlm_read(T3_DMA_CREDIT_A_OUTSTANDING, outstanding);
    r.errors.push_back("gpu" + std::to_string(g) + ": no completion within " + std::to_string(s.max_cycles) +
                       " cycles (the driver's wait); its DMA credit controller has " + std::to_string(outstanding) +
                       " packets outstanding (INJ_LIMIT " + std::to_string(s.inj_limit) + ")");
  }
  if (all_done() && !r.finished) r.errors.push_back("not quiet after " + std::to_string(s.max_cycles) + " cycles");
  if (s.straggler >= 0 && s.straggler_delay == AllReduceSpec::kNever)
    r.errors.push_back("gpu" + std::to_string(s.straggler) + ": sent nothing (the run's straggler never sends)");

  out.assign(c.gpus, std::vector<uint8_t>(s.bytes));
  static const char* kStatus[] = {"OK", "TIMEOUT", "NO_CREDIT", "BAD_LEN", "BAD_RED_OP", "BAD_DTYPE", "BAD_ADDR", "?"};
  for (unsigned g = 0; g < c.gpus; ++g) {
    const FabricGpu& e = f.ep(g);
    e.memory().dump(l.dst, out[g].data(), s.bytes);
    for (const FabricCpl& k : f.completions(g))
      if (k.status != 0) r.errors.push_back("gpu" + std::to_string(g) + ": completion " + kStatus[k.status & 7]);
    if (!e.errors().empty()) r.errors.push_back("gpu" + std::to_string(g) + ": " + e.errors());
    if (e.stats().home_lost)
      r.errors.push_back("gpu" + std::to_string(g) + ": its home gave up " + std::to_string(e.stats().home_lost) +
                         " lines (ep_home STAT_LOST)");
    uint32_t strays = 0, bad = 0;
    e.tlm_read(T3_DMA_CREDIT_A_STAT_STRAYS, strays);
    e.tlm_read(T3_DMA_CREDIT_A_STAT_BAD_RES, bad);
    if (strays || bad)
      r.errors.push_back("gpu" + std::to_string(g) + ": its DMA credit controller saw " + std::to_string(strays) +
                         " stray and " + std::to_string(bad) + " malformed results");
    if (e.open_lines()) r.errors.push_back("gpu" + std::to_string(g) + ": " + std::to_string(e.open_lines()) + " lines merged in part");
    r.ep.push_back(e.stats());
    r.up_flits.push_back(f.up_flits(g, 0) + f.up_flits(g, 1));
    r.down_flits.push_back(f.down_flits(g, 0) + f.down_flits(g, 1));
  }
  auto rt = [&](uint32_t a) {
    uint32_t v = 0;
    f.switch_read(T3_INNET_SWITCH_REDUCTION_TABLE_BASE + a, v, root);
    return v;
  };
  if (f.unconnected_flits())
    r.errors.push_back(std::to_string(f.unconnected_flits()) + " flits given on switch ports with nothing attached");
  r.completions = rt(T3_REDUCTION_TABLE_A_STAT_COMPLETIONS);
  r.evict_lru = rt(T3_REDUCTION_TABLE_A_STAT_EVICT_LRU);
  r.evict_timeout = rt(T3_REDUCTION_TABLE_A_STAT_EVICT_TIMEOUT);
  r.allocs = rt(T3_REDUCTION_TABLE_A_STAT_ALLOC);
  r.pull_passed = rt(T3_REDUCTION_TABLE_A_STAT_PULL_PASSED);
  r.bypasses = rt(T3_REDUCTION_TABLE_A_STAT_BYPASSES);
  return r;
}

}  // namespace t3
