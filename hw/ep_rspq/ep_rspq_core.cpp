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

EpRspqCore::EpRspqCore(const EpRspqParams& p) : p_((p.validate(), p)), q_(p.flit_w, p.max_len, p.slots, 2) {}

EpRspqCore::Cycle EpRspqCore::decide(const EpRspqCoreInputs& in) const {
  Cycle c;
  const unsigned lm = unsigned(low_mask(p_.len_w()));
  c.h = {in.hrq_valid, &in.hrq_hdr, in.hrq_len & lm, false, false};
  c.p = {in.prq_valid, &in.prq_hdr, in.prq_len & lm, false, false};
  for (Port* p : {&c.h, &c.p}) p->over = p->valid && p->len > p_.max_len;
  // The home first: its RESULT frees a line's counter and merge area, which
  // the region's next contributions wait for; a pull's answer only delays
  // its requester's final add (docs/blocks/ep_rspq.md).
  c.h.ready = c.h.valid && !c.h.over && q_.free() >= 1 + c.h.len;
  c.p.ready = !c.h.valid && c.p.valid && !c.p.over && q_.free() >= 1 + c.p.len;
  c.bad_h = c.h.over && !over_seen_[0];
  c.bad_p = c.p.over && !over_seen_[1];
  c.rel_stray = q_.rel_stray(in.hrel);
  c.fill[0] = {in.hmd_valid, tag(in.hmd_tag), &in.hmd_data};
  c.fill[1] = {in.pmd_valid, tag(in.pmd_tag), &in.pmd_data};
  c.strays = unsigned(q_.stray(c.fill, 0)) + unsigned(q_.stray(c.fill, 1));
  return c;
}

EpRspqCoreOutputs EpRspqCore::eval(const EpRspqCoreInputs& in) const {
  const Cycle c = decide(in);
  EpRspqCoreOutputs o;
  o.hrq_ready = c.h.ready;
  o.prq_ready = c.p.ready;
  o.hrq_slot = o.prq_slot = uint8_t(q_.first());
  o.rsp_out_valid = q_.out_valid();
  o.rsp_out_flit = q_.out_flit();
  o.idle = q_.count() == 0;
  o.stray = c.strays != 0;
  o.bad = c.bad_h || c.bad_p || c.rel_stray;
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
    over_seen_[0] = over_seen_[1] = false;
    results_ = pull_rsps_ = flits_ = strays_ = bad_ = 0;
    return;
  }
  const Cycle c = decide(in);
  EpOutq::Edge e;
  e.fill[0] = c.fill[0];
  e.fill[1] = c.fill[1];
  e.rel = in.hrel;
  e.out_ready = in.rsp_out_ready;
  if (q_.out_valid() && in.rsp_out_ready) ++flits_;
  strays_ += c.strays;
  bad_ += unsigned(c.bad_h) + unsigned(c.bad_p) + unsigned(c.rel_stray);
  over_seen_[0] = c.h.over;
  over_seen_[1] = c.p.over;
  if (c.h.ready || c.p.ready) {
    const Port& g = c.h.ready ? c.h : c.p;
    e.push = true;
    e.hdr = g.hdr;
    e.len = g.len;
    e.hold = c.h.ready;  // a RESULT's last flit waits for the home's release
    ++(c.h.ready ? results_ : pull_rsps_);
  }
  q_.clock(e);
}

}  // namespace t3
