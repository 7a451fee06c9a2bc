#include "innet_fabric.h"

#include <stdexcept>
#include <string>

#include "t3/dma_credit_regs.h"

namespace t3 {

void InnetFabricConfig::validate() const {
  auto bad = [](const std::string& f, unsigned v, const std::string& range) {
    throw std::invalid_argument("innet_fabric: " + f + " = " + std::to_string(v) + " is out of range; allowed: " + range);
  };
  if (leaves == 1 || leaves > 16) bad("leaves", leaves, "0 (one switch), 2..16");
  if (leaves) {
    if (gpus < 2 * leaves || gpus % leaves || gpus > 32)
      bad("gpus", gpus, "a multiple of leaves (" + std::to_string(leaves) + "), 2 per leaf at least, 32 at most");
    if (gpus / leaves + 1 > 16) bad("gpus", gpus, "at most 15 per leaf (a leaf's PORTS: its GPUs and the up port, 2..16)");
  } else if (gpus < 2 || gpus > sw.ports) {
    bad("gpus", gpus, "2.." + std::to_string(sw.ports) + " (the switch's PORTS)");
  }
  for (unsigned s = 0; s < switches(); ++s) switch_params(s).validate();
  ep.validate();
  if (mem_lat < 1 || mem_lat > 1000) bad("mem_lat", mem_lat, "1..1000 cycles");
  if (link_lat < 1 || link_lat > 10000) bad("link_lat", link_lat, "1..10000 cycles");
  if (link_cycles < 1 || link_cycles > 64) bad("link_cycles", link_cycles, "1..64 cycles a flit");
  if (ep.flit_w != sw.flit_w) bad("ep.flit_w", ep.flit_w, std::to_string(sw.flit_w) + " (the switch's FLIT_W)");
  if (ep.max_len > sw.max_len) bad("ep.max_len", ep.max_len, "1.." + std::to_string(sw.max_len) + " (the switch's MAX_LEN)");
}

InnetSwitchParams InnetFabricConfig::switch_params(unsigned s) const {
  InnetSwitchParams p = sw;
  if (leaves) p.ports = s < leaves ? per_leaf() + 1 : leaves;
  return p;
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

InnetFabric::InnetFabric(const InnetFabricConfig& cfg, std::unique_ptr<FabricSwitch> sw, unsigned sw_index)
    : cfg_(checked(cfg)) {
  const unsigned n = cfg_.switches();
  if (sw && sw_index >= n)
    throw std::invalid_argument("innet_fabric: sw_index = " + std::to_string(sw_index) + " is out of range; allowed: 0.." +
                                std::to_string(n - 1));
  for (unsigned s = 0; s < n; ++s) {
    if (sw && s == sw_index) sw_.push_back(std::move(sw));
    else sw_.push_back(std::make_unique<ModelSwitch>(cfg_.switch_params(s)));
    ports_.emplace_back(cfg_.switch_params(s).ports);
  }
  for (unsigned g = 0; g < cfg_.gpus; ++g) {
    ep_.push_back(std::make_unique<FabricGpu>(cfg_.ep, cfg_.mem_lat));
    ep_.back()->set_node(uint8_t(g));
    Port& p = ports_[cfg_.gpu_switch(g)][cfg_.gpu_port(g)];
    gpu_up_.push_back(p.in = add_link());
    gpu_down_.push_back(p.out = add_link());
  }
  for (unsigned l = 0; l < cfg_.leaves; ++l) {  // leaf l's up port <-> the spine's port l
    Port& up = ports_[l][cfg_.per_leaf()];
    Port& down = ports_[cfg_.leaves][l];
    up.out = down.in = add_link();
    down.out = up.in = add_link();
  }
  apb_.resize(n);
  si_.resize(n);
  so_.resize(n);
  cmdq_.resize(cfg_.gpus);
  cpl_.resize(cfg_.gpus);
  cpl_pending_.assign(cfg_.gpus, 0);
  cpl_wait_.assign(cfg_.gpus, 0);
  ei_.resize(cfg_.gpus);
  eo_.resize(cfg_.gpus);
}

int InnetFabric::add_link() {
  links_.emplace_back(cfg_.link_lat, cfg_.link_cycles, rx_depth(cfg_));
  return int(links_.size() - 1);
}

void InnetFabric::reset(unsigned cycles) {
  rst_ = true;
  for (unsigned i = 0; i < cycles; ++i) step();
  rst_ = false;
  for (FabricLink& l : links_) l = FabricLink(cfg_.link_lat, cfg_.link_cycles, rx_depth(cfg_));
  for (unsigned g = 0; g < cfg_.gpus; ++g) {
    cmdq_[g].clear();
    cpl_[g].clear();
    cpl_pending_[g] = 0;
    cpl_wait_[g] = 0;
  }
  unconnected_ = 0;
  auto all_idle = [&] {
    for (const auto& e : ep_)
      if (!e->idle()) return false;
    return true;
  };
  const unsigned walk = cfg_.ep.count_depth + 8;
  for (unsigned i = 0; i < walk && !all_idle(); ++i) step();
  if (!all_idle())
    throw std::logic_error("innet_fabric: an endpoint is not idle " + std::to_string(walk) + " cycles after reset");
  unconnected_ = 0;
}

bool InnetFabric::quiet() const {
  for (unsigned g = 0; g < cfg_.gpus; ++g)
    if (!ep_[g]->idle() || !cmdq_[g].empty()) return false;
  for (const FabricLink& l : links_)
    if (!l.idle()) return false;
  // The switches have taken and given nothing for longer than a packet takes
  // through one (the fabric sees their pins, not their queues: the RTL's too).
  return sw_idle_ > 64;
}

bool InnetFabric::switch_access(unsigned s, bool write, uint32_t addr, uint32_t wdata, uint32_t& rdata) {
  ApbRequest& a = apb_.at(s);
  a = ApbRequest{};
  a.psel = true;
  a.pwrite = write;
  a.paddr = addr;
  a.pwdata = wdata;
  a.pstrb = write ? 0xF : 0;
  step();  // setup
  a.penable = true;
  for (int i = 0; i < 16; ++i) {  // access, until PREADY
    step();
    if (so_[s].apb.pready) break;
  }
  rdata = so_[s].apb.prdata;
  const bool ok = so_[s].apb.pready && !so_[s].apb.pslverr;
  a = ApbRequest{};
  return ok;
}

bool InnetFabric::switch_write(uint32_t addr, uint32_t data, unsigned s) {
  uint32_t unused;
  return switch_access(s, true, addr, data, unused);
}

bool InnetFabric::switch_read(uint32_t addr, uint32_t& data, unsigned s) { return switch_access(s, false, addr, 0, data); }

void InnetFabric::step() {
  const unsigned fw = cfg_.sw.flit_w;
  // Every block's inputs from the links' and queues' state.
  for (unsigned s = 0; s < sw_.size(); ++s) {
    InnetSwitchInputs& in = si_[s];
    in = InnetSwitchInputs{};
    in.rst_n = !rst_;
    in.apb = apb_[s];
    const std::vector<Port>& ps = ports_[s];
    in.req_out_ready = in.rsp_out_ready = uint32_t(low_mask(unsigned(ps.size())));  // nothing attached: drained (counted)
    for (unsigned p = 0; p < ps.size(); ++p) {
      const uint32_t b = 1u << p;
      for (unsigned k = 0; k < 2; ++k) {
        if (ps[p].in >= 0 && links_[ps[p].in].valid(k)) {
          (k ? in.rsp_in_valid : in.req_in_valid) |= b;
          set_bus_flit(k ? in.rsp_in_flit : in.req_in_flit, p, fw, links_[ps[p].in].front(k));
        }
        if (ps[p].out >= 0 && !links_[ps[p].out].ready(k)) (k ? in.rsp_out_ready : in.req_out_ready) &= ~b;
      }
    }
  }
  for (unsigned g = 0; g < cfg_.gpus; ++g) {
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
    const FabricLink& down = links_[gpu_down_[g]];
    const FabricLink& up = links_[gpu_up_[g]];
    e.req_in_valid = down.valid(0);
    if (e.req_in_valid) e.req_in_flit = down.front(0);
    e.rsp_in_valid = down.valid(1);
    if (e.rsp_in_valid) e.rsp_in_flit = down.front(1);
    e.req_out_ready = up.ready(0);
    e.rsp_out_ready = up.ready(1);
  }
  for (unsigned s = 0; s < sw_.size(); ++s) sw_[s]->step(si_[s], so_[s]);
  for (unsigned g = 0; g < cfg_.gpus; ++g) ep_[g]->step(ei_[g], eo_[g]);
  ++now_;
  if (rst_) return;
  // The handshakes, then the links' wires.
  bool moved = false;
  for (unsigned s = 0; s < sw_.size(); ++s) {
    const InnetSwitchInputs& in = si_[s];
    const InnetSwitchOutputs& out = so_[s];
    const std::vector<Port>& ps = ports_[s];
    for (unsigned k = 0; k < 2; ++k) {
      const uint32_t took = (k ? in.rsp_in_valid & out.rsp_in_ready : in.req_in_valid & out.req_in_ready);
      const uint32_t gave = (k ? out.rsp_out_valid & in.rsp_out_ready : out.req_out_valid & in.req_out_ready);
      moved |= took != 0 || (k ? out.rsp_out_valid : out.req_out_valid) != 0;
      for (unsigned p = 0; p < ps.size(); ++p) {
        if (took >> p & 1) links_[ps[p].in].take(k, now_);
        if (!(gave >> p & 1)) continue;
        if (ps[p].out < 0) ++unconnected_;
        else links_[ps[p].out].put(k, bus_flit(k ? out.rsp_out_flit : out.req_out_flit, p, fw));
      }
    }
  }
  sw_idle_ = moved ? 0 : sw_idle_ + 1;
  for (unsigned g = 0; g < cfg_.gpus; ++g) {
    const InnetEndpointInputs& e = ei_[g];
    const InnetEndpointOutputs& o = eo_[g];
    FabricLink& up = links_[gpu_up_[g]];
    FabricLink& down = links_[gpu_down_[g]];
    if (e.cmd_valid && o.cmd_ready) cmdq_[g].pop_front();
    if (o.req_out_valid && e.req_out_ready) up.put(0, o.req_out_flit);
    if (o.rsp_out_valid && e.rsp_out_ready) up.put(1, o.rsp_out_flit);
    if (e.req_in_valid && o.req_in_ready) down.take(0, now_);
    if (e.rsp_in_valid && o.rsp_in_ready) down.take(1, now_);
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
  for (FabricLink& l : links_) l.advance(now_);
}

}  // namespace t3
