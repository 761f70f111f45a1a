// Must not compile: no kernel named `fill` takes three arguments (HIP's launch is a call, and this
// call has no viable kernel). The emulator's hipLaunchKernelGGL says so in a static assertion.
#include <hip/hip_runtime.h>

__global__ void fill(int* out, int value) { out[hipThreadIdx_x] = value; }
__global__ void fill(float* out, float value) { out[hipThreadIdx_x] = value; }

void launch(int* out) { hipLaunchKernelGGL(fill, 1, 32, 0, 0, out, 1, 2); }
