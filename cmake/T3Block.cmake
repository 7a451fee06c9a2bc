# How a block is built, verified and registered: one call per block in each
# of hw/, testbench/ and tests/ (see docs/adding_a_block.md).
#
#   t3_hw_block(<block> [LIBS <lib>...])         hw/CMakeLists.txt
#   t3_block_cosim(<block> CONFIGS <cfg>...      testbench/CMakeLists.txt
#                  [DEMO <cfg>] [BENCH <cfg>] [LIBS <lib>...]
#                  [TEST_LIBS <lib>...] [DEMO_LIBS <lib>...] [BENCH_LIBS <lib>...])
#   t3_block_tests(<block> [LIBS <lib>...])      tests/CMakeLists.txt
#
# LIBS: further libraries the block's testbench or tests link (shared
# machinery such as t3_fp_reference); TEST_LIBS, DEMO_LIBS, BENCH_LIBS: only
# the co-simulation tests', only the demo's, only the bench's (the
# firmware's HAL has two implementations, t3_cosim_hal and the TLM host, one
# a binary).
#
# A configuration is "<name> [PARAM=VALUE ...]": the RTL is Verilated with
# every parameter of hw/<block>/<block>_params.def, at its default unless
# the configuration names it.

# NearBankAlu from near_bank_alu: the C++ name of a block's traits struct.
function(t3_camel name out)
  string(REPLACE "_" ";" parts "${name}")
  set(r "")
  foreach(part ${parts})
    string(SUBSTRING "${part}" 0 1 head)
    string(TOUPPER "${head}" head)
    string(SUBSTRING "${part}" 1 -1 tail)
    string(APPEND r "${head}${tail}")
  endforeach()
  set(${out} "${r}" PARENT_SCOPE)
endfunction()

# <out> = NAME=VALUE for every parameter of the block's list, in its order,
# with the overrides given after <out> applied.
function(t3_block_params block out)
  set(def "${PROJECT_SOURCE_DIR}/hw/${block}/${block}_params.def")
  if(NOT EXISTS "${def}")
    message(FATAL_ERROR "block ${block}: no parameter list ${def}")
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${def}")
  file(STRINGS "${def}" lines)
  set(names "")
  foreach(line ${lines})
    if(line MATCHES "^T3_PARAM\\(")
      if(NOT line MATCHES "^T3_PARAM\\(([A-Z][A-Z0-9_]*), *[a-z][a-z0-9_]*, *([0-9]+), *[0-9]+, *[0-9]+, *(any|pow2), *\"")
        message(FATAL_ERROR "${def}: cannot read the line\n  ${line}")
      endif()
      list(APPEND names ${CMAKE_MATCH_1})
      set(value_${CMAKE_MATCH_1} ${CMAKE_MATCH_2})
    endif()
  endforeach()
  foreach(ov ${ARGN})
    if(NOT ov MATCHES "^([A-Z][A-Z0-9_]*)=([0-9]+)$")
      message(FATAL_ERROR "block ${block}: '${ov}' is not PARAM=VALUE")
    endif()
    if(NOT CMAKE_MATCH_1 IN_LIST names)
      string(REPLACE ";" ", " known "${names}")
      message(FATAL_ERROR "block ${block}: no parameter ${CMAKE_MATCH_1}; known: ${known}")
    endif()
    set(value_${CMAKE_MATCH_1} ${CMAKE_MATCH_2})
  endforeach()
  set(r "")
  foreach(n ${names})
    list(APPEND r "${n}=${value_${n}}")
  endforeach()
  set(${out} "${r}" PARENT_SCOPE)
endfunction()

# Compile options for a library of Verilated code. In the sanitizer build
# generated code is neither instrumented nor given debug information: the
# sanitizers are there for the project's own code (models, scoreboards,
# harness), which still runs instrumented around it; instrumenting megabytes
# of generated code was the largest part of that build's time. (UBSan would
# also flag Verilator 5.006's shifts of 8- and 16-bit values promoted to
# int, `CData << 30`, which GCC defines as two's complement.)
function(t3_verilated_target target)
  set_target_properties(${target} PROPERTIES CXX_STANDARD 17)
  if(T3_SANITIZE)
    target_compile_options(${target} PRIVATE -fno-sanitize=all -g0)
  endif()
endfunction()

