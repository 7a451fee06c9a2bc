/* In-network collectives firmware: the fabric manager and the endpoint
 * driver (t3/innet.h). */
#include "t3/innet.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "t3/dma_credit_regs.h"
#include "t3/ep_window_regs.h"
#include "t3/mcr_table_regs.h"
#include "t3/reduction_table_regs.h"

#define FIELD(reg, field, v) (((v) & T3_##reg##_##field##_MASK) >> T3_##reg##_##field##_SHIFT)

static int fail(char *msg, size_t n, int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, n, fmt, ap);
  va_end(ap);
  return code;
}

/* ---- the fabric manager ---- */

#define FM_FAIL(code, ...) fail(f->msg, sizeof f->msg, code, __VA_ARGS__)

static int fm_wr(t3_fabric *f, uint32_t sw, uint32_t win, uint32_t off, uint32_t v) {
  if (f->sw[sw]->write32(f->sw[sw], win + off, v) != T3_MMIO_OK)
    return FM_FAIL(T3_E_MMIO, "switch %u: the write of 0x%x to 0x%x was refused", sw, v, win + off);
  return T3_OK;
}

static int fm_rd(t3_fabric *f, uint32_t sw, uint32_t win, uint32_t off, uint32_t *v) {
  if (f->sw[sw]->read32(f->sw[sw], win + off, v) != T3_MMIO_OK)
    return FM_FAIL(T3_E_MMIO, "switch %u: the read of 0x%x was refused", sw, win + off);
  return T3_OK;
}

int t3_fm_init(t3_fabric *f, t3_device *const *switches, uint32_t n, const t3_fm_windows *win) {
  uint32_t i;
  memset(f, 0, sizeof *f);
  if (n == 0 || n > T3_FM_MAX_SWITCHES)
    return FM_FAIL(T3_E_ARG, "switches = %u is out of range; allowed: 1..%u", n, T3_FM_MAX_SWITCHES);
  for (i = 0; i < n; ++i) {
    if (!switches[i] || !switches[i]->write32 || !switches[i]->read32)
      return FM_FAIL(T3_E_ARG, "switches[%u] has no device (or no accessors)", i);
    f->sw[i] = switches[i];
  }
  f->n = n;
  f->win = *win;
  return T3_OK;
}

int t3_fm_probe(t3_fabric *f) {
  uint32_t i, size, widths, geom, rtw;
  int rc;
  for (i = 0; i < f->n; ++i) {
    if ((rc = fm_rd(f, i, f->win.mcr_in, T3_MCR_TABLE_A_PARAM_SIZE, &size)) ||
        (rc = fm_rd(f, i, f->win.mcr_in, T3_MCR_TABLE_A_PARAM_WIDTHS, &widths)) ||
        (rc = fm_rd(f, i, f->win.reduction_table, T3_REDUCTION_TABLE_A_PARAM_GEOM, &geom)) ||
        (rc = fm_rd(f, i, f->win.reduction_table, T3_REDUCTION_TABLE_A_PARAM_WIDTHS, &rtw)))
      return rc;
    f->hw[i].ports = FIELD(MCR_TABLE_R, PARAM_SIZE_PORTS, size);
    f->hw[i].regions = FIELD(MCR_TABLE_R, PARAM_SIZE_REGIONS, size);
    f->hw[i].max_len = FIELD(MCR_TABLE_R, PARAM_SIZE_MAX_LEN, size);
    f->hw[i].flit_w = FIELD(MCR_TABLE_R, PARAM_WIDTHS_FLIT_W, widths);
    f->hw[i].entries = FIELD(REDUCTION_TABLE_R, PARAM_GEOM_ENTRIES, geom);
    f->hw[i].timeout_w = FIELD(REDUCTION_TABLE_R, PARAM_WIDTHS_TIMEOUT_W, rtw);
    if (f->hw[i].ports == 0 || f->hw[i].ports > 32 || f->hw[i].regions == 0)
      return FM_FAIL(T3_E_ARG, "switch %u: PARAM_SIZE reads PORTS %u, REGIONS %u: not a region table this driver knows",
                     i, f->hw[i].ports, f->hw[i].regions);
  }
  f->probed = 1;
  return T3_OK;
}

/* A command's answer reaches STATUS a few cycles after its write (the
 * pulse, the decision, the table's edge: docs/blocks/mcr_table.md, "Region
 * commands"; docs/blocks/ep_window.md, its cycle table): the STATUS read
 * waits for it, 20 ns on a host that keeps time; on one without wait_ns, two
 * reads of it first, which assumes each access takes bus cycles (a host
 * whose accesses take no time must give wait_ns). The settling reads'
 * errors are dropped: the read that follows reports its own. */
