// What one GPU's memory side sees while its producer runs fused with a
// collective (T3 Fig. 7, 9): the firmware's configuration of a collective
// (a MemPhase, mapped by the library sequences of t3/collectives.h), and
// the traffic it brings:
//   - the producer (compute stream): its writes to every chunk it writes
//     here, stage after stage, a WG's WFs storing in lockstep, a burst at a
//     time (T3 Fig. 9(a)); the chunk it sends straight to a peer
//     (remote_map) never reaches this memory;
//   - the peers (communication stream): their remote stores and DMA updates
//     to the chunks this GPU collects, a stage behind;
//   - the DMA engine: it takes the burst descriptors and reads each burst
//     it sends (communication stream), its reads checked against the golden
//     memory by the scoreboard;
//   - other traffic of the controller (reads and stores outside the buffer);
//   - the MCA arbiter's learning window at the start, the drain at the
//     producer's end (T3 §4.5).
// At most two stages are in flight (the producer waits for the updates of
// the stage before last), as the GPUs' staggered stages keep them.
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "mem_subsystem/mem_subsystem.h"
#include "t3/driver.h"

namespace t3::tb {

enum class Collective : uint8_t { ring_rs, direct_rs, ring_ag, all_to_all };
const char* to_string(Collective c);
// "ring-rs", "direct-rs", "all-gather", "all-to-all".
std::optional<Collective> collective_from(const std::string& name);

// The hardware's build as the PARAM_* registers report it (t3_probe).
t3_hw hw_of(const MemSubsystemParams& p);

// One configuration of this GPU for one collective.
struct MemPhase {
  Collective coll = Collective::ring_rs;
  uint32_t gpu = 0, gpus = 4;
  t3_buffer buf{};                  // the producer's output on this GPU
  std::vector<uint64_t> peer_addr;  // the collective's buffer on every GPU
  uint32_t tiles_per_block = 1;
  uint32_t burst_log2 = 6;          // the DMA's bursts
  uint32_t fmt = 0;                 // ADD lanes: 0 fp16, 1 bf16, 2 fp32 (elem_bytes to match)
  uint64_t scratch = 0;             // other traffic goes here (outside the buffers)
  uint64_t scratch_bytes = 0;
  t3_mca mca{};                     // the MCA arbiter's configuration

  // T3-MCA with the learned threshold: T3 §6.1.3's levels 5, 10 and 30 and
  // the registers' reset bounds, for a queue of 32 entries or more (this
  // build's default), scaled down to a smaller queue.
  static t3_mca default_mca(const MemSubsystemParams& p);

  // The library sequence's maps on c (t3/collectives.h); a T3_* code.
  int map(t3_ctx& c) const;
  // A phase the driver accepts at parameters p, drawn at random.
  static MemPhase random(const MemSubsystemParams& p, std::mt19937_64& rng);
  // The main job's (scripts/run.sh): GPU gpu of gpus during coll fused with
  // an m x n fp16 GEMM at 0x100000 (column-major), WG tiles of 64 x 64 in 8
  // WFs (T3 §4.2.1), one WF tile a DMA block in 64-byte bursts; the peers'
  // buffers of the same shape at (g + 1) << 36. Whether it fits the
  // modelled DRAM is the caller's to check (fits()).
  static MemPhase gemm(const MemSubsystemParams& p, Collective coll, uint32_t gpu, uint32_t gpus,
                       uint32_t m, uint32_t n);
  // The buffers and the other traffic's region lie in the DRAM array.
  bool fits(const MemSubsystemParams& p) const;
  std::string describe() const;
};

struct MemTraffic {
  double p_local = 0.9;       // the producer offers its next write in a cycle
  double p_peer = 0.6;        // a peer's update is offered
  double p_other = 0.03;      // a request outside the buffer instead of the producer's
  double p_desc_ready = 0.7;  // the DMA engine takes a descriptor, outside busy bursts
  double p_desc_burst = 0.002;
  unsigned desc_burst_len = 60;
  unsigned peer_lag = 400;    // cycles before the first update from a peer
};

class MemSubsystemStimulus {
 public:
  // cfg: the committed configuration of ph (its maps say what is tracked).
  MemSubsystemStimulus(const MemSubsystemParams& p, const MemPhase& ph, const t3_ctx& cfg,
                       const MemTraffic& t, uint64_t seed);

  // This cycle's streams, desc_ready, learn and drain (not rst_n, the
  // register port or the DRAM's data).
  void drive(MemSubsystemInputs& in);
  // After the cycle: what was taken.
  void after(const MemSubsystemInputs& in, const MemSubsystemOutputs& out);

  // Everything produced, every update arrived, every descriptor's burst read.
  bool idle() const;
  // What is left, for a report: "local 3/5 stage 2, peer ..., 4 reads".
  std::string describe() const;
  uint64_t local_writes() const { return n_local_; }
  uint64_t peer_writes() const { return n_peer_; }
  uint64_t dma_reads() const { return n_reads_; }
  uint64_t other() const { return n_other_; }
  uint64_t remote_writes() const { return n_remote_; }

 private:
  struct Stream {
    std::vector<std::vector<MemRequest>> stages;  // per tracked stage, in stage order
    size_t stage = 0, next = 0;
    bool done() const { return stage >= stages.size(); }
    const MemRequest& head() const { return stages[stage][next]; }
    void pop();
  };
  void add_tile_writes(std::vector<MemRequest>& out, const t3_chunk& ch, uint32_t wg_base,
                       uint32_t op, uint32_t src, bool reverse);
  MemRequest burst_write(uint64_t addr, uint32_t elems, uint32_t op, uint32_t wg, uint32_t wf,
                         uint32_t src);
  MemRequest other_request();

  MemSubsystemParams p_;
  MemPhase ph_;
  MemTraffic t_;
  std::mt19937_64 rng_;
  Stream local_, peer_;
  std::deque<MemRequest> reads_;  // the DMA engine's, in descriptor order
  std::optional<MemRequest> cmp_, com_;  // offered until taken
  bool cmp_local_ = false, com_is_read_ = false;
  unsigned busy_left_ = 0;
  uint64_t cycle_ = 0;
  bool learned_ = false, drained_ = false;
  uint64_t n_local_ = 0, n_peer_ = 0, n_reads_ = 0, n_other_ = 0, n_remote_ = 0;
};

}  // namespace t3::tb
