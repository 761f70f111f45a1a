// A host program whose kernel uses extern __shared__: compiled with `rocshmem-emu-hipcc -c`
// (ctest kernel_host_dynamic_shared), launched with hipLaunchKernelGGL.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <vector>

__global__ void pairwise_swap(double* data) {
  extern __shared__ double staged[];
  __shared__ int block_marker;  // static shared memory next to the dynamic buffer
  const unsigned t = threadIdx.x, base = blockIdx.x * blockDim.x;
  if (t == 0) block_marker = static_cast<int>(blockIdx.x);
  staged[t] = data[base + t];
  __syncthreads();
  data[base + t] = staged[t ^ 1] + 1000.0 * block_marker;
}

int main() {
  const int blocks = 5, threads = 128, n = blocks * threads;
  std::vector<double> host(n);
  for (int i = 0; i < n; ++i) host[i] = i;
  double* data = nullptr;
  if (hipMalloc(&data, n * sizeof(double)) != hipSuccess) return 1;
  if (hipMemcpy(data, host.data(), n * sizeof(double), hipMemcpyHostToDevice) != hipSuccess) return 1;
  hipLaunchKernelGGL(pairwise_swap, blocks, threads, threads * sizeof(double), 0, data);
  if (hipGetLastError() != hipSuccess || hipDeviceSynchronize() != hipSuccess) return 1;
  if (hipMemcpy(host.data(), data, n * sizeof(double), hipMemcpyDeviceToHost) != hipSuccess) return 1;
  for (int i = 0; i < n; ++i) {
    const double expected = (i ^ 1) + 1000.0 * (i / threads);
    if (host[i] != expected) {
      fprintf(stderr, "FAIL data[%d] = %g, expected %g\n", i, host[i], expected);
      return 1;
    }
  }
  // More dynamic shared memory than the LDS is refused at launch.
  hipLaunchKernelGGL(pairwise_swap, 1, threads, 65536, 0, data);
  if (hipGetLastError() != hipErrorInvalidValue) return 1;
  printf("PASS host program with extern __shared__\n");
  return 0;
}
