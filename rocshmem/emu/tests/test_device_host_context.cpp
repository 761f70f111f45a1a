// A host context (rocshmem_ctx_create) lives in host memory, which device code on a GPU cannot read:
// a kernel that communicates through one must end the job with a message naming the call, where a
// GPU would read garbage. A kernel on ROCSHMEM_CTX_DEFAULT, or on a context it made itself, runs.
#include "device/device_test.hpp"

using namespace rocshmem;
using device_test::symmetric_alloc;

namespace {

__global__ void put_through(rocshmem_ctx_t ctx, int* dst, int value, int pe) {
  if (threadIdx.x == 0) {
    rocshmem_ctx_int_p(ctx, dst, value, pe);
    rocshmem_ctx_quiet(ctx);
  }
}

}  // namespace

int main() {
  emu_test::init();
  const int me = rocshmem_my_pe(), n = rocshmem_n_pes();
  int* dst = symmetric_alloc<int>(1);
  *dst = -1;
  rocshmem_barrier_all();
  DEVICE_LAUNCH_AND_SYNC(put_through, dim3(1), dim3(64), ROCSHMEM_CTX_DEFAULT, dst, me, (me + 1) % n);
  rocshmem_barrier_all();
  EMU_CHECK_EQ(*dst, (me + n - 1) % n, "put through ROCSHMEM_CTX_DEFAULT");
  emu_test::passed("a kernel on the default context");
  rocshmem_ctx_t host_ctx;
  EMU_CHECK_EQ(rocshmem_ctx_create(0, &host_ctx), 0, "rocshmem_ctx_create");
  DEVICE_LAUNCH_AND_SYNC(put_through, dim3(1), dim3(64), host_ctx, dst, me, (me + 1) % n);
  emu_test::passed("unreachable: a kernel used a host context");
  rocshmem_finalize();
  return 0;
}
