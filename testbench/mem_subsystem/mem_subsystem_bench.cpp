// Simulation speed of the memory-side subsystem in each form
// (testbench/common/bench.h) on the main job's traffic (scripts/run.sh's
// default): GPU 0's ring reduce-scatter fused with a 512 x 512 fp16 GEMM,
// programmed by the firmware driver, run after run with a reset between two
// and a new seed for the traffic, with the DRAM array beside it.
//
// The driver's register accesses are recorded once, on a model of their
// own (the firmware's HAL on it: testbench/common/cosim_hal.h), and replayed
// back to back from a reset: every form then meets the same answers at the
// same cycles, the table write's handshake polls included.
#include <memory>
#include <stdexcept>
#include <vector>

#include "bank_array.h"
#include "bench.h"
#include "cosim_config.h"
#include "cosim_hal.h"
#include "mem_subsystem_stimulus.h"

namespace {

using t3::MemSubsystemInputs;
using t3::MemSubsystemOutputs;
using t3::MemSubsystemParams;
using t3::tb::ApbMaster;
using t3::tb::ApbTransfer;

constexpr t3_windows kWin = T3_MEM_SUBSYSTEM_WINDOWS;

class Source {
 public:
  Source(const MemSubsystemParams& p, uint64_t seed)
      : p_(p),
        ph_(t3::tb::MemPhase::gemm(p, t3::tb::Collective::ring_rs, 0, 4, 512, 512)),
        bank_(p.burst_bytes, seed),
        seed_(seed) {
    if (!ph_.fits(p)) throw std::invalid_argument("the main job's GEMM does not fit the modelled DRAM");
    record_programming();
  }

  void drive(MemSubsystemInputs& in) {
    in.rst_n = reset_left_ == 0;
    if (reset_left_ > 0) --reset_left_;
    apb_.drive(in.apb, in.rst_n);
    in.bank_rdata = bank_.rdata();
    if (stim_ && programmed_) {
      stim_->drive(in);
    } else {
      in.cmp_valid = in.com_valid = in.learn = in.drain = false;
      in.desc_ready = true;
    }
  }

  void after(const MemSubsystemInputs& in, const MemSubsystemOutputs& out) {
    apb_.after(in.apb, out.apb);
    bank_.after(out);
    if (!in.rst_n) return;
    if (!programmed_) {
      if (!apb_.idle()) return;
      programmed_ = true;
      stim_ = std::make_unique<t3::tb::MemSubsystemStimulus>(p_, ph_, ctx_, t3::tb::MemTraffic{},
                                                              seed_ + runs_);
      quiet_ = 0;
    }
    stim_->after(in, out);
    // Drained (the queue and the ALU's pipeline empty): reset, program again.
    quiet_ = stim_->idle() && out.occupancy == 0 ? quiet_ + 1 : 0;
    if (quiet_ >= 32) restart();
  }

 private:
  // The driver's accesses for ph_, on a model of their own from reset.
  void record_programming() {
    t3::MemSubsystem m(p_);
    ApbMaster apb;
    MemSubsystemInputs in{};
    in.rst_n = false;
    m.clock(in);
    m.clock(in);
    in.rst_n = true;
    in.desc_ready = true;
    int e = 0;
    {
      t3::tb::CosimHal hal(apb, [&]() -> std::optional<t3::tb::ApbDone> {
        apb.drive(in.apb, in.rst_n);
        const MemSubsystemOutputs o = m.eval(in);
        m.clock(in);
        return apb.after(in.apb, o.apb);
      });
      t3_init(&ctx_, &kWin, ph_.gpu, ph_.gpus);
      e = t3_probe(&ctx_);
      if (!e) e = t3_set_burst(&ctx_, ph_.burst_log2);
      if (!e) e = ph_.map(ctx_);
      if (!e) e = t3_commit(&ctx_);
      for (const t3::tb::ApbDone& d : hal.log()) program_.push_back(d.t);
    }
    if (e) throw std::runtime_error(std::string("the driver refused the main job: ") + t3_message(&ctx_));
    restart();
  }

  void restart() {
    apb_.clear();
    for (const ApbTransfer& t : program_) apb_.push(t);
    programmed_ = false;
    reset_left_ = 2;
    stim_.reset();
    ++runs_;
  }

  MemSubsystemParams p_;
  t3::tb::MemPhase ph_;
  t3::tb::BankArray bank_;
  uint64_t seed_;
  t3_ctx ctx_{};
  std::vector<ApbTransfer> program_;
  ApbMaster apb_;
  std::unique_ptr<t3::tb::MemSubsystemStimulus> stim_;
  bool programmed_ = false;
  unsigned reset_left_ = 0, quiet_ = 0;
  uint64_t runs_ = 0;
};

}  // namespace

int sc_main(int argc, char** argv) {
  return t3::tb::bench_main<t3::MemSubsystemBlock>(
      argc, argv, [](const MemSubsystemParams& p, uint64_t seed) { return Source(p, seed); });
}
