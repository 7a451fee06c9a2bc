/* T3 driver: configures one GPU's memory-side blocks (Tracker, DMA trigger
 * table, MCA arbiter, near-bank ALU) for a producer kernel's output and the
 * collective fused with it, through the register maps of t3/<block>_regs.h
 * and the HAL of t3/hal.h.
 *
 * The calls follow T3 §4.4 and Fig. 12: the producer's output buffer is
 * split into chunks (column ranges), one per stage of the collective, and
 * each chunk is mapped:
 *   t3_remote_map  the producer writes the chunk straight into a peer's
 *                  memory (fine-grained peer-to-peer stores or updates);
 *                  nothing on this GPU's memory side sees it;
 *   t3_dma_map     the chunk is written here; the Tracker counts the writes
 *                  to each WF tile and, once every element has its
 *                  updates_per_elem updates, the DMA trigger table sends the
 *                  tile's DMA block (wf_tiles_per_block tiles) to the peer,
 *                  as STOREs or as UPDATEs (op-and-store at the peer);
 *   t3_track_map   the chunk is tracked to completion but sent nowhere (the
 *                  last stage of a reduce-scatter, whose result stays here).
 * The calls only record; t3_commit() checks the whole configuration against
 * the hardware (t3_probe() read its parameters) and only then programs it,
 * so a refused configuration writes no register at all.
 *
 * Every call returns T3_OK (0) or a negative T3_E_* code; t3_message()
 * says what was wrong, naming the field and its allowed range. No dynamic
 * memory; C11. docs/firmware.md walks through a configuration. */
#ifndef T3_DRIVER_H
#define T3_DRIVER_H

#include <stdint.h>

#include "t3/mem_subsystem_map.h"

