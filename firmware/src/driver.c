/* T3 driver (t3/driver.h): remote_map / dma_map / track_map, the checks a
 * configuration must pass, and the register sequence that programs it. */
#include "t3/driver.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "t3/dma_trigger_regs.h"
#include "t3/hal.h"
#include "t3/mca_arbiter_regs.h"
#include "t3/near_bank_alu_regs.h"
#include "t3/tracker_regs.h"

/* The DMA trigger table's operation for a chunk tracked but sent nowhere
 * (TBL_CTRL.OP: 0 STORE, 1 UPDATE, 2 NONE). */
#define T3_DMA_OP_NONE 2u
/* Simulated or real time a table write may take (DIM_W + 2 cycles). */
#define T3_TABLE_TIMEOUT_NS 100000u
/* Time the blocks may take to finish what they are doing before a commit. */
#define T3_IDLE_TIMEOUT_NS 1000000u

static int fail(t3_ctx* c, int code, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->msg, sizeof c->msg, fmt, ap);
  va_end(ap);
  c->err = code;
  return code;
}

static int ok(t3_ctx* c) {
  c->err = T3_OK;
  c->msg[0] = '\0';
  return T3_OK;
}

static uint64_t mask_bits(uint32_t w) { return w >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << w) - 1; }
static unsigned long long ull(uint64_t v) { return (unsigned long long)v; }

const char* t3_strerror(int code) {
  switch (code) {
    case T3_OK:
      return "ok";
    case T3_E_ARG:
      return "a field out of its allowed range";
    case T3_E_CHUNK:
      return "a chunk outside the buffer or not whole WF tiles";
    case T3_E_OVERLAP:
      return "two maps overlap";
    case T3_E_PEER:
      return "a peer out of range";
    case T3_E_THRESHOLD:
      return "a threshold out of range";
    case T3_E_WAYS:
      return "more live tiles per Tracker set than it has ways";
    case T3_E_ENTRIES:
      return "no DMA trigger table entry left";
    case T3_E_REGION:
      return "chunks the Tracker's region cannot hold";
    case T3_E_MAPS:
      return "too many maps, or maps of different buffers";
    case T3_E_NOT_PROBED:
      return "the hardware was not probed";
    case T3_E_MMIO:
      return "the hardware refused a register access";
    case T3_E_TIMEOUT:
      return "the hardware did not finish in time";
    case T3_E_TABLE:
      return "the DMA trigger table refused an entry";
    default:
      return "unknown error";
  }
}

int t3_error(const t3_ctx* c) { return c->err; }
const char* t3_message(const t3_ctx* c) { return c->msg; }

int t3_init(t3_ctx* c, const t3_windows* win, uint32_t gpu, uint32_t gpus) {
  memset(c, 0, sizeof *c);
  c->win = *win;
  c->gpu = gpu;
  c->gpus = gpus;
  /* T3-MCA with the threshold learned while the producer runs alone (T3
   * §4.5), levels 5, 10, 30 (§6.1.3); the register resets. */
  c->mca.policy = 2;
  c->mca.thr_auto = 1;
  c->mca.thr_sel = 3;
  c->mca.level[0] = 5;
  c->mca.level[1] = 10;
  c->mca.level[2] = 30;
  c->mca.bound[0] = 20;
  c->mca.bound[1] = 10;
  c->mca.bound[2] = 3;
  c->mca.learn_log2 = 10;
  c->mca.starve_limit = 256;
  c->burst_log2 = 6;
  c->intr = T3_INTR_ERRORS;
  if (gpus < 2 || gpus > 256)
    return fail(c, T3_E_ARG, "gpus = %u is out of range; allowed: 2..256", gpus);
  if (gpu >= gpus)
    return fail(c, T3_E_ARG, "gpu = %u is out of range; allowed: 0..%u (gpus - 1)", gpu, gpus - 1);
  return ok(c);
}

/* --------------------------------------------------------------- probing */

static uint32_t field(uint32_t v, uint32_t mask, uint32_t shift) { return (v & mask) >> shift; }

