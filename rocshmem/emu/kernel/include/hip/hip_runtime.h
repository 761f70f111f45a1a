// The HIP emulator's hip/hip_runtime.h: what a kernel source (and a host program that launches
// kernels with hipLaunchKernelGGL) includes. It stands in for HIP's own hip_runtime.h, which
// needs a HIP compiler: the host API is the real hip_runtime_api.h (found next on the include
// path), the kernel language is the emulator's (rocshmem_emu_kernel.hpp), and device math comes
// in with <cmath> as with a HIP compiler (rocshmem_emu_device_math.hpp).
#ifndef ROCSHMEM_EMU_HIP_RUNTIME_H
#define ROCSHMEM_EMU_HIP_RUNTIME_H

#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__
#endif

#include <hip/hip_runtime_api.h>

#include "rocshmem_emu_kernel.hpp"
#include "rocshmem_emu_device_math.hpp"

#endif  // ROCSHMEM_EMU_HIP_RUNTIME_H
