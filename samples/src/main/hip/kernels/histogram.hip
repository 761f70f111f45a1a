// A histogram of every PE's values in PE 0's bins, built by remote atomic adds from all work-items of all PEs.
#include <hip/hip_runtime.h>
#include <rocshmem/rocshmem.hpp>

using namespace rocshmem;

// bins: nbins ints (symmetric; PE 0's copy is the histogram), values: count ints of this PE (symmetric).
extern "C" __global__ void histogram(int* bins, const int* values, int count, int nbins) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < count; i += gridDim.x * blockDim.x) {
    const int v = values[i];
    if (v >= 0 && v < nbins) {
      rocshmem_int_atomic_add(&bins[v], 1, 0);
    }
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    rocshmem_quiet();
  }
}