int t3_probe(t3_ctx* c) {
  uint32_t g = 0, w = 0, t = 0, d = 0, m = 0, b = 0;
  if (mmio_read32(c->win.tracker + T3_TRACKER_A_PARAM_GEOMETRY, &g) ||
      mmio_read32(c->win.tracker + T3_TRACKER_A_PARAM_WIDTHS, &w) ||
      mmio_read32(c->win.dma_trigger + T3_DMA_TRIGGER_A_PARAM_TABLE, &t) ||
      mmio_read32(c->win.dma_trigger + T3_DMA_TRIGGER_A_PARAM_WIDTHS, &d) ||
      mmio_read32(c->win.mca_arbiter + T3_MCA_ARBITER_A_PARAM_WIDTHS, &m) ||
      mmio_read32(c->win.near_bank_alu + T3_NEAR_BANK_ALU_A_PARAM_BURST, &b))
    return fail(c, T3_E_MMIO,
                "a PARAM_* register could not be read: are the register windows right?");
  c->hw.sets = 1u << field(g, T3_TRACKER_R_PARAM_GEOMETRY_SETS_LOG2_MASK,
                           T3_TRACKER_R_PARAM_GEOMETRY_SETS_LOG2_SHIFT);
  c->hw.ways =
      field(g, T3_TRACKER_R_PARAM_GEOMETRY_WAYS_MASK, T3_TRACKER_R_PARAM_GEOMETRY_WAYS_SHIFT);
  c->hw.tracker_addr_w =
      field(w, T3_TRACKER_R_PARAM_WIDTHS_ADDR_W_MASK, T3_TRACKER_R_PARAM_WIDTHS_ADDR_W_SHIFT);
  c->hw.cnt_w =
      field(w, T3_TRACKER_R_PARAM_WIDTHS_CNT_W_MASK, T3_TRACKER_R_PARAM_WIDTHS_CNT_W_SHIFT);
  c->hw.upe_w =
      field(w, T3_TRACKER_R_PARAM_WIDTHS_UPE_W_MASK, T3_TRACKER_R_PARAM_WIDTHS_UPE_W_SHIFT);
  c->hw.entries = field(t, T3_DMA_TRIGGER_R_PARAM_TABLE_ENTRIES_MASK,
                        T3_DMA_TRIGGER_R_PARAM_TABLE_ENTRIES_SHIFT);
  c->hw.slots =
      field(t, T3_DMA_TRIGGER_R_PARAM_TABLE_SLOTS_MASK, T3_DMA_TRIGGER_R_PARAM_TABLE_SLOTS_SHIFT);
  c->hw.max_burst_log2 = field(t, T3_DMA_TRIGGER_R_PARAM_TABLE_MAX_BURST_LOG2_MASK,
                               T3_DMA_TRIGGER_R_PARAM_TABLE_MAX_BURST_LOG2_SHIFT);
  c->hw.dma_addr_w = field(d, T3_DMA_TRIGGER_R_PARAM_WIDTHS_ADDR_W_MASK,
                           T3_DMA_TRIGGER_R_PARAM_WIDTHS_ADDR_W_SHIFT);
  c->hw.gpu_w =
      field(d, T3_DMA_TRIGGER_R_PARAM_WIDTHS_GPU_W_MASK, T3_DMA_TRIGGER_R_PARAM_WIDTHS_GPU_W_SHIFT);
  c->hw.dim_w =
      field(d, T3_DMA_TRIGGER_R_PARAM_WIDTHS_DIM_W_MASK, T3_DMA_TRIGGER_R_PARAM_WIDTHS_DIM_W_SHIFT);
  c->hw.occ_w =
      field(m, T3_MCA_ARBITER_R_PARAM_WIDTHS_OCC_W_MASK, T3_MCA_ARBITER_R_PARAM_WIDTHS_OCC_W_SHIFT);
  c->hw.mca_cnt_w =
      field(m, T3_MCA_ARBITER_R_PARAM_WIDTHS_CNT_W_MASK, T3_MCA_ARBITER_R_PARAM_WIDTHS_CNT_W_SHIFT);
  c->hw.learn_w = field(m, T3_MCA_ARBITER_R_PARAM_WIDTHS_LEARN_W_MASK,
                        T3_MCA_ARBITER_R_PARAM_WIDTHS_LEARN_W_SHIFT);
  c->hw.burst_bytes = field(b, T3_NEAR_BANK_ALU_R_PARAM_BURST_BURST_BYTES_MASK,
                            T3_NEAR_BANK_ALU_R_PARAM_BURST_BURST_BYTES_SHIFT);
  if (c->hw.ways == 0 || c->hw.entries == 0 || c->hw.slots == 0 || c->hw.dim_w == 0)
    return fail(c, T3_E_MMIO,
                "the PARAM_* registers read as zero: are the register windows right?");
  c->probed = 1;
  return ok(c);
}

/* ------------------------------------------------------------- recording */

static uint32_t wf_cols(const t3_buffer* b) { return b->wg_cols / b->wfs_per_wg; }
static uint64_t column_bytes(const t3_buffer* b) { return (uint64_t)b->m * b->elem_bytes; }
static uint64_t chunk_addr(const t3_buffer* b, t3_chunk ch) {
  return b->addr + ch.col0 * column_bytes(b);
}

static int check_buffer(t3_ctx* c, const t3_buffer* b) {
  if (b->m == 0 || b->n == 0)
    return fail(c, T3_E_ARG, "buffer m = %u, n = %u: allowed: both at least 1", b->m, b->n);
  if (b->elem_bytes != 1 && b->elem_bytes != 2 && b->elem_bytes != 4 && b->elem_bytes != 8)
    return fail(c, T3_E_ARG, "buffer elem_bytes = %u is out of range; allowed: 1, 2, 4 or 8",
                b->elem_bytes);
  if (b->wg_rows == 0 || b->m % b->wg_rows)
    return fail(c, T3_E_CHUNK,
                "buffer wg_rows = %u does not divide m = %u; allowed: a divisor of m", b->wg_rows,
                b->m);
  if (b->wfs_per_wg == 0 || b->wg_cols == 0 || b->wg_cols % b->wfs_per_wg)
    return fail(
        c, T3_E_ARG,
        "buffer wg_cols = %u, wfs_per_wg = %u: allowed: wg_cols a multiple of wfs_per_wg >= 1",
        b->wg_cols, b->wfs_per_wg);
  if (c->have_buf && memcmp(&c->buf, b, sizeof *b) != 0)
    return fail(c, T3_E_MAPS,
                "every map of a configuration is of one buffer (the Tracker tracks one); "
                "this one differs from the first map's");
  return T3_OK;
}

