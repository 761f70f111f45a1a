# Device-API tests (included by CMakeLists.txt): C++ host programs whose kernels call rocSHMEM's
# device API, launched with hipLaunchKernelGGL and, from an .emuco code object, hipModuleLaunchKernel.
# The helpers come from rocshmem/emu/kernel/cmake/RocshmemEmuKernel.cmake.

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
emu_device_test_program(emu_test_device_limits test_device_limits.cpp)
emu_device_test_program(emu_test_device_interblock test_device_interblock.cpp)
emu_device_test_program(emu_test_device_schedule_fuzz test_device_schedule_fuzz.cpp)

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
  add_test(NAME emu_device_limits_${n}pe
           COMMAND rocshmem-emu-run -n ${n} --timeout ${EMU_TEST_RUN_TIMEOUT} -- $<TARGET_FILE:emu_test_device_limits>)
  set_tests_properties(emu_device_limits_${n}pe PROPERTIES TIMEOUT ${EMU_TEST_CTEST_TIMEOUT} LABELS emu)
  add_test(NAME emu_device_partial_${n}pe
           COMMAND emu_test_device_partial $<TARGET_FILE:rocshmem-emu-run> ${n})
  set_tests_properties(emu_device_partial_${n}pe PROPERTIES TIMEOUT 90 LABELS emu)
  # Inter-block waits through HIP atomics only (producer/consumer, split-K, work queue).
  add_test(NAME emu_device_interblock_${n}pe
           COMMAND rocshmem-emu-run -n ${n} --timeout ${EMU_TEST_RUN_TIMEOUT} -- $<TARGET_FILE:emu_test_device_interblock>)
  # The device tests at 32 lanes (gfx11/gfx12) as well as at the default 64.
  foreach(program rma signal atomics collectives interblock)
    set(args "")
    if(program STREQUAL "rma")
      set(args "${CMAKE_CURRENT_BINARY_DIR}/emu_device_ring.emuco")
    endif()
    add_test(NAME emu_device_${program}_wave32_${n}pe
             COMMAND rocshmem-emu-run -n ${n} --timeout ${EMU_TEST_RUN_TIMEOUT} -- $<TARGET_FILE:emu_test_device_${program}> ${args})
    set_tests_properties(emu_device_${program}_wave32_${n}pe PROPERTIES ENVIRONMENT "ROCSHMEM_EMU_WAVE_SIZE=32")
    set_tests_properties(emu_device_${program}_wave32_${n}pe PROPERTIES TIMEOUT ${EMU_TEST_CTEST_TIMEOUT} LABELS emu
                         FAIL_REGULAR_EXPRESSION "rocSHMEM emulator: PE")
  endforeach()
  set_tests_properties(emu_device_interblock_${n}pe PROPERTIES TIMEOUT ${EMU_TEST_CTEST_TIMEOUT} LABELS emu
                       FAIL_REGULAR_EXPRESSION "rocSHMEM emulator: PE")
endforeach()

# Schedule fuzzing inside a PE: the random schedule shows a flag raised before its quiet to a reader
# of the same PE, never with quiet or fence first; the fifo schedule never switches there.
add_test(NAME emu_device_schedule_fuzz_2pe
         COMMAND rocshmem-emu-run -n 2 --timeout ${EMU_TEST_RUN_TIMEOUT} -- $<TARGET_FILE:emu_test_device_schedule_fuzz> window)
set_tests_properties(emu_device_schedule_fuzz_2pe PROPERTIES TIMEOUT ${EMU_TEST_CTEST_TIMEOUT} LABELS emu
                     ENVIRONMENT "ROCSHMEM_EMU_KERNEL_SCHEDULE=random;ROCSHMEM_EMU_KERNEL_SEED=12345")
add_test(NAME emu_device_schedule_fifo_2pe
         COMMAND rocshmem-emu-run -n 2 --timeout ${EMU_TEST_RUN_TIMEOUT} -- $<TARGET_FILE:emu_test_device_schedule_fuzz> hidden)
set_tests_properties(emu_device_schedule_fifo_2pe PROPERTIES TIMEOUT ${EMU_TEST_CTEST_TIMEOUT} LABELS emu
                     ENVIRONMENT "ROCSHMEM_EMU_KERNEL_SCHEDULE=fifo")

# rocSHMEM's init refuses a bad kernel-engine setting, naming it.
add_test(NAME emu_device_settings_refused
         COMMAND rocshmem-emu-run -n 2 --timeout ${EMU_TEST_RUN_TIMEOUT} -- $<TARGET_FILE:emu_test_device_interblock>)
