// One request on one of ep_count's ports (docs/blocks/ep_count.md), as an
// engine asks it: put() sets port i's fields of the packed request pins,
// cut to their widths, and raises its valid. The engines of the endpoint's
// composition, the co-simulation's directed cases and the unit tests ask
// through it.
#pragma once

#include <cstdint>

#include "common/bits.h"
#include "ep_count/ep_count_core.h"

namespace t3 {

struct EpCountRequest {
  EpCountOp op = EpCountOp::read;
  uint32_t line = 0, n = 0, limit = 0, len = 0;
  bool whole_ok = true;
};

inline void ep_count_put(const EpCountParams& p, EpCountDataIn& in, unsigned port, const EpCountRequest& r) {
  auto set = [port](auto& packed, unsigned w, uint64_t v) {
    const uint64_t m = low_mask(w) << (port * w);
    packed = decltype(+packed)((uint64_t(packed) & ~m) | (v << (port * w) & m));
  };
  set(in.req_valid, 1, 1);
  set(in.req_op, 2, uint64_t(r.op));
  set(in.req_line, p.line_w(), r.line);
  set(in.req_n, p.cnt_w, r.n);
  set(in.req_limit, p.cnt_w, r.limit);
  set(in.req_len, p.len_w(), r.len);
  set(in.req_whole_ok, 1, r.whole_ok);
}

inline void ep_count_withdraw(EpCountDataIn& in, unsigned port) { in.req_valid &= ~(1u << port); }

}  // namespace t3
