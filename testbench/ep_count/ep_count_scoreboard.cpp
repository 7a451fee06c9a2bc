#include "ep_count_scoreboard.h"

#include <algorithm>

#include "common/bits.h"
#include "t3/ep_count_regs.h"

namespace t3::tb {

namespace {
uint64_t at(uint64_t packed, unsigned port, unsigned w) { return packed >> (port * w) & low_mask(w); }
}  // namespace

// Built as the block is just after a reset: the array clears for
// COUNT_DEPTH cycles.
EpCountScoreboard::EpCountScoreboard(const EpCountParams& p)
    : p_(p), cnt_(p.count_depth, 0), len_(p.count_depth, 0), clearing_left_(p.count_depth) {}

// The rules of docs/blocks/ep_count.md, "Behaviour", applied to the arrays.
EpCountScoreboard::Expect EpCountScoreboard::apply(unsigned port, const EpCountInputs& in) {
  Expect e;
  e.port = port;
  const unsigned op = unsigned(at(in.req_op, port, 2));
  e.line = uint32_t(at(in.req_line, port, p_.line_w()));
  const uint64_t n = at(in.req_n, port, p_.cnt_w), limit = at(in.req_limit, port, p_.cnt_w);
  const uint64_t len = at(in.req_len, port, p_.len_w());
  const bool whole_ok = in.req_whole_ok >> port & 1;
  const bool exists = e.line < p_.count_depth;
  e.count = exists ? cnt_[e.line] : 0;  // a line past the array reads 0
  e.len = exists ? len_[e.line] : 0;
  uint64_t after = e.count;
  if (op == 3 || !exists || (op == 1 && (n == 0 || len == 0 || len > p_.max_len))) {
    e.code = EpCountCode::bad;
  } else if (op == 1) {
    if (e.count + n > limit) e.code = EpCountCode::over;
    else if (e.count + n == limit && !whole_ok) e.code = EpCountCode::held;
    else {
      after = e.count + n;
      cnt_[e.line] = uint32_t(after);
      len_[e.line] = uint32_t(len);
      e.wrote = true;
    }
  } else if (op == 2) {
    after = 0;
    cnt_[e.line] = 0;
    e.wrote = true;
  }
  e.whole = e.code == EpCountCode::done && after == limit;
  return e;
}

std::optional<std::string> EpCountScoreboard::observe(const EpCountInputs& in, const EpCountOutputs& out) {
  std::ostringstream& err = complaints_.fresh();
  const bool clearing = clearing_left_ > 0;

  // ---- the register port and the interrupts, on the state before the edge
  auto ro = [&](unsigned r) -> std::optional<uint32_t> {
    switch (EpCountReg(r)) {
      case EpCountReg::status: return uint32_t(clearing);
      case EpCountReg::last: return last_;
      case EpCountReg::stat_ops: return uint32_t(ops_ & low_mask(p_.stat_w));
      case EpCountReg::stat_over: return uint32_t(over_ & low_mask(p_.stat_w));
      case EpCountReg::stat_held: return uint32_t(held_ & low_mask(p_.stat_w));
      case EpCountReg::stat_bad: return uint32_t(bad_ & low_mask(p_.stat_w));
      case EpCountReg::param: return p_.cnt_w | p_.max_len << 8 | p_.ports << 16 | p_.stat_w << 24;
      case EpCountReg::param_depth: return p_.count_depth;
      default: return 0;
    }
  };
  regs_.observe(in.apb, out.apb, false, ro, err);
  if (out.intr != regs_.intr()) err << "intr_o = " << out.intr << ", expected " << regs_.intr() << "; ";

  // ---- the grant: the lowest port asking, none in reset or while clearing
  const uint32_t asking = in.req_valid & uint32_t(low_mask(p_.ports));
  int g = -1;
  if (in.rst_n && !clearing && asking) g = __builtin_ctz(asking);
  const uint32_t want_ready = g >= 0 ? 1u << g : 0u;
  if (out.req_ready != want_ready) err << "req_ready_o = 0x" << std::hex << out.req_ready << ", expected 0x" << want_ready << std::dec << "; ";
  if (out.clearing != clearing) err << "clearing_o = " << out.clearing << ", expected " << clearing << "; ";

  // ---- the answer to last cycle's grant
  const Expect none{};
  const Expect& e = pending_ ? *pending_ : none;
  const uint32_t want_valid = pending_ ? 1u << e.port : 0u;
  if (out.rsp_valid != want_valid) err << "rsp_valid_o = 0x" << std::hex << out.rsp_valid << ", expected 0x" << want_valid << std::dec << "; ";
  if (pending_) {
    if (out.rsp_code != uint8_t(e.code)) err << "rsp_code_o = " << unsigned(out.rsp_code) << ", expected " << unsigned(e.code) << " (" << name(e.code) << ", line " << e.line << "); ";
    if (out.rsp_count != e.count) err << "rsp_count_o = " << out.rsp_count << ", expected " << e.count << " (line " << e.line << "); ";
    if (out.rsp_len != e.len) err << "rsp_len_o = " << out.rsp_len << ", expected " << e.len << " (line " << e.line << "); ";
    if (out.rsp_whole != e.whole) err << "rsp_whole_o = " << out.rsp_whole << ", expected " << e.whole << " (line " << e.line << "); ";
  } else if (out.rsp_code || out.rsp_count || out.rsp_len || out.rsp_whole) {
    err << "the answer's fields are not 0 with no answer; ";
  }

  // ---- the edge
  if (!in.rst_n) {
    std::fill(cnt_.begin(), cnt_.end(), 0);
    std::fill(len_.begin(), len_.end(), 0);
    clearing_left_ = p_.count_depth;
    pending_.reset();
    ops_ = over_ = held_ = bad_ = 0;
    last_ = 0;
    ++resets_;
    regs_.reset();
  } else {
    uint32_t events = 0;
    if (pending_) {
      ++ops_;
      ++codes_[unsigned(e.code)];
      wholes_ += e.whole;
      over_ += e.code == EpCountCode::over;
      held_ += e.code == EpCountCode::held;
      bad_ += e.code == EpCountCode::bad;
      if (e.code == EpCountCode::over || e.code == EpCountCode::bad) {
        last_ = (e.line & 0xFFFF) | e.port << 16 | unsigned(e.code) << 20;
        events |= e.code == EpCountCode::over ? T3_EP_COUNT_R_INTR_STATE_OVER_MASK : T3_EP_COUNT_R_INTR_STATE_BAD_MASK;
      }
    }
    regs_.set_event(unsigned(EpCountReg::intr_state), events);
    if (clearing) --clearing_left_;
    std::optional<Expect> next;
    if (g >= 0) {
      next = apply(unsigned(g), in);
      same_line_ += pending_ && pending_->wrote && pending_->line == next->line;
    }
    pending_ = next;
    regs_.edge();
  }
  if (err.tellp() == 0) return std::nullopt;
  return err.str();
}

}  // namespace t3::tb