static void settle(t3_device *d, uint32_t status_addr) {
  uint32_t v;
  if (d->wait_ns) {
    d->wait_ns(d, 20);
    return;
  }
  (void)d->read32(d, status_addr, &v);
  (void)d->read32(d, status_addr, &v);
}

static int fm_cmd_status(t3_fabric *f, uint32_t sw, uint32_t win, uint32_t *st) {
  settle(f->sw[sw], win + T3_MCR_TABLE_A_STATUS);
  return fm_rd(f, sw, win, T3_MCR_TABLE_A_STATUS, st);
}

static int pow2(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

static int check_region(t3_fabric *f, uint32_t sw, uint32_t idx, const t3_fm_region *r) {
  const t3_fm_hw *hw = &f->hw[sw];
  const uint32_t all = hw->ports >= 32 ? 0xFFFFFFFFu : (1u << hw->ports) - 1;
  uint32_t j;
  if (!pow2(r->size) || r->size > (1ull << 48))
    return FM_FAIL(T3_E_ARG, "switch %u: size = 0x%llx; allowed: a power of two up to 2^48", sw,
                   (unsigned long long)r->size);
  if (r->base % r->size || r->base > (1ull << 48) - r->size)
    return FM_FAIL(T3_E_ARG, "switch %u: base = 0x%llx; allowed: a multiple of the size 0x%llx below 2^48", sw,
                   (unsigned long long)r->base, (unsigned long long)r->size);
  if (r->ports & ~all)
    return FM_FAIL(T3_E_ARG, "switch %u: ports = 0x%x; allowed: bits of ports 0..%u (PORTS %u)", sw, r->ports,
                   hw->ports - 1, hw->ports);
  if (r->home >= hw->ports)
    return FM_FAIL(T3_E_ARG, "switch %u: home = %u is out of range; allowed: 0..%u", sw, r->home, hw->ports - 1);
  if (r->expect == 0 || r->expect > 255)
    return FM_FAIL(T3_E_ARG, "switch %u: expect = %u is out of range; allowed: 1..255", sw, r->expect);
  if (r->root > 1) return FM_FAIL(T3_E_ARG, "switch %u: root = %u; allowed: 0, 1", sw, r->root);
  if (r->dtype > 2)
    return FM_FAIL(T3_E_ARG, "switch %u: dtype = %u is out of range; allowed: 0..2 (fp16, bf16, fp32)", sw, r->dtype);
  if (idx >= hw->regions)
    return FM_FAIL(T3_E_ARG, "idx = %u is out of range for switch %u; allowed: 0..%u (REGIONS)", idx, sw,
                   hw->regions - 1);
  if (f->used[sw] >> idx & 1)
    return FM_FAIL(T3_E_BUSY, "switch %u: region %u exists; destroy it first", sw, idx);
  for (j = 0; j < hw->regions && j < T3_FM_MAX_REGIONS; ++j) {
    const t3_fm_region *o = &f->rgn[sw][j];
    if (!(f->used[sw] >> j & 1)) continue;
    if (r->base < o->base + o->size && o->base < r->base + r->size)
      return FM_FAIL(T3_E_OVERLAP, "switch %u: [0x%llx, +0x%llx) overlaps region %u [0x%llx, +0x%llx)", sw,
                     (unsigned long long)r->base, (unsigned long long)r->size, j, (unsigned long long)o->base,
                     (unsigned long long)o->size);
  }
  return T3_OK;
}

/* Stages the region and adds it in one region table; the table's answer
 * (STATUS.CMD_CODE) is read back. */
static int add_region(t3_fabric *f, uint32_t sw, uint32_t win, uint32_t idx, const t3_fm_region *r) {
  uint32_t st;
  int rc;
  if ((rc = fm_wr(f, sw, win, T3_MCR_TABLE_A_RGN_IDX, idx)) ||
      (rc = fm_wr(f, sw, win, T3_MCR_TABLE_A_RGN_BASE_LO, (uint32_t)r->base)) ||
      (rc = fm_wr(f, sw, win, T3_MCR_TABLE_A_RGN_BASE_HI, (uint32_t)(r->base >> 32))) ||
      (rc = fm_wr(f, sw, win, T3_MCR_TABLE_A_RGN_SIZE_LO, (uint32_t)r->size)) ||
      (rc = fm_wr(f, sw, win, T3_MCR_TABLE_A_RGN_SIZE_HI, (uint32_t)(r->size >> 32))) ||
      (rc = fm_wr(f, sw, win, T3_MCR_TABLE_A_RGN_PORTS, r->ports)) ||
      (rc = fm_wr(f, sw, win, T3_MCR_TABLE_A_RGN_ATTR,
                  r->expect << T3_MCR_TABLE_R_RGN_ATTR_EXPECT_SHIFT | r->home << T3_MCR_TABLE_R_RGN_ATTR_HOME_SHIFT |
                      r->root << T3_MCR_TABLE_R_RGN_ATTR_ROOT_SHIFT | r->dtype << T3_MCR_TABLE_R_RGN_ATTR_DTYPE_SHIFT)) ||
      (rc = fm_wr(f, sw, win, T3_MCR_TABLE_A_RGN_CMD, T3_MCR_TABLE_R_RGN_CMD_ADD_MASK)) ||
      (rc = fm_cmd_status(f, sw, win, &st)))
    return rc;
  if (FIELD(MCR_TABLE_R, STATUS_CMD_CODE, st))
    return FM_FAIL(T3_E_REFUSED, "switch %u: the region table at 0x%x refused region %u: command code %u", sw, win, idx,
                   FIELD(MCR_TABLE_R, STATUS_CMD_CODE, st));
  return T3_OK;
}

/* Removes region idx from one region table (a create's rollback). */
static int remove_region(t3_fabric *f, uint32_t sw, uint32_t win, uint32_t idx) {
  uint32_t st;
  int rc;
  if ((rc = fm_wr(f, sw, win, T3_MCR_TABLE_A_RGN_IDX, idx)) ||
      (rc = fm_wr(f, sw, win, T3_MCR_TABLE_A_RGN_CMD, T3_MCR_TABLE_R_RGN_CMD_REMOVE_MASK)) ||
      (rc = fm_cmd_status(f, sw, win, &st)))
    return rc;
  return FIELD(MCR_TABLE_R, STATUS_CMD_CODE, st) ? T3_E_REFUSED : T3_OK;
}

int t3_fm_region_create(t3_fabric *f, uint32_t idx, const t3_fm_region *per_switch) {
  uint32_t i, j, any = 0;
  int rc;
  if (!f->probed) return FM_FAIL(T3_E_NOT_PROBED, "t3_fm_region_create before t3_fm_probe");
  if (idx >= T3_FM_MAX_REGIONS)
    return FM_FAIL(T3_E_ARG, "idx = %u is out of range; allowed: 0..%u", idx, T3_FM_MAX_REGIONS - 1);
  for (i = 0; i < f->n; ++i) {
    if (!per_switch[i].ports) continue;
    any = 1;
    if ((rc = check_region(f, i, idx, &per_switch[i]))) return rc;
  }
  if (!any) return FM_FAIL(T3_E_ARG, "ports = 0 on every switch: the region touches no switch");
  for (i = 0; i < f->n; ++i) {
    int in_done = 0;
    if (!per_switch[i].ports) continue;
    if (!(rc = add_region(f, i, f->win.mcr_in, idx, &per_switch[i]))) {
      in_done = 1;
      rc = add_region(f, i, f->win.mcr_out, idx, &per_switch[i]);
    }
    if (rc) {
      /* A switch refused (a region the firmware did not put there, say):
       * what this call added is removed again, so that the fabric holds the
       * region everywhere or nowhere. f->msg keeps the refusal's cause. */
      char cause[sizeof f->msg];
      int undo = T3_OK;
      memcpy(cause, f->msg, sizeof cause);
      if (in_done) undo |= remove_region(f, i, f->win.mcr_in, idx);
      for (j = 0; j < i; ++j) {
        if (!per_switch[j].ports) continue;
        undo |= remove_region(f, j, f->win.mcr_in, idx);
        undo |= remove_region(f, j, f->win.mcr_out, idx);
        f->used[j] &= ~(1ull << idx);
      }
      fail(f->msg, sizeof f->msg, rc, "%s; %s", cause,
           undo ? "the switches before it could not all be rolled back (read their RGN_RD_ATTR)"
                : "the switches before it were rolled back");
      return rc;
    }
    f->rgn[i][idx] = per_switch[i];
    f->used[i] |= 1ull << idx;
  }
  return T3_OK;
}

int t3_fm_region_destroy(t3_fabric *f, uint32_t idx) {
  uint32_t i, any = 0, st, k;
  int rc, first = T3_OK;
  if (!f->probed) return FM_FAIL(T3_E_NOT_PROBED, "t3_fm_region_destroy before t3_fm_probe");
  if (idx >= T3_FM_MAX_REGIONS)
    return FM_FAIL(T3_E_ARG, "idx = %u is out of range; allowed: 0..%u", idx, T3_FM_MAX_REGIONS - 1);
  for (i = 0; i < f->n; ++i) any |= (uint32_t)(f->used[i] >> idx & 1);
  if (!any) return FM_FAIL(T3_E_ARG, "idx = %u: no switch holds that region", idx);
  for (i = 0; i < f->n; ++i) {
    const uint32_t wins[2] = {f->win.mcr_in, f->win.mcr_out};
    if (!(f->used[i] >> idx & 1)) continue;
    /* Both tables, whatever the first answers: the firmware's copy then
     * says the switch no longer holds it, and a refusal is reported. */
    rc = T3_OK;
    for (k = 0; k < 2; ++k) {
      int r2;
      if ((r2 = fm_wr(f, i, wins[k], T3_MCR_TABLE_A_RGN_IDX, idx)) ||
          (r2 = fm_wr(f, i, wins[k], T3_MCR_TABLE_A_RGN_CMD, T3_MCR_TABLE_R_RGN_CMD_REMOVE_MASK)) ||
          (r2 = fm_cmd_status(f, i, wins[k], &st))) {
        rc = r2;
        continue;
      }
      if (FIELD(MCR_TABLE_R, STATUS_CMD_CODE, st))
        rc = FM_FAIL(T3_E_REFUSED, "switch %u: the region table at 0x%x refused to remove region %u: command code %u", i,
                     wins[k], idx, FIELD(MCR_TABLE_R, STATUS_CMD_CODE, st));
    }
    f->used[i] &= ~(1ull << idx);
    if (rc && first == T3_OK) first = rc; /* the other switches still lose it */
  }
  return first;
}

int t3_fm_set_timeout(t3_fabric *f, uint32_t sw, uint32_t cycles) {
  if (!f->probed) return FM_FAIL(T3_E_NOT_PROBED, "t3_fm_set_timeout before t3_fm_probe");
  if (sw >= f->n) return FM_FAIL(T3_E_ARG, "sw = %u is out of range; allowed: 0..%u", sw, f->n - 1);
  if (f->hw[sw].timeout_w < 32 && cycles >> f->hw[sw].timeout_w)
    return FM_FAIL(T3_E_ARG, "cycles = %u is out of range; allowed: 0..%u (TIMEOUT_W %u)", cycles,
                   (1u << f->hw[sw].timeout_w) - 1, f->hw[sw].timeout_w);
  return fm_wr(f, sw, f->win.reduction_table, T3_REDUCTION_TABLE_A_TIMEOUT, cycles);
}

const char *t3_fm_message(const t3_fabric *f) { return f->msg; }

/* ---- the endpoint driver ---- */

#define EP_FAIL(code, ...) fail(e->msg, sizeof e->msg, code, __VA_ARGS__)

static int ep_wr(t3_ep *e, uint32_t off, uint32_t v) {
  if (e->dev->write32(e->dev, off, v) != T3_MMIO_OK)
    return EP_FAIL(T3_E_MMIO, "gpu %u: the write of 0x%x to 0x%x was refused", e->gpu, v, off);
  return T3_OK;
}

static int ep_rd(t3_ep *e, uint32_t off, uint32_t *v) {
  if (e->dev->read32(e->dev, off, v) != T3_MMIO_OK)
    return EP_FAIL(T3_E_MMIO, "gpu %u: the read of 0x%x was refused", e->gpu, off);
  return T3_OK;
}

int t3_ep_init(t3_ep *e, t3_device *dev, uint32_t gpu) {
  memset(e, 0, sizeof *e);
  if (!dev || !dev->write32 || !dev->read32) return EP_FAIL(T3_E_ARG, "dev: no device (or no accessors)");
  if (gpu > 255) return EP_FAIL(T3_E_ARG, "gpu = %u is out of range; allowed: 0..255", gpu);
  e->dev = dev;
  e->gpu = gpu;
  return T3_OK;
}

int t3_ep_probe(t3_ep *e) {
  uint32_t a, b, c;
  int rc;
  if ((rc = ep_rd(e, T3_DMA_CREDIT_A_PARAM_A, &a)) || (rc = ep_rd(e, T3_DMA_CREDIT_A_PARAM_B, &b)) ||
      (rc = ep_rd(e, T3_DMA_CREDIT_A_PARAM_C, &c)))
    return rc;
  e->hw.ctrs = FIELD(DMA_CREDIT_R, PARAM_A_CTRS, a);
  e->hw.max_len = FIELD(DMA_CREDIT_R, PARAM_A_MAX_LEN, a);
  e->hw.len_w = FIELD(DMA_CREDIT_R, PARAM_A_LEN_W, a);
  e->hw.cmd_depth = FIELD(DMA_CREDIT_R, PARAM_B_CMD_DEPTH, b);
  e->hw.cpl_depth = FIELD(DMA_CREDIT_R, PARAM_B_CPL_DEPTH, b);
  e->hw.timeout_w = FIELD(DMA_CREDIT_R, PARAM_B_TIMEOUT_W, b);
  e->hw.flit_w = FIELD(DMA_CREDIT_R, PARAM_C_FLIT_W, c);
  if (e->hw.flit_w < 128 || e->hw.len_w == 0 || e->hw.len_w > 24)
    return EP_FAIL(T3_E_ARG, "gpu %u: PARAM_* read FLIT_W %u, LEN_W %u: not a DMA credit controller this driver knows",
                   e->gpu, e->hw.flit_w, e->hw.len_w);
  if ((rc = ep_rd(e, T3_EP_WINDOW_PAGE + T3_EP_WINDOW_A_PARAM_A, &a)) ||
      (rc = ep_rd(e, T3_EP_WINDOW_PAGE + T3_EP_WINDOW_A_PARAM_B, &b)) ||
      (rc = ep_rd(e, T3_EP_WINDOW_PAGE + T3_EP_WINDOW_A_PARAM_C, &c)))
    return rc;
  e->hw.windows = FIELD(EP_WINDOW_R, PARAM_A_WINDOWS, a);
  e->hw.count_depth = FIELD(EP_WINDOW_R, PARAM_B_COUNT_DEPTH, b);
  e->hw.mem_bytes = FIELD(EP_WINDOW_R, PARAM_C_MEM_BYTES, c);
  if (e->hw.windows == 0 || e->hw.windows > T3_EP_MAX_WINDOWS || FIELD(EP_WINDOW_R, PARAM_A_FLIT_W, a) != e->hw.flit_w)
    return EP_FAIL(T3_E_ARG, "gpu %u: page 1 PARAM_* read WINDOWS %u, FLIT_W %u (the DMA credit controller's %u): "
                   "not the translation windows this driver knows", e->gpu, e->hw.windows,
                   (unsigned)FIELD(EP_WINDOW_R, PARAM_A_FLIT_W, a), e->hw.flit_w);
  e->probed = 1;
  return T3_OK;
}

int t3_ep_configure(t3_ep *e, uint32_t inj_limit, uint32_t timeout_cycles) {
  int rc;
  if (!e->probed) return EP_FAIL(T3_E_NOT_PROBED, "t3_ep_configure before t3_ep_probe");
  if (e->hw.timeout_w < 32 && timeout_cycles >> e->hw.timeout_w)
    return EP_FAIL(T3_E_ARG, "timeout_cycles = %u is out of range; allowed: 0..%u (TIMEOUT_W %u)", timeout_cycles,
                   (1u << e->hw.timeout_w) - 1, e->hw.timeout_w);
  if ((rc = ep_wr(e, T3_DMA_CREDIT_A_INJ_LIMIT, inj_limit)) || (rc = ep_wr(e, T3_DMA_CREDIT_A_TIMEOUT, timeout_cycles)))
    return rc;
  return T3_OK;
}

static int span_overlap(uint64_t a, uint64_t an, uint64_t b, uint64_t bn) { return a < b + bn && b < a + an; }

static const char *const ep_causes[] = {"none", "INDEX", "BYTES", "NET_BASE", "SRC", "DST", "MERGE",
                                        "COUNT_BASE", "EXPECTED", "DTYPE", "MERGE_SRC", "COPY", "COPY_HOME",
                                        "DET_HOME", "MASK", "STAGE", "STAGE_OVERLAP", "NET_OVERLAP",
                                        "COUNT_OVERLAP", "BUSY"};

/* A buffer of the window: flit-aligned, inside local memory. */
static int ep_buf(t3_ep *e, uint32_t idx, const char *name, uint64_t a, uint64_t bytes) {
  const uint64_t fb = e->hw.flit_w / 8, mb = e->hw.mem_bytes;
  if (a % fb || a > mb || bytes > mb - a)
    return EP_FAIL(T3_E_ARG, "window %u: %s = 0x%llx; allowed: a multiple of %llu with %s + bytes <= 0x%llx (MEM_BYTES)",
                   idx, name, (unsigned long long)a, (unsigned long long)fb, name, (unsigned long long)mb);
  return T3_OK;
}

static int ep_check_window(t3_ep *e, uint32_t idx, const t3_ep_window *w) {
  const uint64_t fb = e->hw.flit_w / 8, n = w->bytes, lines = w->copy ? 0 : n / fb;
  const uint64_t staged = (uint64_t)w->expected * n;
  uint32_t j, ones = 0;
  int rc;
  if (idx >= e->hw.windows)
    return EP_FAIL(T3_E_ARG, "window index %u is out of range; allowed: 0..%u (WINDOWS)", idx, e->hw.windows - 1);
  if (n == 0 || n % fb)
    return EP_FAIL(T3_E_ARG, "window %u: bytes = %llu; allowed: a positive multiple of %llu", idx,
                   (unsigned long long)n, (unsigned long long)fb);
  if (w->net_base % fb || w->net_base > (1ull << 48) - n)
    return EP_FAIL(T3_E_ARG, "window %u: net_base = 0x%llx; allowed: a multiple of %llu with net_base + bytes <= 2^48",
                   idx, (unsigned long long)w->net_base, (unsigned long long)fb);
  if ((rc = ep_buf(e, idx, "src", w->src, n)) || (rc = ep_buf(e, idx, "dst", w->dst, n)) ||
      (rc = ep_buf(e, idx, "merge", w->merge, n)))
    return rc;
  if (w->count_base > e->hw.count_depth || lines > e->hw.count_depth - w->count_base)
    return EP_FAIL(T3_E_ARG, "window %u: count_base = %u; allowed: count_base + %llu lines <= %u (COUNT_DEPTH)", idx,
                   w->count_base, (unsigned long long)lines, e->hw.count_depth);
  if (w->expected < 2 || w->expected > 255)
    return EP_FAIL(T3_E_ARG, "window %u: expected = %u is out of range; allowed: 2..255", idx, w->expected);
  if (w->dtype > 2)
    return EP_FAIL(T3_E_ARG, "window %u: dtype = %u is out of range; allowed: 0..2 (fp16, bf16, fp32)", idx, w->dtype);
  if (w->home > 1 || w->det > 1)
    return EP_FAIL(T3_E_ARG, "window %u: home = %u, det = %u; allowed: 0 or 1 each", idx, w->home, w->det);
  if (w->home && span_overlap(w->merge, n, w->src, n))
    return EP_FAIL(T3_E_ARG, "window %u: merge = 0x%x overlaps src 0x%x; allowed: a home merges outside its contribution",
                   idx, w->merge, w->src);
  if (w->copy > 2)
    return EP_FAIL(T3_E_ARG, "window %u: copy = %u; allowed: 0 (a region), 1 (WRITEs added), 2 (WRITEs stored)", idx,
                   w->copy);
  if (w->copy && (w->home || w->det))
    return EP_FAIL(T3_E_ARG, "window %u: copy = %u with home or det; allowed: a copy window is no region's home", idx,
                   w->copy);
  if (w->det && !w->home) return EP_FAIL(T3_E_ARG, "window %u: det = 1 without home; allowed: only a home", idx);
  for (j = 0; j < 32; j++) ones += (w->contrib_mask >> j) & 1u;
  if (w->det && ones != w->expected)
    return EP_FAIL(T3_E_ARG, "window %u: contrib_mask = 0x%x has %u bits; allowed: expected (%u) bits", idx,
                   w->contrib_mask, ones, w->expected);
  if (w->det && (w->stage % fb || w->stage > e->hw.mem_bytes || staged > e->hw.mem_bytes - w->stage))
    return EP_FAIL(T3_E_ARG, "window %u: stage = 0x%x; allowed: a multiple of %llu with stage + expected x bytes <= 0x%x "
                   "(MEM_BYTES)", idx, w->stage, (unsigned long long)fb, e->hw.mem_bytes);
  if (w->det && (span_overlap(w->stage, staged, w->src, n) || span_overlap(w->stage, staged, w->dst, n) ||
                 span_overlap(w->stage, staged, w->merge, n)))
    return EP_FAIL(T3_E_ARG, "window %u: stage = 0x%x overlaps src, dst or merge; allowed: a staging area of its own",
                   idx, w->stage);
  /* Every range overlap before any counter overlap, the lowest window
   * first: the order of the endpoint's causes 17 and 18. */
  for (j = 0; j < e->hw.windows; j++)
    if (j != idx && (e->win_valid >> j & 1u) && span_overlap(w->net_base, n, e->win[j].net_base, e->win[j].bytes))
      return EP_FAIL(T3_E_ARG, "window %u: net_base = 0x%llx: the range overlaps window %u's", idx,
                     (unsigned long long)w->net_base, j);
  for (j = 0; j < e->hw.windows; j++)
    if (j != idx && (e->win_valid >> j & 1u) && !w->copy && !e->win[j].copy &&
        span_overlap(w->count_base, lines, e->win[j].count_base, e->win[j].bytes / fb))
      return EP_FAIL(T3_E_ARG, "window %u: count_base = %u: the counters overlap window %u's", idx, w->count_base, j);
  return T3_OK;
}

static int ep_window_cmd(t3_ep *e, uint32_t idx, uint32_t cmd) {
  uint32_t st;
  int rc;
  if ((rc = ep_wr(e, T3_EP_WINDOW_PAGE + T3_EP_WINDOW_A_WIN_CMD, cmd))) return rc;
  settle(e->dev, T3_EP_WINDOW_PAGE + T3_EP_WINDOW_A_STATUS);
  if ((rc = ep_rd(e, T3_EP_WINDOW_PAGE + T3_EP_WINDOW_A_STATUS, &st))) return rc;
  st = FIELD(EP_WINDOW_R, STATUS_CAUSE, st);
  if (st)
    return EP_FAIL(T3_E_REFUSED, "gpu %u: window %u refused by the endpoint: STATUS.CAUSE %u (%s)", e->gpu, idx, st,
                   st < sizeof ep_causes / sizeof ep_causes[0] ? ep_causes[st] : "?");
  return T3_OK;
}

int t3_ep_set_window(t3_ep *e, uint32_t idx, const t3_ep_window *w) {
  const uint32_t p = T3_EP_WINDOW_PAGE;
  uint32_t valid;
  int rc;
  if (!e->probed) return EP_FAIL(T3_E_NOT_PROBED, "t3_ep_set_window before t3_ep_probe");
  if (!w) return EP_FAIL(T3_E_ARG, "w: no window");
  /* The windows this driver wrote that the endpoint still holds (a reset
   * clears them): a read, not a write. */
  if ((rc = ep_rd(e, p + T3_EP_WINDOW_A_WIN_VALID, &valid))) return rc;
  e->win_valid &= valid;
  if ((rc = ep_check_window(e, idx, w))) return rc;
  if ((rc = ep_wr(e, p + T3_EP_WINDOW_A_WIN_IDX, idx)) ||
      (rc = ep_wr(e, p + T3_EP_WINDOW_A_WIN_NET_LO, (uint32_t)w->net_base)) ||
      (rc = ep_wr(e, p + T3_EP_WINDOW_A_WIN_NET_HI, (uint32_t)(w->net_base >> 32))) ||
      (rc = ep_wr(e, p + T3_EP_WINDOW_A_WIN_BYTES, w->bytes)) || (rc = ep_wr(e, p + T3_EP_WINDOW_A_WIN_SRC, w->src)) ||
      (rc = ep_wr(e, p + T3_EP_WINDOW_A_WIN_DST, w->dst)) || (rc = ep_wr(e, p + T3_EP_WINDOW_A_WIN_MERGE, w->merge)) ||
      (rc = ep_wr(e, p + T3_EP_WINDOW_A_WIN_STAGE, w->stage)) ||
      (rc = ep_wr(e, p + T3_EP_WINDOW_A_WIN_COUNT_BASE, w->count_base)) ||
      (rc = ep_wr(e, p + T3_EP_WINDOW_A_WIN_CTRL,
                  w->expected << T3_EP_WINDOW_R_WIN_CTRL_EXPECTED_SHIFT | w->dtype << T3_EP_WINDOW_R_WIN_CTRL_DTYPE_SHIFT |
                      w->home << T3_EP_WINDOW_R_WIN_CTRL_HOME_SHIFT | w->det << T3_EP_WINDOW_R_WIN_CTRL_DET_SHIFT |
                      w->copy << T3_EP_WINDOW_R_WIN_CTRL_COPY_SHIFT)) ||
      (rc = ep_wr(e, p + T3_EP_WINDOW_A_WIN_MASK, w->contrib_mask)) ||
      (rc = ep_window_cmd(e, idx, T3_EP_WINDOW_R_WIN_CMD_WRITE_MASK)))
    return rc;
  e->win[idx] = *w;
  e->win_valid |= 1u << idx;
  return T3_OK;
}

int t3_ep_clear_window(t3_ep *e, uint32_t idx) {
  int rc;
  if (!e->probed) return EP_FAIL(T3_E_NOT_PROBED, "t3_ep_clear_window before t3_ep_probe");
  if (idx >= e->hw.windows)
    return EP_FAIL(T3_E_ARG, "window index %u is out of range; allowed: 0..%u (WINDOWS)", idx, e->hw.windows - 1);
  if ((rc = ep_wr(e, T3_EP_WINDOW_PAGE + T3_EP_WINDOW_A_WIN_IDX, idx)) ||
      (rc = ep_window_cmd(e, idx, T3_EP_WINDOW_R_WIN_CMD_CLEAR_MASK)))
    return rc;
  e->win_valid &= ~(1u << idx);
  return T3_OK;
}

int t3_ep_allreduce_start(t3_ep *e, const t3_ep_allreduce *a) {
  const uint64_t fb = e->hw.flit_w / 8;
  uint64_t flits;
  uint32_t st;
  int rc;
  if (!e->probed) return EP_FAIL(T3_E_NOT_PROBED, "t3_ep_allreduce_start before t3_ep_probe");
  flits = a->bytes / fb;
  if (a->bytes == 0 || a->bytes % fb || flits >> e->hw.len_w)
    return EP_FAIL(T3_E_ARG, "bytes = %llu; allowed: a positive multiple of %llu, at most %llu flits (LEN_W %u)",
                   (unsigned long long)a->bytes, (unsigned long long)fb, (unsigned long long)((1ull << e->hw.len_w) - 1),
                   e->hw.len_w);
  if (a->local % fb || a->local > (1ull << 48) - a->bytes)
    return EP_FAIL(T3_E_ARG, "local = 0x%llx; allowed: a multiple of %llu with local + bytes <= 2^48",
                   (unsigned long long)a->local, (unsigned long long)fb);
  if (a->net % fb || a->net > (1ull << 48) - a->bytes)
    return EP_FAIL(T3_E_ARG, "net = 0x%llx; allowed: a multiple of %llu with net + bytes <= 2^48",
                   (unsigned long long)a->net, (unsigned long long)fb);
  if (a->dtype > 2) return EP_FAIL(T3_E_ARG, "dtype = %u is out of range; allowed: 0..2 (fp16, bf16, fp32)", a->dtype);
  if (a->pull > 1) return EP_FAIL(T3_E_ARG, "pull = %u; allowed: 0 (push), 1 (pull)", a->pull);
  if (a->tag > 255) return EP_FAIL(T3_E_ARG, "tag = %u is out of range; allowed: 0..255", a->tag);
  /* A request staged while the last GO waits for room would be locked
   * (the CMD_* registers answer an error): wait for nothing, say so. */
  if ((rc = ep_rd(e, T3_DMA_CREDIT_A_STATUS, &st))) return rc;
  if (st & T3_DMA_CREDIT_R_STATUS_GO_PENDING_MASK)
    return EP_FAIL(T3_E_BUSY, "gpu %u: the request queue is full (STATUS.GO_PENDING); wait for a completion", e->gpu);
  if ((rc = ep_wr(e, T3_DMA_CREDIT_A_CMD_LOCAL_LO, (uint32_t)a->local)) ||
      (rc = ep_wr(e, T3_DMA_CREDIT_A_CMD_LOCAL_HI, (uint32_t)(a->local >> 32))) ||
      (rc = ep_wr(e, T3_DMA_CREDIT_A_CMD_NET_LO, (uint32_t)a->net)) ||
      (rc = ep_wr(e, T3_DMA_CREDIT_A_CMD_NET_HI, (uint32_t)(a->net >> 32))) ||
      (rc = ep_wr(e, T3_DMA_CREDIT_A_CMD_LEN, (uint32_t)flits)) ||
      (rc = ep_wr(e, T3_DMA_CREDIT_A_CMD_CTRL,
                  a->dtype << T3_DMA_CREDIT_R_CMD_CTRL_DTYPE_SHIFT | a->pull << T3_DMA_CREDIT_R_CMD_CTRL_PULL_SHIFT |
                      e->gpu << T3_DMA_CREDIT_R_CMD_CTRL_SRC_SHIFT | a->tag << T3_DMA_CREDIT_R_CMD_CTRL_TAG_SHIFT)) ||
      (rc = ep_wr(e, T3_DMA_CREDIT_A_CMD_GO, T3_DMA_CREDIT_R_CMD_GO_GO_MASK)))
    return rc;
  return T3_OK;
}

int t3_ep_wait(t3_ep *e, uint32_t timeout_ns, t3_ep_cpl *cpl) {
  static const char *const names[8] = {"OK", "TIMEOUT", "NO_CREDIT", "BAD_LEN", "BAD_RED_OP", "BAD_DTYPE", "BAD_ADDR", "?"};
  uint64_t waited = 0;
  uint32_t head;
  int rc;
  if (!e->probed) return EP_FAIL(T3_E_NOT_PROBED, "t3_ep_wait before t3_ep_probe");
  for (;;) {
    uint32_t step;
    if ((rc = ep_rd(e, T3_DMA_CREDIT_A_CPL_HEAD, &head))) return rc;
    if (head & T3_DMA_CREDIT_R_CPL_HEAD_VALID_MASK) break;
    if (waited >= timeout_ns)
      return EP_FAIL(T3_E_TIMEOUT, "gpu %u: no completion within %u ns", e->gpu, timeout_ns);
    if (!e->dev->wait_ns)
      return EP_FAIL(T3_E_TIMEOUT, "gpu %u: no completion, and the device cannot wait (no wait_ns)", e->gpu);
    step = timeout_ns - waited < 100 ? (uint32_t)(timeout_ns - waited) : 100u; /* a poll every 100 ns */
    e->dev->wait_ns(e->dev, step);
    waited += step;
  }
  cpl->status = FIELD(DMA_CREDIT_R, CPL_HEAD_STATUS, head);
  cpl->ctr = FIELD(DMA_CREDIT_R, CPL_HEAD_CTR, head);
  cpl->tag = FIELD(DMA_CREDIT_R, CPL_HEAD_TAG, head);
  if ((rc = ep_wr(e, T3_DMA_CREDIT_A_CPL_POP, T3_DMA_CREDIT_R_CPL_POP_POP_MASK))) return rc;
  if (cpl->status)
    return EP_FAIL(T3_E_CPL, "gpu %u: request tag %u ended %s (status %u, counter %u)", e->gpu, cpl->tag,
                   names[cpl->status & 7], cpl->status, cpl->ctr);
  return T3_OK;
}

const char *t3_ep_message(const t3_ep *e) { return e->msg; }
