#include "mca_arbiter_stimulus.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "mca_arbiter_scoreboard.h"

namespace t3::tb {
namespace {

uint64_t bits(unsigned w) { return w >= 64 ? ~uint64_t{0} : (uint64_t{1} << w) - 1; }

// Largest value the log2 pin carries: clog2(LEARN_W + 1) bits, at least one.
uint64_t log2_pin_max(const McaArbiterParams& p) {
  unsigned b = 1;
  while ((uint64_t{1} << b) <= p.learn_w) ++b;
  return bits(b);
}

}  // namespace

McaArbiterConfig random_config(const McaArbiterParams& p, std::mt19937_64& rng) {
  auto pick = [&rng](uint64_t lo, uint64_t hi) {
    return std::uniform_int_distribution<uint64_t>(lo, hi)(rng);
  };
  const uint32_t occ_max = uint32_t(bits(p.occ_w));
  const uint32_t cnt_max = uint32_t(bits(p.cnt_w));
  McaArbiterConfig c;
  const uint64_t w = pick(0, 8);  // MCA more often than each baseline
  c.policy = w < 2 ? 0 : w < 4 ? 1 : 2;
  c.thr_auto = pick(0, 1);
  c.thr_sel = uint32_t(pick(0, 3));
  const uint32_t paper[3] = {5, 10, 30};  // T3 §6.1.3
  const bool use_paper = pick(0, 9) < 4;
  for (int i = 0; i < 3; ++i)
    c.level[i] = use_paper ? std::min(paper[i], occ_max) : uint32_t(pick(1, occ_max));
  uint32_t b[3] = {uint32_t(pick(0, occ_max)), uint32_t(pick(0, occ_max)), uint32_t(pick(0, occ_max))};
  std::sort(b, b + 3, [](uint32_t x, uint32_t y) { return x > y; });
  if (pick(0, 9) == 0) b[1] = b[0];  // equal bounds skip a level
  for (int i = 0; i < 3; ++i) c.bound[i] = b[i];
  const uint64_t short_max = std::min<uint64_t>(p.learn_w, 9);
  c.learn_log2 = uint32_t(pick(0, 9) == 0 ? pick(0, p.learn_w) : pick(0, short_max));
  switch (pick(0, 8)) {
    case 0: c.starve_limit = 0; break;
    case 1:
    case 8: c.starve_limit = 1; break;
    case 2: c.starve_limit = std::min<uint32_t>(2, cnt_max); break;
    case 3: c.starve_limit = cnt_max; break;
    case 4:
    case 5: c.starve_limit = uint32_t(pick(1, std::min<uint32_t>(16, cnt_max))); break;
    default: c.starve_limit = uint32_t(pick(1, std::min<uint32_t>(300, cnt_max))); break;
  }
  return c;
}

unsigned break_config(McaArbiterConfig& c, const McaArbiterParams& p, std::mt19937_64& rng,
                      unsigned first_cause) {
  auto pick = [&rng](uint64_t lo, uint64_t hi) {
    return std::uniform_int_distribution<uint64_t>(lo, hi)(rng);
  };
  const uint32_t occ_max = uint32_t(bits(p.occ_w));
  unsigned causes = 0;
  const unsigned n = pick(0, 4) == 0 ? 2 : 1;
  for (unsigned k = 0; k < n; ++k) {
    uint64_t cause = k == 0 ? first_cause % 4 : pick(0, 3);
    if (cause == 3 && log2_pin_max(p) <= p.learn_w) cause = 0;  // every log2 value is allowed
    switch (cause) {
      case 0:
        c.policy = 3;
        causes |= 1;
        break;
      case 1:
        c.level[pick(0, 2)] = 0;
        causes |= 2;
        break;
      case 2: {
        c.thr_auto = true;
        const unsigned i = unsigned(pick(0, 1));  // bound[i] < bound[i+1]
        const uint32_t lo = uint32_t(pick(0, occ_max - 1));
        c.bound[i] = lo;
        c.bound[i + 1] = uint32_t(pick(lo + 1, occ_max));
        if (i == 1 && c.bound[0] < c.bound[1]) c.bound[0] = c.bound[1];  // one cause at a time
        if (i == 0 && c.bound[2] > c.bound[1]) c.bound[2] = c.bound[1];
        causes |= 4;
        break;
      }
      default:
        c.learn_log2 = uint32_t(pick(p.learn_w + 1, log2_pin_max(p)));
        causes |= 8;
        break;
    }
  }
  return causes;
}

McaPhase McaPhase::random(const McaArbiterParams& p, std::mt19937_64& rng, int bad_cause) {
  auto pick = [&rng](uint64_t lo, uint64_t hi) {
    return std::uniform_int_distribution<uint64_t>(lo, hi)(rng);
  };
  auto u = [&rng] { return std::uniform_real_distribution<double>(0, 1)(rng); };
  const uint32_t occ_max = uint32_t(bits(p.occ_w));
  McaPhase ph;
  ph.cfg = random_config(p, rng);
  if (bad_cause >= 0) ph.bad_causes = break_config(ph.cfg, p, rng, unsigned(bad_cause));
  ph.cmp_high = 0.6 + 0.4 * u();
  ph.cmp_low = 0.3 * u();
  ph.cmp_span_min = unsigned(pick(20, 200));
  ph.cmp_span_max = ph.cmp_span_min + unsigned(pick(0, 3000));
  ph.com_in_burst = 0.7 + 0.3 * u();
  ph.burst_min = unsigned(pick(4, 64));
  ph.burst_max = ph.burst_min + unsigned(pick(0, 600));
  ph.gap_min = unsigned(pick(0, 100));
  ph.gap_max = ph.gap_min + unsigned(pick(0, 3000));
  // Half the phases use the whole occupancy range, so that occupancy
  // reaches every threshold the pins can hold.
  ph.queue_cap = u() < 0.5 ? occ_max : uint32_t(pick(1, occ_max));
  ph.serve_slow = 0.05 + 0.45 * u();
  ph.serve_fast = 0.5 + 0.5 * u();
  ph.serve_span = unsigned(pick(50, 1500));
  ph.p_stall = 0.004 * u();
  ph.stall_max = unsigned(pick(1, 80));
  ph.p_learn = 0.002 * u();
  ph.learn_alone = ph.cfg.thr_auto && u() < 0.6;
  ph.p_drain = 0.001 * u();
  ph.drain_max = unsigned(pick(1, 500));
  return ph;
}

McaStimulus::McaStimulus(const McaArbiterParams& p, uint64_t seed)
    : McaStimulus(p, seed, Options{}) {}

McaStimulus::McaStimulus(const McaArbiterParams& p, uint64_t seed, Options opt)
    : p_(p), opt_(opt), rng_(seed), data_mask_(bits(p.data_w)) {
  new_phase(true);
}

void McaStimulus::queue_program(const McaArbiterConfig& cfg) {
  McaArbiterConfig w = cfg;
  if (u() < opt_.p_junk) {
    // Bits above the build's widths, within the fields (16 bits for the
    // occupancies, 5 for the log2, 32 for the limit): the core never sees them.
    ++junk_phases_;
    const uint64_t occ = bits(p_.occ_w), log2 = log2_pin_max(p_), cnt = bits(p_.cnt_w);
    for (int i = 0; i < 3; ++i) {
      w.level[i] |= uint32_t(rng_() & 0xFFFF & ~occ);
      w.bound[i] |= uint32_t(rng_() & 0xFFFF & ~occ);
    }
    w.learn_log2 |= uint32_t(rng_() & 0x1F & ~log2);
    w.starve_limit |= uint32_t(rng_() & 0xFFFFFFFFu & ~cnt);
  }
  const std::vector<ApbTransfer> writes = program_writes(w);
  prog_.assign(writes.begin(), writes.end());
  // A transfer of the last program still on the bus is not this phase's.
  stale_ = in_flight_;
  retry_wait_ = 0;
}

void McaStimulus::new_phase(bool first) {
  // Refused configurations: every bad_every-th phase, with the causes in
  // turn, so that a run of a few dozen phases meets each.
  const bool bad = !first && opt_.bad_every && phases_ % opt_.bad_every == opt_.bad_every - 1;
  const bool aimed = !first && aim_level_ >= 0;
  ph_ = McaPhase::random(p_, rng_, bad && !aimed ? int(bad_phases_ % 4) : -1);
  bad_phases_ += bad && !aimed;
  if (aimed) {
    const uint32_t occ_max = uint32_t(bits(p_.occ_w));
    const unsigned k = unsigned(aim_level_);
    ph_.cfg.policy = 2;
    ph_.cfg.thr_auto = false;
    ph_.cfg.thr_sel = k;
    ph_.cfg.level[k] = uint32_t(pick(1, std::max<uint32_t>(1, occ_max / 4)));
    ph_.cfg.starve_limit = uint32_t(bits(p_.cnt_w));  // starvation rare
    ph_.cmp_high = 0.1 * u();
    ph_.cmp_low = 0.05 * u();
    ph_.com_in_burst = 1.0;
    ph_.queue_cap = occ_max;
    ph_.serve_slow = 0.05 + 0.1 * u();
    ph_.serve_fast = 0.3 + 0.2 * u();
    ph_.learn_alone = false;
    ph_.p_learn = 0;
    ph_.p_drain = 0;
    aim_level_ = -1;
    ++aimed_phases_;
  }
  ++phases_;
  phase_left_ = pick(opt_.phase_min, opt_.phase_max);
  const bool reset = first || u() < opt_.p_reset;
  if (reset) {
    reset_left_ = unsigned(pick(1, 3));
    ++resets_;
  } else {
    ++reprograms_;
  }
  // After a reset the driver programs before the kernels run again; without
  // one the traffic goes on while the configuration changes.
  quiet_ = reset;
  queue_program(ph_.cfg);
  learn_now_ = false;
  repulse_left_ = 0;
  // Now and then a window starts under the last configuration just as the
  // writes do: the bounds and the window are refused until it ends.
  pulse_first_ = !reset && u() < opt_.p_pulse_first;
  if (pulse_first_) retry_wait_ = 2;
  // The producer alone first (T3 §4.5): one window with communication held
  // back, once the configuration is in.
  learn_pending_ = ph_.learn_alone;
}

void McaStimulus::aim_at_level(unsigned k) {
  if (k > 2)
    throw std::invalid_argument("aim_at_level: level " + std::to_string(k) + ", allowed 0..2");
  if (aim_level_ >= 0 || stopped_) return;
  aim_level_ = int(k);
  phase_left_ = 0;  // the aimed phase starts at the next cycle
}

void McaStimulus::stop() {
  stopped_ = true;
  reset_left_ = 0;
  drain_left_ = stall_left_ = hold_com_ = repulse_left_ = 0;
  learn_now_ = learn_pending_ = quiet_ = pulse_first_ = false;
  if (ph_.bad_causes) {
    ph_.cfg = McaArbiterConfig{};
    ph_.cfg.level[0] = ph_.cfg.level[1] = ph_.cfg.level[2] = 1;
    ph_.cfg.bound[0] = ph_.cfg.bound[1] = ph_.cfg.bound[2] = 0;
    ph_.cfg.learn_log2 = 0;
    ph_.bad_causes = 0;
    queue_program(ph_.cfg);
  }
}

void McaStimulus::drive(McaArbiterInputs& in) {
  if (!stopped_ && phase_left_-- == 0) new_phase(false);
  in.rst_n = reset_left_ == 0;
  if (reset_left_) --reset_left_;

  // The register port: the phase's writes one after the other, out of reset
  // (a transfer set up now has its access phase in the next cycle, which is
  // out of reset too).
  if (retry_wait_) --retry_wait_;
  if (in.rst_n && !prog_.empty() && !in_flight_ && retry_wait_ == 0 && apb_.idle()) {
    apb_.push(prog_.front());
    in_flight_ = true;
    stale_ = false;
  }
  apb_.drive(in.apb, in.rst_n);
  const bool configuring = !programmed();
  if (!configuring) {
    quiet_ = false;
    if (learn_pending_) {
      learn_pending_ = false;
      learn_now_ = true;
      hold_com_ = window_cycles() + 2;
    }
  }

  // Compute: phases of high and low intensity.
  if (cmp_span_left_ == 0) {
    cmp_high_ = !cmp_high_;
    cmp_span_left_ = pick(ph_.cmp_span_min, ph_.cmp_span_max);
  }
  --cmp_span_left_;
  // Kernel boundary: a drain stretch, during which the producer mostly pauses.
  if (!stopped_ && drain_left_ == 0 && u() < ph_.p_drain) drain_left_ = pick(1, ph_.drain_max);
  const bool draining = drain_left_ > 0;
  if (drain_left_) --drain_left_;
  if (!cmp_pending_ && !stopped_ && !quiet_) {
    const double rate = draining ? 0.2 : cmp_high_ ? ph_.cmp_high : ph_.cmp_low;
    if (u() < rate) {
      cmp_pending_ = true;
      cmp_data_ = rng_() & data_mask_;
    }
  }

  // Communication: bursts and gaps.
  if (hold_com_) --hold_com_;
  if (!com_pending_ && !stopped_ && !quiet_ && hold_com_ == 0) {
    if (burst_left_ == 0 && gap_left_ == 0) {
      gap_left_ = pick(ph_.gap_min, ph_.gap_max);
      burst_left_ = pick(ph_.burst_min, ph_.burst_max);
    }
    if (gap_left_) {
      --gap_left_;
    } else if (u() < ph_.com_in_burst) {
      com_pending_ = true;
      com_data_ = rng_() & data_mask_;
      --burst_left_;
    }
  }

  // The DRAM queue: full, or stalled, refuses.
  if (!stopped_ && stall_left_ == 0 && u() < ph_.p_stall) stall_left_ = pick(1, ph_.stall_max);
  const bool stalled = stall_left_ > 0;
  if (stall_left_) --stall_left_;

  in.cmp_valid = cmp_pending_;
  in.cmp_data = cmp_data_;
  in.com_valid = com_pending_;
  in.com_data = com_data_;
  in.occupancy = q_;
  in.out_ready = q_ < ph_.queue_cap && !stalled;
  in.drain = draining;
  // No pulse while the configuration goes in: the window would be measured
  // under a configuration half written, and would lock the bounds.
  in.learn = pulse_first_ || (!configuring && (learn_now_ || (!stopped_ && u() < ph_.p_learn)));
  learn_now_ = pulse_first_ = false;
  // A driver that pulses again while its window runs: a third of the pulses
  // are followed by one inside the window, which the arbiter must ignore.
  if (repulse_left_ && --repulse_left_ == 0) {
    in.learn = !stopped_ && !configuring;
  } else if (in.learn && u() < 1.0 / 3) {
    repulse_left_ = pick(1, window_cycles());
  }
}

void McaStimulus::after(const McaArbiterInputs& in, const McaArbiterOutputs& out) {
  // The register port: the stimulus's own write, when it is the one done.
  if (const auto done = apb_.after(in.apb, out.apb); done && in_flight_) {
    in_flight_ = false;
    if (stale_) {
      stale_ = false;
    } else if (done->err) {
      // Locked while a learning window runs: again a little later.
      ++retried_;
      retry_wait_ = opt_.retry_after;
    } else {
      prog_.pop_front();
    }
  }

  const bool cmp_taken = in.rst_n && in.cmp_valid && out.cmp_ready;
  const bool com_taken = in.rst_n && in.com_valid && out.com_ready;
  if (cmp_taken) cmp_pending_ = false;
  if (com_taken) com_pending_ = false;
  const bool leaves = out.out_valid && in.out_ready;
  slot_full_ = in.rst_n && ((out.out_valid && !in.out_ready) || cmp_taken || com_taken);

  // The queue drains at a rate that changes now and then.
  if (serve_left_ == 0) {
    serve_fast_ = !serve_fast_;
    serve_left_ = pick(ph_.serve_span / 2 + 1, ph_.serve_span * 3 / 2 + 1);
  }
  --serve_left_;
  const double rate = stopped_ ? 1.0 : serve_fast_ ? ph_.serve_fast : ph_.serve_slow;
  if (q_ > 0 && u() < rate) --q_;
  if (leaves) ++q_;
  // A phase with a smaller queue: the surplus drains first.
  if (q_ > bits(p_.occ_w)) q_ = uint32_t(bits(p_.occ_w));
}

}  // namespace t3::tb
