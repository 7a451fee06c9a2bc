/* Library sequences on the T3 driver (t3/collectives.h). */
#include "t3/collectives.h"

#include <stdio.h>

static uint32_t prev(const t3_ctx* c) { return (c->gpu + c->gpus - 1) % c->gpus; }

/* Chunk k of the buffer, one of gpus equal column ranges of whole WG tiles. */
static int chunk(t3_ctx* c, const t3_buffer* buf, uint32_t k, t3_chunk* out) {
  const uint64_t step = (uint64_t)c->gpus * buf->wg_cols;
  if (step == 0 || buf->n % step) {
    snprintf(
        c->msg, sizeof c->msg,
        "buffer n = %u does not split into %u chunks of whole WG tiles; allowed: a multiple of "
        "gpus x wg_cols = %llu",
        buf->n, c->gpus, (unsigned long long)step);
    c->err = T3_E_CHUNK;
    return T3_E_CHUNK;
  }
  out->cols = buf->n / c->gpus;
  out->col0 = k * out->cols;
  return T3_OK;
}

static uint64_t at(const t3_buffer* buf, const uint64_t* peer_addr, uint32_t gpu, t3_chunk ch) {
  return peer_addr[gpu] + (uint64_t)ch.col0 * buf->m * buf->elem_bytes;
}

uint32_t t3_ring_chunk(uint32_t gpu, uint32_t gpus, uint32_t stage) {
  /* (1 - gpu - stage) mod gpus: GPU g+1's stage k is GPU g's stage k+1. */
  return (uint32_t)(((uint64_t)gpus * 2 + 1 - gpu % gpus - stage % gpus) % gpus);
}

static int ring(t3_ctx* c, const t3_buffer* buf, const uint64_t* peer_addr, uint32_t tiles,
                t3_op op, uint32_t updates) {
  const uint32_t n = c->gpus, to = prev(c);
  for (uint32_t k = 1; k <= n; ++k) {
    t3_chunk ch;
    int e = chunk(c, buf, t3_ring_chunk(c->gpu, n, k), &ch);
    if (e) return e;
    if (k == 1)
      e = t3_remote_map(c, buf, ch, k, to, at(buf, peer_addr, to, ch), op);
    else if (k < n)
      e = t3_dma_map(c, buf, ch, k, to, at(buf, peer_addr, to, ch), op, updates, tiles);
    else
      e = t3_track_map(c, buf, ch, k, updates);
    if (e) return e;
  }
  return T3_OK;
}

int t3_ring_reduce_scatter(t3_ctx* c, const t3_buffer* buf, const uint64_t* peer_addr,
                           uint32_t wf_tiles_per_block) {
  /* Each element: the local GEMM's update and the one from GPU g+1. */
  return ring(c, buf, peer_addr, wf_tiles_per_block, T3_UPDATE, 2);
}

int t3_ring_all_gather(t3_ctx* c, const t3_buffer* buf, const uint64_t* peer_addr,
                       uint32_t wf_tiles_per_block) {
  return ring(c, buf, peer_addr, wf_tiles_per_block, T3_STORE, 1);
}

int t3_direct_reduce_scatter(t3_ctx* c, const t3_buffer* buf, const uint64_t* peer_addr) {
  const uint32_t n = c->gpus;
  for (uint32_t k = 1; k < n; ++k) {
    const uint32_t to = (c->gpu + k) % n;
    t3_chunk ch;
    int e = chunk(c, buf, to, &ch);
    if (e || (e = t3_remote_map(c, buf, ch, k, to, at(buf, peer_addr, to, ch), T3_UPDATE)))
      return e;
  }
  t3_chunk own;
  int e = chunk(c, buf, c->gpu, &own);
  return e ? e : t3_track_map(c, buf, own, n, n);
}

int t3_all_to_all(t3_ctx* c, const t3_buffer* buf, const uint64_t* peer_addr) {
  const uint32_t n = c->gpus;
  for (uint32_t k = 1; k < n; ++k) {
    const uint32_t to = (c->gpu + k) % n;
    t3_chunk ch, slot;
    int e = chunk(c, buf, to, &ch);
    if (e || (e = chunk(c, buf, c->gpu, &slot))) return e;
    if ((e = t3_remote_map(c, buf, ch, k, to, at(buf, peer_addr, to, slot), T3_STORE))) return e;
  }
  return T3_OK;
}
