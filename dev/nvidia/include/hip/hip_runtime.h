// hip/hip_runtime.h for the real-GPU cross-check on NVIDIA (dev/check-on-nvidia.sh): the part of
// HIP's runtime and kernel language that the project's kernels and the cross-check driver use,
// mapped onto CUDA (nvcc -x cu). Not HIP's own NVIDIA headers (Debian's are HIP 5.2 and need
// texture APIs that CUDA 12+ removed). A CUDA warp has 32 lanes: warpSize is 32 here.
#ifndef XC_NVIDIA_HIP_RUNTIME_H
#define XC_NVIDIA_HIP_RUNTIME_H

#include <cuda_runtime.h>

#include <cstdint>

// ---- runtime ------------------------------------------------------------------------------------
typedef cudaError_t hipError_t;
typedef cudaStream_t hipStream_t;
#define hipSuccess cudaSuccess
#define hipMemcpyHostToDevice cudaMemcpyHostToDevice
#define hipMemcpyDeviceToHost cudaMemcpyDeviceToHost
#define hipMemcpyDeviceToDevice cudaMemcpyDeviceToDevice
#define hipMalloc cudaMalloc
#define hipFree cudaFree
#define hipMemcpy cudaMemcpy
#define hipMemset cudaMemset
#define hipDeviceSynchronize cudaDeviceSynchronize
#define hipGetLastError cudaGetLastError
#define hipGetErrorString cudaGetErrorString
#define hipGetErrorName cudaGetErrorName
#define hipSetDevice cudaSetDevice
#define hipGetDevice cudaGetDevice
#define hipStreamSynchronize cudaStreamSynchronize

// ---- kernel language ----------------------------------------------------------------------------
#define hipThreadIdx_x (threadIdx.x)
#define hipThreadIdx_y (threadIdx.y)
#define hipThreadIdx_z (threadIdx.z)
#define hipBlockIdx_x (blockIdx.x)
#define hipBlockIdx_y (blockIdx.y)
#define hipBlockIdx_z (blockIdx.z)
#define hipBlockDim_x (blockDim.x)
#define hipBlockDim_y (blockDim.y)
#define hipBlockDim_z (blockDim.z)
#define hipGridDim_x (gridDim.x)
#define hipGridDim_y (gridDim.y)
#define hipGridDim_z (gridDim.z)
#define HIP_KERNEL_NAME(...) __VA_ARGS__

// HIP's unmasked wave functions: every lane of the (32-lane) warp takes part.
template <class T>
__device__ inline T __shfl(T var, int src_lane, int width = warpSize) {
  return __shfl_sync(0xffffffffu, var, src_lane, width);
}
template <class T>
__device__ inline T __shfl_up(T var, unsigned int delta, int width = warpSize) {
  return __shfl_up_sync(0xffffffffu, var, delta, width);
}
template <class T>
__device__ inline T __shfl_down(T var, unsigned int delta, int width = warpSize) {
  return __shfl_down_sync(0xffffffffu, var, delta, width);
}
template <class T>
__device__ inline T __shfl_xor(T var, int mask, int width = warpSize) {
  return __shfl_xor_sync(0xffffffffu, var, mask, width);
}
// (a macro: CUDA still declares a legacy __ballot with a 32-bit result; __any/__all are not
// mapped, libcu++ uses those names itself)
#define __ballot(predicate) (static_cast<unsigned long long>(__ballot_sync(0xffffffffu, (predicate))))
__device__ inline long long wall_clock64() { return static_cast<long long>(clock64()); }

// hipLaunchKernelGGL is HIP's <<<...>>> launch.
#define hipLaunchKernelGGL(kernel, grid, block, shared, stream, ...) \
  do {                                                               \
    (kernel)<<<(grid), (block), (shared), (stream)>>>(__VA_ARGS__);  \
  } while (0)

#endif  // XC_NVIDIA_HIP_RUNTIME_H
