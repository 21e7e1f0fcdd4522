# The suite's slowest cases (whole models through the instruction-set simulator, 20 to 50 s each
# on a loaded two-core machine, against well under 10 s for almost every other test): label
# `slow` (beside their own) and a timeout of their own, which ctest's --timeout does not shorten.
# `ctest -LE slow` leaves them out. Read by ctest after the discovered tests (e2e/CMakeLists.txt),
# whose names it matches (a parameterized test's name ends in "  # GetParam() = ...").
set(hilsim_slow_timeout_s 600)
set(hilsim_slow_iss "^Golden/GoldenIss\\.FirmwareOutputsMatchTflmBytes/real_mobilenet_v2_pt_")
foreach(test IN LISTS hilsim_golden_e2e_tests_TESTS)
  if(test MATCHES "${hilsim_slow_iss}(cortex_m4f|rv32im)_(ref|compare) ")
    set_tests_properties("${test}" PROPERTIES LABELS "golden;slow" TIMEOUT ${hilsim_slow_timeout_s})
  endif()
endforeach()
foreach(test IN LISTS hilsim_annotate_e2e_tests_TESTS)
  if(test MATCHES "^Presets/AnnotatedGolden\\.EveryModeMatchesTflmBytes/real_mobilenet_v2_pt_m4 ")
    set_tests_properties("${test}" PROPERTIES LABELS "e2e;slow" TIMEOUT ${hilsim_slow_timeout_s})
  endif()
endforeach()
