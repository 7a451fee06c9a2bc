// One all-reduce on an InnetFabric with real data: the fabric manager's
// set-up of the region (both region tables of the switch, its reduction
// table's timeout), the endpoint driver's windows and DMA credit controller
// registers, every GPU's buffer loaded, one reduction request per GPU, the
// run to its completions, and the reduced buffers read back. Written in C++
// against the blocks' registers; the C fabric manager and endpoint driver
// (issue 22, "Firmware") will program the same registers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/bits.h"
#include "innet_fabric.h"

namespace t3 {

struct AllReduceSpec {
  uint8_t dtype = 2;          // 0 fp16, 1 bf16, 2 fp32
  bool pull = false;          // push mode (PUSH, reduced in the switch) or pull mode (PULL, PULL_RSPs reduced)
  // Push mode with bit-identical results whatever the arrival order: the
  // switch forwards every PUSH to the home, which adds them in GPU order
  // (EpWin::det; its cost: docs/innet_fabric.md).
  bool deterministic = false;
  uint64_t bytes = 4096;      // each GPU's buffer; a multiple of the flit's bytes
  unsigned home = 0;          // the region's home GPU (it merges PARTIALs)
  uint64_t net_base = 0x100000;  // the region's network address: aligned to its size (a power of two >= bytes)
  uint32_t rt_timeout = 2000;    // the switch's reduction table TIMEOUT.CYCLES (0: no timeouts)
  uint32_t dma_timeout = 0;      // the DMA credit controllers' TIMEOUT.CYCLES (0: none; the run's limit decides)
  uint32_t inj_limit = 16;       // the DMA credit controllers' INJ_LIMIT
  int straggler = -1;            // a GPU whose request comes straggler_delay cycles after the others'
  uint64_t straggler_delay = 0;  // kNever: it never sends (the others' requests time out)
  static constexpr uint64_t kNever = ~uint64_t{0};
  // The driver's wait for the completions: a GPU without one by then is an
  // error naming what its DMA credit controller still holds.
  uint64_t max_cycles = 20000000;
  // Each GPU's buffers in its local memory.
  uint64_t src_addr = 0, dst_addr = 0, merge_addr = 0;  // 0, 0, 0: laid out one after the other
  uint64_t stage_addr = 0;  // deterministic mode: the home's stages, gpus x bytes (0: after the others)
  // Throws std::invalid_argument naming the field and its allowed range.
  void validate(const InnetFabricConfig& c) const;
};

struct AllReduceReport {
  bool finished = false;
  uint64_t cycles = 0;            // from the first request to the last completion
  std::vector<std::string> errors;  // a completion not OK, a GPU that dropped a packet, a run out of time
  // The switch's reduction table and each GPU's endpoint.
  uint32_t completions = 0, evict_lru = 0, evict_timeout = 0, allocs = 0, pull_passed = 0, bypasses = 0;
  std::vector<FabricGpuStats> ep;
  std::vector<uint64_t> up_flits, down_flits;  // per GPU link, both classes
  std::vector<std::string> setup;  // the register writes of the set-up, in order ("block+offset = value")
};

// The region an all-reduce of `bytes` takes: the power of two at least that
// (regions are aligned powers of two, docs/blocks/mcr_table.md).
inline uint64_t region_size(uint64_t bytes) { return uint64_t{1} << clog2(bytes); }

// A GPU's translation window for an all-reduce over [net_base, +bytes): its
// buffers, the region's contributors and type, whether it is the home.
EpWin all_reduce_window(uint64_t net_base, uint64_t bytes, uint64_t src, uint64_t dst, uint64_t merge,
                           unsigned expect, uint8_t dtype, bool home);

// Runs the all-reduce on `in` (a buffer per GPU, spec.bytes each) and gives
// each GPU's reduced buffer in `out`. The fabric is reset first.
AllReduceReport run_all_reduce(InnetFabric& f, const AllReduceSpec& spec, const std::vector<std::vector<uint8_t>>& in,
                               std::vector<std::vector<uint8_t>>& out);

}  // namespace t3
