// A second, distinct code object for kernel_two_modules: one process loads it next to
// test_module_kernels.hip, unloads and reloads both.
#include <hip/hip_runtime.h>

extern "C" __global__ void second_module_mark(int* out, int value) {
  out[threadIdx.x] = value + static_cast<int>(threadIdx.x);
}
