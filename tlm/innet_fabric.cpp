#include "innet_fabric.h"

#include <stdexcept>
#include <string>

#include "t3/dma_credit_regs.h"

namespace t3 {

void InnetFabricConfig::validate() const {
  sw.validate();
  ep.validate();
  auto bad = [](const std::string& f, unsigned v, const std::string& range) {
    throw std::invalid_argument("innet_fabric: " + f + " = " + std::to_string(v) + " is out of range; allowed: " + range);
  };
  if (gpus < 2 || gpus > sw.ports) bad("gpus", gpus, "2.." + std::to_string(sw.ports) + " (the switch's PORTS)");
  if (link_lat < 1 || link_lat > 10000) bad("link_lat", link_lat, "1..10000 cycles");
  if (link_cycles < 1 || link_cycles > 64) bad("link_cycles", link_cycles, "1..64 cycles a flit");
  if (ep.flit_w != sw.flit_w) bad("ep.flit_w", ep.flit_w, std::to_string(sw.flit_w) + " (the switch's FLIT_W)");
  if (ep.max_len > sw.max_len) bad("ep.max_len", ep.max_len, "1.." + std::to_string(sw.max_len) + " (the switch's MAX_LEN)");
}

FabricLink::FabricLink(unsigned lat, unsigned cycles, unsigned rx_depth)
    : lat_(lat), cycles_(cycles), credit_{rx_depth, rx_depth} {}

void FabricLink::take(unsigned k, uint64_t now) {
  rx_[k].pop_front();
  credit_back_.emplace_back(now + lat_, k);
}

void FabricLink::advance(uint64_t now) {
  while (!credit_back_.empty() && credit_back_.front().first <= now) {
    ++credit_[credit_back_.front().second];
    credit_back_.pop_front();
  }
  while (!wire_.empty() && wire_.front().due <= now) {
    rx_[wire_.front().k].push_back(wire_.front().f);
    wire_.pop_front();
  }
  if (now < next_free_) return;
  for (unsigned i = 0; i < 2; ++i) {  // the classes take turns for the wire
    const unsigned k = (rr_ + i) & 1;
    if (skid_[k].empty() || credit_[k] == 0) continue;
    --credit_[k];
    wire_.push_back(OnWire{now + lat_, k, skid_[k].front()});
    skid_[k].pop_front();
    ++sent_[k];
    next_free_ = now + cycles_;
    rr_ = k ^ 1;
    break;
  }
}

bool FabricLink::idle() const {
  return skid_[0].empty() && skid_[1].empty() && rx_[0].empty() && rx_[1].empty() && wire_.empty();
}

namespace {
const InnetFabricConfig& checked(const InnetFabricConfig& c) {
  c.validate();
  return c;
}
// A receiver's buffer per class: the round trip of a flit and its credit at
// full rate, and a whole packet.
unsigned rx_depth(const InnetFabricConfig& c) { return 2 * c.link_lat / c.link_cycles + 2 + c.ep.max_len; }
}  // namespace

InnetFabric::InnetFabric(const InnetFabricConfig& cfg, std::unique_ptr<FabricSwitch> sw)
    : cfg_(checked(cfg)), sw_(sw ? std::move(sw) : std::make_unique<ModelSwitch>(cfg_.sw)) {
  for (unsigned g = 0; g < cfg_.gpus; ++g) {
    ep_.push_back(std::make_unique<InnetEndpoint>(cfg_.ep));
    ep_.back()->set_node(uint8_t(g));
    up_.emplace_back(cfg_.link_lat, cfg_.link_cycles, rx_depth(cfg_));
    down_.emplace_back(cfg_.link_lat, cfg_.link_cycles, rx_depth(cfg_));
  }
  cmdq_.resize(cfg_.gpus);
  cpl_.resize(cfg_.gpus);
  cpl_pending_.assign(cfg_.gpus, 0);
  cpl_wait_.assign(cfg_.gpus, 0);
  ei_.resize(cfg_.gpus);
  eo_.resize(cfg_.gpus);
}

void InnetFabric::reset(unsigned cycles) {
  rst_ = true;
  for (unsigned i = 0; i < cycles; ++i) step();
  rst_ = false;
  for (unsigned g = 0; g < cfg_.gpus; ++g) {
    up_[g] = FabricLink(cfg_.link_lat, cfg_.link_cycles, rx_depth(cfg_));
    down_[g] = FabricLink(cfg_.link_lat, cfg_.link_cycles, rx_depth(cfg_));
    cmdq_[g].clear();
    cpl_[g].clear();
    cpl_pending_[g] = 0;
    cpl_wait_[g] = 0;
  }
}

bool InnetFabric::quiet() const {
  for (unsigned g = 0; g < cfg_.gpus; ++g) {
    if (!ep_[g]->idle() || !up_[g].idle() || !down_[g].idle() || !cmdq_[g].empty()) return false;
  }
  // The switch has taken and given nothing for longer than a packet takes
  // through it (the fabric sees its pins, not its queues: the RTL's too).
  return sw_idle_ > 64;
}

bool InnetFabric::switch_access(bool write, uint32_t addr, uint32_t wdata, uint32_t& rdata) {
  apb_ = ApbRequest{};
  apb_.psel = true;
  apb_.pwrite = write;
  apb_.paddr = addr;
  apb_.pwdata = wdata;
  apb_.pstrb = write ? 0xF : 0;
  step();  // setup
  apb_.penable = true;
  for (int i = 0; i < 16; ++i) {  // access, until PREADY
    step();
    if (so_.apb.pready) break;
  }
  rdata = so_.apb.prdata;
  const bool ok = so_.apb.pready && !so_.apb.pslverr;
  apb_ = ApbRequest{};
  return ok;
}

bool InnetFabric::switch_write(uint32_t addr, uint32_t data) {
  uint32_t unused;
  return switch_access(true, addr, data, unused);
}

bool InnetFabric::switch_read(uint32_t addr, uint32_t& data) { return switch_access(false, addr, 0, data); }

void InnetFabric::step() {
  const unsigned n = cfg_.gpus, fw = cfg_.sw.flit_w;
  // Every block's inputs from the links' and queues' state.
  si_ = InnetSwitchInputs{};
  si_.rst_n = !rst_;
  si_.apb = apb_;
  uint32_t all = uint32_t(low_mask(cfg_.sw.ports));
  si_.req_out_ready = si_.rsp_out_ready = all;  // ports without a GPU: drained
  for (unsigned g = 0; g < n; ++g) {
    const uint32_t b = 1u << g;
    for (unsigned k = 0; k < 2; ++k) {
      uint32_t& valid = k ? si_.rsp_in_valid : si_.req_in_valid;
      if (up_[g].valid(k)) {
        valid |= b;
        set_bus_flit(k ? si_.rsp_in_flit : si_.req_in_flit, g, fw, up_[g].front(k));
      }
      uint32_t& ready = k ? si_.rsp_out_ready : si_.req_out_ready;
      if (!down_[g].ready(k)) ready &= ~b;
    }
    InnetEndpointInputs& e = ei_[g];
    e = InnetEndpointInputs{};
    e.rst_n = !rst_;
    if (!cmdq_[g].empty()) {
      const FabricCmd& c = cmdq_[g].front();
      e.cmd_valid = true;
      e.cmd_local_addr = c.local;
      e.cmd_net_addr = c.net;
      e.cmd_len = c.len;
      e.cmd_dtype = c.dtype;
      e.cmd_pull = c.pull;
      e.cmd_src = c.src;
      e.cmd_dst = c.dst;
      e.cmd_tag = c.tag;
    }
    e.req_in_valid = down_[g].valid(0);
    if (e.req_in_valid) e.req_in_flit = down_[g].front(0);
    e.rsp_in_valid = down_[g].valid(1);
    if (e.rsp_in_valid) e.rsp_in_flit = down_[g].front(1);
    e.req_out_ready = up_[g].ready(0);
    e.rsp_out_ready = up_[g].ready(1);
  }
  sw_->step(si_, so_);
  const bool moved = (si_.req_in_valid & so_.req_in_ready) | (si_.rsp_in_valid & so_.rsp_in_ready) |
                     so_.req_out_valid | so_.rsp_out_valid;
  sw_idle_ = moved ? 0 : sw_idle_ + 1;
  for (unsigned g = 0; g < n; ++g) ep_[g]->step(ei_[g], eo_[g]);
  ++now_;
  if (rst_) return;
  // The handshakes, then the links' wires.
  for (unsigned g = 0; g < n; ++g) {
    const InnetEndpointInputs& e = ei_[g];
    const InnetEndpointOutputs& o = eo_[g];
    if (e.cmd_valid && o.cmd_ready) cmdq_[g].pop_front();
    if (o.req_out_valid && e.req_out_ready) up_[g].put(0, o.req_out_flit);
    if (o.rsp_out_valid && e.rsp_out_ready) up_[g].put(1, o.rsp_out_flit);
    if (e.req_in_valid && o.req_in_ready) down_[g].take(0, now_);
    if (e.rsp_in_valid && o.rsp_in_ready) down_[g].take(1, now_);
    for (unsigned k = 0; k < 2; ++k) {
      const uint32_t in_v = k ? si_.rsp_in_valid : si_.req_in_valid;
      const uint32_t in_r = k ? so_.rsp_in_ready : so_.req_in_ready;
      if ((in_v & in_r) >> g & 1) up_[g].take(k, now_);
      const uint32_t out_v = k ? so_.rsp_out_valid : so_.req_out_valid;
      const uint32_t out_r = k ? si_.rsp_out_ready : si_.req_out_ready;
      if ((out_v & out_r) >> g & 1) down_[g].put(k, bus_flit(k ? so_.rsp_out_flit : so_.req_out_flit, g, fw));
    }
    up_[g].advance(now_);
    down_[g].advance(now_);
    // The processor pops each completion record as it is written (its
    // register port, between clock edges as a TLM access is).
    if (o.cpl_wr && auto_pop_) ++cpl_pending_[g];
    if (cpl_wait_[g]) --cpl_wait_[g];
    else if (cpl_pending_[g]) {
      uint32_t head = 0;
      ep_[g]->tlm_read(T3_DMA_CREDIT_A_CPL_HEAD, head);
      if (!(head & T3_DMA_CREDIT_R_CPL_HEAD_VALID_MASK)) continue;  // on its way into the queue's head
      FabricCpl c;
      c.status = uint8_t((head & T3_DMA_CREDIT_R_CPL_HEAD_STATUS_MASK) >> T3_DMA_CREDIT_R_CPL_HEAD_STATUS_SHIFT);
      c.ctr = uint8_t((head & T3_DMA_CREDIT_R_CPL_HEAD_CTR_MASK) >> T3_DMA_CREDIT_R_CPL_HEAD_CTR_SHIFT);
      c.tag = uint8_t(head & T3_DMA_CREDIT_R_CPL_HEAD_TAG_MASK);
      c.cycle = now_;
      cpl_[g].push_back(c);
      ep_[g]->tlm_write(T3_DMA_CREDIT_A_CPL_POP, 1);
      --cpl_pending_[g];
      // The pop's pulse takes effect at the next edge and the next record
      // reaches the head the cycle after (docs/blocks/dma_credit.md).
      cpl_wait_[g] = 2;
    }
  }
}

}  // namespace t3
