// Kernels of the Java kernel tests: argument packing, device globals, direct stores through a peer address
// table, and a kernel that faults.
#include <hip/hip_runtime.h>

__device__ int launches;

// Writes back every argument as the kernel received it, widened to 64 bits.
extern "C" __global__ void echo(long* out, char a, short b, int c, long d, float e, double f, unsigned char g) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    out[0] = a;
    out[1] = b;
    out[2] = c;
    out[3] = d;
    out[4] = (long)(e * 1000);
    out[5] = (long)(f * 1000);
    out[6] = g;
    out[7] = ++launches;
  }
}

// Direct stores into the next PE's copy through the rocshmem_ptr table (no rocSHMEM call in the kernel).
extern "C" __global__ void store_next(long* const* peers, int me, int npes, int n) {
  long* next = peers[(me + 1) % npes];
  for (int i = threadIdx.x; i < n; i += blockDim.x) {
    next[i] = me * 100 + i;
  }
}

// Dereferences a null pointer in one work-item of block 1.
extern "C" __global__ void faulting(int* out) {
  volatile int* nowhere = nullptr;
  if (blockIdx.x == 1 && threadIdx.x == 3) {
    out[0] = *nowhere;
  }
}
