#include "dma_credit_stimulus.h"

#include <algorithm>

#include "common/bits.h"

namespace t3::tb {

void DmaCreditStimulus::new_mode() {
  mode_end_ = now_ + 2000 + below(20000);
  const unsigned k = unsigned(below(8));
  cmd_rate_ = draining_ ? 0.0 : (k == 0 ? 0.5 : k < 3 ? 0.02 : 0.1);
  pkt_ready_ = k == 1 ? 0.2 : k == 2 ? 1.0 : 0.5 + 0.5 * u();
  drop_ = draining_ ? 0.0 : (k == 3 ? 0.2 : 0.01);
  stray_ = draining_ ? 0.0 : 0.003;
  bad_ = draining_ ? 0.0 : 0.002;
  reg_cmd_ = draining_ ? 0.0 : 0.001;
  delay_max_ = k == 4 ? 200 : 8 + unsigned(below(48));
  popping_ = draining_ || k != 5;
  pending_config_ = true;
}

// INJ_LIMIT, RETRY and TIMEOUT for the mode (through the register port).
void DmaCreditStimulus::configure() {
  const unsigned k = unsigned(below(10));
  uint32_t inj = k == 0 ? 1 : k == 1 ? 2 : k == 2 ? p_.ctrs : 4 + unsigned(below(4 * p_.ctrs + 8));
  if (k == 3 && !draining_) {  // paused, for a short while
    inj = 0;
    mode_end_ = now_ + 300 + below(500);
  }
  if (k == 9) inj = ~0u;
  const uint32_t interval = unsigned(below(7)), limit = unsigned(below(5));
  uint32_t timeout = draining_ ? 300 : k == 4 ? 20 + unsigned(below(40)) : 150 + unsigned(below(600));
  if (k == 5 && !draining_) timeout = 0;  // disabled for a while
  if (delay_max_ > 100 && timeout && timeout < 2 * delay_max_) timeout = 2 * delay_max_ + 50;
  apb_.write(T3_DMA_CREDIT_A_INJ_LIMIT, inj);
  apb_.write(T3_DMA_CREDIT_A_RETRY, interval | limit << 16);
  apb_.write(T3_DMA_CREDIT_A_TIMEOUT, timeout);
}

DmaRequest DmaCreditStimulus::random_request() {
  DmaRequest r;
  const uint64_t b = p_.flit_w / 8, top = uint64_t{1} << 48;
  const uint64_t len_max = low_mask(p_.len_w);
  const unsigned k = unsigned(below(100));
  uint64_t len = k < 70 ? 1 + below(2 * p_.max_len) : k < 92 ? 1 + below(8 * p_.max_len)
                 : k < 97 ? 1 + below(64 * p_.max_len) : len_max;
  if (len_max > 4096 && k >= 97) len = 1 + below(256);  // max length: the directed test
  len = std::min(len, len_max);
  r.len = uint32_t(len);
  r.dtype = uint8_t(below(3));
  r.pull = below(2) != 0;
  r.src = uint8_t(rng_());
  r.dst = uint8_t(rng_());
  r.tag = uint8_t(rng_());
  auto addr = [&]() {
    const unsigned a = unsigned(below(10));
    uint64_t x = rng_() & (top - 1) & ~(b - 1);
    if (a == 0) x = top - len * b;  // the range ends at 2^48 exactly
    if (a == 1) x = 0;
    if (x + len * b > top) x = (top - len * b) & ~(b - 1);
    return x;
  };
  r.local_addr = addr();
  r.net_addr = addr();
  if (u() < 0.05) {  // malformed
    switch (below(7)) {
      case 0: r.len = 0; break;
      case 1: r.red_op = uint8_t(1 + below(3)); break;
      case 2: r.dtype = 3; break;
      case 3: r.local_addr |= 1 + below(b - 1); break;
      case 4: r.net_addr |= 1 + below(b - 1); break;
      case 5:  // one flit past 2^48
        r.len = uint32_t(std::max<uint64_t>(len, 2));
        r.net_addr = top - (r.len - 1) * b;
        break;
      default: r.local_addr = (top - b) & ~(b - 1); r.len = uint32_t(std::max<uint64_t>(len, 2)); break;
    }
  }
  return r;
}

// A request through the staging registers and CMD_GO (refused with PSLVERR
// while STATUS.GO_PENDING; the test does not mind).
void DmaCreditStimulus::reg_request() {
  DmaRequest r = random_request();
  uint32_t len = r.len;
  if (u() < 0.1) len = uint32_t(low_mask(p_.len_w) + 1 + below(1000));  // past LEN_W bits
  if (u() < 0.02) len = ~0u;
  apb_.write(T3_DMA_CREDIT_A_CMD_LOCAL_LO, uint32_t(r.local_addr));
  apb_.write(T3_DMA_CREDIT_A_CMD_LOCAL_HI, uint32_t(r.local_addr >> 32));
  apb_.write(T3_DMA_CREDIT_A_CMD_NET_LO, uint32_t(r.net_addr));
  apb_.write(T3_DMA_CREDIT_A_CMD_NET_HI, uint32_t(r.net_addr >> 32));
  apb_.write(T3_DMA_CREDIT_A_CMD_LEN, len);
  apb_.write(T3_DMA_CREDIT_A_CMD_CTRL, uint32_t(r.red_op) | uint32_t(r.dtype) << 2 | uint32_t(r.pull) << 4 |
                                           uint32_t(r.src) << 8 | uint32_t(r.dst) << 16 |
                                           uint32_t(r.tag) << 24);
  apb_.write(T3_DMA_CREDIT_A_CMD_GO, 1);
}

// A stray or a malformed result of the network's own.
Wide DmaCreditStimulus::random_result(bool& real, unsigned& ctr) {
  real = false;
  pkt::Header h;
  h.op = below(2) ? 0xB : 0xA;
  h.len = uint8_t(1 + below(p_.max_len));
  h.dtype = uint8_t(below(3));
  h.addr = (rng_() & low_mask(48)) & ~uint64_t(p_.flit_w / 8 - 1);
  h.ctr = uint8_t(below(2) ? below(p_.ctrs) : rng_());
  h.count = uint8_t(rng_());
  ctr = h.ctr;
  if (u() < bad_ / (bad_ + stray_)) {
    switch (below(6)) {
      case 0: h.op = uint8_t(below(16)); break;  // unknown, or not a result
      case 1: h.len = 0; break;
      case 2: h.len = uint8_t(p_.max_len + 1 + below(255 - p_.max_len + (p_.max_len == 255))); break;
      case 3: h.red_op = uint8_t(1 + below(3)); break;
      case 4: h.dtype = 3; break;
      default: h.addr |= 1; break;
    }
  }
  return pkt::pack(h);
}

void DmaCreditStimulus::drive(DmaCreditInputs& in) {
  // A reset now and then, and one every 200,000 cycles for certain, so that
  // a seed cannot leave the run without the few its test asserts.
  if (reset_left_ == 0 && !draining_ && (now_ % 200000 == 100000 || u() < 1e-5)) reset_left_ = 2;
  in.rst_n = reset_left_ == 0;
  if (reset_left_ > 0) {
    if (--reset_left_ == 0) {
      apb_.clear();
      results_.clear();
      res_valid_ = false;
      cmd_valid_ = false;
      std::fill(out_.begin(), out_.end(), 0);
      head_read_queued_ = false;
      pending_config_ = true;
      ++resets_;
    }
  }
  if (now_ >= mode_end_) new_mode();
  if (in.rst_n && apb_.idle()) {
    if (pending_config_) {
      configure();
      pending_config_ = false;
    } else if (popping_ && !head_read_queued_ && u() < 0.2) {
      apb_.read(T3_DMA_CREDIT_A_CPL_HEAD);
      head_read_queued_ = true;
    } else if (u() < reg_cmd_) {
      reg_request();
    }
  }

  // command port: a request offered stays until taken
  if (!cmd_valid_ && in.rst_n && u() < cmd_rate_) {
    cmd_valid_ = true;
    cmd_ = random_request();
  }
  in.cmd_valid = cmd_valid_;
  in.cmd_local_addr = cmd_valid_ ? cmd_.local_addr : rng_() & low_mask(48);
  in.cmd_net_addr = cmd_valid_ ? cmd_.net_addr : rng_() & low_mask(48);
  in.cmd_len = cmd_valid_ ? cmd_.len : uint32_t(rng_() & low_mask(p_.len_w));
  in.cmd_red_op = cmd_.red_op;
  in.cmd_dtype = cmd_.dtype;
  in.cmd_pull = cmd_.pull;
  in.cmd_src = cmd_.src;
  in.cmd_dst = cmd_.dst;
  in.cmd_tag = cmd_.tag;

  // network
  in.pkt_ready = u() < pkt_ready_;
  if (!res_valid_ && in.rst_n) {
    if (!results_.empty() && results_.begin()->first <= now_) {
      res_ = results_.begin()->second;
      results_.erase(results_.begin());
      res_valid_ = true;
    } else if (u() < stray_ + bad_) {
      res_.hdr = random_result(res_.real, res_.ctr);
      res_valid_ = true;
    }
  }
  in.res_valid = res_valid_;
  in.res_hdr = res_valid_ ? res_.hdr : Wide{};
  if (!res_valid_) in.res_hdr.w[0] = rng_();  // data without valid: ignored
  in.res_hdr.truncate(p_.flit_w);
  apb_.drive(in.apb, in.rst_n);
}

void DmaCreditStimulus::after(const DmaCreditInputs& in, const DmaCreditOutputs& out) {
  ++now_;
  if (const auto d = apb_.after(in.apb, out.apb)) {
    if (!d->t.write && d->t.addr == T3_DMA_CREDIT_A_CPL_HEAD) {
      head_read_queued_ = false;
      if (!d->err && (d->rdata >> 31)) apb_.write(T3_DMA_CREDIT_A_CPL_POP, 1);
    }
  }
  if (!in.rst_n) return;
  if (in.cmd_valid && out.cmd_ready) cmd_valid_ = false;
  if (in.res_valid && out.res_ready) {
    if (res_.real && out_[res_.ctr] > 0) --out_[res_.ctr];
    res_valid_ = false;
  }
  if (out.pkt_valid && in.pkt_ready) {
    const pkt::Header h = pkt::unpack(out.pkt_hdr);
    pkt::Header r;
    r.op = h.op == 0x4 ? 0xA : 0xB;
    r.dtype = h.dtype;
    r.len = h.len;
    r.src = h.dst;
    r.dst = h.src;
    r.count = uint8_t(1 + below(8));
    r.ctr = h.ctr;
    r.addr = h.addr;
    r.rgn = uint8_t(rng_());  // switch-internal fields: the endpoint ignores them
    r.home = uint8_t(rng_());
    ++out_[h.ctr];
    uint64_t at = now_ + 1 + below(delay_max_);
    if (u() < drop_) {
      if (u() < 0.5) return;      // lost: the counter times out
      at = now_ + 1000 + below(3000);  // late: after the timeout, a stray
    }
    results_.emplace(at, Due{pkt::pack(r), true, h.ctr});
  }
}

}  // namespace t3::tb
