#include "near_bank_alu/near_bank_alu_core.h"

#include <algorithm>

#include "common/bits.h"
#include "common/fp_lanes.h"

namespace t3 {
namespace {

// The 64-bit mask of the bytes of word `w` that `mask` (one bit a byte)
// sets: the byte's bit spread to its own byte, then widened to 0xff.
uint64_t byte_mask_word(const Wide& mask, unsigned w) {
  const uint64_t bits = (mask.w[w / 8] >> (8 * (w % 8))) & 0xff;
  const uint64_t x = (bits * 0x0101010101010101ull) & 0x8040201008040201ull;
  const uint64_t hi = (x + 0x7f7f7f7f7f7f7f7full) & 0x8080808080808080ull;
  return (hi >> 7) * 0xff;
}

// y = x & m, word by word over the whole Wide: a fixed loop the compiler
// vectorizes, where copy_low's bounds by a width are a chain of branches.
void masked_copy(Wide& y, const Wide& x, const Wide& m) {
  for (unsigned i = 0; i < Wide::kWords; ++i) y.w[i] = x.w[i] & m.w[i];
}

Wide low_ones(unsigned bits) {
  Wide w;
  w.w.fill(~uint64_t{0});
  w.truncate(bits);
  return w;
}

}  // namespace

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

NearBankAluCore::NearBankAluCore(const NearBankAluParams& params) : p_(params) {
  p_.validate();
  fp_lanes_check_host();
  bg_mask_ = uint32_t(low_mask(p_.bg_w()));
  addr_mask_ = uint32_t(low_mask(p_.addr_w));
  stat_mask_ = uint32_t(low_mask(p_.stat_w));
  data_bits_ = low_ones(p_.data_w());
  mask_bits_ = low_ones(p_.burst_bytes);
  reset();
}

const NearBankAluCore::Decision& NearBankAluCore::decide_now(const NearBankAluDataIn& in) const {
  memo_.valid = true;
  memo_.cmd_valid = in.cmd_valid;
  memo_.op = in.cmd_op;
  memo_.fmt = in.cmd_fmt;
  memo_.bg = in.cmd_bg;
  memo_.addr = in.cmd_addr;
  Decision& d = memo_.d;
  const uint32_t op = in.cmd_op & 3, fmt = in.cmd_fmt & 3;
  d.refused = refused(op, fmt);
  d.bg = in.cmd_bg & bg_mask_ & (p_.bg - 1);
  d.addr = in.cmd_addr & addr_mask_;
  // An address a younger write has not reached yet cannot be read; the
  // writes four and five cycles older are forwarded (T3 §4.3: updates apply
  // in order).
  const uint64_t k = key(d.bg, d.addr);
  d.hazard = (op == uint32_t(NbOp::read) || op == uint32_t(NbOp::add)) &&
             (st(1).write_key == k || st(2).write_key == k || st(3).write_key == k);
  d.timing_ok = now_ >= ready_any_ && !(blocked_ >> d.bg & 1);
  d.ready = d.refused || (d.timing_ok && !d.hazard);
  d.accept = in.cmd_valid && d.ready;
  return d;
}

void NearBankAluCore::merge_rdata(const Wide& bank_rdata, Wide& r) const {
  const unsigned dw = p_.data_w();
  masked_copy(r, bank_rdata, data_bits_);
  // The write of the cycle before (stage 6 then, the slot behind it now),
  // then this cycle's write-back (stage 6), the younger on top. A stage's
  // data is its sum from stage 3 on, so the write-back's is there already.
  const uint64_t k = key(st(2).bg, st(2).addr);
  for (const Stage* f : {&st(7), &st(6)}) {
    if (f->write_key != k) continue;
    for (unsigned w = 0; w < dw / 64; ++w) {
      const uint64_t m = byte_mask_word(f->mask, w);
      r.w[w] = (f->data.w[w] & m) | (r.w[w] & ~m);
    }
  }
}

void NearBankAluCore::clock(const NearBankAluDataIn& in, bool err_clear) {
  if (!in.rst_n) {
    reset();
    return;
  }
  apply(in, err_clear, decide(in));
}

void NearBankAluCore::reset() {
  memo_.valid = false;
  for (Stage& s : ring_) s = Stage{};
  stages_ = 0;
  now_ = ready_any_ = 0;
  blocked_ = 0;
  release_.fill(0);
  out_ = NearBankAluCoreOutputs{};
  out_.bg_ready = uint32_t(low_mask(p_.bg));
}

void NearBankAluCore::apply(const NearBankAluDataIn& in, bool err_clear, const Decision& d) {
  memo_.valid = false;  // the state it was made on changes at this edge
  auto bump = [this](uint32_t& c) { c = (c + 1) & stat_mask_; };

  // S2 -> S3: the bank's data (with the writes of the cycle before and of
  // this cycle merged) meets the command: a READ's becomes the response, an
  // ADD's enters the adders (the sum is computed here at once and carried
  // to the write-back in stage 6, as the RTL's four adder stages carry it).
  Stage& s2 = st(2);
  const bool rsp = s2.valid && s2.op == NbOp::read;
  if (rsp) {
    merge_rdata(in.bank_rdata, out_.rsp_data);
  } else if (reads(s2)) {
    Wide& old = scratch_;
    merge_rdata(in.bank_rdata, old);
    // The sum replaces the command's data from here on (fp_lanes.h: the
    // same bits as fp_add(), on the host FPU).
    fp_add_burst(s2.fmt, old, s2.data, s2.data, p_.data_w());
  }
  if (!rsp && out_.rsp_valid) out_.rsp_data = Wide{};
  out_.rsp_valid = rsp;

  // Every stage moves on: stage k becomes stage k+1, a free slot stage 1
  // (this cycle's write, stage 6, stays behind as k = 7 for forwarding).
  head_ = (head_ + 7) & 7;
  Stage& s1 = st(1);
  s1.valid = false;
  s1.op = NbOp::read;
  s1.write_key = kNoKey;
  if (d.accept && !d.refused) {
    s1.valid = true;
    s1.op = NbOp(in.cmd_op & 3);
    s1.fmt = in.cmd_fmt & 3;
    s1.bg = d.bg;
    s1.addr = d.addr;
    if (writes(s1)) s1.write_key = key(d.bg, d.addr);
    // Bits above the burst are zero in every stored Wide.
    masked_copy(s1.data, in.cmd_data, data_bits_);
    masked_copy(s1.mask, in.cmd_mask, mask_bits_);
  }
  // An empty stage's fields and data are never looked at (every use is
  // qualified by its valid bit or its write key), so they are not cleared.

  // The next cycle's bank read (stage 1) and write-back (stage 6).
  out_.bank_rd = reads(s1);
  out_.bank_rd_bg = out_.bank_rd ? s1.bg : 0;
  out_.bank_rd_addr = out_.bank_rd ? s1.addr : 0;
  const Stage& s6 = st(6);
  if (writes(s6)) {
    // Stored Wides are zero above the burst (masked from the pins), so
    // whole copies are exact.
    out_.bank_wdata = s6.data;
    out_.bank_wmask = s6.mask;
  } else if (out_.bank_wr) {
    out_.bank_wdata = out_.bank_wmask = Wide{};
  }
  out_.bank_wr = writes(s6);
  out_.bank_wr_bg = out_.bank_wr ? s6.bg : 0;
  out_.bank_wr_addr = out_.bank_wr ? s6.addr : 0;
  stages_ = (stages_ << 1 | uint32_t(s1.valid)) & 0x3f;
  out_.busy = stages_ != 0;

  // Bank timing (T3 §5.1.1): tCCDS between any two column commands; tCCDL
  // within a bank group, tCCDWL after an op-and-store. A command is taken
  // only by a bank group that is not waiting, so it has no release pending.
  if (d.accept && !d.refused) {
    const unsigned wait = s1.op == NbOp::add ? p_.t_ccdwl : p_.t_ccdl;
    ready_any_ = now_ + p_.t_ccds;
    blocked_ |= 1u << d.bg;
    release_[(now_ + wait) & 15] |= 1u << d.bg;
  }
  ++now_;
  blocked_ &= ~release_[now_ & 15];
  release_[now_ & 15] = 0;
  out_.bg_ready = now_ >= ready_any_ ? ~blocked_ & uint32_t(low_mask(p_.bg)) : 0;

  if (err_clear) out_.err = false;
  if (d.accept) {
    if (d.refused) {
      bump(out_.stat_refused);
      out_.err = true;
    } else if (s1.op == NbOp::read) {
      bump(out_.stat_reads);
    } else if (s1.op == NbOp::store) {
      bump(out_.stat_stores);
    } else {
      bump(out_.stat_adds);
    }
  }
  if (in.cmd_valid && !d.refused) {
    if (d.hazard) bump(out_.stat_hazard_stalls);
    if (!d.timing_ok) bump(out_.stat_timing_stalls);
  }
}

}  // namespace t3
