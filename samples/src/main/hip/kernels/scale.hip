// A plain kernel (no rocSHMEM call) that a stream runs between host-initiated stream operations.
#include <hip/hip_runtime.h>

// data[i] *= factor for i < n.
extern "C" __global__ void scale(long* data, int n, long factor) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    data[i] *= factor;
  }
}
