// The TLM-2.0 register target (hw/common/reg_target.h) with the Tracker's
// generated register map: every response status of docs/registers/README.md
// through a bound initiator socket, read-back, and that a failed access
// changes nothing.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "common/reg_target.h"
#include "common/tlm_word.h"
#include "tracker/tracker_regs.h"

namespace t3 {
namespace {

struct Host : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<Host> socket{"socket"};
  explicit Host(sc_core::sc_module_name n) : sc_module(n) {}

  tlm::tlm_response_status access(tlm::tlm_command cmd, uint64_t addr, uint32_t& data,
                                  unsigned length = 4, const unsigned char* be = nullptr,
                                  unsigned be_length = 0) {
    unsigned char buf[8] = {};
    std::memcpy(buf, &data, 4);
    tlm::tlm_generic_payload t;
    word_payload(t, cmd == tlm::TLM_WRITE_COMMAND, addr, buf, be, length);
    t.set_byte_enable_length(be_length);
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    socket->b_transport(t, delay);
    last_delay = delay;
    std::memcpy(&data, buf, 4);
    return t.get_response_status();
  }
  tlm::tlm_response_status write(uint64_t addr, uint32_t v) {
    return access(tlm::TLM_WRITE_COMMAND, addr, v);
  }
  tlm::tlm_response_status read(uint64_t addr, uint32_t& v) {
    return access(tlm::TLM_READ_COMMAND, addr, v);
  }
  sc_core::sc_time last_delay;
};

struct Env {
  RegFile regs{TrackerRegMap::kInfo, TrackerRegMap::kCount};
  bool busy = false;
  RegTarget target{"regs", regs, [this] { return busy; }, sc_core::sc_time(8, sc_core::SC_NS)};
  Host host{"host"};
  Env() { host.socket.bind(target.socket); }
};
Env* env = nullptr;

uint32_t offset(TrackerReg r) { return TrackerRegMap::kInfo[unsigned(r)].offset; }

TEST(RegTarget, WritesReadBackAndAnnotateTheAccessTime) {
  env->regs.reset();
  ASSERT_EQ(env->host.write(offset(TrackerReg::base_lo), 0x12345678), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(env->host.last_delay, sc_core::sc_time(8, sc_core::SC_NS));
  uint32_t v = 0;
  ASSERT_EQ(env->host.read(offset(TrackerReg::base_lo), v), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(v, 0x12345678u);
  // Reserved bits read 0: CTRL has only ENABLE.
  ASSERT_EQ(env->host.write(offset(TrackerReg::ctrl), 0xFFFFFFFF), tlm::TLM_OK_RESPONSE);
  ASSERT_EQ(env->host.read(offset(TrackerReg::ctrl), v), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(v, 1u);
  // RO values come from the hardware's side.
  TrackerHw2Reg h;
  h.stat_triggers_count = 77;
  TrackerRegs::hw2reg(env->regs, h);
  ASSERT_EQ(env->host.read(offset(TrackerReg::stat_triggers), v), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(v, 77u);
}

TEST(RegTarget, AnUnmappedOrMisalignedAddressIsAnAddressError) {
  uint32_t v = 0;
  EXPECT_EQ(env->host.read(0xFFC, v), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(env->host.write(0xFFC, 1), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(env->host.read(offset(TrackerReg::ctrl) + 1, v), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(env->host.read(0x1000, v), tlm::TLM_ADDRESS_ERROR_RESPONSE);
  EXPECT_EQ(env->host.read(uint64_t{1} << 40, v), tlm::TLM_ADDRESS_ERROR_RESPONSE);
}

TEST(RegTarget, OtherLengthsAreBurstErrors) {
  uint32_t v = 0;
  for (unsigned len : {1u, 2u, 8u})
    EXPECT_EQ(env->host.access(tlm::TLM_WRITE_COMMAND, offset(TrackerReg::ctrl), v, len),
              tlm::TLM_BURST_ERROR_RESPONSE)
        << len << " bytes";
}

TEST(RegTarget, PartialByteEnablesAreByteEnableErrorsAndChangeNothing) {
  env->regs.reset();
  uint32_t v = 0xFFFFFFFF;
  const unsigned char some[4] = {TLM_BYTE_ENABLED, TLM_BYTE_DISABLED, TLM_BYTE_ENABLED,
                                 TLM_BYTE_ENABLED};
  EXPECT_EQ(env->host.access(tlm::TLM_WRITE_COMMAND, offset(TrackerReg::base_lo), v, 4, some, 4),
            tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
  const unsigned char all[4] = {TLM_BYTE_ENABLED, TLM_BYTE_ENABLED, TLM_BYTE_ENABLED,
                                TLM_BYTE_ENABLED};
  uint32_t r = 1;
  ASSERT_EQ(env->host.access(tlm::TLM_READ_COMMAND, offset(TrackerReg::base_lo), r, 4, all, 4),
            tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(r, 0u);
}

TEST(RegTarget, AWriteToAReadOnlyRegisterIsACommandError) {
  EXPECT_EQ(env->host.write(offset(TrackerReg::stat_updates), 5), tlm::TLM_COMMAND_ERROR_RESPONSE);
  EXPECT_EQ(env->target.last_status(), RegStatus::command_error);
}

TEST(RegTarget, BusyLockedRegistersAnswerAnErrorWhileBusy) {
  env->regs.reset();
  env->busy = true;
  EXPECT_EQ(env->host.write(offset(TrackerReg::limit_lo), 0x100), tlm::TLM_GENERIC_ERROR_RESPONSE);
  EXPECT_EQ(env->target.last_status(), RegStatus::busy_error);
  EXPECT_EQ(env->host.write(offset(TrackerReg::ctrl), 1), tlm::TLM_OK_RESPONSE) << "not locked";
  env->busy = false;
  uint32_t v = 1;
  ASSERT_EQ(env->host.read(offset(TrackerReg::limit_lo), v), tlm::TLM_OK_RESPONSE);
  EXPECT_EQ(v, 0u) << "the refused write changed nothing";
  EXPECT_EQ(env->host.write(offset(TrackerReg::limit_lo), 0x100), tlm::TLM_OK_RESPONSE);
}

}  // namespace
}  // namespace t3

int sc_main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  // One elaboration per process: the modules first, then the tests.
  t3::env = new t3::Env;
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  const int rc = RUN_ALL_TESTS();
  delete t3::env;
  return rc;
}
