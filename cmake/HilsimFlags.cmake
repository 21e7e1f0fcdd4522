# Compiler flags shared by every hilsim target, collected on one interface target.
add_library(hilsim_flags INTERFACE)
target_compile_options(hilsim_flags INTERFACE -Wall -Wextra -Wno-unused-parameter
                                              -ffp-contract=off)
# Debug logging is compiled out of release builds.
target_compile_definitions(hilsim_flags INTERFACE
  $<$<NOT:$<CONFIG:Debug>>:SPDLOG_ACTIVE_LEVEL=SPDLOG_LEVEL_INFO>
  $<$<CONFIG:Debug>:SPDLOG_ACTIVE_LEVEL=SPDLOG_LEVEL_DEBUG>
  HILSIM_VERSION="${PROJECT_VERSION}")

if(HILSIM_NATIVE)
  target_compile_options(hilsim_flags INTERFACE -O3 -march=native)
endif()

if(HILSIM_FUZZ)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "HILSIM_FUZZ needs clang: CXX=clang++ cmake -DHILSIM_FUZZ=ON ...")
  endif()
  target_compile_options(hilsim_flags INTERFACE -fsanitize=fuzzer-no-link,address,undefined
                                                -fno-sanitize-recover=all -fno-omit-frame-pointer)
  target_link_options(hilsim_flags INTERFACE -fsanitize=address,undefined)
endif()

if(HILSIM_SANITIZE)
  target_compile_options(hilsim_flags INTERFACE -fsanitize=address,undefined
                                                -fno-sanitize-recover=all -fno-omit-frame-pointer)
  target_link_options(hilsim_flags INTERFACE -fsanitize=address,undefined)
endif()
