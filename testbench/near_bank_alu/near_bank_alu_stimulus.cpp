#include "near_bank_alu_stimulus.h"

#include "fp_reference.h"
#include "t3/near_bank_alu_regs.h"

namespace t3::tb {
namespace {

uint64_t ones(unsigned w) { return w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1; }

}  // namespace

NearBankAluStimulus::NearBankAluStimulus(const NearBankAluParams& p, uint64_t seed, NbTraffic t)
    : p_(p), seed_(seed), rng_(seed), t_(t), bank_(p.burst_bytes, seed) {
  for (unsigned i = 0; i < t_.hot; ++i)
    hot_.push_back({uint32_t(rng_() % p_.bg), uint32_t(rng_() & ones(p_.addr_w))});
}

std::pair<uint32_t, uint32_t> NearBankAluStimulus::address() {
  if (std::uniform_real_distribution<double>(0, 1)(rng_) < t_.p_hot) return hot_[rng_() % hot_.size()];
  return {uint32_t(rng_() % p_.bg), uint32_t(rng_() & ones(p_.addr_w))};
}

// Lanes of one format: edge values and operand classes.
Wide NearBankAluStimulus::lanes(uint32_t fmt) {
  const FpFormat f = *nb_format(fmt);
  static thread_local std::vector<uint32_t> edges[3];
  if (edges[fmt].empty()) edges[fmt] = fp_edge_values(f);
  Wide w;
  for (unsigned lsb = 0; lsb < p_.data_w(); lsb += f.width()) {
    const uint32_t v = rng_() % 4 == 0 ? edges[fmt][rng_() % edges[fmt].size()]
                                       : fp_random_pair(f, rng_).a;
    w.set_lane(lsb, f.width(), v);
  }
  return w;
}

NearBankAluStimulus::Cmd NearBankAluStimulus::random_cmd() {
  std::uniform_real_distribution<double> u(0, 1);
  Cmd c;
  const auto [bg, addr] = address();
  c.bg = bg;
  c.addr = addr;
  c.fmt = uint32_t(rng_() % 3);
  const double r = u(rng_);
  c.op = r < t_.p_read ? 0 : r < t_.p_read + t_.p_store ? 1 : 2;
  c.data = lanes(c.fmt);
  for (unsigned b = 0; b < p_.burst_bytes; ++b)
    if (u(rng_) < t_.p_full_mask || rng_() & 1) c.mask.set_lane(b, 1, 1);
  if (u(rng_) < t_.p_refused) {
    if (rng_() & 1) c.op = 3;
    else c.op = 2, c.fmt = 3;
  }
  return c;
}

void NearBankAluStimulus::drive(NearBankAluInputs& in, ApbMaster& apb) {
  std::uniform_real_distribution<double> u(0, 1);
  in.bank_rdata = bank_.rdata();
  if (u(rng_) < t_.p_err_clear && apb.idle())
    apb.write(T3_NEAR_BANK_ALU_A_CTRL, T3_NEAR_BANK_ALU_R_CTRL_ERR_CLEAR_MASK);
  if (!have_ && !stopping_) {
    if (seq_.empty()) {
      const double r = u(rng_);
      if (r < t_.p_pair) {
        // STORE a, then ADD b, lane by lane a pair of one operand class.
        const auto [bg, addr] = address();
        const uint32_t fmt = uint32_t(rng_() % 3);
        const FpFormat f = *nb_format(fmt);
        Cmd st{1, fmt, bg, addr, {}, {}}, ad{2, fmt, bg, addr, {}, {}};
        for (unsigned lsb = 0; lsb < p_.data_w(); lsb += f.width()) {
          const OperandPair pr = fp_random_pair(f, rng_);
          st.data.set_lane(lsb, f.width(), pr.a);
          ad.data.set_lane(lsb, f.width(), pr.b);
        }
        st.mask.truncate(0);
        for (unsigned b = 0; b < p_.burst_bytes; ++b) st.mask.set_lane(b, 1, 1);
        ad.mask = st.mask;
        seq_.push_back(st);
        seq_.push_back(ad);
      } else if (r < t_.p_pair + t_.p_chain) {
        // ADDs to one address at the tCCDWL limit (T3 §5.1.1).
        Cmd c = random_cmd();
        c.op = 2;
        c.fmt = uint32_t(rng_() % 3);
        for (unsigned n = 2 + unsigned(rng_() % 5); n > 0; --n) {
          c.data = lanes(c.fmt);
          seq_.push_back(c);
        }
      }
    }
    if (!seq_.empty()) {
      cur_ = seq_.front();
      seq_.pop_front();
      have_ = from_seq_ = true;
    } else if (u(rng_) < t_.p_valid) {
      cur_ = random_cmd();
      have_ = true;
      from_seq_ = false;
    }
  }
  in.cmd_valid = have_;
  in.cmd_op = cur_.op;
  in.cmd_fmt = cur_.fmt;
  in.cmd_bg = cur_.bg;
  in.cmd_addr = cur_.addr;
  in.cmd_data = cur_.data;
  in.cmd_mask = cur_.mask;
}

void NearBankAluStimulus::after(const NearBankAluInputs& in, const NearBankAluOutputs& out) {
  bank_.after(out);
  if (!in.rst_n) {
    have_ = false;
    seq_.clear();
    return;
  }
  if (!in.cmd_valid) return;
  if (out.cmd_ready) {
    have_ = false;
  } else if (!from_seq_ && std::uniform_real_distribution<double>(0, 1)(rng_) >= t_.p_hold) {
    have_ = false;  // the queue offers another command instead
  }
}

}  // namespace t3::tb
