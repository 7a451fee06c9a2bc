// The switch of an in-network fabric (tlm/innet_fabric.h) as its Verilated
// RTL, compared with its cycle model on every output in every cycle (the
// block's co-simulation, testbench/common/cosim.h): the RTL's outputs drive
// the fabric; a mismatch is reported with its waveform and counted.
#pragma once

#include <memory>
#include <string>
#include <utility>

#include "block_build.h"
#include "cosim_config.h"
#include "innet_fabric.h"

namespace t3::tb {

class CosimFabricSwitch final : public FabricSwitch {
 public:
  explicit CosimFabricSwitch(std::unique_ptr<Cosim<InnetSwitchBlock>> c)
      : c_(std::move(c)), name_(std::string("RTL (") + c_->engine_name() + " engine), compared with its model every cycle") {}
  void step(const InnetSwitchInputs& in, InnetSwitchOutputs& out) override {
    c_->in() = in;
    c_->cycle();
    out = c_->out();
  }
  const char* name() const override { return name_.c_str(); }
  bool compared() const override { return true; }
  uint64_t mismatches() const override { return c_->failures(); }
  Cosim<InnetSwitchBlock>& cosim() { return *c_; }

 private:
  std::unique_ptr<Cosim<InnetSwitchBlock>> c_;
  std::string name_;
};

}  // namespace t3::tb
