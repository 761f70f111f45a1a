// Shared by the device-API tests (test_device_*.cpp): kernels are compiled by the host compiler
// against the emulator's kernel language (rocshmem/emu/kernel/include first on the path) and
// launched with hipLaunchKernelGGL, or loaded from an .emuco with hipModuleLoad.
#pragma once

#include <hip/hip_runtime.h>

#include "emu_test.hpp"

#define HIP_CHECK(call) EMU_CHECK_EQ((call), hipSuccess, #call)

namespace device_test {

// Launches on the null stream, waits for the kernel, then a host barrier so every PE's kernel
// has finished before anybody checks.
#define DEVICE_LAUNCH_AND_SYNC(kernel, grid, block, ...)          \
  do {                                                            \
    hipLaunchKernelGGL(kernel, grid, block, 0, 0, __VA_ARGS__);   \
    HIP_CHECK(hipGetLastError());                                 \
    HIP_CHECK(hipDeviceSynchronize());                            \
    rocshmem::rocshmem_barrier_all();                             \
  } while (0)

template <class T>
T* device_alloc(size_t n) {
  void* p = nullptr;
  HIP_CHECK(hipMalloc(&p, n * sizeof(T)));
  HIP_CHECK(hipMemset(p, 0, n * sizeof(T)));
  return static_cast<T*>(p);
}

template <class T>
T* symmetric_alloc(size_t n) {
  auto* p = static_cast<T*>(rocshmem::rocshmem_calloc(n, sizeof(T)));
  EMU_CHECK(p != nullptr, "rocshmem_calloc failed");
  return p;
}

}  // namespace device_test