# verilate() of Verilator's CMake package, with its list of generated files
# kept current. Verilator names its output files after the design's
# structure (DepSet hashes), and verilate() learns the list only when it
# runs Verilator at configure time, which it does only when the command
# changes: an RTL edit that renames the files otherwise leaves the build
# compiling the old list (objects of code that no longer exists, link
# errors). Here every RTL file the last Verilation read is a configure
# dependency, and a digest of their contents is part of the command (a
# define the RTL never reads), so an RTL edit reconfigures first and
# Verilates at configure time, with the new list.
# Arguments as verilate()'s; DIRECTORY defaults to verilate()'s own.
function(t3_verilate target)
  cmake_parse_arguments(V "SYSTEMC" "PREFIX;TOP_MODULE;DIRECTORY" "SOURCES;VERILATOR_ARGS" ${ARGN})
  if(NOT V_DIRECTORY)
    get_target_property(bin_dir ${target} BINARY_DIR)
    set(V_DIRECTORY "${bin_dir}/CMakeFiles/${target}.dir/${V_PREFIX}.dir")
  endif()
  set(deps ${V_SOURCES})
  set(last "${V_DIRECTORY}/${V_PREFIX}_copy.cmake")
  if(EXISTS "${last}")
    include("${last}")  # ${V_PREFIX}_DEPS: what the last Verilation read
    list(APPEND deps ${${V_PREFIX}_DEPS})
  endif()
  list(REMOVE_DUPLICATES deps)
  list(SORT deps)
  set(digest_input "")
  foreach(f ${deps})
    get_filename_component(f "${f}" ABSOLUTE)
    string(FIND "${f}" "${PROJECT_SOURCE_DIR}/" in_project)
    if(in_project EQUAL 0 AND EXISTS "${f}")
      file(SHA1 "${f}" h)
      string(APPEND digest_input "${f}:${h}\n")
      set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${f}")
    endif()
  endforeach()
  string(SHA1 digest "${digest_input}")
  string(SUBSTRING "${digest}" 0 16 digest)
  set(sc "")
  if(V_SYSTEMC)
    set(sc SYSTEMC)
  endif()
  verilate(${target} ${sc} PREFIX ${V_PREFIX} TOP_MODULE ${V_TOP_MODULE} DIRECTORY "${V_DIRECTORY}"
    SOURCES ${V_SOURCES} VERILATOR_ARGS ${V_VERILATOR_ARGS} -DT3_RTL_DIGEST_${digest})

  # Build time (docs/architecture.md, "Verification"). Each file Verilator writes
  # includes verilated.h (and systemc.h for the SystemC form): parsing them
  # took most of a file's compile, 1-2 s for a few kB of model code. The
  # Verilation's files are compiled as one translation unit instead, as
  # Verilator's own makefiles do (their __ALL.cpp); and Verilator's runtime
  # (verilated.cpp and friends), which verilate() adds to every target, is
  # compiled once per build (t3_verilated_runtime) instead of once per model.
  get_target_property(srcs ${target} SOURCES)
  set(kept "")
  set(runtime "")
  foreach(s ${srcs})
    string(FIND "${s}" "${V_DIRECTORY}/" in_dir)
    string(FIND "${s}" "${VERILATOR_ROOT}/include/" in_runtime)
    if(in_runtime EQUAL 0 AND s MATCHES "\\.cpp$")
      list(APPEND runtime "${s}")
      continue()
    endif()
    if(in_dir EQUAL 0 AND s MATCHES "\\.cpp$")
      set_source_files_properties("${s}" PROPERTIES UNITY_GROUP ${V_PREFIX})
    endif()
    list(APPEND kept "${s}")
  endforeach()
  set_target_properties(${target} PROPERTIES SOURCES "${kept}"
    UNITY_BUILD ON UNITY_BUILD_MODE GROUP)
  # The runtime as the target's Verilations need it: with SystemC if any of
  # them is SystemC output (verilate() sets VERILATOR_SYSTEMC then).
  get_target_property(target_sc ${target} VERILATOR_SYSTEMC)
  if(target_sc)
    set(rt t3_verilated_runtime_sc)
    set(rt_sc 1)
  else()
    set(rt t3_verilated_runtime)
    set(rt_sc 0)
  endif()
  if(NOT TARGET ${rt})
    add_library(${rt} STATIC ${runtime})
    target_include_directories(${rt} PUBLIC "${VERILATOR_ROOT}/include" "${VERILATOR_ROOT}/include/vltstd")
    if(rt_sc)
      target_link_libraries(${rt} PUBLIC PkgConfig::SYSTEMC)
    endif()
    target_compile_definitions(${rt} PRIVATE VM_COVERAGE=0 VM_SC=${rt_sc} VM_TRACE=0
      VM_TRACE_VCD=0 VM_TRACE_FST=0)
    target_link_libraries(${rt} PUBLIC ${VERILATOR_MT_CFLAGS})
    t3_verilated_target(${rt})
  endif()
  target_link_libraries(${target} PUBLIC ${rt})
