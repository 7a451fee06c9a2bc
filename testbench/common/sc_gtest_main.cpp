// sc_main for co-simulation test binaries: GoogleTest runs inside SystemC's
// main, because SystemC allows one elaboration per process and the tests
// share it. Options after GoogleTest's own: see run_options.h.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <systemc>

#include "sc_test_env.h"

namespace t3::tb {
RunOptions& test_options() {
  static RunOptions opt;
  return opt;
}
}  // namespace t3::tb

int sc_main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  try {
    t3::tb::test_options() = t3::tb::parse_run_options(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
  if (t3::tb::test_options().help) {
    std::printf("GoogleTest flags (--gtest_filter=...) and:\n%s",
                t3::tb::run_options_help().c_str());
    return 0;
  }
  const uint64_t seed = t3::tb::resolve_seed(t3::tb::test_options());
  std::printf("seed %llu (rerun with --seed %llu or T3_SEED=%llu)\n",
              static_cast<unsigned long long>(seed), static_cast<unsigned long long>(seed),
              static_cast<unsigned long long>(seed));
  sc_core::sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", sc_core::SC_DO_NOTHING);
  return RUN_ALL_TESTS();
}
