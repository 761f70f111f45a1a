// Kernels loaded through the module API by kernel_engine_test (compiled by rocshmem-emu-hipcc).
#include <hip/hip_runtime.h>

__device__ int module_counter;  // hipModuleGetGlobal

extern "C" __global__ void fill_ids(unsigned* out, int bias) {
  unsigned flat = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  unsigned block = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  out[block * blockDim.x * blockDim.y * blockDim.z + flat] = block * 10000 + flat + bias;
}

// Reverses each block's slice through dynamic shared memory (sized at launch).
extern "C" __global__ void reverse_blocks(int* data) {
  extern __shared__ int slice[];
  const unsigned t = threadIdx.x, base = blockIdx.x * blockDim.x;
  slice[t] = data[base + t];
  __syncthreads();
  data[base + t] = slice[blockDim.x - 1 - t];
}

// Static shared memory per block: the block's sum, by a tree reduction.
extern "C" __global__ void block_sums(const int* in, long long* sums) {
  __shared__ long long partial[256];
  const unsigned t = threadIdx.x;
  partial[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (t < stride) partial[t] += partial[t + stride];
    __syncthreads();
  }
  if (t == 0) sums[blockIdx.x] = partial[0];
}

extern "C" __global__ void bump_counter() { atomicAdd(&module_counter, 1); }

namespace demo {
// A C++ kernel: hipModuleGetFunction takes its mangled name.
__global__ void scale(float* x, float factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= factor;
}
}  // namespace demo

// A template kernel instantiated in the code object (found by its mangled name).
template <class T>
__global__ void fill_value(T* out, T value) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = value;
}
template __global__ void fill_value<double>(double*, double);

// A struct passed by value (16 bytes, 8-aligned) between a 1-byte and a pointer parameter.
struct Pair {
  int count;
  double scale;
};
extern "C" __global__ void takes_struct(Pair pair, char offset, double* out) {
  out[threadIdx.x] = pair.scale * (pair.count + offset + static_cast<int>(threadIdx.x));
}