endfunction()

# <out> = what Verilator is given for rtl/<block>.sv: every package of rtl/
# first (a package must be declared before its use; the register blocks'
# are generated), then the block; -y rtl/ finds the modules it instantiates.
function(t3_block_rtl_sources block out)
  file(GLOB pkgs CONFIGURE_DEPENDS "${PROJECT_SOURCE_DIR}/rtl/*_pkg.sv")
  list(SORT pkgs)
  set(${out} ${pkgs} "${PROJECT_SOURCE_DIR}/rtl/${block}.sv" PARENT_SCOPE)
endfunction()

# The cycle model (every hw/<block>/*.cpp but the SystemC module) as
# t3_<block>, and its SystemC module as t3_<block>_sc. LIBS: the models a
# composition of blocks is built from (t3_<block> of each).
function(t3_hw_block block)
  cmake_parse_arguments(ARG "" "" "LIBS" ${ARGN})
  file(GLOB srcs CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/${block}/*.cpp")
  list(FILTER srcs EXCLUDE REGEX "_sc\\.cpp$")
  add_library(t3_${block} ${srcs})
  target_include_directories(t3_${block} PUBLIC "${CMAKE_CURRENT_SOURCE_DIR}")
  target_link_libraries(t3_${block} PUBLIC t3_common ${ARG_LIBS})
  t3_target_options(t3_${block})
  add_library(t3_${block}_sc "${block}/${block}_sc.cpp")
  target_link_libraries(t3_${block}_sc PUBLIC t3_${block} PkgConfig::SYSTEMC)
  t3_target_options(t3_${block}_sc)
endfunction()

# Once per block:
#   <block>_tb              every testbench/<block>/*.cpp that is not a main
#                           (scoreboard, stimulus), and the generated
#                           cosim_config.h
#   <block>_cosim_test_obj  testbench/<block>/<block>_cosim_test.cpp compiled
# Per configuration <cfg> of the block:
#   <block>_<cfg>_rtl       rtl/<block>.sv Verilated twice (SystemC and plain
#                           C++ output), modules it instantiates found in rtl/
#   <block>_<cfg>           the generated build description (cosim_config.cpp:
#                           the engines on this configuration's RTL)
#   <block>_cosim_test_<cfg>  the test linked with it, run by ctest on both
#                           engines, and the pin check
# and, for the DEMO / BENCH configuration (default: the first),
# testbench/<block>/<block>_demo.cpp and _bench.cpp as <block>_demo and
# <block>_bench.
function(t3_block_cosim block)
  cmake_parse_arguments(ARG "" "DEMO;BENCH" "CONFIGS;LIBS;TEST_LIBS;DEMO_LIBS;BENCH_LIBS" ${ARGN})
  t3_camel(${block} camel)
  set(tb "${CMAKE_CURRENT_SOURCE_DIR}/${block}")
  file(GLOB tb_srcs CONFIGURE_DEPENDS "${tb}/*.cpp")
  list(FILTER tb_srcs EXCLUDE REGEX "_(test|demo|bench)\\.cpp$")
  set(first "")
  # The configuration the sanitizer pass runs (scripts/test.sh): the one
  # named small where there is one, else the last.
  set(sanitize_cfg "")
  foreach(cfg_text ${ARG_CONFIGS})
    separate_arguments(cfg_words UNIX_COMMAND "${cfg_text}")
    list(GET cfg_words 0 cfg_name)
    if(NOT sanitize_cfg STREQUAL "small")
      set(sanitize_cfg ${cfg_name})
    endif()
  endforeach()

  # What does not depend on the configuration, compiled once for all of
  # them: the testbench's sources (scoreboard, stimulus) as <block>_tb, the
  # co-simulation test as <block>_cosim_test_obj, and the header declaring
  # what each configuration's cosim_config.cpp defines.
  set(TRAITS "t3::${camel}Block")
  set(BLOCK ${block})
  set(tb_gen "${CMAKE_CURRENT_BINARY_DIR}/${block}_cosim")
  configure_file("${CMAKE_CURRENT_SOURCE_DIR}/common/cosim_config.h.in" "${tb_gen}/cosim_config.h" @ONLY)
  add_library(${block}_tb STATIC ${tb_srcs} "${tb_gen}/cosim_config.h")
  set_target_properties(${block}_tb PROPERTIES LINKER_LANGUAGE CXX)
  target_include_directories(${block}_tb PUBLIC "${tb_gen}" "${tb}")
  # Verilator's runtime headers are not -Wextra clean; treat them as system headers.
  target_include_directories(${block}_tb SYSTEM PUBLIC "${VERILATOR_ROOT}/include"
    "${VERILATOR_ROOT}/include/vltstd")
  target_link_libraries(${block}_tb PUBLIC t3_${block} t3_cosim_common ${ARG_LIBS})
  t3_target_options(${block}_tb)
  set(test_src "${tb}/${block}_cosim_test.cpp")
  if(EXISTS "${test_src}")
    add_library(${block}_cosim_test_obj OBJECT "${test_src}")
    target_link_libraries(${block}_cosim_test_obj PRIVATE ${block}_tb GTest::gtest ${ARG_TEST_LIBS})
    target_compile_definitions(${block}_cosim_test_obj PRIVATE T3_RANDOM_CYCLES=${T3_RANDOM_CYCLES})
    t3_target_options(${block}_cosim_test_obj)
  endif()

  foreach(cfg_text ${ARG_CONFIGS})
    separate_arguments(cfg_words UNIX_COMMAND "${cfg_text}")
    list(POP_FRONT cfg_words cfg)
    if(first STREQUAL "")
      set(first ${cfg})
    endif()
    t3_block_params(${block} params ${cfg_words})
    set(lib ${block}_${cfg})
    set(gen "${CMAKE_CURRENT_BINARY_DIR}/${lib}")

    set(vargs -O3 --x-assign fast --x-initial fast -Wall -y "${PROJECT_SOURCE_DIR}/rtl")
    t3_block_rtl_sources(${block} rtl_srcs)
    foreach(p ${params})
      list(APPEND vargs -G${p})
    endforeach()
    add_library(${lib}_rtl STATIC)
    if(T3_RTL_SYSTEMC)
      t3_verilate(${lib}_rtl SYSTEMC PREFIX V${block}_sc TOP_MODULE ${block}
        DIRECTORY "${gen}/V${block}_sc"
        SOURCES ${rtl_srcs} VERILATOR_ARGS ${vargs})
    endif()
    t3_verilate(${lib}_rtl PREFIX V${block}_c TOP_MODULE ${block}
      DIRECTORY "${gen}/V${block}_c"
      SOURCES ${rtl_srcs} VERILATOR_ARGS ${vargs})
    target_link_libraries(${lib}_rtl PUBLIC PkgConfig::SYSTEMC)
    t3_verilated_target(${lib}_rtl)

    set(CONFIG ${cfg})
    if(T3_RTL_SYSTEMC)
      set(RTL_SYSTEMC 1)
    else()
      set(RTL_SYSTEMC 0)
    endif()
    string(REPLACE ";" "," PARAMS "${params}")
    configure_file("${CMAKE_CURRENT_SOURCE_DIR}/common/cosim_rtl.h.in" "${gen}/cosim_rtl.h" @ONLY)
    configure_file("${CMAKE_CURRENT_SOURCE_DIR}/common/cosim_config.cpp.in" "${gen}/cosim_config.cpp" @ONLY)
    configure_file("${CMAKE_CURRENT_SOURCE_DIR}/common/cosim_forms.cpp.in" "${gen}/cosim_forms.cpp" @ONLY)
    add_library(${lib} STATIC "${gen}/cosim_config.cpp")
    target_include_directories(${lib} PRIVATE "${gen}")
    target_link_libraries(${lib} PUBLIC ${lib}_rtl ${block}_tb)
    if(T3_RTL_SYSTEMC)  # the SystemC engine's model
      target_link_libraries(${lib} PUBLIC t3_${block}_sc)
    endif()
    t3_target_options(${lib})

    if(EXISTS "${test_src}")
      set(exe ${block}_cosim_test_${cfg})
      add_executable(${exe} $<TARGET_OBJECTS:${block}_cosim_test_obj> $<TARGET_OBJECTS:t3_sc_gtest_main>)
      target_link_libraries(${exe} PRIVATE ${lib} GTest::gtest ${ARG_TEST_LIBS})
      t3_target_options(${exe})
      add_test(NAME ${block}_cosim_${cfg}_direct
        COMMAND ${exe} --engine direct --out "${CMAKE_BINARY_DIR}")
      set(cosim_tests ${block}_cosim_${cfg}_direct)
      if(T3_RTL_SYSTEMC)
        add_test(NAME ${block}_cosim_${cfg} COMMAND ${exe} --out "${CMAKE_BINARY_DIR}")
        list(APPEND cosim_tests ${block}_cosim_${cfg})
      endif()
      set(labels cosim)
      if(cfg STREQUAL sanitize_cfg)
        add_dependencies(t3_sanitize_targets ${exe})
        set(labels "cosim;sanitize")
      endif()
      set_tests_properties(${cosim_tests} PROPERTIES
        ENVIRONMENT SYSTEMC_DISABLE_COPYRIGHT_MESSAGE=1 LABELS "${labels}")
      # The pin list against the Verilated model and the RTL source.
      add_test(NAME ${block}_pins_${cfg}
        COMMAND ${Python3_EXECUTABLE} "${PROJECT_SOURCE_DIR}/scripts/check_pins.py"
          --block ${block} --binary $<TARGET_FILE:${exe}>
          --verilated "${gen}/V${block}_c/V${block}_c.h")
    endif()
  endforeach()

  if(NOT ARG_DEMO)
    set(ARG_DEMO ${first})
  endif()
  if(NOT ARG_BENCH)
    set(ARG_BENCH ${first})
  endif()
  # The benchmark and its forms are not in the default build (their
  # compiles were a tenth of scripts/test.sh's time): scripts/bench.py
  # builds the one it runs.
  foreach(kind demo bench)
    string(TOUPPER ${kind} KIND)
    if(EXISTS "${tb}/${block}_${kind}.cpp")
      set(exclude "")
      if(kind STREQUAL bench)
        set(exclude EXCLUDE_FROM_ALL)
      endif()
      add_executable(${block}_${kind} ${exclude} "${tb}/${block}_${kind}.cpp")
      target_link_libraries(${block}_${kind} PRIVATE ${block}_${ARG_${KIND}})
      if(kind STREQUAL bench)
        # each form alone (cosim_forms.cpp.in), for this configuration only
        set(gen "${CMAKE_CURRENT_BINARY_DIR}/${block}_${ARG_BENCH}")
        add_library(${block}_${ARG_BENCH}_forms STATIC EXCLUDE_FROM_ALL "${gen}/cosim_forms.cpp")
        target_include_directories(${block}_${ARG_BENCH}_forms PRIVATE "${gen}")
        target_link_libraries(${block}_${ARG_BENCH}_forms PUBLIC ${block}_${ARG_BENCH} t3_${block}_sc)
        t3_target_options(${block}_${ARG_BENCH}_forms)
        target_link_libraries(${block}_${kind} PRIVATE ${block}_${ARG_BENCH}_forms)
      endif()
      target_link_libraries(${block}_${kind} PRIVATE ${ARG_${KIND}_LIBS})
      t3_target_options(${block}_${kind})
    endif()
  endforeach()

  # The generated register block against the C++ register file, every cycle
  # (testbench/common/reg_top_cosim_test.cpp, built per block).
  if(EXISTS "${PROJECT_SOURCE_DIR}/rtl/${block}_reg_top.sv")
    add_library(${block}_reg_top_rtl STATIC)
    t3_verilate(${block}_reg_top_rtl PREFIX V${block}_reg_top TOP_MODULE ${block}_reg_top
      DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}/${block}_reg_top"
      SOURCES "${PROJECT_SOURCE_DIR}/rtl/reg_apb.sv" "${PROJECT_SOURCE_DIR}/rtl/${block}_reg_pkg.sv"
        "${PROJECT_SOURCE_DIR}/rtl/${block}_reg_top.sv"
      VERILATOR_ARGS -O3 --x-assign fast --x-initial fast -Wall)
    t3_verilated_target(${block}_reg_top_rtl)
    set(exe ${block}_reg_top_cosim_test)
    add_executable(${exe} "${CMAKE_CURRENT_SOURCE_DIR}/common/reg_top_cosim_test.cpp")
    target_compile_definitions(${exe} PRIVATE T3_REGS=t3::${camel}Regs
      T3_REGS_HEADER="${block}/${block}_regs.h" T3_REG_TOP=V${block}_reg_top
      T3_REG_TOP_HEADER="V${block}_reg_top.h")
    target_include_directories(${exe} SYSTEM PRIVATE ${VERILATOR_ROOT}/include
      ${VERILATOR_ROOT}/include/vltstd)
    target_link_libraries(${exe} PRIVATE ${block}_reg_top_rtl t3_${block} GTest::gtest_main)
    t3_target_options(${exe})
    add_dependencies(t3_sanitize_targets ${exe})
    add_test(NAME ${block}_reg_top_cosim COMMAND ${exe})
    set_tests_properties(${block}_reg_top_cosim PROPERTIES LABELS "cosim;sanitize")
  endif()
endfunction()

# Unit tests of the cycle model (every tests/<block>_*test.cpp, linked with
# the model) and the RTL lint.
function(t3_block_tests block)
  cmake_parse_arguments(ARG "" "" "LIBS" ${ARGN})
  file(GLOB srcs CONFIGURE_DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/${block}_*test.cpp")
  foreach(src ${srcs})
    get_filename_component(name "${src}" NAME_WE)
    add_executable(${name} "${src}")
    target_link_libraries(${name} PRIVATE t3_${block} GTest::gtest_main ${ARG_LIBS})
    # the testbench's header-only machinery (the APB master) for unit tests
    target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR}/testbench/common)
    t3_target_options(${name})
    add_dependencies(t3_sanitize_targets ${name})
    string(REGEX REPLACE "_test$" "" tname "${name}")
    add_test(NAME ${tname} COMMAND ${name})
    set_tests_properties(${tname} PROPERTIES LABELS "unit;sanitize")
  endforeach()
  t3_block_rtl_sources(${block} rtl_srcs)
  add_test(NAME ${block}_rtl_lint
    COMMAND ${VERILATOR_EXE} --lint-only -Wall -y "${PROJECT_SOURCE_DIR}/rtl"
      --top-module ${block} ${rtl_srcs})
  add_test(NAME ${block}_params
    COMMAND ${Python3_EXECUTABLE} "${PROJECT_SOURCE_DIR}/scripts/check_params.py" --block ${block})
  set_tests_properties(${block}_params PROPERTIES COST 50)  # long: see tests/CMakeLists.txt
  # The generated register block (scripts/blockgen.py): lint, and synthesis
  # without latches.
  set(reg_rtl "${PROJECT_SOURCE_DIR}/rtl/reg_apb.sv" "${PROJECT_SOURCE_DIR}/rtl/${block}_reg_pkg.sv"
    "${PROJECT_SOURCE_DIR}/rtl/${block}_reg_top.sv")
  if(EXISTS "${PROJECT_SOURCE_DIR}/rtl/${block}_reg_top.sv")
    # The map against the access rules (tests/regs_test.cpp, built per block).
    t3_camel(${block} camel)
    add_executable(${block}_regs_test "${PROJECT_SOURCE_DIR}/tests/regs_test.cpp")
    target_compile_definitions(${block}_regs_test PRIVATE T3_REGS=t3::${camel}Regs
      T3_REGS_HEADER="${block}/${block}_regs.h")
    target_link_libraries(${block}_regs_test PRIVATE t3_${block} GTest::gtest_main)
    t3_target_options(${block}_regs_test)
    add_dependencies(t3_sanitize_targets ${block}_regs_test)
    add_test(NAME ${block}_regs COMMAND ${block}_regs_test)
    set_tests_properties(${block}_regs PROPERTIES LABELS "unit;sanitize")
    string(JOIN " " reg_rtl_words ${reg_rtl})
    add_test(NAME ${block}_reg_lint
      COMMAND ${VERILATOR_EXE} --lint-only -Wall ${reg_rtl} --top-module ${block}_reg_top)
    add_test(NAME ${block}_reg_synth
      COMMAND ${YOSYS_EXE} -q -p "read_verilog -sv ${reg_rtl_words}; synth -top ${block}_reg_top; check -assert; select -assert-none t:$_DLATCH* t:$dlatch*")
  endif()
endfunction()
