// ep_mem_arb's constrained-random traffic and the neighbours it needs:
// - the engines: each port asks now and then (reads, writes and adds with
//   random types, addresses, data and tags), holding its operation until
//   its ready; the rates set per phase (a few ports, every port at once,
//   the low-priority ports alone);
// - the memory behind the lanes: each read granted answered on a lane with
//   its lane tag after a latency that is fixed for a phase (a pipelined
//   memory: never two answers for one port in a cycle) or random (answers
//   in any order: two answers for one port can meet in a cycle, a clash);
//   at most MEM_OPS answers a cycle, the rest the next cycle;
// - now and then an answer whose tag names no port (where PORTS is no
//   power of two); resets now and then.
// The co-simulation test and the benchmark drive the block with it.
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <random>
#include <vector>

#include "ep_mem_arb/ep_mem_arb.h"
#include "stim_base.h"
#include "tagged_memory.h"

namespace t3::tb {

class EpMemArbStimulus : public StimBase {
 public:
  EpMemArbStimulus(const EpMemArbParams& p, uint64_t seed) : StimBase(seed), p_(p), rate_(p.ports, 0.3) {}

  void drive(EpMemArbInputs& in) {
    bool ended;
    in.rst_n = reset_cycle(ended);
    if (ended) due_.clear();
    if (phase_due()) new_phase();
    const unsigned fw = p_.flit_w, tw = p_.tag_w;
    in.rq_valid &= ~taken_;
    for (unsigned i = 0; i < p_.ports; ++i) {
      if (in.rq_valid >> i & 1 || u() >= rate_[i]) continue;
      in.rq_valid |= 1u << i;
      const uint32_t op = u() < 0.5 ? 0 : u() < 0.5 ? 1 : 2;
      in.rq_op = (in.rq_op & ~(3u << 2 * i)) | op << 2 * i;
      in.rq_dtype = (in.rq_dtype & ~(3u << 2 * i)) | uint32_t(pick(3)) << 2 * i;
      in.rq_addr.set_bits(48 * i, 48, rng_() & low_mask(48));
      const Wide d = mem_data(rng_(), fw);
      for (unsigned k = 0; k < fw / 64; ++k) in.rq_data.set_bits(fw * i + 64 * k, 64, d.w[k]);
      in.rq_tag.set_bits(tw * i, tw, rng_() & low_mask(tw));
    }
    // The answers due now, a lane each.
    in.ans_valid = 0;
    in.ans_tag = EpMemArbTags{};
    in.ans_data = EpMemArbLaneFlits{};
    std::vector<Ans>& now = due_[now_];
    unsigned lane = 0;
    for (; lane < p_.mem_ops && lane < now.size(); ++lane) put(in, lane, now[lane]);
    for (size_t j = lane; j < now.size(); ++j) due_[now_ + 1].push_back(now[j]);  // the memory's next cycle
    if (in.rst_n && lane < p_.mem_ops && (1u << p_.port_w()) > p_.ports && u() < 0.01) {
      Ans s;  // a tag naming no port
      s.tag = (p_.ports + pick((1u << p_.port_w()) - p_.ports)) << tw | (rng_() & low_mask(tw));
      s.addr = rng_();
      put(in, lane, s);
    }
    due_.erase(now_);
    if (!in.rst_n) in.ans_valid = 0;
    apb_.drive(in.apb, in.rst_n);
  }

  void after(const EpMemArbInputs& in, const EpMemArbOutputs& out) {
    taken_ = in.rst_n ? out.rq_ready : in.rq_valid;
    if (in.rst_n) {
      for (unsigned k = 0; k < p_.mem_ops; ++k) {
        if (!(out.mem_valid >> k & 1) || (out.mem_op >> 2 * k & 3) != 0) continue;
        Ans a;
        a.tag = out.mem_tag.bits(p_.ltag_w() * k, p_.ltag_w());
        a.addr = out.mem_addr.bits(48 * k, 48);
        due_[now_ + (fixed_ ? lat_ : 1 + pick(lat_))].push_back(a);
      }
    }
    ++now_;
    apb_.after(in.apb, out.apb);
  }

 private:
  struct Ans {
    uint64_t tag = 0, addr = 0;
  };
  void put(EpMemArbInputs& in, unsigned lane, const Ans& a) {
    const unsigned fw = p_.flit_w, lw = p_.ltag_w();
    in.ans_valid |= 1u << lane;
    in.ans_tag.set_bits(lw * lane, lw, a.tag);
    const Wide d = mem_data(a.addr, fw);
    for (unsigned k = 0; k < fw / 64; ++k) in.ans_data.set_bits(fw * lane + 64 * k, 64, d.w[k]);
  }

  void new_phase() {
    phase_left_ = 300 + pick(4000);
    const double r = u();
    for (unsigned i = 0; i < p_.ports; ++i) {
      rate_[i] = u() < 0.5 ? 0.05 + 0.3 * u() : 0;
      if (r < 0.2) rate_[i] = 0.9;                                   // every port at once
      else if (r < 0.35) rate_[i] = i + 1 >= p_.ports / 2 ? 0.6 : 0;  // the low-priority ports alone
    }
    fixed_ = u() < 0.5;
    lat_ = unsigned(1 + pick(fixed_ ? 20 : 30));
  }

  EpMemArbParams p_;
  std::vector<double> rate_;
  uint32_t taken_ = 0;
  std::map<uint64_t, std::vector<Ans>> due_;
  uint64_t now_ = 0;
  bool fixed_ = true;
  unsigned lat_ = 4;
};

}  // namespace t3::tb