static int record(t3_ctx* c, const t3_buffer* b, const t3_map* m) {
  int e = check_buffer(c, b);
  if (e) return e;
  if (c->n_maps >= T3_MAX_MAPS)
    return fail(c, T3_E_MAPS, "map %u: at most T3_MAX_MAPS = %u maps", c->n_maps + 1, T3_MAX_MAPS);
  if (m->chunk.cols == 0 || m->chunk.col0 >= b->n || m->chunk.cols > b->n - m->chunk.col0)
    return fail(c, T3_E_CHUNK,
                "stage %u chunk columns [%u, %u) are outside the buffer; allowed: within [0, %u)",
                m->stage, m->chunk.col0, m->chunk.col0 + m->chunk.cols, b->n);
  if (m->chunk.col0 % b->wg_cols || m->chunk.cols % b->wg_cols)
    return fail(
        c, T3_E_CHUNK,
        "stage %u chunk columns [%u, %u) are not a whole number of WG tiles (and so of WF tiles); "
        "allowed: col0 and cols multiples of wg_cols = %u",
        m->stage, m->chunk.col0, m->chunk.col0 + m->chunk.cols, b->wg_cols);
  if (m->stage == 0) return fail(c, T3_E_ARG, "stage = 0 is out of range; allowed: 1 and up");
  if (m->kind != T3_MAP_TRACK) {
    if (m->peer >= c->gpus || m->peer == c->gpu)
      return fail(c, T3_E_PEER,
                  "stage %u peer = %u is out of range; allowed: 0..%u except this GPU (%u)",
                  m->stage, m->peer, c->gpus - 1, c->gpu);
    if (m->op != T3_STORE && m->op != T3_UPDATE)
      return fail(c, T3_E_ARG, "stage %u op = %d is out of range; allowed: T3_STORE or T3_UPDATE",
                  m->stage, (int)m->op);
  }
  if (m->kind != T3_MAP_REMOTE) {
    if (m->updates_per_elem == 0)
      return fail(c, T3_E_THRESHOLD,
                  "stage %u updates_per_elem = 0 is out of range; allowed: 1 and up", m->stage);
    if (m->kind == T3_MAP_DMA && m->wf_tiles_per_block == 0)
      return fail(c, T3_E_ARG, "stage %u wf_tiles_per_block = 0 is out of range; allowed: 1 and up",
                  m->stage);
  }
  for (uint32_t i = 0; i < c->n_maps; ++i) {
    const t3_map* o = &c->maps[i];
    if (m->chunk.col0 < o->chunk.col0 + o->chunk.cols &&
        o->chunk.col0 < m->chunk.col0 + m->chunk.cols)
      return fail(
          c, T3_E_OVERLAP,
          "stage %u chunk columns [%u, %u) overlap stage %u's [%u, %u); allowed: disjoint chunks",
          m->stage, m->chunk.col0, m->chunk.col0 + m->chunk.cols, o->stage, o->chunk.col0,
          o->chunk.col0 + o->chunk.cols);
  }
  c->buf = *b;
  c->have_buf = 1;
  c->maps[c->n_maps++] = *m;
  return ok(c);
}

int t3_remote_map(t3_ctx* c, const t3_buffer* buf, t3_chunk chunk, uint32_t stage, uint32_t peer,
                  uint64_t peer_addr, t3_op op) {
  t3_map m;
  memset(&m, 0, sizeof m);
  m.kind = T3_MAP_REMOTE;
  m.chunk = chunk;
  m.stage = stage;
  m.peer = peer;
  m.peer_addr = peer_addr;
  m.op = op;
  return record(c, buf, &m);
}

int t3_dma_map(t3_ctx* c, const t3_buffer* buf, t3_chunk chunk, uint32_t stage, uint32_t peer,
               uint64_t peer_addr, t3_op op, uint32_t updates_per_elem,
               uint32_t wf_tiles_per_block) {
  t3_map m;
  memset(&m, 0, sizeof m);
  m.kind = T3_MAP_DMA;
  m.chunk = chunk;
  m.stage = stage;
  m.peer = peer;
  m.peer_addr = peer_addr;
  m.op = op;
  m.updates_per_elem = updates_per_elem;
  m.wf_tiles_per_block = wf_tiles_per_block;
  return record(c, buf, &m);
}

int t3_track_map(t3_ctx* c, const t3_buffer* buf, t3_chunk chunk, uint32_t stage,
                 uint32_t updates_per_elem) {
  t3_map m;
  memset(&m, 0, sizeof m);
  m.kind = T3_MAP_TRACK;
  m.chunk = chunk;
  m.stage = stage;
  m.updates_per_elem = updates_per_elem;
  m.wf_tiles_per_block = 1;
  return record(c, buf, &m);
}

int t3_mca_setup(t3_ctx* c, const t3_mca* mca) {
  c->mca = *mca;
  return ok(c);
}

int t3_set_burst(t3_ctx* c, uint32_t log2_bytes) {
  c->burst_log2 = log2_bytes;
  return ok(c);
}

