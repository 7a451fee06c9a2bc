// The register port every block has: an AMBA APB (APB4) slave, as the
// generated register blocks (rtl/<block>_reg_top.sv, rtl/reg_apb.sv)
// implement it, plus the block's interrupt line. A block's pin list
// (hw/<block>/<block>_pins.h) includes T3_APB_PINS; its Inputs carry an
// ApbRequest `apb`, its Outputs an ApbResponse `apb` and `intr`.
#pragma once

#include <cstdint>

namespace t3 {

// A 4 KiB register window: paddr_i's width (REG_AW of the generated packages).
inline constexpr unsigned kApbAddrBits = 12;

struct ApbRequest {
  bool psel = false;
  bool penable = false;  // the access phase (psel too); a transfer is setup then access
  bool pwrite = false;
  uint32_t paddr = 0;    // byte offset in the block's window
  uint32_t pwdata = 0;
  uint32_t pstrb = 0;    // APB4 byte strobes (writes)

  // & not &&: a model asks every cycle, and a short-circuit is a second
  // branch on the traffic.
  bool access() const { return psel & penable; }
};

struct ApbResponse {
  uint32_t prdata = 0;   // a read's data in its access phase, else 0
  bool pready = false;   // the register blocks have no wait states: always 1
  bool pslverr = false;  // the access phase's transfer was refused
};

}  // namespace t3

// The register port's pins, for a block's pin list (hw/common/pins.h), with
// an address of aw bits (a block's window: kApbAddrBits; a subsystem's
// several windows: more).
#define T3_APB_PINS_W(X, aw)                                  \
  X(in,  psel_i,    1,                    apb.psel)           \
  X(in,  penable_i, 1,                    apb.penable)        \
  X(in,  pwrite_i,  1,                    apb.pwrite)         \
  X(in,  paddr_i,   aw,                   apb.paddr)          \
  X(in,  pwdata_i,  32,                   apb.pwdata)         \
  X(in,  pstrb_i,   4,                    apb.pstrb)          \
  X(out, prdata_o,  32,                   apb.prdata)         \
  X(out, pready_o,  1,                    apb.pready)         \
  X(out, pslverr_o, 1,                    apb.pslverr)        \
  X(out, intr_o,    1,                    intr)
#define T3_APB_PINS(X) T3_APB_PINS_W(X, ::t3::kApbAddrBits)