#ifdef __cplusplus
extern "C" {
#endif

#define T3_OK 0
#define T3_E_ARG (-1)         /* a field out of its allowed range */
#define T3_E_CHUNK (-2)       /* a chunk outside the buffer, or not a whole number of WF tiles */
#define T3_E_OVERLAP (-3)     /* two maps cover the same columns */
#define T3_E_PEER (-4)        /* a peer that is this GPU, outside the node, or beyond GPU_W */
#define T3_E_THRESHOLD (-5)   /* a trigger threshold or MCA level out of range */
#define T3_E_WAYS (-6)        /* more live WF tiles per Tracker set than it has ways */
#define T3_E_ENTRIES (-7)     /* more tracked chunks than the DMA trigger table has entries */
#define T3_E_REGION (-8)      /* tracked chunks the Tracker's one region cannot hold */
#define T3_E_MAPS (-9)        /* more maps than T3_MAX_MAPS, or maps of different buffers */
#define T3_E_NOT_PROBED (-10) /* t3_commit() before t3_probe() */
#define T3_E_MMIO (-11)       /* the hardware refused a register access */
#define T3_E_TIMEOUT (-12)    /* the hardware did not finish in time (a table write) */
#define T3_E_TABLE (-13)      /* the DMA trigger table refused an entry (its cause) */

#define T3_MAX_MAPS 32

typedef enum { T3_STORE = 0, T3_UPDATE = 1 } t3_op;

/* The producer's output (T3 §4.2.1, Fig. 9(a)): an m x n column-major array
 * (as BLAS stores it) of elem_bytes elements at addr, written by WGs that
 * each produce a wg_rows x wg_cols tile, split among wfs_per_wg WFs into
 * column strips: a WF tile is wg_rows x (wg_cols / wfs_per_wg) elements,
 * the Tracker's unit. WG ids count per chunk, down the rows first. */
typedef struct {
  uint64_t addr;
  uint32_t m, n;
  uint32_t elem_bytes; /* 1, 2, 4 or 8 */
  uint32_t wg_rows, wg_cols, wfs_per_wg;
} t3_buffer;

/* Columns [col0, col0 + cols) of the buffer. */
typedef struct {
  uint32_t col0, cols;
} t3_chunk;

typedef enum { T3_MAP_REMOTE = 0, T3_MAP_DMA = 1, T3_MAP_TRACK = 2 } t3_map_kind;

/* One recorded map (the system model reads them to route the producer's writes). */
typedef struct {
  t3_map_kind kind;
  t3_chunk chunk;
  uint32_t stage;
  uint32_t peer;      /* remote and DMA maps */
  uint64_t peer_addr; /* where the chunk's element (0, col0) lies in the peer's memory */
  t3_op op;
  uint32_t updates_per_elem;   /* DMA and track maps: updates per element before the trigger */
  uint32_t wf_tiles_per_block; /* DMA maps: WF tiles per DMA block (T3 §4.2.2) */
} t3_map;

/* The hardware build, from the blocks' PARAM_* registers (t3_probe). */
typedef struct {
  uint32_t sets, ways, tracker_addr_w, cnt_w, upe_w;                 /* Tracker */
  uint32_t entries, slots, max_burst_log2, dma_addr_w, gpu_w, dim_w; /* DMA trigger table */
  uint32_t occ_w, mca_cnt_w, learn_w;                                /* MCA arbiter */
  uint32_t burst_bytes;                                              /* near-bank ALU */
} t3_hw;

/* The MCA arbiter (T3 §4.5; docs/blocks/mca_arbiter.md). */
typedef struct {
  uint32_t policy;       /* 0 round robin, 1 compute first, 2 T3-MCA */
  uint32_t thr_auto;     /* 1: the level from the occupancy learned in the first stage */
  uint32_t thr_sel;      /* fixed level (0..2), or 3 for no limit */
  uint32_t level[3];     /* occupancy thresholds, T3 §6.1.3: 5, 10, 30 */
  uint32_t bound[3];     /* auto mode: learned average >= bound[i] picks level i; descending */
  uint32_t learn_log2;   /* learning window of 2^learn_log2 cycles */
  uint32_t starve_limit; /* cycles communication may wait; 0: no limit */
} t3_mca;

/* Register windows of the four blocks, as the bus maps them; in a
 * mem_subsystem, T3_MEM_SUBSYSTEM_WINDOWS (its generated address map). */
typedef struct {
  uint32_t tracker, dma_trigger, mca_arbiter, near_bank_alu;
} t3_windows;

typedef struct {
  t3_windows win;
  t3_hw hw;
  int probed;
  uint32_t gpu, gpus; /* this GPU and the node's GPU count */
  t3_buffer buf;
  int have_buf;
  t3_map maps[T3_MAX_MAPS];
  uint32_t n_maps;
  t3_mca mca;
  uint32_t burst_log2; /* DMA descriptors stay within 2^burst_log2-byte aligned blocks */
  uint32_t intr;       /* interrupts to enable on commit: T3_INTR_* */
  int err;
  char msg[200];
} t3_ctx;

#define T3_INTR_ERRORS \
  1u /* every block's error interrupts (configuration, table, miss, refused command) */

/* The defaults: T3-MCA with the learned threshold (T3 §4.5, §6.1.3),
 * 64-byte bursts, error interrupts on. No register access. */
int t3_init(t3_ctx* c, const t3_windows* win, uint32_t gpu, uint32_t gpus);
/* Reads the blocks' PARAM_* registers: what t3_commit() checks against. */
int t3_probe(t3_ctx* c);

int t3_remote_map(t3_ctx* c, const t3_buffer* buf, t3_chunk chunk, uint32_t stage, uint32_t peer,
                  uint64_t peer_addr, t3_op op);
int t3_dma_map(t3_ctx* c, const t3_buffer* buf, t3_chunk chunk, uint32_t stage, uint32_t peer,
               uint64_t peer_addr, t3_op op, uint32_t updates_per_elem,
               uint32_t wf_tiles_per_block);
int t3_track_map(t3_ctx* c, const t3_buffer* buf, t3_chunk chunk, uint32_t stage,
                 uint32_t updates_per_elem);
int t3_mca_setup(t3_ctx* c, const t3_mca* mca);
int t3_set_burst(t3_ctx* c, uint32_t log2_bytes);

/* The checks t3_commit() makes, alone: no register access. */
int t3_check(t3_ctx* c);

/* Checks everything, waits for the blocks to be idle (no live tile, no DMA
 * block in flight, no learning window: their registers are locked until
 * then; T3_E_TIMEOUT otherwise), then programs them: the Tracker off, the DMA
 * table (one entry per tracked chunk, in stage order; entries left from
 * before invalidated), the MCA arbiter, the near-bank ALU's errors cleared,
 * interrupts, and the Tracker on last. On a refusal nothing is written. */
int t3_commit(t3_ctx* c);

int t3_error(const t3_ctx* c);
const char* t3_message(const t3_ctx* c);
const char* t3_strerror(int code);

#ifdef __cplusplus
}
#endif

#endif /* T3_DRIVER_H */
