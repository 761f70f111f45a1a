// Compiled with --offload-arch=gfx1100 (a wave32 target) by ctest kernel_target_wave32.
#include <hip/hip_runtime.h>

extern "C" __global__ void report_wave(int* out) {
  const unsigned long long lanes = __ballot(1);
  if (threadIdx.x == 0) {
    out[0] = warpSize;
    out[1] = __AMDGCN_WAVEFRONT_SIZE;
    out[2] = __popcll(lanes);
  }
}
