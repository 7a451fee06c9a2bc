#include "innet_gpu.h"

#include <stdexcept>
#include <string>

#include "common/hex.h"
#include "ep_window/ep_window_writes.h"
#include "t3/ep_det_regs.h"
#include "t3/ep_home_regs.h"
#include "t3/ep_req_regs.h"
#include "t3/ep_rx_regs.h"
#include "t3/ep_tx_regs.h"
#include "t3/innet_endpoint_map.h"

namespace t3 {

namespace {
unsigned checked_lat(unsigned lat) {
  if (lat < 1 || lat > 1000)
    throw std::invalid_argument("innet_fabric: mem_lat = " + std::to_string(lat) + " is out of range; allowed: 1..1000 cycles");
  return lat;
}
}  // namespace

FabricGpu::FabricGpu(const InnetEndpointParams& p, unsigned mem_lat)
    : ep_(p), mem_(p, checked_lat(mem_lat)), win_rx_(p.windows, 0) {}

void FabricGpu::step(InnetEndpointInputs& in, InnetEndpointOutputs& out) { clock(in, out, true); }

void FabricGpu::clock(InnetEndpointInputs& in, InnetEndpointOutputs& out, bool copies) {
  in.node = node_;
  mem_.drive(in);
  in.cp_valid = false;
  if (copies && !sendq_.empty() && in.rst_n) {
    const Send& s = sendq_.front();
    in.cp_valid = true;
    in.cp_local = s.local;
    in.cp_net = s.net;
    in.cp_flits = s.flits;
    in.cp_dst = s.dst;
  }
  ep_.step(in, out);
  mem_.after(in, out);
  idle_ = out.idle;
  if (!in.rst_n) {
    sendq_.clear();
    node_written_ = false;
    return;
  }
  // The GPU's boot writes ep_tx's NODE equal to the strap (the copies'
  // src; docs/blocks/innet_endpoint.md, choice 3), between the edges as a
  // register access from the processor is.
  if (!node_written_) {
    ep_.tlm_write(T3_INNET_ENDPOINT_EP_TX_BASE + T3_EP_TX_A_NODE, node_);
    node_written_ = true;
  }
  if (out.cp_done) sendq_.pop_front();
  if (out.cp_rx) ++win_rx_.at(out.cp_win);
}

void FabricGpu::set_window(unsigned i, const EpWin& w) {
  const EpWindowParams wp = ep_.params().ep_window();
  if (w.valid) {
    const EpWinVerdict v = check_window(wp, &ep_.ep_window().core().window(0), i, w);
    if (v.cause != EpWinCause::none) throw std::invalid_argument(describe(wp, v, i, w));
  } else if (i >= wp.windows) {
    throw std::invalid_argument(describe(wp, EpWinVerdict{EpWinCause::index, 0}, i, w));
  }
  for (const EpWinWrite& a : ep_window_writes(i, w))
    if (ep_.tlm_write(T3_INNET_ENDPOINT_EP_WINDOW_BASE + a.offset, a.data) != RegStatus::ok)
      throw std::logic_error("innet_fabric: ep_window register " + hex(a.offset) + " refused");
  // The command's pulse, then the write: two cycles with nothing offered
  // on the fabric port (the readies low) and no request or copy.
  for (int c = 0; c < 2; ++c) {
    InnetEndpointInputs in;
    InnetEndpointOutputs out;
    in.rst_n = true;
    clock(in, out, false);
  }
}

const EpWin& FabricGpu::window(unsigned i) const {
  if (i >= params().windows)
    throw std::out_of_range("innet_fabric: window " + std::to_string(i) + " is out of range; allowed: 0.." +
                            std::to_string(params().windows - 1));
  return ep_.ep_window().core().window(i);
}

void FabricGpu::send(uint64_t local, uint64_t net, uint32_t flits, uint8_t dst) {
  if (flits == 0) throw std::invalid_argument("innet_fabric: send flits = 0 is out of range; allowed: 1..2^32-1");
  sendq_.push_back(Send{local, net, flits, dst});
}

uint32_t FabricGpu::reg(uint32_t offset) const {
  uint32_t v = 0;
  if (ep_.tlm_read(offset, v) != RegStatus::ok)
    throw std::logic_error("innet_fabric: endpoint register " + hex(offset) + " refused a read");
  return v;
}

FabricGpuStats FabricGpu::stats() const {
  FabricGpuStats s;
  s.pushes = reg(T3_INNET_ENDPOINT_EP_TX_BASE + T3_EP_TX_A_STAT_PUSHES);
  s.pulls = reg(T3_INNET_ENDPOINT_EP_TX_BASE + T3_EP_TX_A_STAT_PULLS);
  s.pull_answers = reg(T3_INNET_ENDPOINT_EP_REQ_BASE + T3_EP_REQ_A_STAT_PULLS);
  s.staged = reg(T3_INNET_ENDPOINT_EP_REQ_BASE + T3_EP_REQ_A_STAT_PUSHES);
  s.results = reg(T3_INNET_ENDPOINT_EP_RX_BASE + T3_EP_RX_A_STAT_RESULTS);
  s.pull_rsps = reg(T3_INNET_ENDPOINT_EP_RX_BASE + T3_EP_RX_A_STAT_PULL_RSPS);
  s.partials = reg(T3_INNET_ENDPOINT_EP_RX_BASE + T3_EP_RX_A_STAT_PARTIALS);
  s.home_results = reg(T3_INNET_ENDPOINT_EP_HOME_BASE + T3_EP_HOME_A_STAT_RESULTS);
  s.home_sweeps = reg(T3_INNET_ENDPOINT_EP_HOME_BASE + T3_EP_HOME_A_STAT_SWEEPS);
  s.home_lost = reg(T3_INNET_ENDPOINT_EP_HOME_BASE + T3_EP_HOME_A_STAT_LOST);
  s.det_lines = reg(T3_INNET_ENDPOINT_EP_DET_BASE + T3_EP_DET_A_STAT_LINES);
  s.dropped = uint64_t(reg(T3_INNET_ENDPOINT_EP_RX_BASE + T3_EP_RX_A_STAT_DROPS)) +
              reg(T3_INNET_ENDPOINT_EP_REQ_BASE + T3_EP_REQ_A_STAT_DROPS);
  s.mem_reads = mem_.reads();
  s.mem_writes = mem_.writes();
  s.mem_adds = mem_.adds();
  return s;
}

EpRxCause FabricGpu::rx_cause() const {
  return EpRxCause((reg(T3_INNET_ENDPOINT_EP_RX_BASE + T3_EP_RX_A_STATUS) & T3_EP_RX_R_STATUS_CAUSE_MASK) >>
                   T3_EP_RX_R_STATUS_CAUSE_SHIFT);
}

EpReqCause FabricGpu::req_cause() const {
  return EpReqCause((reg(T3_INNET_ENDPOINT_EP_REQ_BASE + T3_EP_REQ_A_STATUS) & T3_EP_REQ_R_STATUS_CAUSE_MASK) >>
                    T3_EP_REQ_R_STATUS_CAUSE_SHIFT);
}

std::string FabricGpu::errors() const {
  const uint32_t rx = reg(T3_INNET_ENDPOINT_EP_RX_BASE + T3_EP_RX_A_STAT_DROPS),
                 rq = reg(T3_INNET_ENDPOINT_EP_REQ_BASE + T3_EP_REQ_A_STAT_DROPS);
  std::string s;
  if (rx) s += "ep_rx dropped " + std::to_string(rx) + " (last: " + name(rx_cause()) + ")";
  if (rq) s += std::string(s.empty() ? "" : ", ") + "ep_req dropped " + std::to_string(rq) + " (last: " + name(req_cause()) + ")";
  return s;
}

unsigned FabricGpu::open_lines() const {
  const EpCountCore& c = ep_.ep_count().core();
  unsigned n = 0;
  for (uint32_t l = 0; l < params().count_depth; ++l) n += c.count(l) != 0;
  return n;
}

}  // namespace t3