/* -------------------------------------------------------------- checking */

/* The tracked maps (DMA and track) in stage order: the DMA table's entries. */
static uint32_t tracked(const t3_ctx* c, const t3_map* out[T3_MAX_MAPS]) {
  uint32_t n = 0;
  for (uint32_t i = 0; i < c->n_maps; ++i)
    if (c->maps[i].kind != T3_MAP_REMOTE) out[n++] = &c->maps[i];
  for (uint32_t i = 1; i < n; ++i)
    for (uint32_t j = i; j > 0 && out[j - 1]->stage > out[j]->stage; --j) {
      const t3_map* t = out[j];
      out[j] = out[j - 1];
      out[j - 1] = t;
    }
  return n;
}

static int check_fits(t3_ctx* c, const char* what, uint64_t first, uint64_t bytes, uint32_t addr_w,
                      const char* block) {
  const uint64_t top = mask_bits(addr_w);
  if (first > top || bytes > top - first + 1)
    return fail(c, T3_E_ARG, "%s [0x%llx, 0x%llx) is out of range; allowed: below 2^%u (%s ADDR_W)",
                what, ull(first), ull(first + bytes), addr_w, block);
  return T3_OK;
}

static int check_mca(t3_ctx* c) {
  const t3_mca* m = &c->mca;
  const uint64_t occ_max = mask_bits(c->hw.occ_w);
  if (m->policy > 2)
    return fail(c, T3_E_ARG, "mca policy = %u is out of range; allowed: 0..2", m->policy);
  if (m->thr_auto > 1)
    return fail(c, T3_E_ARG, "mca thr_auto = %u is out of range; allowed: 0 or 1", m->thr_auto);
  if (m->thr_sel > 3)
    return fail(c, T3_E_ARG, "mca thr_sel = %u is out of range; allowed: 0..3", m->thr_sel);
  for (int i = 0; i < 3; ++i) {
    if (m->level[i] == 0 || m->level[i] > occ_max)
      return fail(c, T3_E_THRESHOLD,
                  "mca level[%d] = %u is out of range; allowed: 1..%llu (OCC_W = %u)", i,
                  m->level[i], ull(occ_max), c->hw.occ_w);
    if (m->bound[i] > occ_max)
      return fail(c, T3_E_THRESHOLD,
                  "mca bound[%d] = %u is out of range; allowed: 0..%llu (OCC_W = %u)", i,
                  m->bound[i], ull(occ_max), c->hw.occ_w);
  }
  if (m->thr_auto && (m->bound[0] < m->bound[1] || m->bound[1] < m->bound[2]))
    return fail(
        c, T3_E_THRESHOLD,
        "mca bounds %u, %u, %u are not descending; allowed: bound[0] >= bound[1] >= bound[2]",
        m->bound[0], m->bound[1], m->bound[2]);
  if (m->learn_log2 > c->hw.learn_w)
    return fail(c, T3_E_ARG, "mca learn_log2 = %u is out of range; allowed: 0..%u (LEARN_W)",
                m->learn_log2, c->hw.learn_w);
  if (m->starve_limit > mask_bits(c->hw.mca_cnt_w))
    return fail(c, T3_E_ARG, "mca starve_limit = %u is out of range; allowed: 0..%llu (CNT_W = %u)",
                m->starve_limit, ull(mask_bits(c->hw.mca_cnt_w)), c->hw.mca_cnt_w);
  return T3_OK;
}

/* The Tracker's region: the columns from the first tracked chunk to the
 * last; every column in between must be tracked too, or written only
 * remotely (nothing of a remote chunk reaches this memory). */
static int region(t3_ctx* c, const t3_map* const* t, uint32_t n, uint32_t* col_lo,
                  uint32_t* col_hi) {
  *col_lo = t[0]->chunk.col0;
  *col_hi = t[0]->chunk.col0 + t[0]->chunk.cols;
  for (uint32_t i = 1; i < n; ++i) {
    if (t[i]->chunk.col0 < *col_lo) *col_lo = t[i]->chunk.col0;
    if (t[i]->chunk.col0 + t[i]->chunk.cols > *col_hi)
      *col_hi = t[i]->chunk.col0 + t[i]->chunk.cols;
  }
  for (uint32_t col = *col_lo; col < *col_hi;) {
    uint32_t next = col;
    for (uint32_t i = 0; i < c->n_maps; ++i)
      if (c->maps[i].chunk.col0 == col) next = col + c->maps[i].chunk.cols;
    if (next == col)
      return fail(
          c, T3_E_REGION,
          "columns from %u lie between tracked chunks but no map covers them: the Tracker's one "
          "region [%u, %u) would count their local writes; allowed: map them (dma, track or "
          "remote)",
          col, *col_lo, *col_hi);
    col = next;
  }
  return T3_OK;
}

static uint64_t wgs_of(const t3_buffer* b, const t3_map* m) {
  return (uint64_t)(b->m / b->wg_rows) * (m->chunk.cols / b->wg_cols);
}

