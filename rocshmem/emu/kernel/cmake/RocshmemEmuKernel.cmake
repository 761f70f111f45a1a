# CMake helpers for HIP kernels on the emulator, usable from every directory of the emulator
# build (included by ../../CMakeLists.txt before the subdirectories):
#   rocshmem_emu_code_object(<target> <source.hip> [extra dependencies...])
#       <target>.emuco in the current binary dir, compiled by rocshmem-emu-hipcc against the
#       build tree (a target of that name builds it);
#   rocshmem_emu_kernel_host_program(<name> <source>)
#       an executable whose kernels are launched with hipLaunchKernelGGL (the kernel language's
#       include dir first, linked with hip_cpu_emu);
#   rocshmem_emu_workitem (INTERFACE target): the include dir of rocshmem_emu_workitem.h, for
#       code that calls the work-item C ABI without being a kernel (the device API library).
get_filename_component(ROCSHMEM_EMU_KERNEL_DIR "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
set(ROCSHMEM_EMU_KERNEL_INCLUDE_DIR "${ROCSHMEM_EMU_KERNEL_DIR}/include")  # first on a kernel's path
set(ROCSHMEM_EMU_HIPCC "${ROCSHMEM_EMU_KERNEL_DIR}/bin/rocshmem-emu-hipcc")

file(GLOB_RECURSE ROCSHMEM_EMU_KERNEL_HEADERS "${ROCSHMEM_EMU_KERNEL_INCLUDE_DIR}/*.h*")

# The code object is rebuilt when its source, the driver, the kernel headers or the libraries change.
function(rocshmem_emu_code_object target source)
  set(output "${CMAKE_CURRENT_BINARY_DIR}/${target}.emuco")
  add_custom_command(
    OUTPUT "${output}"
    COMMAND Python3::Interpreter "${ROCSHMEM_EMU_HIPCC}" "${CMAKE_CURRENT_SOURCE_DIR}/${source}" -o "${output}"
            --emu-include "${ROCSHMEM_EMU_KERNEL_INCLUDE_DIR}" --emu-include "${HIP_INCLUDE_DIR}"
            --emu-include "${ROCSHMEM_TWIN_INCLUDE_DIR}"
            --emu-lib "$<TARGET_FILE_DIR:hip_cpu_emu>" --emu-lib "$<TARGET_FILE_DIR:rocshmem_cpu_emu>"
    DEPENDS "${CMAKE_CURRENT_SOURCE_DIR}/${source}" "${ROCSHMEM_EMU_HIPCC}" ${ROCSHMEM_EMU_KERNEL_HEADERS}
            hip_cpu_emu rocshmem_cpu_emu
            ${ARGN}
    COMMENT "rocshmem-emu-hipcc ${source}"
    VERBATIM)
  add_custom_target(${target} ALL DEPENDS "${output}")
endfunction()

# A C++ host program that launches kernels (hipLaunchKernelGGL / hipModuleLaunchKernel).
function(rocshmem_emu_kernel_host_program name source)
  add_executable(${name} ${source})
  target_include_directories(${name} BEFORE PRIVATE "${ROCSHMEM_EMU_KERNEL_INCLUDE_DIR}")
  target_link_libraries(${name} PRIVATE hip_cpu_emu Threads::Threads)
  target_compile_options(${name} PRIVATE -Wall -Wextra -Wno-attributes -fstack-clash-protection)
endfunction()

add_library(rocshmem_emu_workitem INTERFACE)
target_include_directories(rocshmem_emu_workitem INTERFACE "$<BUILD_INTERFACE:${ROCSHMEM_EMU_KERNEL_INCLUDE_DIR}>")