set_tests_properties(emu_device_settings_refused PROPERTIES TIMEOUT ${EMU_TEST_CTEST_TIMEOUT} LABELS emu
                     ENVIRONMENT "ROCSHMEM_EMU_KERNEL_WATCHDOG=abc"
                     PASS_REGULAR_EXPRESSION "invalid ROCSHMEM_EMU_KERNEL_WATCHDOG='abc' \\(expected seconds")


# Ordering (issue 25): without fence a flag put overtakes its data in most rounds, host and kernel;
# with fence never; a PE reads its own unquieted writes; the ipc-uid profile lets kernels do RMA.
emu_device_test_program(emu_test_ordering test_ordering.cpp)
foreach(n IN LISTS EMU_TEST_PE_COUNTS)
  foreach(scenario reorder fence ryow)
    set(extra_env "")
    if(scenario STREQUAL "ryow")
      set(extra_env "ROCSHMEM_EMU_PROGRESS_MS=3600000")  # nothing arrives unless a read delivers it
    endif()
    add_test(NAME emu_ordering_${scenario}_${n}pe
             COMMAND rocshmem-emu-run -n ${n} --timeout ${EMU_TEST_RUN_TIMEOUT} -- $<TARGET_FILE:emu_test_ordering>)
    set_tests_properties(emu_ordering_${scenario}_${n}pe PROPERTIES TIMEOUT ${EMU_TEST_CTEST_TIMEOUT} LABELS emu
                         ENVIRONMENT "EMU_TEST_SCENARIO=${scenario};${extra_env}"
                         FAIL_REGULAR_EXPRESSION "rocSHMEM emulator: PE")
  endforeach()
  add_test(NAME emu_ordering_ipc_uid_kernels_${n}pe
           COMMAND rocshmem-emu-run -n ${n} --timeout ${EMU_TEST_RUN_TIMEOUT} -- $<TARGET_FILE:emu_test_ordering>)
  set_tests_properties(emu_ordering_ipc_uid_kernels_${n}pe PROPERTIES TIMEOUT ${EMU_TEST_CTEST_TIMEOUT} LABELS emu
                       ENVIRONMENT "EMU_TEST_SCENARIO=ipc-uid;ROCSHMEM_EMU_PROFILE=ipc-uid"
                       PASS_REGULAR_EXPRESSION "PASS ipc_uid_device_rma.*rocshmem_int_p: rocSHMEM aborts here on the IPC backend")
endforeach()

# Teams are distinct (issue 25): 2, 16 and 32 work-groups of one kernel, each on its own duplicate of
# WORLD, in sync, barrier, alltoall, fcollect and a reduction (34 teams with WORLD and SHARED).
emu_device_test_program(emu_test_device_teams test_device_teams.cpp)
foreach(n IN LISTS EMU_TEST_PE_COUNTS)
  add_test(NAME emu_device_teams_${n}pe
           COMMAND rocshmem-emu-run -n ${n} --timeout ${EMU_TEST_RUN_TIMEOUT} -- $<TARGET_FILE:emu_test_device_teams>)
  set_tests_properties(emu_device_teams_${n}pe PROPERTIES TIMEOUT ${EMU_TEST_CTEST_TIMEOUT} LABELS emu
                       ENVIRONMENT "ROCSHMEM_MAX_NUM_TEAMS=64" FAIL_REGULAR_EXPRESSION "rocSHMEM emulator: PE")
endforeach()

# A host context used in device code ends the job naming the call (a GPU cannot read it).
emu_device_test_program(emu_test_device_host_context test_device_host_context.cpp)
add_test(NAME emu_device_host_context_2pe
         COMMAND rocshmem-emu-run -n 2 --timeout ${EMU_TEST_RUN_TIMEOUT} -- $<TARGET_FILE:emu_test_device_host_context>)
set_tests_properties(emu_device_host_context_2pe PROPERTIES TIMEOUT ${EMU_TEST_CTEST_TIMEOUT} LABELS emu
                     ENVIRONMENT "ROCSHMEM_MAX_NUM_HOST_CONTEXTS=2"
                     PASS_REGULAR_EXPRESSION "PASS a kernel on the default context.*rocshmem_ctx_int_p in a kernel: the context is a host context"
                     FAIL_REGULAR_EXPRESSION "unreachable")
