#include "mem_subsystem/mem_subsystem.h"

#include <stdexcept>

#include "common/bits.h"
#include "common/compose.h"

namespace t3 {

// The blocks' parameters that are not the subsystem's: the Tracker's
// updates-per-element field and the MCA arbiter's counters at their
// defaults; the arbiter carries no payload of its own (the subsystem holds
// the request beside its output register), one bit.
TrackerParams MemSubsystemParams::tracker() const {
  TrackerParams t;
  t.sets = sets;
  t.ways = ways;
  t.wg_id_w = wg_id_w;
  t.wf_id_w = wf_id_w;
  t.addr_w = addr_w;
  t.cnt_w = cnt_w;
  t.stat_w = stat_w;
  return t;
}

DmaTriggerParams MemSubsystemParams::dma_trigger() const {
  DmaTriggerParams d;
  d.entries = entries;
  d.slots = slots;
  d.desc_depth = desc_depth;
  d.addr_w = addr_w;
  d.wg_id_w = wg_id_w;
  d.wf_id_w = wf_id_w;
  d.gpu_w = gpu_w;
  d.dim_w = dim_w;
  d.max_burst_log2 = max_burst_log2;
  d.stat_w = stat_w;
  return d;
}

McaArbiterParams MemSubsystemParams::mca_arbiter() const {
  McaArbiterParams m;
  m.data_w = 1;
  m.occ_w = occ_w();
  m.stat_w = stat_w;
  return m;
}

NearBankAluParams MemSubsystemParams::near_bank_alu() const {
  NearBankAluParams n;
  n.burst_bytes = burst_bytes;
  n.bg = bg;
  n.addr_w = bank_addr_w;
  n.t_ccds = t_ccds;
  n.t_ccdl = t_ccdl;
  n.t_ccdwl = t_ccdwl;
  n.stat_w = stat_w;
  return n;
}

unsigned MemSubsystemParams::burst_log2() const { return clog2(burst_bytes); }

void MemSubsystemParams::validate() const {
  validate_param_ranges(*this, "mem_subsystem");
  tracker().validate();
  dma_trigger().validate();
  mca_arbiter().validate();
  near_bank_alu().validate();
}

namespace {
const MemSubsystemParams& checked(const MemSubsystemParams& p) {
  p.validate();
  return p;
}
}  // namespace

MemSubsystem::MemSubsystem(const MemSubsystemParams& params)
    : p_(checked(params)),
      trk_(p_.tracker()),
      dma_(p_.dma_trigger()),
      mca_(p_.mca_arbiter()),
      nba_(p_.near_bank_alu()),
      queue_(p_.queue_depth) {}

// A request as a DRAM column command: the burst holding its first byte,
// interleaved over the bank groups (burst k in bank group k mod BG); the
// bank array holds 2^BANK_ADDR_W bursts a group, higher address bits alias.
MemSubsystem::Cmd MemSubsystem::command(const MemRequest& r) const {
  Cmd c;
  const uint64_t burst = r.addr >> p_.burst_log2();
  c.op = r.op;
  c.fmt = r.fmt;
  c.bg = uint32_t(burst & (p_.bg - 1));
  c.addr = uint32_t((burst >> clog2(p_.bg)) & low_mask(p_.bank_addr_w));
  c.data = r.data;
  c.mask = r.mask;
  return c;
}

// The combinational part of a cycle, in the order the wires depend on each
// other (rtl/mem_subsystem.sv has the same wires in one always_comb). A
// block may be clocked here as soon as its outputs are known when nothing
// later in the cycle changes its inputs: its edge changes only its own
// state, which no wire after it reads. Not the Tracker: its trig_ready is
// the DMA table's, which follows the Tracker's outputs (edge() clocks it).
template <class Self>
void MemSubsystem::wires(Self& self, const MemSubsystemInputs& in, Wires& w) {
  w.window = in.apb.paddr >> 12;
  auto window_apb = [&](MemSubsystemWindow b, ApbRequest& a) { window_request(in.apb, unsigned(b), a); };

  // The DRAM queue's head to the near-bank ALU (zeros while it is empty).
  static const Cmd kNone{};
  w.nba.rst_n = in.rst_n;
  window_apb(MemSubsystemWindow::near_bank_alu, w.nba.apb);
  w.nba.cmd_valid = self.count_ > 0;
  const Cmd& h = self.count_ > 0 ? self.queue_[self.head_] : kNone;
  w.nba.cmd_op = h.op;
  w.nba.cmd_fmt = h.fmt;
  w.nba.cmd_bg = h.bg;
  w.nba.cmd_addr = h.addr;
  w.nba.cmd_data = h.data;
  w.nba.cmd_mask = h.mask;
  w.nba.bank_rdata = in.bank_rdata;
  settle(self.nba_, w.nba, w.nba_o);
  w.pop = w.nba.cmd_valid && w.nba_o.cmd_ready;

  // The arbiter's inputs (its readies come last: out_ready is from
  // registers).
  w.mca.rst_n = in.rst_n;
  window_apb(MemSubsystemWindow::mca_arbiter, w.mca.apb);
  w.mca.cmp_valid = in.cmp_valid;
  w.mca.cmp_data = 0;  // the subsystem holds the request beside the arbiter's output register
  w.mca.com_valid = in.com_valid;
  w.mca.com_data = 0;
  w.mca.occupancy = self.count_;
  w.mca.learn = in.learn;
  w.mca.drain = in.drain;
  const bool queue_full = self.count_ == self.p_.queue_depth;
  const bool write = self.pl_.op == uint32_t(MemOp::store) || self.pl_.op == uint32_t(MemOp::add);

  // The Tracker counts the writes of the tracking queue (they entered the
  // DRAM queue before); its triggers (a registered output) go to the DMA
  // trigger table.
  w.trk.rst_n = in.rst_n;
  window_apb(MemSubsystemWindow::tracker, w.trk.apb);
  w.trk.in_valid = self.tq_h_v_;
  const TrkWrite& t = self.tq_h_;  // the head register, whatever it holds
  w.trk.in_wg_id = t.wg;
  w.trk.in_wf_id = t.wf;
  w.trk.in_addr = t.addr;
  w.trk.in_size = t.size;
  w.trk.in_src = t.src;
  // No output of the Tracker depends on trig_ready (its in_ready counts
  // the queue's room before the DMA table's take): one evaluation, and the
  // decision it made is the one its clock uses.
  w.trk.trig_ready = false;
  self.trk_.eval(w.trk, w.trk_o);
  w.dma.rst_n = in.rst_n;
  window_apb(MemSubsystemWindow::dma_trigger, w.dma.apb);
  w.dma.trig_valid = w.trk_o.trig_valid;
  w.dma.trig_wg_id = w.trk_o.trig_wg_id;
  w.dma.trig_wf_id = w.trk_o.trig_wf_id;
  w.dma.trig_addr = w.trk_o.trig_addr;
  w.dma.desc_ready = in.desc_ready;
  settle(self.dma_, w.dma, w.dma_o);
  w.trk.trig_ready = w.dma_o.trig_ready;

  // The request leaves the arbiter when the DRAM queue has room and, for a
  // write, the tracking queue too (beside its waiting and refused writes),
  // unless a refused write waits to be offered again (the queue empties,
  // so that it is offered with nothing taken in the cycle before, which the
  // Tracker decides exactly) and the Tracker has not found its set full.
  const bool room = self.tq_l_n_ + unsigned(self.tq_r_v_) <= 1;
  const bool hold = self.tq_waits() && !self.tq_sf_;
  w.mca.out_ready = !queue_full && (!write || (room && !hold));
  settle(self.mca_, w.mca, w.mca_o);
  w.push = w.mca_o.out_valid && w.mca.out_ready;
  w.tf_push = w.push && write;
}

MemSubsystemOutputs MemSubsystem::eval(const MemSubsystemInputs& in) const {
  Wires w{};
  wires(*this, in, w);
  MemSubsystemOutputs o;
  outputs(in, w, o);
  return o;
}

MemSubsystemOutputs MemSubsystem::step(const MemSubsystemInputs& in) {
  MemSubsystemOutputs o;
  step(in, o);
  return o;
}

void MemSubsystem::step(const MemSubsystemInputs& in, MemSubsystemOutputs& out) {
  wires(*this, in, w_);
  outputs(in, w_, out);
  edge(in, w_);
}

void MemSubsystem::clock(const MemSubsystemInputs& in) {
  wires(*this, in, w_);
  edge(in, w_);
}

void MemSubsystem::outputs(const MemSubsystemInputs& in, const Wires& w, MemSubsystemOutputs& o) const {
  const ApbResponse* sel = nullptr;
  switch (w.window) {
    case unsigned(MemSubsystemWindow::tracker): sel = &w.trk_o.apb; break;
    case unsigned(MemSubsystemWindow::dma_trigger): sel = &w.dma_o.apb; break;
    case unsigned(MemSubsystemWindow::mca_arbiter): sel = &w.mca_o.apb; break;
    case unsigned(MemSubsystemWindow::near_bank_alu): sel = &w.nba_o.apb; break;
    default: break;
  }
  o.apb = window_response(in.apb, sel);
  o.intr = w.trk_o.intr || w.dma_o.intr || w.mca_o.intr || w.nba_o.intr;
  o.cmp_ready = w.mca_o.cmp_ready;
  o.com_ready = w.mca_o.com_ready;
  o.rsp_valid = w.nba_o.rsp_valid;
  o.rsp_data = w.nba_o.rsp_data;
  o.desc_valid = w.dma_o.desc_valid;
  o.desc_src = w.dma_o.desc_src;
  o.desc_dst = w.dma_o.desc_dst;
  o.desc_gpu = w.dma_o.desc_gpu;
  o.desc_bytes = w.dma_o.desc_bytes;
  o.desc_op = w.dma_o.desc_op;
  o.desc_wg = w.dma_o.desc_wg;
  o.desc_wf = w.dma_o.desc_wf;
  o.desc_last = w.dma_o.desc_last;
  o.bank_rd = w.nba_o.bank_rd;
  o.bank_rd_bg = w.nba_o.bank_rd_bg;
  o.bank_rd_addr = w.nba_o.bank_rd_addr;
  o.bank_wr = w.nba_o.bank_wr;
  o.bank_wr_bg = w.nba_o.bank_wr_bg;
  o.bank_wr_addr = w.nba_o.bank_wr_addr;
  o.bank_wdata = w.nba_o.bank_wdata;
  o.bank_wmask = w.nba_o.bank_wmask;
  o.occupancy = count_;
}

void MemSubsystem::edge(const MemSubsystemInputs& in, const Wires& w) {
  trk_.clock(w.trk);  // the other blocks were clocked in wires()
  // The tracking queue. What may become the head, in order: the waiting
  // writes, the refused one, the write entering now; the head leaves in
  // every cycle (kept, in case it is refused). Contents have no reset.
  const TrkWrite* cand[4];
  bool cand_b[4];
  unsigned n = 0;
  const TrkWrite entering{pl_.wg, pl_.wf, pl_.size, pl_.src, pl_.addr};
  if (tq_l_n_ >= 1) cand_b[n] = tq_l_b_[0], cand[n++] = &tq_l_[0];
  if (tq_l_n_ == 2) cand_b[n] = tq_l_b_[1], cand[n++] = &tq_l_[1];
  if (tq_r_v_) cand_b[n] = true, cand[n++] = &tq_r_;
  if (w.tf_push) cand_b[n] = false, cand[n++] = &entering;
  const bool was_v = tq_h_v_, was_b = tq_h_b_, waits = tq_waits();
  const TrkWrite none{};
  const TrkWrite next_h = n > 0 ? *cand[0] : none, next_l0 = n > 1 ? *cand[1] : none,
                 next_l1 = n > 2 ? *cand[2] : none;
  tq_r_ = tq_h_;
  tq_h_ = next_h;
  tq_l_[0] = next_l0;
  tq_l_[1] = next_l1;
  if (!in.rst_n) {
    tq_h_v_ = tq_h_b_ = tq_r_v_ = tq_sf_ = false;
    tq_l_b_[0] = tq_l_b_[1] = false;
    tq_l_n_ = 0;
  } else {
    tq_r_v_ = was_v && !w.trk_o.in_ready;
    // The Tracker found a refused write's set full: it waits for a way,
    // which writes still to come free; cleared once no refused write is left.
    if (was_v && was_b && w.trk_o.set_full) tq_sf_ = true;
    else if (!waits) tq_sf_ = false;
    tq_h_v_ = n > 0;
    tq_h_b_ = n > 0 && cand_b[0];
    tq_l_n_ = n > 0 ? n - 1 : 0;
    tq_l_b_[0] = n > 1 && cand_b[1];
    tq_l_b_[1] = n > 2 && cand_b[2];
  }
  if (!in.rst_n) {
    head_ = count_ = 0;
    pl_ = MemRequest{};
    return;
  }
  // The request leaving the arbiter joins the queue; the one granted in
  // this cycle takes its place in the output register.
  if (w.pop) {
    head_ = (head_ + 1) % p_.queue_depth;
    --count_;
  }
  if (w.push) {
    queue_[(head_ + count_) % p_.queue_depth] = command(pl_);
    ++count_;
  }
  if (in.com_valid && w.mca_o.com_ready) {
    pl_ = in.com;
  } else if (in.cmp_valid && w.mca_o.cmp_ready) {
    pl_ = in.cmp;
    pl_.src = 0;
  }
}

RegStatus MemSubsystem::tlm_write(uint32_t offset, uint32_t data) {
  const uint32_t o = offset & (kRegWindowBytes - 1);
  switch (offset >> 12) {
    case unsigned(MemSubsystemWindow::tracker): return trk_.tlm_write(o, data);
    case unsigned(MemSubsystemWindow::dma_trigger): return dma_.tlm_write(o, data);
    case unsigned(MemSubsystemWindow::mca_arbiter): return mca_.tlm_write(o, data);
    case unsigned(MemSubsystemWindow::near_bank_alu): return nba_.tlm_write(o, data);
    default: return RegStatus::address_error;
  }
}

RegStatus MemSubsystem::tlm_read(uint32_t offset, uint32_t& data) const {
  const uint32_t o = offset & (kRegWindowBytes - 1);
  data = 0;
  switch (offset >> 12) {
    case unsigned(MemSubsystemWindow::tracker): return trk_.tlm_read(o, data);
    case unsigned(MemSubsystemWindow::dma_trigger): return dma_.tlm_read(o, data);
    case unsigned(MemSubsystemWindow::mca_arbiter): return mca_.tlm_read(o, data);
    case unsigned(MemSubsystemWindow::near_bank_alu): return nba_.tlm_read(o, data);
    default: return RegStatus::address_error;
  }
}

}  // namespace t3
