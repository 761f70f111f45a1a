// A code object written as for hipcc: the old id macros and <cmath> math through hip_runtime.h.
#include <hip/hip_runtime.h>

extern "C" __global__ void norms(const float* xy, float* out, int n) {
  const int k = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x;
  if (k < n) out[k] = min(sqrtf(xy[2 * k] * xy[2 * k] + xy[2 * k + 1] * xy[2 * k + 1]), 8.0f);
}
