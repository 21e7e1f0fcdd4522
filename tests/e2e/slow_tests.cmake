# The suite's slowest cases (whole models through the instruction-set simulator, 20 to 50 s each
# on a loaded two-core machine, against well under 10 s for almost every other test): label
# `slow` (beside their own) and a timeout of their own, which ctest's --timeout does not shorten.
# `ctest -LE slow` leaves them out. Read by ctest after the discovered tests (e2e/CMakeLists.txt).
set(hilsim_slow_timeout_s 600)
foreach(name IN ITEMS
        "Golden/GoldenIss.FirmwareOutputsMatchTflmBytes/real_mobilenet_v2_pt_cortex_m4f_ref"
        "Golden/GoldenIss.FirmwareOutputsMatchTflmBytes/real_mobilenet_v2_pt_cortex_m4f_compare"
        "Golden/GoldenIss.FirmwareOutputsMatchTflmBytes/real_mobilenet_v2_pt_rv32im_ref"
        "Golden/GoldenIss.FirmwareOutputsMatchTflmBytes/real_mobilenet_v2_pt_rv32im_compare")
  set_tests_properties("${name}" PROPERTIES LABELS "golden;slow" TIMEOUT ${hilsim_slow_timeout_s})
endforeach()
set_tests_properties("Presets/AnnotatedGolden.EveryModeMatchesTflmBytes/real_mobilenet_v2_pt_m4"
                     PROPERTIES LABELS "e2e;slow" TIMEOUT ${hilsim_slow_timeout_s})
