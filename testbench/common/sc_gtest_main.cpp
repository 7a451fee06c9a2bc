// sc_main for co-simulation test binaries: GoogleTest runs inside SystemC's
// main, because SystemC allows one elaboration per process and the tests
// share it. Options after GoogleTest's own: see run_options.h.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <systemc>
#include <utility>
#include <vector>

#include "block_build.h"
#include "sc_test_env.h"

namespace t3::tb {

RunOptions& test_options() {
  static RunOptions opt;
  return opt;
}

namespace {
std::vector<std::pair<std::string, std::function<std::string()>>>& end_checks() {
  static std::vector<std::pair<std::string, std::function<std::string()>>> c;
  return c;
}
}  // namespace

void at_end(const std::string& what, std::function<std::string()> check) {
  end_checks().emplace_back(what, std::move(check));
}

}  // namespace t3::tb

int sc_main(int argc, char** argv) {
  using t3::tb::test_options;
  testing::InitGoogleTest(&argc, argv);
  try {
    test_options() = t3::tb::parse_run_options(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 2;
  }
  const t3::tb::BuildInfo& build = t3::tb::this_build();
  if (test_options().help) {
    std::printf("%s co-simulation tests (configuration %s: %s)\n"
                "GoogleTest flags (--gtest_filter=...) and:\n%s",
                build.block.c_str(), build.config.c_str(), build.params.c_str(),
                t3::tb::run_options_help().c_str());
    return 0;
  }
  if (t3::tb::print_build_info(test_options())) return 0;
  const uint64_t seed = t3::tb::resolve_seed(test_options());
  std::printf("%s %s, engine %s, seed %llu (rerun with --seed %llu or T3_SEED=%llu)\n",
              build.block.c_str(), build.config.c_str(),
              t3::tb::engine_name(test_options().engine), static_cast<unsigned long long>(seed),
              static_cast<unsigned long long>(seed), static_cast<unsigned long long>(seed));
  sc_core::sc_report_handler::set_actions("/IEEE_Std_1666/deprecated", sc_core::SC_DO_NOTHING);
  int rc = RUN_ALL_TESTS();
  for (const auto& [what, check] : t3::tb::end_checks()) {
    const std::string err = check();
    if (err.empty()) continue;
    std::fprintf(stderr, "FAILED at the end: %s: %s\n", what.c_str(), err.c_str());
    rc = 1;
  }
  return rc;
}
