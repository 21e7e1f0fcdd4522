# Every dependency comes from Debian packages; nothing is downloaded.
find_package(PkgConfig REQUIRED)
find_package(FlatBuffers REQUIRED CONFIG)
find_program(FLATC_EXECUTABLE flatc REQUIRED)
find_package(yaml-cpp REQUIRED)
find_package(spdlog REQUIRED)
# nlohmann/json 3.9 brought ordered_json, which keeps members in the order written.
find_package(nlohmann_json 3.9 REQUIRED)
find_package(CLI11 2.1 REQUIRED)
find_package(Threads REQUIRED)
pkg_check_modules(SYSTEMC REQUIRED IMPORTED_TARGET systemc)
# The instruction-set simulator of the host MCU: Unicorn executes, Capstone decodes Thumb-2 for
# the cycle tables.
pkg_check_modules(UNICORN REQUIRED IMPORTED_TARGET unicorn)
pkg_check_modules(CAPSTONE REQUIRED IMPORTED_TARGET capstone)
if(HILSIM_BUILD_TESTS)
  find_package(GTest REQUIRED)
  include(GoogleTest)
endif()
if(HILSIM_BUILD_BENCH)
  find_package(benchmark REQUIRED)
endif()

# hilsim_flatc(TARGET <name> SCHEMAS <fbs...>): compiles schemas into <build>/gen/hilsim/schema.
function(hilsim_flatc)
  cmake_parse_arguments(ARG "" "TARGET" "SCHEMAS" ${ARGN})
  set(out_dir "${PROJECT_BINARY_DIR}/gen/hilsim/schema")
  set(headers "")
  foreach(fbs IN LISTS ARG_SCHEMAS)
    get_filename_component(stem "${fbs}" NAME_WE)
    set(header "${out_dir}/${stem}_generated.h")
    add_custom_command(
      OUTPUT "${header}"
      COMMAND "${FLATC_EXECUTABLE}" --cpp --gen-object-api --scoped-enums -o "${out_dir}"
              "${CMAKE_CURRENT_SOURCE_DIR}/${fbs}"
      DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/${fbs}"
      COMMENT "flatc ${fbs}"
      VERBATIM)
    list(APPEND headers "${header}")
  endforeach()
  add_custom_target(${ARG_TARGET}_gen DEPENDS ${headers})
  add_library(${ARG_TARGET} INTERFACE)
  add_dependencies(${ARG_TARGET} ${ARG_TARGET}_gen)
  target_include_directories(${ARG_TARGET} INTERFACE "${PROJECT_BINARY_DIR}/gen")
  target_link_libraries(${ARG_TARGET} INTERFACE flatbuffers::flatbuffers)
endfunction()
