#include "ep_rspq/ep_rspq_core.h"

#include <stdexcept>
#include <string>

#include "common/bits.h"

namespace t3 {

void EpRspqParams::validate() const {
  validate_param_ranges(*this, "ep_rspq");
  if (slots < 1 + max_len)
    throw std::invalid_argument("ep_rspq parameter slots (SLOTS) = " + std::to_string(slots) +
                                " is out of range; allowed: 1 + MAX_LEN (" + std::to_string(1 + max_len) +
                                ") .. 64");
}

EpRspqCore::EpRspqCore(const EpRspqParams& p) : p_((p.validate(), p)), q_(p.flit_w, p.max_len, p.slots) {}

void EpRspqCore::ports(const EpRspqCoreInputs& in, Port& h, Port& pr) const {
  const unsigned lm = unsigned(low_mask(p_.len_w()));
  h = {in.hrq_valid, &in.hrq_hdr, in.hrq_len & lm, false, false};
  pr = {in.prq_valid, &in.prq_hdr, in.prq_len & lm, false, false};
  // The home first: its RESULT frees a line's counter and merge area, which
  // the region's next contributions wait for; a pull's answer only delays
  // its requester's final add (docs/blocks/ep_rspq.md).
  for (Port* p : {&h, &pr}) {
    if (p == &pr && h.valid) break;
    p->bad = p->valid && p->len > p_.max_len;
    p->ready = p->valid && (p->bad || q_.free() >= 1 + p->len);
  }
}

EpRspqCoreOutputs EpRspqCore::eval(const EpRspqCoreInputs& in) const {
  EpRspqCoreOutputs o;
  Port h, pr;
  ports(in, h, pr);
  o.hrq_ready = h.ready;
  o.prq_ready = pr.ready;
  o.hrq_slot = o.prq_slot = uint8_t(q_.first());
  o.rsp_out_valid = q_.out_valid();
  o.rsp_out_flit = q_.out_flit();
  o.idle = q_.count() == 0;
  o.stray = q_.stray(in.md_valid, md_tag(in));
  o.bad = h.bad || pr.bad;
  o.queued = uint8_t(q_.count());
  const uint64_t m = low_mask(p_.stat_w);
  o.stat.results = uint32_t(results_ & m);
  o.stat.pull_rsps = uint32_t(pull_rsps_ & m);
  o.stat.flits = uint32_t(flits_ & m);
  o.stat.strays = uint32_t(strays_ & m);
  o.stat.bad = uint32_t(bad_ & m);
  return o;
}

void EpRspqCore::clock(const EpRspqCoreInputs& in) {
  if (!in.rst_n) {
    q_.reset();
    results_ = pull_rsps_ = flits_ = strays_ = bad_ = 0;
    return;
  }
  Port h, pr;
  ports(in, h, pr);
  EpOutq::Edge e;
  e.fill = in.md_valid;
  e.tag = md_tag(in);
  e.data = &in.md_data;
  e.out_ready = in.rsp_out_ready;
  if (q_.out_valid() && in.rsp_out_ready) ++flits_;
  if (q_.stray(in.md_valid, e.tag)) ++strays_;
  if (h.bad || pr.bad) ++bad_;
  const Port& g = h.ready ? h : pr;
  if (g.ready && !g.bad) {
    e.push = true;
    e.hdr = g.hdr;
    e.len = g.len;
    ++(&g == &h ? results_ : pull_rsps_);
  }
  q_.clock(e);
}

}  // namespace t3
