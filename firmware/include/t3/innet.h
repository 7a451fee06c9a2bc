/* In-network collectives firmware (ISCA 2020 in-network collectives paper,
 * §IV): the fabric manager, which programs multicast regions into the
 * switches of a fabric, and the endpoint driver, which starts a GPU's
 * reductions on its DMA credit controller and waits for them. Both reach
 * their devices through t3/device.h handles.
 *
 * Same shape as the T3 driver (t3/driver.h): every call checks everything
 * first and only then writes, so a refused call writes no register; it
 * returns T3_OK (0) or a negative T3_E_* code, and t3_fm_message() /
 * t3_ep_message() name the field and its allowed range. No dynamic memory;
 * C11. docs/firmware.md, "In-network collectives", walks through a set-up.
 *
 * The endpoint's register port: page 0 (offset 0x0000) its DMA credit
 * controller, page 1 (T3_EP_WINDOW_PAGE) its translation windows
 * (docs/blocks/ep_window.md). */
#ifndef T3_INNET_H
#define T3_INNET_H

#include <stdint.h>

#include "t3/device.h"
#include "t3/driver.h"

#ifdef __cplusplus
extern "C" {
#endif

#define T3_E_CPL (-20)     /* a reduction ended with an error status (t3_ep_wait) */
#define T3_E_BUSY (-21)    /* the region index holds a region / the request queue is full */
#define T3_E_REFUSED (-22) /* a switch refused a region command (its STATUS.CMD_CODE), an endpoint a window (STATUS.CAUSE) */

#define T3_FM_MAX_SWITCHES 8
#define T3_FM_MAX_REGIONS 64

/* Switch windows (t3/innet_switch_map.h). */
typedef struct {
  uint32_t mcr_in, reduction_table, mcr_out;
} t3_fm_windows;

/* A region as one switch holds it (docs/blocks/mcr_table.md). ports == 0:
 * the region does not touch this switch. */
typedef struct {
  uint64_t base, size; /* an aligned power of two */
  uint32_t ports;      /* participating ports (bit per port) */
  uint32_t expect;     /* contributions a reduction in this switch waits for */
  uint32_t home;       /* the port towards the region's home */
  uint32_t root;       /* 1: this switch reduces the region's PUSHes (0: forwards them to home) */
  uint32_t dtype;      /* 0 fp16, 1 bf16, 2 fp32 */
} t3_fm_region;

typedef struct {
  uint32_t ports, regions, max_len, flit_w, entries, timeout_w;
} t3_fm_hw;

typedef struct {
  t3_device *sw[T3_FM_MAX_SWITCHES];
  uint32_t n;
  t3_fm_windows win;
  t3_fm_hw hw[T3_FM_MAX_SWITCHES];
  int probed;
  t3_fm_region rgn[T3_FM_MAX_SWITCHES][T3_FM_MAX_REGIONS];
  uint64_t used[T3_FM_MAX_SWITCHES]; /* bit per region index */
  char msg[192];
} t3_fabric;

int t3_fm_init(t3_fabric *f, t3_device *const *switches, uint32_t n, const t3_fm_windows *win);
/* Reads every switch's PARAM_* registers: the checks are made against them. */
int t3_fm_probe(t3_fabric *f);
/* Region idx on every switch i with per_switch[i].ports != 0 (n entries, one
 * per switch), in both region tables of each (mcr_in, mcr_out). */
int t3_fm_region_create(t3_fabric *f, uint32_t idx, const t3_fm_region *per_switch);
int t3_fm_region_destroy(t3_fabric *f, uint32_t idx);
/* The reduction table's idle limit on switch sw (0: no timeouts). */
int t3_fm_set_timeout(t3_fabric *f, uint32_t sw, uint32_t cycles);
const char *t3_fm_message(const t3_fabric *f);

/* The endpoint driver: one GPU's DMA credit controller (its window at
 * offset 0 of the endpoint's register port). */
#define T3_EP_WINDOW_PAGE 0x1000u
#define T3_EP_MAX_WINDOWS 16

typedef struct {
  uint32_t ctrs, max_len, len_w, flit_w, cmd_depth, cpl_depth, timeout_w;
  uint32_t windows, count_depth, mem_bytes; /* the windows' (ep_window's PARAM_*) */
} t3_ep_hw;

/* A translation window (docs/blocks/ep_window.md): a region's network range
 * and what this GPU keeps for it in local memory. */
typedef struct {
  uint64_t net_base;     /* the range [net_base, net_base + bytes) */
  uint32_t bytes;        /* a positive multiple of the flit's bytes */
  uint32_t src;          /* this GPU's contribution */
  uint32_t dst;          /* where the reduced buffer goes */
  uint32_t merge;        /* a home's merge area (clear of src) */
  uint32_t stage;        /* a deterministic home's staging area, expected x bytes */
  uint32_t count_base;   /* its first contribution counter (bytes / flit bytes of them) */
  uint32_t expected;     /* the region's contributors, 2..255 */
  uint32_t dtype;        /* 0 fp16, 1 bf16, 2 fp32 */
  uint32_t home;         /* 1: this GPU is the region's home */
  uint32_t det;          /* 1: deterministic home (stages, adds in rank order) */
  uint32_t copy;         /* 0 a region's; a plain copy's: 1 WRITEs added, 2 WRITEs stored */
  uint32_t contrib_mask; /* det: the contributors' GPU ids, expected bits */
} t3_ep_window;

typedef struct {
  t3_device *dev;
  uint32_t gpu;
  t3_ep_hw hw;
  int probed;
  /* The windows this driver wrote (its overlap checks; the hardware checks
   * against every window as well). */
  t3_ep_window win[T3_EP_MAX_WINDOWS];
  uint32_t win_valid;
  char msg[192];
} t3_ep;

/* An all-reduce of this GPU's buffer over a region (its window set with
 * t3_ep_set_window first). */
typedef struct {
  uint64_t local;   /* the buffer in local memory */
  uint64_t net;     /* the region's network address of its first byte */
  uint64_t bytes;   /* a multiple of the flit's bytes */
  uint32_t dtype;   /* 0 fp16, 1 bf16, 2 fp32 */
  uint32_t pull;    /* 0 push mode, 1 pull mode */
  uint32_t tag;     /* echoed in the completion */
} t3_ep_allreduce;

typedef struct {
  uint32_t status; /* 0 OK, 1 TIMEOUT, 2 NO_CREDIT, 3 BAD_LEN, 4 BAD_RED_OP, 5 BAD_DTYPE, 6 BAD_ADDR */
  uint32_t ctr, tag;
} t3_ep_cpl;

int t3_ep_init(t3_ep *e, t3_device *dev, uint32_t gpu);
int t3_ep_probe(t3_ep *e);
/* INJ_LIMIT (packets outstanding; 0 pauses) and TIMEOUT (cycles; 0 none). */
int t3_ep_configure(t3_ep *e, uint32_t inj_limit, uint32_t timeout_cycles);
/* Window idx, checked (every rule of docs/blocks/ep_window.md, against the
 * windows this driver wrote that the endpoint still holds: WIN_VALID is read
 * first), then written through page 1 and its STATUS read back:
 * T3_E_REFUSED names the cause the endpoint gave (a window written behind
 * the driver's back in the way). */
int t3_ep_set_window(t3_ep *e, uint32_t idx, const t3_ep_window *w);
int t3_ep_clear_window(t3_ep *e, uint32_t idx);
int t3_ep_allreduce_start(t3_ep *e, const t3_ep_allreduce *a);
/* Waits up to timeout_ns for the oldest completion, pops it into *cpl.
 * T3_E_TIMEOUT: none came; T3_E_CPL: it came with an error status (named). */
int t3_ep_wait(t3_ep *e, uint32_t timeout_ns, t3_ep_cpl *cpl);
const char *t3_ep_message(const t3_ep *e);

#ifdef __cplusplus
}
#endif

#endif /* T3_INNET_H */
