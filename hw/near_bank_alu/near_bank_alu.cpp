#include "near_bank_alu/near_bank_alu.h"

#include <algorithm>

#include "common/bits.h"
#include "near_bank_alu/fp_lanes.h"

namespace t3 {
namespace {

// The 64-bit mask of the bytes of word `w` that `mask` (one bit a byte) sets.
uint64_t byte_mask_word(const Wide& mask, unsigned w) {
  const uint64_t bits = (mask.w[w / 8] >> (8 * (w % 8))) & 0xff;
  uint64_t m = 0;
  for (unsigned b = 0; b < 8; ++b) m |= (0 - (bits >> b & 1)) & (uint64_t{0xff} << (8 * b));
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
  fp_lanes_check_host();
  bg_mask_ = uint32_t(low_mask(p_.bg_w()));
  addr_mask_ = uint32_t(low_mask(p_.addr_w));
  stat_mask_ = uint32_t(low_mask(p_.stat_w));
}

NearBankAlu::Decision NearBankAlu::decide(const NearBankAluInputs& in) const {
  if (memo_.valid && memo_.cmd_valid == in.cmd_valid && memo_.op == in.cmd_op &&
      memo_.fmt == in.cmd_fmt && memo_.bg == in.cmd_bg && memo_.addr == in.cmd_addr)
    return memo_.d;
  Decision d{};
  const uint32_t op = in.cmd_op & 3, fmt = in.cmd_fmt & 3;
  d.refused = refused(op, fmt);
  d.bg = in.cmd_bg & bg_mask_ & (p_.bg - 1);
  d.addr = in.cmd_addr & addr_mask_;
  // An address a younger write has not reached yet cannot be read; the write
  // four cycles older is forwarded (T3 §4.3: updates apply in order).
  const uint64_t k = key(d.bg, d.addr);
  d.hazard = (op == uint32_t(NbOp::read) || op == uint32_t(NbOp::add)) &&
             (st(1).write_key == k || st(2).write_key == k || st(3).write_key == k);
  d.timing_ok = now_ >= ready_any_ && now_ >= ready_bg_[d.bg];
  d.ready = d.refused || (d.timing_ok && !d.hazard);
  d.accept = in.cmd_valid && d.ready;
  memo_ = Memo{true, in.cmd_valid, in.cmd_op, in.cmd_fmt, in.cmd_bg, in.cmd_addr, d};
  return d;
}

void NearBankAlu::merge_rdata(const Wide& bank_rdata, Wide& r) const {
  const unsigned dw = p_.data_w();
  r.copy_low(bank_rdata, dw);
  if (!fwd_valid_ || fwd_bg_ != st(2).bg || fwd_addr_ != st(2).addr) return;
  for (unsigned w = 0; w < dw / 64; ++w) {
    const uint64_t m = byte_mask_word(fwd_mask_, w);
    r.w[w] = (fwd_data_.w[w] & m) | (r.w[w] & ~m);
  }
}

NearBankAluOutputs NearBankAlu::eval(const NearBankAluInputs& in) const {
  const Decision d = decide(in);
  NearBankAluOutputs o;
  o.cmd_ready = d.ready;
  if (now_ >= ready_any_)
    for (unsigned g = 0; g < p_.bg; ++g) o.bg_ready |= uint32_t(now_ >= ready_bg_[g]) << g;
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
    // Stored Wides are zero above the burst (filled by copy_low from the
    // pins), so whole copies are exact, and cheaper than masked ones.
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
    memo_.valid = false;
    for (Stage& s : ring_) s = Stage{};
    fwd_valid_ = rsp_valid_ = err_ = false;
    fwd_bg_ = fwd_addr_ = 0;
    fwd_data_ = fwd_mask_ = rsp_data_ = Wide{};
    now_ = ready_any_ = 0;
    ready_bg_.fill(0);
    stat_reads_ = stat_stores_ = stat_adds_ = stat_refused_ = stat_hazard_ = stat_timing_ = 0;
    return;
  }
  const Decision d = decide(in);
  memo_.valid = false;  // the state it was made on changes at this edge
  auto bump = [this](uint32_t& c) { c = (c + 1) & stat_mask_; };

  // S2 -> S3: the bank's data (with the last write merged) meets the
  // command: a READ's becomes the response, an ADD's enters the adders.
  Stage& s2 = st(2);
  rsp_valid_ = s2.valid && s2.op == NbOp::read;
  if (reads(s2)) {
    if (s2.op == NbOp::read) {
      merge_rdata(in.bank_rdata, rsp_data_);
    } else {
      Wide& old = scratch_;
      merge_rdata(in.bank_rdata, old);
      // The sum replaces the command's data from here on (fp_lanes.h: the
      // same bits as fp_add(), on the host FPU).
      fp_add_burst(s2.fmt, old, s2.data, s2.data, p_.data_w());
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
  // Every stage moves on: stage k becomes stage k+1, a free slot stage 1.
  head_ = (head_ + 7) & 7;
  Stage& s1 = st(1);
  s1.valid = false;
  s1.op = NbOp::read;
  s1.fmt = s1.bg = s1.addr = 0;
  s1.write_key = kNoKey;
  if (d.accept && !d.refused) {
    s1.valid = true;
    s1.op = NbOp(in.cmd_op & 3);
    s1.fmt = in.cmd_fmt & 3;
    s1.bg = d.bg;
    s1.addr = d.addr;
    if (writes(s1)) s1.write_key = key(d.bg, d.addr);
    // Bits above the burst stay zero in every stored Wide, so copying the
    // burst's own words is enough.
    s1.data.copy_low(in.cmd_data, p_.data_w());
    s1.mask.copy_low(in.cmd_mask, p_.burst_bytes);
  }
  // An empty stage's data is never looked at (every use is qualified by
  // its valid bit), so it is not cleared.

  // Bank timing (T3 §5.1.1): tCCDS between any two column commands; tCCDL
  // within a bank group, tCCDWL after an op-and-store.
  if (d.accept && !d.refused) {
    ready_any_ = now_ + p_.t_ccds;
    ready_bg_[d.bg] = now_ + (s1.op == NbOp::add ? p_.t_ccdwl : p_.t_ccdl);
  }
  ++now_;

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