static int check(t3_ctx* c, const t3_map* const* t, uint32_t n) {
  const t3_buffer* b = &c->buf;
  const t3_hw* hw = &c->hw;
  int e;
  if (!c->probed)
    return fail(c, T3_E_NOT_PROBED,
                "t3_commit before t3_probe: the hardware's parameters are unknown; allowed: after "
                "t3_probe");
  if ((e = check_mca(c))) return e;
  if (c->burst_log2 > hw->max_burst_log2)
    return fail(c, T3_E_ARG, "burst_log2 = %u is out of range; allowed: 0..%u (MAX_BURST_LOG2)",
                c->burst_log2, hw->max_burst_log2);
  if (n == 0) return T3_OK;
  if ((e = check_fits(c, "the buffer", b->addr, column_bytes(b) * b->n, hw->tracker_addr_w,
                      "Tracker")))
    return e;
  if ((e = check_fits(c, "the buffer", b->addr, column_bytes(b) * b->n, hw->dma_addr_w,
                      "DMA trigger table")))
    return e;
  const uint64_t dim_max = mask_bits(hw->dim_w);
  if (b->m > dim_max || b->wg_rows > dim_max)
    return fail(c, T3_E_ARG,
                "buffer m = %u, wg_rows = %u are out of range; allowed: at most %llu (DIM_W = %u)",
                b->m, b->wg_rows, ull(dim_max), hw->dim_w);
  if (n > hw->entries)
    return fail(
        c, T3_E_ENTRIES,
        "%u tracked chunks need %u DMA trigger table entries; allowed: at most ENTRIES = %u", n, n,
        hw->entries);
  const uint64_t tile = (uint64_t)b->wg_rows * wf_cols(b);
  for (uint32_t i = 0; i < n; ++i) {
    const t3_map* m = t[i];
    if (m->updates_per_elem != t[0]->updates_per_elem)
      return fail(c, T3_E_THRESHOLD,
                  "stage %u updates_per_elem = %u differs from stage %u's %u; allowed: one value "
                  "(the Tracker "
                  "has one threshold)",
                  m->stage, m->updates_per_elem, t[0]->stage, t[0]->updates_per_elem);
    if (m->updates_per_elem > mask_bits(hw->upe_w))
      return fail(c, T3_E_THRESHOLD,
                  "stage %u updates_per_elem = %u is out of range; allowed: 1..%llu (UPE_W = %u)",
                  m->stage, m->updates_per_elem, ull(mask_bits(hw->upe_w)), hw->upe_w);
    if (tile * m->updates_per_elem > mask_bits(hw->cnt_w))
      return fail(c, T3_E_THRESHOLD,
                  "stage %u threshold = %llu (WF tile of %llu elements x %u updates) is out of "
                  "range; allowed: "
                  "1..%llu (CNT_W = %u)",
                  m->stage, ull(tile * m->updates_per_elem), ull(tile), m->updates_per_elem,
                  ull(mask_bits(hw->cnt_w)), hw->cnt_w);
    if (m->wf_tiles_per_block > hw->slots)
      return fail(c, T3_E_ARG,
                  "stage %u wf_tiles_per_block = %u is out of range; allowed: 1..%u (SLOTS)",
                  m->stage, m->wf_tiles_per_block, hw->slots);
    /* The table sends whole blocks: a last block short of tiles would wait
     * for ever. */
    const uint64_t tiles = wgs_of(b, m) * b->wfs_per_wg;
    if (m->kind == T3_MAP_DMA && tiles % m->wf_tiles_per_block)
      return fail(c, T3_E_ARG,
                  "stage %u: %llu WF tiles are not a whole number of DMA blocks of "
                  "wf_tiles_per_block = %u; allowed: a divisor of %llu",
                  m->stage, ull(tiles), m->wf_tiles_per_block, ull(tiles));
    if (m->chunk.cols > dim_max)
      return fail(
          c, T3_E_ARG,
          "stage %u chunk of %u columns is out of range; allowed: at most %llu (DIM_W = %u)",
          m->stage, m->chunk.cols, ull(dim_max), hw->dim_w);
    if (m->kind == T3_MAP_DMA) {
      if (m->peer > mask_bits(hw->gpu_w))
        return fail(c, T3_E_PEER,
                    "stage %u peer = %u is out of range; allowed: 0..%llu (GPU_W = %u)", m->stage,
                    m->peer, ull(mask_bits(hw->gpu_w)), hw->gpu_w);
      if ((e = check_fits(c, "a peer chunk", m->peer_addr, column_bytes(b) * m->chunk.cols,
                          hw->dma_addr_w, "DMA trigger table")))
        return e;
    }
    /* Two consecutive stages' WF tiles may all be live at once (the local
     * producer a stage ahead of the updates arriving, T3 Fig. 7); WG ids
     * count on from stage to stage, and the WGs whose ids share a set (id
     * mod SETS) share its ways. More would make the Tracker refuse writes
     * that the tiles holding the ways wait behind. */
    const uint64_t wgs = wgs_of(b, m) + (i + 1 < n ? wgs_of(b, t[i + 1]) : 0);
    const uint64_t per_set = (wgs + hw->sets - 1) / hw->sets * b->wfs_per_wg;
    if (per_set > hw->ways)
      return fail(c, T3_E_WAYS,
                  "stages %u%s: %llu WGs of %u WF tiles each put up to %llu live tiles in one of "
                  "the Tracker's %u sets; allowed: at most WAYS = %u (fewer WGs per stage, or "
                  "fewer WFs per WG)",
                  m->stage, i + 1 < n ? " and the next" : "", ull(wgs), b->wfs_per_wg, ull(per_set),
                  hw->sets, hw->ways);
  }
  uint32_t lo, hi;
  return region(c, t, n, &lo, &hi);
}

