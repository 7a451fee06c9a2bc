#include "innet_devices.h"

#include "dma_credit/dma_credit_regs.h"
#include "ep_window/ep_window_regs.h"
#include "mcr_table/mcr_table_regs.h"
#include "reduction_table/reduction_table_regs.h"
#include "t3/innet.h"
#include "t3/innet_switch_map.h"

namespace t3 {

InnetDevices::InnetDevices(InnetFabric& f)
    : f_(f),
      sw_names_({{"mcr_in", T3_INNET_SWITCH_MCR_IN_BASE, McrTableRegMap::kInfo, McrTableRegMap::kCount},
                 {"reduction_table", T3_INNET_SWITCH_REDUCTION_TABLE_BASE, ReductionTableRegMap::kInfo,
                  ReductionTableRegMap::kCount},
                 {"mcr_out", T3_INNET_SWITCH_MCR_OUT_BASE, McrTableRegMap::kInfo, McrTableRegMap::kCount}}),
      ep_names_({{"dma_credit", 0, DmaCreditRegMap::kInfo, DmaCreditRegMap::kCount},
                 {"ep_window", T3_EP_WINDOW_PAGE, EpWindowRegMap::kInfo, EpWindowRegMap::kCount}}) {
  for (unsigned s = 0; s < f.switches(); ++s) dev_.push_back(Dev{t3_device{}, this, -1, s});
  for (unsigned g = 0; g < f.config().gpus; ++g) dev_.push_back(Dev{t3_device{}, this, int(g), 0});
  for (Dev& d : dev_) {
    d.dev.write32 = write32;
    d.dev.read32 = read32;
    d.dev.wait_ns = wait_ns;
    d.dev.host = &d;
  }
}

void InnetDevices::log(const Dev& d, bool write, uint32_t off, uint32_t v, bool ok) {
  const RegTrace& names = d.gpu < 0 ? sw_names_ : ep_names_;
  trace_ << (d.gpu < 0 ? "switch" + std::to_string(d.sw) + " " : "gpu" + std::to_string(d.gpu) + " ")
         << names.line(std::to_string(f_.cycle()), write, off, v, ok ? "" : "PSLVERR") << "\n";
}

int InnetDevices::write32(t3_device* dv, uint32_t off, uint32_t v) {
  Dev& d = *static_cast<Dev*>(dv->host);
  InnetFabric& f = d.self->f_;
  const bool ok = d.gpu < 0 ? f.switch_write(off, v, d.sw) : f.ep(unsigned(d.gpu)).tlm_write(off, v) == RegStatus::ok;
  d.self->log(d, true, off, v, ok);
  return ok ? T3_MMIO_OK : T3_MMIO_ERROR;
}

int InnetDevices::read32(t3_device* dv, uint32_t off, uint32_t* v) {
  Dev& d = *static_cast<Dev*>(dv->host);
  InnetFabric& f = d.self->f_;
  const bool ok = d.gpu < 0 ? f.switch_read(off, *v, d.sw) : f.ep(unsigned(d.gpu)).tlm_read(off, *v) == RegStatus::ok;
  d.self->log(d, false, off, *v, ok);
  return ok ? T3_MMIO_OK : T3_MMIO_ERROR;
}

void InnetDevices::wait_ns(t3_device* dv, uint32_t ns) {
  InnetFabric& f = static_cast<Dev*>(dv->host)->self->f_;
  for (uint32_t i = 0; i < ns; ++i) f.step();
}

}  // namespace t3
