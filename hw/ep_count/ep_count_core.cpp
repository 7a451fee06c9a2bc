#include "ep_count/ep_count_core.h"

#include "common/bits.h"

namespace t3 {

void EpCountParams::validate() const { validate_param_ranges(*this, "ep_count"); }

const char* name(EpCountCode c) {
  switch (c) {
    case EpCountCode::done: return "DONE";
    case EpCountCode::over: return "OVER";
    case EpCountCode::held: return "HELD";
    case EpCountCode::bad: return "BAD";
  }
  return "?";
}

EpCountCore::EpCountCore(const EpCountParams& p)
    : p_((p.validate(), p)),
      line_w_(p.line_w()),
      len_w_(p.len_w()),
      cnt_mask_(uint32_t(low_mask(p.cnt_w))),
      stat_mask_(uint32_t(low_mask(p.stat_w))),
      mem_(p.count_depth) {}

int EpCountCore::grant(const EpCountCoreInputs& in) const {
  if (!in.rst_n || clearing_) return -1;
  for (unsigned i = 0; i < p_.ports; ++i)
    if (in.req_valid >> i & 1) return int(i);
  return -1;
}

EpCountCore::Answer EpCountCore::answer() const {
  Answer a;
  // The array's read took the word before the last edge's write: that
  // write's word is forwarded.
  a.word = fwd_valid_ && fwd_line_ == t_.line ? fwd_word_ : mem_.rdata();
  const uint32_t cnt = a.word & cnt_mask_;
  const uint32_t sum = cnt + t_.n;
  a.after = cnt;
  if (t_.bad) {
    a.code = EpCountCode::bad;
  } else if (t_.op == uint32_t(EpCountOp::add)) {
    if (sum > t_.limit) {
      a.code = EpCountCode::over;
    } else if (sum == t_.limit && !t_.whole_ok) {
      a.code = EpCountCode::held;
    } else {
      a.after = sum;
      a.write = true;
      a.wword = t_.len << p_.cnt_w | sum;
    }
  } else if (t_.op == uint32_t(EpCountOp::clear)) {
    a.after = 0;
    a.write = true;
    a.wword = a.word & ~cnt_mask_;  // the length stays
  }
  a.whole = a.code == EpCountCode::done && a.after == t_.limit;
  return a;
}

EpCountCoreOutputs EpCountCore::eval(const EpCountCoreInputs& in) const {
  EpCountCoreOutputs o;
  o.clearing = clearing_;
  const int g = grant(in);
  o.req_ready = g >= 0 ? 1u << g : 0u;
  if (t_.valid) {
    const Answer a = answer();
    o.rsp_valid = 1u << t_.port;
    o.rsp_code = uint8_t(a.code);
    o.rsp_count = a.word & cnt_mask_;
    o.rsp_len = a.word >> p_.cnt_w;
    o.rsp_whole = a.whole;
    o.over = a.code == EpCountCode::over;
    o.bad = a.code == EpCountCode::bad;
  }
  o.last = last_;
  o.stat = stat_;
  return o;
}

void EpCountCore::clock(const EpCountCoreInputs& in) {
  if (!in.rst_n) {
    mem_.clock(false, 0, 0, false, 0);
    t_ = Taken{};
    fwd_valid_ = false;
    clearing_ = true;
    clr_line_ = 0;
    last_ = EpCountLast{};
    stat_ = EpCountStats{};
    return;
  }
  const int g = grant(in);
  const Answer a = t_.valid ? answer() : Answer{};
  bool we = false;
  uint32_t waddr = 0, wdata = 0;
  if (clearing_) {
    we = true;
    waddr = clr_line_;
  } else if (t_.valid && a.write) {
    we = true;
    waddr = t_.line;
    wdata = a.wword;
  }
  Taken n;
  if (g >= 0) {
    const unsigned i = unsigned(g);
    n.valid = true;
    n.port = i;
    n.op = field(in.req_op, i, 2);
    n.line = field(in.req_line, i, line_w_);
    n.n = field(in.req_n, i, p_.cnt_w);
    n.limit = field(in.req_limit, i, p_.cnt_w);
    n.len = field(in.req_len, i, len_w_);
    n.whole_ok = in.req_whole_ok >> i & 1;
    const bool add = n.op == uint32_t(EpCountOp::add);
    n.bad = n.op == 3 || n.line >= p_.count_depth || (add && (n.n == 0 || n.len == 0 || n.len > p_.max_len));
  }
  mem_.clock(we, waddr, wdata, n.valid, n.line);
  fwd_valid_ = !clearing_ && t_.valid && a.write;
  fwd_line_ = t_.line;
  fwd_word_ = a.wword;
  if (t_.valid) {
    stat_.ops = (stat_.ops + 1) & stat_mask_;
    if (a.code == EpCountCode::over) stat_.over = (stat_.over + 1) & stat_mask_;
    if (a.code == EpCountCode::held) stat_.held = (stat_.held + 1) & stat_mask_;
    if (a.code == EpCountCode::bad) stat_.bad = (stat_.bad + 1) & stat_mask_;
    if (a.code == EpCountCode::over || a.code == EpCountCode::bad) last_ = EpCountLast{t_.port, uint32_t(a.code), t_.line};
  }
  if (clearing_) {
    if (clr_line_ + 1 == p_.count_depth) clearing_ = false;
    else ++clr_line_;
  }
  t_ = n;
}

}  // namespace t3