/* ----------------------------------------------------------- programming */

static int w32(t3_ctx* c, uint32_t addr, uint32_t v) {
  if (mmio_write32(addr, v) != T3_MMIO_OK)
    return fail(c, T3_E_MMIO, "the write of 0x%08x to 0x%08x was refused", v, addr);
  return T3_OK;
}

static int r32(t3_ctx* c, uint32_t addr, uint32_t* v) {
  if (mmio_read32(addr, v) != T3_MMIO_OK)
    return fail(c, T3_E_MMIO, "the read of 0x%08x was refused", addr);
  return T3_OK;
}

/* One DMA trigger table entry through the staging registers (T3 Fig. 12's
 * dma_map becomes this): stage it, write it, wait for the write to finish
 * and check that the table took it. Without a map: the entry invalidated
 * (the table checks an entry's shape even when it is not valid, so the
 * smallest well-formed one: a 1 x 1 array, one tile a block). */
static int write_entry(t3_ctx* c, uint32_t idx, const t3_map* m) {
  const uint32_t d = c->win.dma_trigger;
  const t3_buffer* b = &c->buf;
  uint32_t elem_log2 = 0;
  while ((1u << elem_log2) < b->elem_bytes) ++elem_log2;
  const uint64_t src = m ? chunk_addr(b, m->chunk) : 0;
  const uint64_t dst = m && m->kind == T3_MAP_DMA ? m->peer_addr : 0;
  const uint32_t op = !m ? 0 : m->kind == T3_MAP_DMA ? (uint32_t)m->op : T3_DMA_OP_NONE;
  const uint32_t ctrl =
      !m ? (1u << T3_DMA_TRIGGER_R_TBL_CTRL_TILES_PER_BLOCK_SHIFT)
         : (T3_DMA_TRIGGER_R_TBL_CTRL_VALID_MASK |
            ((op << T3_DMA_TRIGGER_R_TBL_CTRL_OP_SHIFT) & T3_DMA_TRIGGER_R_TBL_CTRL_OP_MASK) |
            ((elem_log2 << T3_DMA_TRIGGER_R_TBL_CTRL_ELEM_LOG2_SHIFT) &
             T3_DMA_TRIGGER_R_TBL_CTRL_ELEM_LOG2_MASK) |
            (((m->kind == T3_MAP_DMA ? m->peer : 0) << T3_DMA_TRIGGER_R_TBL_CTRL_DST_GPU_SHIFT) &
             T3_DMA_TRIGGER_R_TBL_CTRL_DST_GPU_MASK) |
            ((m->wf_tiles_per_block << T3_DMA_TRIGGER_R_TBL_CTRL_TILES_PER_BLOCK_SHIFT) &
             T3_DMA_TRIGGER_R_TBL_CTRL_TILES_PER_BLOCK_MASK));
  int e;
  if ((e = w32(c, d + T3_DMA_TRIGGER_A_TBL_IDX, idx)) ||
      (e = w32(c, d + T3_DMA_TRIGGER_A_TBL_SRC_LO, (uint32_t)src)) ||
      (e = w32(c, d + T3_DMA_TRIGGER_A_TBL_SRC_HI, (uint32_t)(src >> 32))) ||
      (e = w32(c, d + T3_DMA_TRIGGER_A_TBL_DST_LO, (uint32_t)dst)) ||
      (e = w32(c, d + T3_DMA_TRIGGER_A_TBL_DST_HI, (uint32_t)(dst >> 32))) ||
      (e = w32(c, d + T3_DMA_TRIGGER_A_TBL_CTRL, ctrl)) ||
      (e = w32(c, d + T3_DMA_TRIGGER_A_TBL_M, m ? b->m : 1)) ||
      (e = w32(c, d + T3_DMA_TRIGGER_A_TBL_N, m ? m->chunk.cols : 1)) ||
      (e = w32(c, d + T3_DMA_TRIGGER_A_TBL_TILE_ROWS, m ? b->wg_rows : 1)) ||
      (e = w32(c, d + T3_DMA_TRIGGER_A_TBL_TILE_COLS, m ? wf_cols(b) : 1)) ||
      (e = w32(c, d + T3_DMA_TRIGGER_A_TBL_CMD, T3_DMA_TRIGGER_R_TBL_CMD_WRITE_MASK)))
    return e;
  if (mmio_poll32(d + T3_DMA_TRIGGER_A_STATUS, T3_DMA_TRIGGER_R_STATUS_TBL_READY_MASK,
                  T3_DMA_TRIGGER_R_STATUS_TBL_READY_MASK, T3_TABLE_TIMEOUT_NS) != T3_MMIO_OK)
    return fail(c, T3_E_TIMEOUT,
                "DMA trigger table entry %u: STATUS.TBL_READY did not return within %u ns", idx,
                T3_TABLE_TIMEOUT_NS);
  uint32_t status = 0;
  if ((e = r32(c, d + T3_DMA_TRIGGER_A_STATUS, &status))) return e;
  if (status & T3_DMA_TRIGGER_R_STATUS_TBL_ERR_MASK)
    return fail(c, T3_E_TABLE,
                "DMA trigger table entry %u refused, cause %u (docs/blocks/dma_trigger.md)", idx,
                field(status, T3_DMA_TRIGGER_R_STATUS_TBL_ERR_CAUSE_MASK,
                      T3_DMA_TRIGGER_R_STATUS_TBL_ERR_CAUSE_SHIFT));
  return T3_OK;
}

