# Device-API tests (included by CMakeLists.txt): C++ host programs whose kernels call rocSHMEM's
# device API, launched with hipLaunchKernelGGL and, from an .emuco code object, hipModuleLaunchKernel.
# Needs the kernel engine (rocshmem/emu/kernel: rocshmem_emu_kernel_host_program, rocshmem_emu_code_object).
if(NOT COMMAND rocshmem_emu_kernel_host_program)
  message(STATUS "device-API tests skipped: the kernel engine (rocshmem/emu/kernel) is not part of this build")
  return()
endif()

# The kernel engine's helper functions read these directory variables of rocshmem/emu/kernel,
# which are not visible here: give them the same values.
set(ROCSHMEM_EMU_KERNEL_INCLUDE_DIR "${CMAKE_CURRENT_SOURCE_DIR}/../kernel/include")
set(ROCSHMEM_EMU_HIPCC "${CMAKE_CURRENT_SOURCE_DIR}/../kernel/bin/rocshmem-emu-hipcc")

function(emu_device_test_program name source)
  rocshmem_emu_kernel_host_program(${name} ${source})
  target_link_libraries(${name} PRIVATE rocshmem_twin rocshmem_cpu_emu)
  target_compile_options(${name} PRIVATE -Wno-deprecated-declarations)  # wg_init & co. are tested too
  target_include_directories(${name} PRIVATE ${CMAKE_CURRENT_SOURCE_DIR})
endfunction()

rocshmem_emu_code_object(emu_device_ring device/device_ring.hip)
emu_device_test_program(emu_test_device_rma test_device_rma.cpp)
add_dependencies(emu_test_device_rma emu_device_ring)
emu_device_test_program(emu_test_device_signal test_device_signal.cpp)
emu_device_test_program(emu_test_device_atomics test_device_atomics.cpp)
emu_device_test_program(emu_test_device_collectives test_device_collectives.cpp)
emu_device_test_program(emu_test_device_partial test_device_partial.cpp)

foreach(n IN LISTS EMU_TEST_PE_COUNTS)
  add_test(NAME emu_device_rma_${n}pe
           COMMAND rocshmem-emu-run -n ${n} --timeout ${EMU_TEST_RUN_TIMEOUT} --
                   $<TARGET_FILE:emu_test_device_rma> "${CMAKE_CURRENT_BINARY_DIR}/emu_device_ring.emuco")
  add_test(NAME emu_device_signal_${n}pe
           COMMAND rocshmem-emu-run -n ${n} --timeout ${EMU_TEST_RUN_TIMEOUT} -- $<TARGET_FILE:emu_test_device_signal>)
  add_test(NAME emu_device_atomics_${n}pe
           COMMAND rocshmem-emu-run -n ${n} --timeout ${EMU_TEST_RUN_TIMEOUT} -- $<TARGET_FILE:emu_test_device_atomics>)
  add_test(NAME emu_device_collectives_${n}pe
           COMMAND rocshmem-emu-run -n ${n} --timeout ${EMU_TEST_RUN_TIMEOUT} -- $<TARGET_FILE:emu_test_device_collectives>)
  set_tests_properties(emu_device_rma_${n}pe emu_device_signal_${n}pe emu_device_atomics_${n}pe
                       emu_device_collectives_${n}pe PROPERTIES
                       TIMEOUT ${EMU_TEST_CTEST_TIMEOUT} LABELS emu FAIL_REGULAR_EXPRESSION "rocSHMEM emulator: PE")
  add_test(NAME emu_device_partial_${n}pe
           COMMAND emu_test_device_partial $<TARGET_FILE:rocshmem-emu-run> ${n})
  set_tests_properties(emu_device_partial_${n}pe PROPERTIES TIMEOUT 90 LABELS emu)
endforeach()

# Device-side put rate (information only; see shmem/device/bench). The smoke run keeps it working.
rocshmem_emu_kernel_host_program(rocshmem-emu-device-put-rate ../shmem/device/bench/device_put_rate.cpp)
target_link_libraries(rocshmem-emu-device-put-rate PRIVATE rocshmem_twin rocshmem_cpu_emu)
set_target_properties(rocshmem-emu-device-put-rate PROPERTIES INSTALL_RPATH "$ORIGIN/../lib")
install(TARGETS rocshmem-emu-device-put-rate RUNTIME DESTINATION bin)
add_test(NAME emu_device_put_rate_smoke_2pe
         COMMAND rocshmem-emu-run -n 2 --timeout 60 -- $<TARGET_FILE:rocshmem-emu-device-put-rate> --quick)
set_tests_properties(emu_device_put_rate_smoke_2pe PROPERTIES TIMEOUT 90 LABELS emu)
