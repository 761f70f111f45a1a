// A device-side allreduce: one work-group per PE sums n ints over ROCSHMEM_TEAM_WORLD.
#include <hip/hip_runtime.h>
#include <rocshmem/rocshmem.hpp>

using namespace rocshmem;

// dest, source: n ints each (symmetric). Every PE's dest becomes the element-wise sum of all PEs' source.
extern "C" __global__ void allreduce(int* dest, const int* source, int n) {
  rocshmem_wg_init();
  rocshmem_ctx_int_sum_reduce_wg(ROCSHMEM_CTX_DEFAULT, ROCSHMEM_TEAM_WORLD, dest, source, n);
  rocshmem_wg_finalize();
}
