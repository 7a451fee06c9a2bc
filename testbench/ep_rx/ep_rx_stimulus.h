// ep_rx's constrained-random traffic and the neighbours it needs:
// - a table of windows (ep_window's record on tbl_i), rewritten now and
//   then while the receiver is idle and offered nothing, rarely at any
//   time (between a header's lookup and its decode included);
// - response packets on rsp_in: RESULTs, PULL_RSPs and PARTIALs mostly in
//   a window, the rest in none, of another type, to a window that is not
//   the home, with count 0, malformed, or of an opcode it does not take;
//   flits offered with gaps, each held until taken;
// - the counter port answered as ep_count answers, in the cycle after the
//   grant: DONE (the count before 0 or not, the line whole or not), OVER,
//   BAD, and HELD when the line would be whole and the asker said it has no
//   room;
// - the write port and the two queues' readers ready at random, in phases
//   (stalls fill the queues: a RESULT then waits at its decode, a pulled
//   line holds);
// - resets now and then. The co-simulation test and the benchmark
//   (testbench/common/bench.h) drive the block with it.
#pragma once

#include <cstdint>
#include <random>

#include "common/bits.h"
#include "common/packet.h"
#include "ep_rx/ep_rx.h"
#include "ep_stimulus.h"

namespace t3::tb {

class EpRxStimulus : public EpPacketStim {
 public:
  EpRxStimulus(const EpRxParams& p, uint64_t seed) : EpPacketStim(seed, p.windows, p.flit_w), p_(p) {
    new_table();
    new_phase();
  }

  // Sets every input of this cycle, rst_n and the register port included.
  void drive(EpRxInputs& in) {
    in.rst_n = reset_cycle();
    if (phase_due()) new_phase();
    if (table_due()) new_table();
    drive_common(in, in.rsp_in_valid, in.rsp_in_flit, in_rate_, [this] { make_packet(); });
    in.mw_ready = u() < mw_rate_;
    in.res_ready = u() < res_rate_;
    in.fin_ready = u() < fin_rate_;
    apb_.drive(in.apb, in.rst_n);
  }

  // After the cycle: what the block answered.
  void after(const EpRxInputs& in, const EpRxOutputs& out) {
    after_common(in, out, in.rsp_in_valid, out.rsp_in_ready);
    apb_.after(in.apb, out.apb);
  }

  const EpWin& window(unsigned i) const { return win_.at(i); }

 private:
  void new_phase() {
    phase_left_ = 300 + pick(4000);
    in_rate_ = 0.3 + 0.7 * u();
    mw_rate_ = u() < 0.2 ? 0.1 : 0.5 + 0.5 * u();
    res_rate_ = u() < 0.3 ? 0.02 : 0.3 + 0.7 * u();
    fin_rate_ = u() < 0.4 ? 0.01 : 0.3 + 0.7 * u();
  }

  // Windows of every kind but deterministic homes (ep_rx does not tell
  // them apart).
  void new_table() { EpPacketStim::new_table(unsigned(p_.flit_bytes()), p_.count_depth, EpTableMix{0.1, 0.5, 0.0}); }

  void make_packet() {
    const uint64_t fb = p_.flit_bytes();
    pkt::Header h;
    const unsigned k = unsigned(pick(100));
    const pkt::Op op = k < 32 ? pkt::Op::result : k < 64 ? pkt::Op::pull_rsp : k < 94 ? pkt::Op::partial
                                                                        : pkt::Op::read_rsp;
    h.op = k < 97 ? uint8_t(op) : uint8_t(pick(16));  // an opcode the receiver does not take
    h.len = uint8_t(1 + pick(p_.max_len));
    h.count = uint8_t(u() < 0.03 ? 0 : 1 + pick(3));
    h.src = uint8_t(pick(32));
    h.ctr = uint8_t(rng_());
    ep_place_packet(h, win_, span_, unsigned(fb), rng_);
    ep_push_packet(h, p_.max_len, p_.flit_w, drv_, rng_);
  }

  EpRxParams p_;
  double in_rate_ = 0.7, mw_rate_ = 0.7, res_rate_ = 0.7, fin_rate_ = 0.7;
};

}  // namespace t3::tb
