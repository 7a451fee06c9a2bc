/* Firmware in C, as it will run on the host: programs a Tracker region and
 * the DMA burst through the HAL, reads back, and checks that refusals and
 * timeouts come back as the HAL says. Returns 0, or the number of the first
 * check that failed. The blocks' bases are the caller's: the subsystem's
 * address map is not this test's business. */
#include "t3/dma_trigger_regs.h"
#include "t3/hal.h"
#include "t3/tracker_regs.h"

int fw_smoke(uint32_t tracker, uint32_t dma);

int fw_smoke(uint32_t tracker, uint32_t dma) {
  uint32_t v = 0;
  const uint32_t tile = (64u << T3_TRACKER_R_TILE_SIZE_SHIFT) |
                        (2u << T3_TRACKER_R_TILE_UPDATES_PER_ELEM_SHIFT);
  if (mmio_write32(tracker + T3_TRACKER_A_BASE_LO, 0x1000) != T3_MMIO_OK) return 1;
  if (mmio_write32(tracker + T3_TRACKER_A_LIMIT_LO, 0x9000) != T3_MMIO_OK) return 2;
  if (mmio_write32(tracker + T3_TRACKER_A_TILE, tile) != T3_MMIO_OK) return 3;
  if (mmio_write32(tracker + T3_TRACKER_A_CTRL, T3_TRACKER_R_CTRL_ENABLE_MASK) != T3_MMIO_OK) return 4;
  if (mmio_read32(tracker + T3_TRACKER_A_TILE, &v) != T3_MMIO_OK) return 5;
  if (((v & T3_TRACKER_R_TILE_UPDATES_PER_ELEM_MASK) >> T3_TRACKER_R_TILE_UPDATES_PER_ELEM_SHIFT) != 2)
    return 6;
  if (mmio_read32(dma + T3_DMA_TRIGGER_A_BURST, &v) != T3_MMIO_OK) return 7;
  if (v != T3_DMA_TRIGGER_R_BURST_RESET) return 8;
  if (mmio_write32(dma + T3_DMA_TRIGGER_A_BURST, 8u << T3_DMA_TRIGGER_R_BURST_LOG2_SHIFT) != T3_MMIO_OK)
    return 9;
  /* Refusals: a read-only register; an address outside every window. */
  if (mmio_write32(tracker + T3_TRACKER_A_STAT_UPDATES, 1) != T3_MMIO_ERROR) return 10;
  if (mmio_read32(0x7000, &v) != T3_MMIO_ERROR) return 11;
  /* Polls: one that matches at once, one that cannot. */
  if (mmio_poll32(tracker + T3_TRACKER_A_CTRL, 1, 1, 100) != T3_MMIO_OK) return 12;
  if (mmio_poll32(tracker + T3_TRACKER_A_CTRL, 1, 0, 100) != T3_MMIO_TIMEOUT) return 13;
  return 0;
}
