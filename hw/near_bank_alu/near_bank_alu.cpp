#include "near_bank_alu/near_bank_alu.h"

#include <algorithm>

#include "common/bits.h"

namespace t3 {
namespace {

// The 64-bit mask of the bytes of word `w` that `mask` (one bit a byte) sets.
uint64_t byte_mask_word(const Wide& mask, unsigned w) {
  const uint64_t bits = (mask.w[w / 8] >> (8 * (w % 8))) & 0xff;
  uint64_t m = 0;
  for (unsigned b = 0; b < 8; ++b)
    if (bits >> b & 1) m |= uint64_t{0xff} << (8 * b);
  return m;
}

}  // namespace

unsigned NearBankAluParams::bg_w() const { return std::max(1u, clog2(bg)); }

void NearBankAluParams::validate() const {
  validate_param_ranges(*this, "near_bank_alu");
  if (t_ccdl < t_ccds)
    param_error("near_bank_alu", "t_ccdl", "T_CCDL", t_ccdl,
                std::to_string(t_ccds) + "..15 (at least T_CCDS)");
  if (t_ccdwl < t_ccdl)
    param_error("near_bank_alu", "t_ccdwl", "T_CCDWL", t_ccdwl,
                std::to_string(t_ccdl) + "..15 (at least T_CCDL)");
}

std::optional<FpFormat> nb_format(uint32_t code) {
  switch (code) {
    case uint32_t(NbFormat::fp16): return kFp16;
    case uint32_t(NbFormat::bf16): return kBf16;
    case uint32_t(NbFormat::fp32): return kFp32;
  }
  return std::nullopt;
}

namespace {
// The rule of nb_command_fault(), without building its message (per cycle).
bool refused(uint32_t op, uint32_t fmt) {
  return op > uint32_t(NbOp::add) || (op == uint32_t(NbOp::add) && fmt > uint32_t(NbFormat::fp32));
}
}  // namespace

std::optional<std::string> nb_command_fault(uint32_t op, uint32_t fmt) {
  if (!refused(op, fmt)) return std::nullopt;
  if (op > uint32_t(NbOp::add))
    return "op = " + std::to_string(op) + " is out of range; allowed: 0 READ, 1 STORE, 2 ADD";
  return "fmt = " + std::to_string(fmt) + " is out of range for ADD; allowed: 0 fp16, 1 bf16, 2 fp32";
}

NearBankAlu::NearBankAlu(const NearBankAluParams& params) : p_(params) {
  p_.validate();
  bg_mask_ = uint32_t(low_mask(p_.bg_w()));
  addr_mask_ = uint32_t(low_mask(p_.addr_w));
  stat_mask_ = uint32_t(low_mask(p_.stat_w));
  wait_bg_.assign(p_.bg, 0);
}

NearBankAlu::Decision NearBankAlu::decide(const NearBankAluInputs& in) const {
  Decision d{};
  const uint32_t op = in.cmd_op & 3, fmt = in.cmd_fmt & 3;
  d.refused = refused(op, fmt);
  d.bg = in.cmd_bg & bg_mask_ & (p_.bg - 1);
  d.addr = in.cmd_addr & addr_mask_;
  // An address a younger write has not reached yet cannot be read; the write
  // four cycles older is forwarded (T3 §4.3: updates apply in order).
  const bool cmd_reads = op == uint32_t(NbOp::read) || op == uint32_t(NbOp::add);
  for (unsigned k = 1; k <= 3 && cmd_reads; ++k)
    if (writes(st(k)) && st(k).bg == d.bg && st(k).addr == d.addr) d.hazard = true;
  d.timing_ok = wait_any_ == 0 && wait_bg_[d.bg] == 0;
  d.ready = d.refused || (d.timing_ok && !d.hazard);
  d.accept = in.cmd_valid && d.ready;
  return d;
}

Wide NearBankAlu::merged_rdata(const Wide& bank_rdata) const {
  if (!fwd_valid_ || fwd_bg_ != st(2).bg || fwd_addr_ != st(2).addr) return bank_rdata;
  Wide r;
  for (unsigned w = 0; w < (p_.data_w() + 63) / 64; ++w) {
    const uint64_t m = byte_mask_word(fwd_mask_, w);
    r.w[w] = (fwd_data_.w[w] & m) | (bank_rdata.w[w] & ~m);
  }
  return r;
}

NearBankAluOutputs NearBankAlu::eval(const NearBankAluInputs& in) const {
  const Decision d = decide(in);
  NearBankAluOutputs o;
  o.cmd_ready = d.ready;
  for (unsigned g = 0; g < p_.bg; ++g)
    if (wait_any_ == 0 && wait_bg_[g] == 0) o.bg_ready |= 1u << g;
  if (reads(st(1))) {
    o.bank_rd = true;
    o.bank_rd_bg = st(1).bg;
    o.bank_rd_addr = st(1).addr;
  }
  if (writes(st(5))) {
    const Stage& s = st(5);
    o.bank_wr = true;
    o.bank_wr_bg = s.bg;
    o.bank_wr_addr = s.addr;
    o.bank_wdata = s.data;
    o.bank_wmask = s.mask;
  }
  o.rsp_valid = rsp_valid_;
  if (rsp_valid_) o.rsp_data = rsp_data_;
  o.err = err_;
  o.stat_reads = stat_reads_;
  o.stat_stores = stat_stores_;
  o.stat_adds = stat_adds_;
  o.stat_refused = stat_refused_;
  o.stat_hazard_stalls = stat_hazard_;
  o.stat_timing_stalls = stat_timing_;
  return o;
}

void NearBankAlu::clock(const NearBankAluInputs& in) {
  if (!in.rst_n) {
    for (Stage& s : ring_) s = Stage{};
    fwd_valid_ = rsp_valid_ = err_ = false;
    fwd_bg_ = fwd_addr_ = 0;
    fwd_data_ = fwd_mask_ = rsp_data_ = Wide{};
    wait_any_ = 0;
    std::fill(wait_bg_.begin(), wait_bg_.end(), 0);
    stat_reads_ = stat_stores_ = stat_adds_ = stat_refused_ = stat_hazard_ = stat_timing_ = 0;
    return;
  }
  const Decision d = decide(in);
  auto bump = [this](uint32_t& c) { c = (c + 1) & stat_mask_; };

  // S2 -> S3: the bank's data (with the last write merged) meets the
  // command: a READ's becomes the response, an ADD's enters the adders.
  Stage& s2 = st(2);
  rsp_valid_ = s2.valid && s2.op == NbOp::read;
  if (reads(s2)) {
    const Wide old = merged_rdata(in.bank_rdata);
    if (s2.op == NbOp::read) {
      rsp_data_ = old;
    } else {
      // The sum replaces the command's data from here on.
      const FpFormat f = *nb_format(s2.fmt);
      const unsigned w = f.width();
      for (unsigned lsb = 0; lsb < p_.data_w(); lsb += w)
        s2.data.set_lane(lsb, w, fp_add(f, old.lane(lsb, w), s2.data.lane(lsb, w)));
    }
  }
  // The write of this cycle, forwarded into the next cycle's read data
  // (after the merge above, which takes the write of the cycle before).
  const Stage& s5 = st(5);
  fwd_valid_ = writes(s5);
  if (fwd_valid_) {
    fwd_bg_ = s5.bg;
    fwd_addr_ = s5.addr;
    fwd_data_ = s5.data;
    fwd_mask_ = s5.mask;
  }
  // Every stage moves on: stage 5 leaves and becomes the new stage 1.
  head_ = (head_ + 5) % 6;
  Stage& s1 = st(1);
  s1.valid = false;
  s1.op = NbOp::read;
  s1.fmt = s1.bg = s1.addr = 0;
  if (d.accept && !d.refused) {
    s1.valid = true;
    s1.op = NbOp(in.cmd_op & 3);
    s1.fmt = in.cmd_fmt & 3;
    s1.bg = d.bg;
    s1.addr = d.addr;
    s1.data = in.cmd_data;
    s1.data.truncate(p_.data_w());
    s1.mask = in.cmd_mask;
    s1.mask.truncate(p_.burst_bytes);
  } else {
    s1.data = Wide{};
    s1.mask = Wide{};
  }

  // Bank timing (T3 §5.1.1): tCCDS between any two column commands; tCCDL
  // within a bank group, tCCDWL after an op-and-store.
  if (wait_any_ > 0) --wait_any_;
  for (uint32_t& w : wait_bg_)
    if (w > 0) --w;
  if (d.accept && !d.refused) {
    wait_any_ = p_.t_ccds - 1;
    wait_bg_[d.bg] = (s1.op == NbOp::add ? p_.t_ccdwl : p_.t_ccdl) - 1;
  }

  if (in.err_clear) err_ = false;
  if (d.accept) {
    if (d.refused) {
      bump(stat_refused_);
      err_ = true;
    } else if (s1.op == NbOp::read) {
      bump(stat_reads_);
    } else if (s1.op == NbOp::store) {
      bump(stat_stores_);
    } else {
      bump(stat_adds_);
    }
  }
  if (in.cmd_valid && !d.refused) {
    if (d.hazard) bump(stat_hazard_);
    if (!d.timing_ok) bump(stat_timing_);
  }
}

}  // namespace t3
