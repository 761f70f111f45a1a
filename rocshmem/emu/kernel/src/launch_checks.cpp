// Launch validation with the error codes of real HIP (ROCclr's launch checks, ROCm 7.2):
//  - a zero grid or block dimension, a block of more than 1024 work-items (or a dimension above
//    maxThreadsDim), or grid * block above 2^32 - 1 in a dimension: hipErrorInvalidConfiguration;
//  - more shared memory (static + dynamic) than the 64 KiB of LDS per block: hipErrorInvalidValue.
#include <cstdio>

#include <hip/hip_runtime_api.h>

#include "hip_emu_kernel.hpp"

namespace hip_emu::kernel {

size_t packed_layout(const KernelInfo& kernel, std::vector<size_t>* offsets) {
  size_t offset = 0;
  offsets->clear();
  for (size_t i = 0; i < kernel.sizes.size(); ++i) {
    const size_t align = kernel.aligns[i] ? kernel.aligns[i] : 1;
    offset = (offset + align - 1) / align * align;
    offsets->push_back(offset);
    offset += kernel.sizes[i];
  }
  return offset;
}

int check_shape(const KernelInfo& kernel, const LaunchShape& shape) {
  const rocshmem_emu_wi_dim_t& g = shape.grid;
  const rocshmem_emu_wi_dim_t& b = shape.block;
  const char* problem = nullptr;
  hipError_t error = hipSuccess;
  if (g.x == 0 || g.y == 0 || g.z == 0 || b.x == 0 || b.y == 0 || b.z == 0) {
    problem = "a grid or block dimension is 0";
    error = hipErrorInvalidConfiguration;
  } else if (b.x > kMaxBlockSize || b.y > kMaxBlockSize || b.z > kMaxBlockSize ||
             uint64_t(b.x) * b.y * b.z > kMaxBlockSize) {
    problem = "the block has more than 1024 work-items";
    error = hipErrorInvalidConfiguration;
  } else if (uint64_t(g.x) * b.x > UINT32_MAX || uint64_t(g.y) * b.y > UINT32_MAX ||
             uint64_t(g.z) * b.z > UINT32_MAX) {
    problem = "grid * block exceeds 2^32 - 1 work-items in a dimension";
    error = hipErrorInvalidConfiguration;
  } else if (shape.dynamic_shared + static_shared_bytes(kernel) > kMaxSharedBytes) {
    problem = "static + dynamic shared memory exceeds the 65536 bytes of LDS per block";
    error = hipErrorInvalidValue;
  }
  if (problem != nullptr) {
    fprintf(stderr,
            "HIP emulator: launch of kernel '%s' refused (%s): grid (%u,%u,%u), block (%u,%u,%u), "
            "%zu bytes of dynamic shared memory: %s\n",
            kernel.name.c_str(), hipGetErrorName(error), g.x, g.y, g.z, b.x, b.y, b.z,
            shape.dynamic_shared, problem);
  }
  return error;
}

}  // namespace hip_emu::kernel
