/* The firmware's hardware access layer: 32-bit memory-mapped register
 * accesses. On silicon these are volatile loads and stores; under the system
 * model the TLM host (tlm/host.h) implements them with TLM-2.0 transactions,
 * so the same firmware runs against the models and the RTL.
 *
 * Every call returns 0, or a negative T3_MMIO_* code: the access failed
 * (the register block answered an error: no register there, a read-only
 * register, a busy-locked one while busy) or a poll timed out.
 */
#ifndef T3_HAL_H
#define T3_HAL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define T3_MMIO_OK 0
#define T3_MMIO_ERROR (-1)   /* the access was refused; nothing changed */
#define T3_MMIO_TIMEOUT (-2) /* mmio_poll32: the value did not come in time */

int mmio_write32(uint32_t addr, uint32_t value);
int mmio_read32(uint32_t addr, uint32_t *value);
/* Reads addr until (value & mask) == want, for at most timeout_ns of
 * simulated (or real) time. */
int mmio_poll32(uint32_t addr, uint32_t mask, uint32_t want, uint32_t timeout_ns);

#ifdef __cplusplus
}
#endif

#endif /* T3_HAL_H */
