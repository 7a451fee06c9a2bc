// The HELD rule of the packet front end ep_rx and ep_req share
// (docs/blocks/innet_endpoint.md, "The packet front end"), checked on each
// engine's core with its own queue for the lines it makes whole: once
// that queue is full, a merge that would make its line whole asks with
// whole_ok low, is HELD, asks nothing while there is no room, and asks
// again (whole_ok high) at the edge after the queue gains room.
#pragma once

#include <gtest/gtest.h>

#include "common/packet.h"
#include "common/wide.h"

namespace t3 {

// Which of a core's pins are its packet stream and its queue's reader.
template <class In, class Out>
struct EpHeldPins {
  bool In::*in_valid;
  Wide In::*in_flit;
  bool Out::*in_ready;
  bool In::*q_ready;  // the queue's reader
  bool Out::*q_valid;
};

// c: the core, out of reset, the window of h in in.tbl, the write port
// and the counter port ready, the queue's reader stalled; depth: the
// queue's. h: a merge of two data flits the counter answers whole.
template <class Core, class In, class Out>
void expect_held_until_room(Core& c, In& in, const EpHeldPins<In, Out>& pins, const pkt::Header& h,
                            unsigned depth) {
  // Whole lines fill the queue.
  for (unsigned n = 0; n < depth; ++n) {
    const Wide f[] = {pkt::pack(h), Wide{}, Wide{}};
    bool answer = false;
    for (unsigned i = 0, k = 0; k < 20; ++k) {
      in.*pins.in_valid = i < 3;
      in.*pins.in_flit = in.*pins.in_valid ? f[i] : Wide{};
      in.cnt_rsp_valid = answer;
      in.cnt_rsp_whole = true;
      const Out o = c.step(in);
      answer = o.cnt_valid && in.cnt_ready;
      if (in.*pins.in_valid && o.*pins.in_ready) ++i;
    }
  }
  Out o = c.eval(in);
  ASSERT_TRUE(o.*pins.q_valid);
  ASSERT_FALSE(o.idle);
  in.*pins.in_valid = true;
  in.*pins.in_flit = pkt::pack(h);
  c.step(in);  // taken
  in.*pins.in_valid = false;
  c.step(in);  // looked up
  c.step(in);  // decoded
  o = c.eval(in);
  ASSERT_TRUE(o.cnt_valid);
  EXPECT_FALSE(o.cnt_whole_ok) << "the queue is full";
  c.step(in);
  in.cnt_rsp_valid = true;
  in.cnt_rsp_code = 2;  // HELD
  c.step(in);
  in.cnt_rsp_valid = false;
  for (int k = 0; k < 5; ++k) EXPECT_FALSE(c.step(in).cnt_valid) << "asked again with no room";
  in.*pins.q_ready = true;
  c.step(in);  // one line leaves at this edge
  in.*pins.q_ready = false;
  EXPECT_FALSE(c.step(in).cnt_valid) << "the room seen: asked at the next edge";
  o = c.eval(in);
  EXPECT_TRUE(o.cnt_valid) << "asked again";
  EXPECT_TRUE(o.cnt_whole_ok);
}

}  // namespace t3
