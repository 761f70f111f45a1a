// GPU-initiated ring: every work-item puts one int into the next PE's inbox (rocshmem_int_p).
#include <hip/hip_runtime.h>
#include <rocshmem/rocshmem.hpp>

using namespace rocshmem;

// inbox[i] on the next PE becomes my_pe * 1000 + i, for every work-item i of the grid.
extern "C" __global__ void ring(int* inbox) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const int me = rocshmem_my_pe();
  const int next = (me + 1) % rocshmem_n_pes();
  rocshmem_int_p(&inbox[i], me * 1000 + i, next);
  __syncthreads();
  if (threadIdx.x == 0) {
    rocshmem_quiet();  // the block's puts are complete when the kernel ends
  }
}