static int program_tracker_region(t3_ctx* c, const t3_map* const* t, uint32_t n) {
  const uint32_t r = c->win.tracker;
  const t3_buffer* b = &c->buf;
  uint32_t lo, hi;
  region(c, t, n, &lo, &hi);
  const uint64_t base = b->addr + lo * column_bytes(b), limit = b->addr + hi * column_bytes(b);
  const uint32_t tile = (uint32_t)((uint64_t)b->wg_rows * wf_cols(b));
  int e;
  if ((e = w32(c, r + T3_TRACKER_A_BASE_LO, (uint32_t)base)) ||
      (e = w32(c, r + T3_TRACKER_A_BASE_HI, (uint32_t)(base >> 32))) ||
      (e = w32(c, r + T3_TRACKER_A_LIMIT_LO, (uint32_t)limit)) ||
      (e = w32(c, r + T3_TRACKER_A_LIMIT_HI, (uint32_t)(limit >> 32))))
    return e;
  return w32(c, r + T3_TRACKER_A_TILE,
             ((tile << T3_TRACKER_R_TILE_SIZE_SHIFT) & T3_TRACKER_R_TILE_SIZE_MASK) |
                 ((t[0]->updates_per_elem << T3_TRACKER_R_TILE_UPDATES_PER_ELEM_SHIFT) &
                  T3_TRACKER_R_TILE_UPDATES_PER_ELEM_MASK));
}

static int program_mca(t3_ctx* c) {
  const uint32_t a = c->win.mca_arbiter;
  const t3_mca* m = &c->mca;
  int e;
  if ((e = w32(
           c, a + T3_MCA_ARBITER_A_CTRL,
           ((m->policy << T3_MCA_ARBITER_R_CTRL_POLICY_SHIFT) & T3_MCA_ARBITER_R_CTRL_POLICY_MASK) |
               ((m->thr_auto << T3_MCA_ARBITER_R_CTRL_THR_AUTO_SHIFT) &
                T3_MCA_ARBITER_R_CTRL_THR_AUTO_MASK) |
               ((m->thr_sel << T3_MCA_ARBITER_R_CTRL_THR_SEL_SHIFT) &
                T3_MCA_ARBITER_R_CTRL_THR_SEL_MASK))) ||
      (e = w32(c, a + T3_MCA_ARBITER_A_THR_LEVEL0, m->level[0])) ||
      (e = w32(c, a + T3_MCA_ARBITER_A_THR_LEVEL1, m->level[1])) ||
      (e = w32(c, a + T3_MCA_ARBITER_A_THR_LEVEL2, m->level[2])) ||
      (e = w32(c, a + T3_MCA_ARBITER_A_AUTO_BOUND0, m->bound[0])) ||
      (e = w32(c, a + T3_MCA_ARBITER_A_AUTO_BOUND1, m->bound[1])) ||
      (e = w32(c, a + T3_MCA_ARBITER_A_AUTO_BOUND2, m->bound[2])) ||
      (e = w32(c, a + T3_MCA_ARBITER_A_LEARN, m->learn_log2)) ||
      (e = w32(c, a + T3_MCA_ARBITER_A_STARVE_LIMIT, m->starve_limit)))
    return e;
  return T3_OK;
}

int t3_check(t3_ctx* c) {
  const t3_map* t[T3_MAX_MAPS];
  const uint32_t n = tracked(c, t);
  const int e = check(c, t, n);
  return e ? e : ok(c);
}

/* The registers a configuration rewrites are locked while the blocks work
 * (a live tile, a DMA block in flight, a learning window): wait for the
 * last collective to finish. */
static int wait_idle(t3_ctx* c) {
  const t3_windows* w = &c->win;
  const uint32_t learn_ns = (1u << (c->hw.learn_w < 20 ? c->hw.learn_w : 20)) * 4u;
  if (mmio_poll32(w->tracker + T3_TRACKER_A_STATUS, T3_TRACKER_R_STATUS_LIVE_MASK, 0,
                  T3_IDLE_TIMEOUT_NS))
    return fail(c, T3_E_TIMEOUT,
                "the Tracker still tracks tiles (STATUS.LIVE not 0 after %u ns): the last "
                "collective is not finished",
                T3_IDLE_TIMEOUT_NS);
  if (mmio_poll32(w->dma_trigger + T3_DMA_TRIGGER_A_STATUS, T3_DMA_TRIGGER_R_STATUS_BUSY_MASK, 0,
                  T3_IDLE_TIMEOUT_NS))
    return fail(c, T3_E_TIMEOUT,
                "the DMA trigger table stays busy (STATUS.BUSY after %u ns): the last "
                "collective is not finished",
                T3_IDLE_TIMEOUT_NS);
  if (mmio_poll32(w->mca_arbiter + T3_MCA_ARBITER_A_STATUS, T3_MCA_ARBITER_R_STATUS_LEARN_BUSY_MASK,
                  0, learn_ns + T3_IDLE_TIMEOUT_NS))
    return fail(c, T3_E_TIMEOUT,
                "the MCA arbiter is still learning (STATUS.LEARN_BUSY after %u ns)",
                learn_ns + T3_IDLE_TIMEOUT_NS);
  return T3_OK;
}

