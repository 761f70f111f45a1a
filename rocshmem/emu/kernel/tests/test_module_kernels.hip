// Kernels loaded through the module API by kernel_engine_test (compiled by rocshmem-emu-hipcc).
#include <hip/hip_runtime.h>

extern "C" __global__ void fill_ids(unsigned* out, int bias) {
  unsigned flat = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  unsigned block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  out[block * blockDim.x * blockDim.y * blockDim.z + flat] = block * 10000 + flat + bias;
}
