#include "innet_ring.h"

#include <stdexcept>
#include <string>

namespace t3 {

namespace {
constexpr uint64_t kRsNet = 0x40000000, kAgNet = 0x80000000;  // outside every region: routed by dst

[[noreturn]] void ring_error(const std::string& field, const std::string& what) {
  throw std::invalid_argument("ring_all_reduce: " + field + " " + what);
}
}  // namespace

RingReport run_ring_all_reduce(InnetFabric& f, const RingSpec& s, const std::vector<std::vector<uint8_t>>& in,
                               std::vector<std::vector<uint8_t>>& out) {
  const InnetFabricConfig& c = f.config();
  const unsigned n = c.gpus;
  const uint64_t fb = c.ep.flit_w / 8;
  if (c.leaves) ring_error("leaves", "= " + std::to_string(c.leaves) + ": one switch only (WRITEs are routed by dst, a port)");
  if (s.dtype > 2) ring_error("dtype", "= " + std::to_string(s.dtype) + " is out of range; allowed: 0..2");
  if (s.bytes == 0 || s.bytes % (n * fb) || s.bytes > c.ep.mem_bytes)
    ring_error("bytes", "= " + std::to_string(s.bytes) + ": a positive multiple of " + std::to_string(n * fb) +
                            " (GPUs x flit bytes) within MEM_BYTES");
  if (in.size() != n) ring_error("in", "has " + std::to_string(in.size()) + " buffers; one per GPU: " + std::to_string(n));
  for (const auto& b : in)
    if (b.size() != s.bytes)
      ring_error("in", "holds a buffer of " + std::to_string(b.size()) + " bytes; each is bytes = " + std::to_string(s.bytes));
  RingReport r;
  f.reset();
  const uint64_t cb = s.bytes / n;            // a chunk's bytes
  const uint64_t cf = cb / fb;                // its flits
  for (unsigned g = 0; g < n; ++g) {
    FabricGpu& e = f.ep(g);
    EpWin w;
    w.valid = true;
    w.bytes = uint32_t(s.bytes);  // at most MEM_BYTES (AllReduceSpec::validate), 1 GiB
    w.dtype = s.dtype;
    w.expected = 2;  // unused by a copy window; a window's range check wants it
    w.dst = 0;
    w.net_base = kRsNet;
    w.copy = EpWin::kCopyAdd;
    e.set_window(0, w);
    w.net_base = kAgNet;
    w.copy = EpWin::kCopyStore;
    e.set_window(1, w);
    for (unsigned i = 2; i < c.ep.windows; ++i) e.set_window(i, EpWin{});
    e.memory().load(0, in[g].data(), s.bytes);
  }
  // Per GPU: the step it is in (0..N-2 reduce-scatter, N-1..2N-3
  // all-gather, 2N-2 done) and whether its chunk for it is sent.
  std::vector<unsigned> step(n, 0);
  std::vector<bool> sent(n, false);
  const unsigned last = 2 * (n - 1);
  const uint64_t start = f.cycle();
  auto all_done = [&] {
    for (unsigned g = 0; g < n; ++g)
      if (step[g] < last) return false;
    return true;
  };
  while (f.cycle() - start < s.max_cycles && !(all_done() && f.quiet())) {
    for (unsigned g = 0; g < n; ++g) {
      FabricGpu& e = f.ep(g);
      const unsigned k = step[g];
      if (k >= last) continue;
      const bool rs = k < n - 1;
      // The chunk this step sends came in whole in the step before (a
      // reduce-scatter's first step sends its own; the all-gather's first
      // sends the chunk the reduce-scatter finished here).
      const uint64_t have = rs ? e.received_flits(0) : e.received_flits(1);
      const uint64_t need = rs ? k * cf : (k - (n - 1)) * cf;
      if (!sent[g] && (rs ? have >= need : e.received_flits(0) >= (n - 1) * cf && have >= need)) {
        const unsigned chunk = rs ? (g + n - k % n) % n : (g + 1 + n - (k - (n - 1)) % n) % n;
        e.send(chunk * cb, (rs ? kRsNet : kAgNet) + chunk * cb, uint32_t(cf), uint8_t((g + 1) % n));
        sent[g] = true;
      }
      // The step ends when its chunk is sent and the next one's has come.
      const uint64_t next_need = rs ? (k + 1) * cf : (k - (n - 1) + 1) * cf;
      const uint64_t got = rs ? e.received_flits(0) : e.received_flits(1);
      if (sent[g] && !e.sending() && got >= next_need) {
        ++step[g];
        sent[g] = false;
      }
    }
    f.step();
  }
  r.cycles = f.cycle() - start;
  r.finished = all_done() && f.quiet();
  if (!r.finished) r.errors.push_back("the ring did not finish in " + std::to_string(s.max_cycles) + " cycles");
  out.assign(n, std::vector<uint8_t>(s.bytes));
  for (unsigned g = 0; g < n; ++g) {
    f.ep(g).memory().dump(0, out[g].data(), s.bytes);
    if (!f.ep(g).errors().empty()) r.errors.push_back("gpu" + std::to_string(g) + ": " + f.ep(g).errors());
    r.up_flits.push_back(f.up_flits(g, 0) + f.up_flits(g, 1));
    r.down_flits.push_back(f.down_flits(g, 0) + f.down_flits(g, 1));
  }
  return r;
}

}  // namespace t3
