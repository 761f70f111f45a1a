// Compiled by the ctest kernel_unsupported_is_a_compile_error: must fail, naming the function.
#include <hip/hip_runtime.h>

extern "C" __global__ void count_votes(int* out) { out[0] = __syncthreads_count(threadIdx.x & 1); }
