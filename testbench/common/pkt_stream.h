// Packets on valid/ready flit streams (hw/common/packet.h, docs/packet.md),
// for the in-network blocks' stimulus and scoreboards: a driver that puts
// packets on a stream a flit per accepted cycle, and a collector that
// assembles a stream's flits into packets and checks the stream protocol.
// Block-independent: they read and write a stream's three signals.
//
//   driver.push(packet);
//   each cycle: driver.drive(in.x_valid, in.x_flit); <cycle>; driver.after(in.x_valid, out.x_ready);
//   each cycle: if (auto p = collector.observe(out.y_valid, in.y_ready, out.y_flit, err)) ...
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <ostream>
#include <random>
#include <vector>

#include "common/packet.h"
#include "common/wide.h"

namespace t3::tb {

// A packet as it travels: its header and the data flits on the wire after it
// (pkt::wire_flits(h) - 1 of them).
struct Packet {
  pkt::Header h;
  std::vector<Wide> data;

  bool operator==(const Packet& o) const { return h == o.h && data == o.data; }
  bool operator!=(const Packet& o) const { return !(*this == o); }
};

inline std::ostream& operator<<(std::ostream& os, const pkt::Header& h) {
  return os << "{op " << unsigned(h.op) << " red_op " << unsigned(h.red_op) << " dtype "
            << unsigned(h.dtype) << " len " << unsigned(h.len) << " src " << unsigned(h.src) << " dst "
            << unsigned(h.dst) << " count " << unsigned(h.count) << " ctr " << unsigned(h.ctr)
            << " addr 0x" << std::hex << h.addr << std::dec << " rgn " << unsigned(h.rgn) << " expect "
            << unsigned(h.expect) << " home " << unsigned(h.home) << " hit " << h.hit << "}";
}

// The flits of a packet on a stream of flit_w bits, the header first.
inline std::vector<Wide> to_flits(const Packet& p, unsigned flit_w) {
  std::vector<Wide> f;
  f.reserve(1 + p.data.size());
  f.push_back(pkt::pack(p.h));
  for (Wide d : p.data) {
    d.truncate(flit_w);
    f.push_back(d);
  }
  return f;
}

// Puts flits on one stream. A flit offered stays on the pins, valid high,
// until the block takes it (valid/ready); between flits the driver idles
// with probability `gap` per cycle, so that a packet may arrive with
// bubbles. Raw flits may be queued as they are, malformed streams included.
class PktDriver {
 public:
  explicit PktDriver(unsigned flit_w) : flit_w_(flit_w) {}

  void push(const Packet& p) {
    for (const Wide& f : to_flits(p, flit_w_)) flits_.push_back(f);
    ++packets_;
  }
  void push_flit(Wide f) {
    f.truncate(flit_w_);
    flits_.push_back(f);
  }

  bool idle() const { return flits_.empty() && !offering_; }
  std::size_t queued_flits() const { return flits_.size() + offering_; }
  uint64_t packets_pushed() const { return packets_; }
  // Drops everything (the block was reset).
  void clear() {
    flits_.clear();
    offering_ = false;
  }

  // This cycle's valid and flit; with probability gap an idle cycle between
  // flits (never while a flit is offered).
  template <class Rng>
  void drive(bool& valid, Wide& flit, Rng& rng, double gap = 0.0) {
    if (!offering_ && !flits_.empty() &&
        (gap <= 0.0 || std::uniform_real_distribution<double>(0, 1)(rng) >= gap)) {
      cur_ = flits_.front();
      flits_.pop_front();
      offering_ = true;
    }
    valid = offering_;
    flit = offering_ ? cur_ : Wide{};
  }
  void drive(bool& valid, Wide& flit) {
    std::minstd_rand none;
    drive(valid, flit, none, 0.0);
  }
  // After the cycle: the flit offered was taken when ready was high.
  void after(bool valid, bool ready) {
    if (valid && ready) offering_ = false;
  }

 private:
  unsigned flit_w_;
  std::deque<Wide> flits_;
  Wide cur_;
  bool offering_ = false;
  uint64_t packets_ = 0;
};

// Assembles packets from the flits a block puts on one stream, and checks
// the valid/ready rule of that stream: once valid is high, it stays high and
// the flit stays the same until ready takes it.
class PktCollector {
 public:
  explicit PktCollector(unsigned flit_w) : flit_w_(flit_w) {}

  // Every cycle, with the stream's valid, the receiver's ready and the
  // flit. Returns a packet whose last flit was taken in this cycle; writes a
  // protocol violation to err, naming `stream`.
  std::optional<Packet> observe(const char* stream, bool valid, bool ready, const Wide& flit,
                                std::ostream& err) {
    if (held_ && !valid) err << stream << ": valid dropped before the flit was taken; ";
    if (held_ && valid && flit != held_flit_) err << stream << ": flit changed while waiting for ready; ";
    held_ = valid && !ready;
    held_flit_ = flit;
    if (!(valid && ready)) return std::nullopt;
    Wide f = flit;
    f.truncate(flit_w_);
    if (!in_packet_) {
      cur_ = Packet{pkt::unpack(f), {}};
      left_ = pkt::wire_flits(cur_.h) - 1;
      in_packet_ = true;
    } else {
      cur_.data.push_back(f);
      --left_;
    }
    if (left_ > 0) return std::nullopt;
    in_packet_ = false;
    ++packets_;
    return cur_;
  }

  // A packet begun and not finished.
  bool mid_packet() const { return in_packet_; }
  uint64_t packets() const { return packets_; }
  // The block was reset: a packet half out is gone.
  void clear() {
    in_packet_ = false;
    held_ = false;
  }

 private:
  unsigned flit_w_;
  Packet cur_;
  unsigned left_ = 0;
  bool in_packet_ = false;
  bool held_ = false;
  Wide held_flit_;
  uint64_t packets_ = 0;
};

}  // namespace t3::tb
