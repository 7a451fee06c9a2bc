#include "near_bank_alu_scoreboard.h"

#include <sstream>

#include "common/hex.h"
#include "fp_reference.h"
#include "t3/near_bank_alu_regs.h"

namespace t3::tb {
namespace {

uint64_t ones(unsigned w) { return w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1; }


}  // namespace

NearBankAluScoreboard::NearBankAluScoreboard(const NearBankAluParams& p,
                                             Wide (*initial)(uint32_t, uint32_t, uint64_t),
                                             uint64_t seed)
    : p_(p), initial_(initial), seed_(seed) {}

Wide& NearBankAluScoreboard::cell(uint32_t bg, uint32_t addr) {
  auto it = mem_.find({bg, addr});
  if (it == mem_.end()) {
    Wide w = initial_(bg, addr, seed_);
    w.truncate(p_.data_w());
    it = mem_.emplace(Key{bg, addr}, w).first;
  }
  return it->second;
}

std::optional<uint32_t> NearBankAluScoreboard::ro(unsigned r) const {
  const auto stat = [this](uint64_t count) { return uint32_t(count & ones(p_.stat_w)); };
  switch (NearBankAluReg(r)) {
    case NearBankAluReg::status: return uint32_t(err_) << T3_NEAR_BANK_ALU_R_STATUS_ERR_SHIFT;
    case NearBankAluReg::stat_reads: return stat(n_.reads);
    case NearBankAluReg::stat_stores: return stat(n_.stores);
    case NearBankAluReg::stat_adds: return stat(n_.adds);
    case NearBankAluReg::stat_refused: return stat(n_.refused);
    case NearBankAluReg::stat_hazard_stalls: return stat(n_.hazard);
    case NearBankAluReg::stat_timing_stalls: return stat(n_.timing);
    case NearBankAluReg::param_burst:
      return p_.burst_bytes << T3_NEAR_BANK_ALU_R_PARAM_BURST_BURST_BYTES_SHIFT |
             p_.bg << T3_NEAR_BANK_ALU_R_PARAM_BURST_BG_SHIFT |
             p_.addr_w << T3_NEAR_BANK_ALU_R_PARAM_BURST_ADDR_W_SHIFT |
             p_.stat_w << T3_NEAR_BANK_ALU_R_PARAM_BURST_STAT_W_SHIFT;
    case NearBankAluReg::param_timing:
      return p_.t_ccds << T3_NEAR_BANK_ALU_R_PARAM_TIMING_T_CCDS_SHIFT |
             p_.t_ccdl << T3_NEAR_BANK_ALU_R_PARAM_TIMING_T_CCDL_SHIFT |
             p_.t_ccdwl << T3_NEAR_BANK_ALU_R_PARAM_TIMING_T_CCDWL_SHIFT;
    default: return 0;  // no RO field
  }
}

std::optional<std::string> NearBankAluScoreboard::observe(const NearBankAluInputs& in,
                                                          const NearBankAluOutputs& out) {
  std::ostringstream& err = complaints_.fresh();
  const uint32_t op = in.cmd_op & 3, fmt = in.cmd_fmt & 3;
  const uint32_t bg = in.cmd_bg & (p_.bg - 1), addr = in.cmd_addr & uint32_t(ones(p_.addr_w));
  // T3 §4.3: an ADD's format and the op itself must be known.
  const bool refused = op == 3 || (op == 2 && fmt == 3);

  // ---- the register port, on the state before the edge; the interrupt line
  // A command taken 1..6 cycles ago is still in the pipeline (busy); no
  // register of this map is locked by it, so every write is answered alike.
  regs_.observe(in.apb, out.apb, !pending_.empty(), [&](unsigned r) { return ro(r); }, err);
  if (out.intr != regs_.intr())
    err << "intr_o = " << out.intr << ", expected " << regs_.intr() << " (INTR_STATE 0x"
        << std::hex << regs_.value(unsigned(NearBankAluReg::intr_state)) << ", INTR_ENABLE 0x"
        << regs_.value(unsigned(NearBankAluReg::intr_enable)) << std::dec << ", error flag "
        << err_ << "); ";

  // ---- the command port
  auto bg_free = [&](uint32_t g) {
    if (last_any_ && cycle_ - *last_any_ < p_.t_ccds) return false;
    const auto it = last_bg_.find(g);
    if (it == last_bg_.end()) return true;
    const unsigned spacing = it->second.second ? p_.t_ccdwl : p_.t_ccdl;
    return cycle_ - it->second.first >= spacing;
  };
  uint32_t want_bg_ready = 0;
  for (uint32_t g = 0; g < p_.bg; ++g)
    if (bg_free(g)) want_bg_ready |= 1u << g;
  if (out.bg_ready != want_bg_ready)
    err << "bg_ready_o = 0x" << std::hex << out.bg_ready << ", expected 0x" << want_bg_ready
        << std::dec << "; ";
  // A read (READ, ADD) must wait for a write of its address accepted 1..3
  // cycles ago: that write reaches the bank after the read would.
  bool hazard = false;
  if (op == 0 || op == 2)
    for (const Pending& w : pending_)
      if (w.op != NbOp::read && w.bg == bg && w.addr == addr && cycle_ - w.accepted <= 3)
        hazard = true;
  const bool want_ready = refused || (bg_free(bg) && !hazard);
  if (out.cmd_ready != want_ready)
    err << "cmd_ready_o = " << out.cmd_ready << ", expected " << want_ready << " (op " << op
        << ", bank group " << bg << ", address " << addr << (hazard ? ", a write pending" : "")
        << "); ";

  // ---- registered outputs: the error flag and the counters
  if (out.err != err_) err << "err_o = " << out.err << "; ";
  auto counter = [&](const char* pin, uint64_t got, uint64_t count) {
    check_counter(err, pin, got, count, p_.stat_w);
  };
  counter("stat_reads_o", out.stat_reads, n_.reads);
  counter("stat_stores_o", out.stat_stores, n_.stores);
  counter("stat_adds_o", out.stat_adds, n_.adds);
  counter("stat_refused_o", out.stat_refused, n_.refused);
  counter("stat_hazard_stalls_o", out.stat_hazard_stalls, n_.hazard);
  counter("stat_timing_stalls_o", out.stat_timing_stalls, n_.timing);

  // ---- each command's bank read (t+1), response (t+3), write-back (t+6)
  const Pending* rd = nullptr;
  const Pending* rsp = nullptr;
  const Pending* wr = nullptr;
  for (const Pending& c : pending_) {
    if (cycle_ - c.accepted == 1 && c.op != NbOp::store) rd = &c;
    if (cycle_ - c.accepted == NearBankAluParams::kReadLatency && c.op == NbOp::read) rsp = &c;
    if (cycle_ - c.accepted == NearBankAluParams::kWriteLatency && c.op != NbOp::read) wr = &c;
  }
  if (out.bank_rd != (rd != nullptr) || (rd && (out.bank_rd_bg != rd->bg || out.bank_rd_addr != rd->addr)))
    err << "bank_rd_o = " << out.bank_rd << " (bank group " << out.bank_rd_bg << ", address "
        << out.bank_rd_addr << ") but " << (rd ? "the command of 1 cycle ago reads" : "no read is due")
        << "; ";
  if (out.rsp_valid != (rsp != nullptr))
    err << "rsp_valid_o = " << out.rsp_valid << " but " << (rsp ? "" : "no ") << "response is due; ";
  else if (rsp && out.rsp_data != rsp->result)
    err << "response to the READ of bank group " << rsp->bg << ", address " << rsp->addr << ": "
        << hex(out.rsp_data, 8 * p_.burst_bytes) << ", expected " << hex(rsp->result, 8 * p_.burst_bytes)
        << "; ";
  if (out.bank_wr != (wr != nullptr)) {
    err << "bank_wr_o = " << out.bank_wr << " but " << (wr ? "a" : "no") << " write-back is due; ";
  } else if (wr) {
    if (out.bank_wr_bg != wr->bg || out.bank_wr_addr != wr->addr || out.bank_wmask != wr->mask)
      err << "write-back to bank group " << out.bank_wr_bg << ", address " << out.bank_wr_addr
          << " with mask " << hex(out.bank_wmask, 8 * ((p_.burst_bytes + 7) / 8)) << ", expected "
          << wr->bg << ", " << wr->addr << ", " << hex(wr->mask, 8 * ((p_.burst_bytes + 7) / 8)) << "; ";
    for (unsigned b = 0; b < p_.burst_bytes; ++b)
      if (wr->mask.byte(b / 8) >> (b % 8) & 1 && out.bank_wdata.byte(b) != wr->result.byte(b)) {
        err << "write-back to bank group " << wr->bg << ", address " << wr->addr << ": "
            << hex(out.bank_wdata, 8 * p_.burst_bytes) << ", expected (under the mask) "
            << hex(wr->result, 8 * p_.burst_bytes) << "; ";
        break;
      }
  }
  while (!pending_.empty() && cycle_ - pending_.front().accepted >= NearBankAluParams::kWriteLatency)
    pending_.pop_front();

  // ---- the edge
  const bool free_now = bg_free(bg);
  if (!in.rst_n) {
    // Writes that have not reached the bank are lost: undo them, youngest first.
    for (auto it = pending_.rbegin(); it != pending_.rend(); ++it)
      if (it->op != NbOp::read && cycle_ - it->accepted < NearBankAluParams::kWriteLatency)
        cell(it->bg, it->addr) = it->before;
    pending_.clear();
    last_any_.reset();
    last_bg_.clear();
    last_add_.reset();
    regs_.reset();  // the register block resets with the core; no write lands
    err_ = false;
    n_ = Counts{};
    ++cycle_;
    if (err.tellp() == 0) return std::nullopt;
    return err.str();
  }
  // The REFUSED interrupt is the flag's level in this cycle; CTRL.ERR_CLEAR
  // (written in the cycle before) clears the flag at this edge unless a
  // refusal is taken in this very cycle.
  const bool err_level = err_;
  const bool clear = (regs_.pulses(unsigned(NearBankAluReg::ctrl)) &
                      T3_NEAR_BANK_ALU_R_CTRL_ERR_CLEAR_MASK) != 0;
  if (clear && err_) ++n_.err_clears, ++total_.err_clears;
  if (clear) err_ = false;
  if (in.cmd_valid && out.cmd_ready) {
    if (refused) {
      ++n_.refused, ++total_.refused;
      if (clear) ++n_.clear_and_refusal, ++total_.clear_and_refusal;
      err_ = true;
    } else {
      Pending c{cycle_, NbOp(op), bg, addr, in.cmd_mask, {}, {}};
      c.mask.truncate(p_.burst_bytes);
      Wide& m = cell(bg, addr);
      c.before = m;
      if (c.op == NbOp::read) {
        ++n_.reads, ++total_.reads;
        c.result = m;
      } else {
        Wide value = in.cmd_data;
        value.truncate(p_.data_w());
        if (c.op == NbOp::add) {
          ++n_.adds, ++total_.adds;
          ++n_.adds_by_format[fmt], ++total_.adds_by_format[fmt];
          const FpFormat f = *nb_format(fmt);
          for (unsigned lsb = 0; lsb < p_.data_w(); lsb += f.width())
            value.set_lane(lsb, f.width(),
                           mpfr_add_bits(f, m.lane(lsb, f.width()), value.lane(lsb, f.width())));
          if (last_add_ && last_add_->bg == bg && last_add_->addr == addr &&
              cycle_ - last_add_->accepted == p_.t_ccdwl)
            ++n_.back_to_back, ++total_.back_to_back;
        } else {
          ++n_.stores, ++total_.stores;
        }
        c.result = value;
        for (unsigned b = 0; b < p_.burst_bytes; ++b)
          if (c.mask.byte(b / 8) >> (b % 8) & 1) m.set_byte(b, value.byte(b));
      }
      // A write taken 4 or 5 cycles before this read reaches the bank in the
      // two cycles after the read (t+1): its data must be forwarded.
      for (const Pending& w : pending_)
        if (c.op != NbOp::store && w.op != NbOp::read && w.bg == bg && w.addr == addr &&
            cycle_ - w.accepted >= 4 && cycle_ - w.accepted < NearBankAluParams::kWriteLatency)
          ++n_.forwarded, ++total_.forwarded;
      if (c.op == NbOp::add) last_add_ = c;
      pending_.push_back(c);
      last_any_ = cycle_;
      last_bg_[bg] = {cycle_, c.op == NbOp::add};
    }
  }
  if (in.cmd_valid && !refused) {
    if (hazard) ++n_.hazard, ++total_.hazard;
    if (!free_now) ++n_.timing, ++total_.timing;
  }
  regs_.set_event(unsigned(NearBankAluReg::intr_state),
                  uint32_t(err_level) << T3_NEAR_BANK_ALU_R_INTR_STATE_REFUSED_SHIFT);
  regs_.edge();
  ++cycle_;
  if (err.tellp() == 0) return std::nullopt;
  return err.str();
}

}  // namespace t3::tb
