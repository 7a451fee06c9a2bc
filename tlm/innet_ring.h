// The software baseline the in-network all-reduce is measured against: a
// ring all-reduce (reduce-scatter, then all-gather, 2 (N - 1) steps of a
// chunk of S / N bytes each) by the GPUs' copy engines on the same fabric,
// one switch: each step's chunk goes to the next GPU as WRITE packets (no
// region: the switch sends them by dst), which the next GPU's endpoint adds
// into its buffer (reduce-scatter) or stores (all-gather) as they come
// (the endpoints' copy windows). A GPU starts a step once the chunk it
// sends has come in whole. In place: the buffer at local address 0.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "innet_fabric.h"

namespace t3 {

struct RingSpec {
  uint8_t dtype = 2;     // 0 fp16, 1 bf16, 2 fp32
  uint64_t bytes = 4096;  // each GPU's buffer: a multiple of N x the flit's bytes
  uint64_t max_cycles = 20000000;
};

struct RingReport {
  bool finished = false;
  uint64_t cycles = 0;  // from the first copy to the last GPU's whole buffer
  std::vector<std::string> errors;
  std::vector<uint64_t> up_flits, down_flits;  // per GPU link, both classes
};

// Throws std::invalid_argument naming a field out of range (two switch
// levels: the ring's WRITEs are routed by dst, a port number).
RingReport run_ring_all_reduce(InnetFabric& f, const RingSpec& s, const std::vector<std::vector<uint8_t>>& in,
                               std::vector<std::vector<uint8_t>>& out);

}  // namespace t3
