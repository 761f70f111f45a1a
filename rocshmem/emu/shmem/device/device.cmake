# rocSHMEM's device API, compiled into librocshmem_cpu_emu (included by ../CMakeLists.txt).
#   gen_device_api.py    device_api.cpp (forwarders) + device-coverage.tsv from device-functions.tsv
#   src/                 group calls, device-only engine operations, hand-written rows and kernels
set(device_dir "${CMAKE_CURRENT_SOURCE_DIR}/device")
set(device_api_cpp "${CMAKE_CURRENT_BINARY_DIR}/device_api.cpp")
set(ROCSHMEM_DEVICE_COVERAGE "${CMAKE_CURRENT_BINARY_DIR}/device-coverage.tsv" CACHE INTERNAL
    "status of every device-functions.tsv row (covered how, or the reason it is left out)")
add_custom_command(
  OUTPUT "${device_api_cpp}" "${ROCSHMEM_DEVICE_COVERAGE}"
  COMMAND "${Python3_EXECUTABLE}" "${device_dir}/gen_device_api.py" --manifest "${ROCSHMEM_MANIFEST_DIR}"
          --out "${device_api_cpp}" --coverage "${ROCSHMEM_DEVICE_COVERAGE}"
  DEPENDS "${device_dir}/gen_device_api.py" "${CMAKE_CURRENT_SOURCE_DIR}/gen_typed_api.py"
          "${CMAKE_CURRENT_SOURCE_DIR}/../common/check_exports.py" "${CMAKE_CURRENT_SOURCE_DIR}/../twin/manifest_rows.py"
          "${ROCSHMEM_MANIFEST_DIR}/device-functions.tsv" "${ROCSHMEM_MANIFEST_DIR}/host-functions.tsv"
  COMMENT "Generating the rocSHMEM device API from the manifest"
  VERBATIM)

target_sources(rocshmem_cpu_emu PRIVATE
  "${device_dir}/src/device_hand.cpp"
  "${device_dir}/src/device_ops.cpp"
  "${device_api_cpp}")
target_include_directories(rocshmem_cpu_emu PRIVATE "${device_dir}/src")
# The work-item C ABI of the HIP emulator's scheduler (rocshmem/emu/kernel, exported by libhip_cpu_emu).
target_link_libraries(rocshmem_cpu_emu PRIVATE rocshmem_emu_workitem)

# Every manifest row is covered or listed with a reason, and every covered symbol is exported.
add_test(NAME shmem_device_coverage
  COMMAND "${Python3_EXECUTABLE}" "${device_dir}/check_device_coverage.py" --manifest "${ROCSHMEM_MANIFEST_DIR}"
          --coverage "${ROCSHMEM_DEVICE_COVERAGE}" --lib "$<TARGET_FILE:rocshmem_cpu_emu>")
add_test(NAME shmem_device_coverage_detects_gaps
  COMMAND "${Python3_EXECUTABLE}" "${device_dir}/check_device_coverage.py" --manifest "${ROCSHMEM_MANIFEST_DIR}"
          --coverage "${ROCSHMEM_DEVICE_COVERAGE}" --lib "$<TARGET_FILE:rocshmem_cpu_emu>" --self-test)

# docs/device-api.md (the kernel author's reference) is what gen_device_api_doc.py makes of the manifest today.
add_test(NAME shmem_device_api_doc_current
  COMMAND "${Python3_EXECUTABLE}" "${device_dir}/gen_device_api_doc.py" --manifest "${ROCSHMEM_MANIFEST_DIR}"
          --check "${CMAKE_CURRENT_SOURCE_DIR}/../../../docs/device-api.md")

# Device-side put rate (information only): rocshmem-emu-run -n 2 -- rocshmem-emu-device-put-rate
# (with the test programs: ROCSHMEM_EMU_TESTS=OFF leaves it out)
if(ROCSHMEM_EMU_TESTS)
  rocshmem_emu_kernel_host_program(rocshmem-emu-device-put-rate "${device_dir}/bench/device_put_rate.cpp")
  target_link_libraries(rocshmem-emu-device-put-rate PRIVATE rocshmem_twin rocshmem_cpu_emu)
  set_target_properties(rocshmem-emu-device-put-rate PROPERTIES INSTALL_RPATH "$ORIGIN/../lib")
  install(TARGETS rocshmem-emu-device-put-rate RUNTIME DESTINATION bin)
  # The smoke run keeps it working (it exits non-zero when its data check fails; rates are not judged).
  add_test(NAME emu_device_put_rate_smoke_2pe
           COMMAND rocshmem-emu-run -n 2 --timeout 60 -- $<TARGET_FILE:rocshmem-emu-device-put-rate> --quick)
  set_tests_properties(emu_device_put_rate_smoke_2pe PROPERTIES TIMEOUT 90 LABELS emu)
endif()