int t3_commit(t3_ctx* c) {
  const t3_map* t[T3_MAX_MAPS];
  const uint32_t n = tracked(c, t);
  int e = check(c, t, n);
  if (e || (e = wait_idle(c))) return e;
  const t3_windows* w = &c->win;
  /* Interrupts off while the blocks pass through half-written
   * configurations (an MCA level written before its bounds, say): what they
   * flag on the way is cleared at the end. Tracking off while the table
   * changes: no trigger meets a half-written table. */
  if ((e = w32(c, w->tracker + T3_TRACKER_A_INTR_ENABLE, 0)) ||
      (e = w32(c, w->dma_trigger + T3_DMA_TRIGGER_A_INTR_ENABLE, 0)) ||
      (e = w32(c, w->mca_arbiter + T3_MCA_ARBITER_A_INTR_ENABLE, 0)) ||
      (e = w32(c, w->near_bank_alu + T3_NEAR_BANK_ALU_A_INTR_ENABLE, 0)) ||
      (e = w32(c, w->tracker + T3_TRACKER_A_CTRL, 0)))
    return e;
  if (n && (e = program_tracker_region(c, t, n))) return e;
  if ((e = w32(c, w->dma_trigger + T3_DMA_TRIGGER_A_CTRL, T3_DMA_TRIGGER_R_CTRL_ERR_CLEAR_MASK)) ||
      (e = w32(c, w->dma_trigger + T3_DMA_TRIGGER_A_BURST,
               c->burst_log2 << T3_DMA_TRIGGER_R_BURST_LOG2_SHIFT)))
    return e;
  for (uint32_t i = 0; i < n; ++i)
    if ((e = write_entry(c, i, t[i]))) return e;
  /* Entries a previous configuration left valid would still take triggers. */
  for (uint32_t i = n; i < c->hw.entries; ++i) {
    uint32_t v = 0;
    if ((e = w32(c, w->dma_trigger + T3_DMA_TRIGGER_A_TBL_IDX, i)) ||
        (e = r32(c, w->dma_trigger + T3_DMA_TRIGGER_A_TBL_RD_CTRL, &v)))
      return e;
    if ((v & T3_DMA_TRIGGER_R_TBL_RD_CTRL_VALID_MASK) && (e = write_entry(c, i, NULL))) return e;
  }
  if ((e = w32(c, w->dma_trigger + T3_DMA_TRIGGER_A_CTRL, T3_DMA_TRIGGER_R_CTRL_ENABLE_MASK)))
    return e;
  if ((e = program_mca(c))) return e;
  if ((e = w32(c, w->near_bank_alu + T3_NEAR_BANK_ALU_A_CTRL,
               T3_NEAR_BANK_ALU_R_CTRL_ERR_CLEAR_MASK)))
    return e;
  /* What the blocks flagged before (a reset configuration the build cannot
   * use, the half-written one of a moment ago) is not this configuration's:
   * clear it; an error that lasts sets its bit again. */
  if ((e = w32(c, w->tracker + T3_TRACKER_A_INTR_STATE, ~0u)) ||
      (e = w32(c, w->dma_trigger + T3_DMA_TRIGGER_A_INTR_STATE, ~0u)) ||
      (e = w32(c, w->mca_arbiter + T3_MCA_ARBITER_A_INTR_STATE, ~0u)) ||
      (e = w32(c, w->near_bank_alu + T3_NEAR_BANK_ALU_A_INTR_STATE, ~0u)))
    return e;
  if (c->intr & T3_INTR_ERRORS) {
    if ((e = w32(c, w->tracker + T3_TRACKER_A_INTR_ENABLE,
                 T3_TRACKER_R_INTR_ENABLE_CFG_ERROR_MASK)) ||
        (e = w32(c, w->dma_trigger + T3_DMA_TRIGGER_A_INTR_ENABLE,
                 T3_DMA_TRIGGER_R_INTR_ENABLE_TBL_ERROR_MASK |
                     T3_DMA_TRIGGER_R_INTR_ENABLE_MISS_MASK)) ||
        (e = w32(c, w->mca_arbiter + T3_MCA_ARBITER_A_INTR_ENABLE,
                 T3_MCA_ARBITER_R_INTR_ENABLE_CFG_ERROR_MASK)) ||
        (e = w32(c, w->near_bank_alu + T3_NEAR_BANK_ALU_A_INTR_ENABLE,
                 T3_NEAR_BANK_ALU_R_INTR_ENABLE_REFUSED_MASK)))
      return e;
  }
  if (n && (e = w32(c, w->tracker + T3_TRACKER_A_CTRL, T3_TRACKER_R_CTRL_ENABLE_MASK))) return e;
  return ok(c);
}
