/* A device handle: the HAL of firmware that drives several devices at once
 * (the fabric manager: every switch of a fabric; the endpoint driver: one
 * GPU's endpoint among several). Where t3/hal.h gives one global address
 * space, each call here names its device; the host fills the handle (its
 * accessors reach that device's register port: a TLM socket, a
 * co-simulated APB port, or on silicon a mapped BAR).
 *
 * Every accessor returns 0 or a negative T3_MMIO_* code (t3/hal.h). */
#ifndef T3_DEVICE_H
#define T3_DEVICE_H

#include <stdint.h>

#include "t3/hal.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct t3_device t3_device;
struct t3_device {
  int (*write32)(t3_device *d, uint32_t offset, uint32_t value);
  int (*read32)(t3_device *d, uint32_t offset, uint32_t *value);
  /* Lets ns of (simulated) time pass: what a poll waits between reads. */
  void (*wait_ns)(t3_device *d, uint32_t ns);
  void *host; /* the host's own */
};

#ifdef __cplusplus
}
#endif

#endif /* T3_DEVICE_H */
