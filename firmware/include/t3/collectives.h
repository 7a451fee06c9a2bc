/* Library sequences on the T3 driver (t3/driver.h): the maps of one GPU's
 * part of a collective fused with the producer of `buf`, for the node's
 * c->gpus GPUs (T3 §4.4, Fig. 7, 11, 12; §7.1). The output's n columns are
 * cut into one chunk per GPU (n / gpus columns each, whole WG tiles).
 * peer_addr[g] is where the collective's buffer lies in GPU g's memory
 * (the same shape on every GPU). They only record maps: the caller commits.
 *
 *   ring reduce-scatter (Fig. 7)  stage k of GPU g works on chunk
 *       (1 - g - k) mod N; stage 1 goes straight to GPU g-1 (remote_map,
 *       UPDATE); stages 2..N-1 are updated here by the local GEMM and by GPU
 *       g+1's DMA, then DMA'd to GPU g-1 as UPDATEs (dma_map, 2 updates per
 *       element); stage N's chunk is the reduced result: tracked, kept.
 *   direct reduce-scatter (§7.1, fully connected) every chunk c != g goes
 *       straight to GPU c (remote_map, UPDATE); chunk g collects N updates
 *       (tracked, kept).
 *   ring all-gather (§7.1) ring reduce-scatter's maps with STOREs and one
 *       write per element.
 *   all-to-all (§7.1) chunk c != g goes straight to GPU c's buffer, where
 *       GPU c keeps chunk g's columns for it (remote_map, STORE): peer_addr
 *       are the receive buffers; chunk g stays. */
#ifndef T3_COLLECTIVES_H
#define T3_COLLECTIVES_H

#include "t3/driver.h"

#ifdef __cplusplus
extern "C" {
#endif

int t3_ring_reduce_scatter(t3_ctx* c, const t3_buffer* buf, const uint64_t* peer_addr,
                           uint32_t wf_tiles_per_block);
int t3_direct_reduce_scatter(t3_ctx* c, const t3_buffer* buf, const uint64_t* peer_addr);
int t3_ring_all_gather(t3_ctx* c, const t3_buffer* buf, const uint64_t* peer_addr,
                       uint32_t wf_tiles_per_block);
int t3_all_to_all(t3_ctx* c, const t3_buffer* buf, const uint64_t* peer_addr);

/* The chunk stage k (1..gpus) of GPU gpu works on in a ring collective. */
uint32_t t3_ring_chunk(uint32_t gpu, uint32_t gpus, uint32_t stage);

#ifdef __cplusplus
}
#endif

#endif /* T3_COLLECTIVES_H */
