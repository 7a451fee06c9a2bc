#include "innet_fabric_sc.h"

#include <cstring>

#include "dma_credit/dma_credit_regs.h"
#include "mcr_table/mcr_table_regs.h"
#include "reduction_table/reduction_table_regs.h"
#include "t3/innet_switch_map.h"

namespace t3 {

InnetFabricSc::InnetFabricSc(sc_core::sc_module_name name, InnetFabric& fabric, sc_core::sc_time period)
    : sc_module(name), f_(fabric), period_(period) {
  const unsigned n = f_.switches() + f_.config().gpus;
  for (unsigned d = 0; d < n; ++d) {
    sockets_.push_back(std::make_unique<tlm_utils::simple_target_socket_tagged<InnetFabricSc>>(
        ("dev" + std::to_string(d)).c_str()));
    sockets_.back()->register_b_transport(this, &InnetFabricSc::b_transport, int(d));
  }
  for (unsigned s = 0; s < f_.switches(); ++s) sw_access_.push_back(std::make_unique<Access>());
  SC_THREAD(clock);
}

std::vector<Window> InnetFabricSc::windows() const {
  std::vector<Window> w;
  for (unsigned d = 0; d < devices(); ++d) {
    const bool sw = d < f_.switches();
    w.push_back(Window{sw ? "switch" + std::to_string(d) : "gpu" + std::to_string(d - f_.switches()),
                       d * kDeviceSpan, kDeviceSpan});
  }
  return w;
}

void InnetFabricSc::clock() {
  for (;;) {
    // A switch's access: its setup cycle, then access cycles until PREADY.
    for (unsigned s = 0; s < f_.switches(); ++s) {
      Access& a = *sw_access_[s];
      ApbRequest& r = f_.apb(s);
      r = ApbRequest{};
      if (!a.busy) continue;
      r.psel = true;
      r.penable = a.access_phase;
      r.pwrite = a.write;
      r.paddr = a.addr;
      r.pwdata = a.wdata;
      r.pstrb = a.write ? 0xF : 0;
    }
    f_.step();
    for (unsigned s = 0; s < f_.switches(); ++s) {
      Access& a = *sw_access_[s];
      if (!a.busy) continue;
      if (!a.access_phase) {
        a.access_phase = true;
      } else if (f_.apb_answer(s).pready) {
        a.rdata = f_.apb_answer(s).prdata;
        a.ok = !f_.apb_answer(s).pslverr;
        a.busy = false;
        a.done.notify(sc_core::SC_ZERO_TIME);
      }
    }
    wait(period_);
  }
}

void InnetFabricSc::b_transport(int id, tlm::tlm_generic_payload& t, sc_core::sc_time& delay) {
  wait(delay);
  delay = sc_core::SC_ZERO_TIME;
  if (t.get_data_length() != 4 || (t.get_address() & 3) || t.get_address() >= kDeviceSpan) {
    t.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
    return;
  }
  const bool write = t.is_write();
  const uint32_t addr = uint32_t(t.get_address());
  uint32_t v = 0;
  if (write) std::memcpy(&v, t.get_data_ptr(), 4);
  bool ok;
  if (unsigned(id) < f_.switches()) {
    Access& a = *sw_access_[unsigned(id)];
    while (a.busy) wait(a.done);
    a.busy = true;
    a.access_phase = false;
    a.write = write;
    a.addr = addr;
    a.wdata = v;
    wait(a.done);
    ok = a.ok;
    v = a.rdata;
  } else {
    FabricGpu& e = f_.ep(unsigned(id) - f_.switches());
    ok = (write ? e.tlm_write(addr, v) : e.tlm_read(addr, v)) == RegStatus::ok;
    wait(period_);  // a register access takes a cycle
  }
  if (!write && ok) std::memcpy(t.get_data_ptr(), &v, 4);
  t.set_response_status(ok ? tlm::TLM_OK_RESPONSE : tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

TlmDevices::TlmDevices(Host& host, unsigned devices) {
  for (unsigned d = 0; d < devices; ++d) {
    Dev x;
    x.dev.write32 = [](t3_device* dv, uint32_t off, uint32_t v) {
      const Dev& me = *static_cast<Dev*>(dv->host);
      return me.host->write32(me.base + off, v);
    };
    x.dev.read32 = [](t3_device* dv, uint32_t off, uint32_t* v) {
      const Dev& me = *static_cast<Dev*>(dv->host);
      return me.host->read32(me.base + off, *v);
    };
    x.dev.wait_ns = [](t3_device*, uint32_t ns) { sc_core::wait(sc_core::sc_time(ns, sc_core::SC_NS)); };
    x.host = &host;
    x.base = uint32_t(d * InnetFabricSc::kDeviceSpan);
    dev_.push_back(x);
  }
  for (Dev& x : dev_) x.dev.host = &x;
}

std::vector<TraceWindow> innet_trace_windows(const InnetFabric& f) {
  std::vector<TraceWindow> w;
  for (unsigned s = 0; s < f.switches(); ++s) {
    const uint64_t b = s * InnetFabricSc::kDeviceSpan;
    const std::string p = s ? "switch" + std::to_string(s) + "." : "";  // switch 0 named as its blocks alone
    w.push_back({p + "mcr_in", b + T3_INNET_SWITCH_MCR_IN_BASE, McrTableRegMap::kInfo, McrTableRegMap::kCount});
    w.push_back({p + "reduction_table", b + T3_INNET_SWITCH_REDUCTION_TABLE_BASE, ReductionTableRegMap::kInfo,
                 ReductionTableRegMap::kCount});
    w.push_back({p + "mcr_out", b + T3_INNET_SWITCH_MCR_OUT_BASE, McrTableRegMap::kInfo, McrTableRegMap::kCount});
  }
  for (unsigned g = 0; g < f.config().gpus; ++g)
    w.push_back({"gpu" + std::to_string(g) + ".dma_credit", (f.switches() + g) * InnetFabricSc::kDeviceSpan,
                 DmaCreditRegMap::kInfo, DmaCreditRegMap::kCount});
  return w;
}

}  // namespace t3
