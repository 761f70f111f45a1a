// Device contexts follow rocSHMEM's limit, not the host one: with ROCSHMEM_MAX_NUM_CONTEXTS=2 the
// third rocshmem_wg_ctx_create of a kernel returns non-zero and leaves the context null, a destroyed
// context frees its slot for the next kernel, and device contexts take no host context slot
// (ROCSHMEM_MAX_NUM_HOST_CONTEXTS=2: one host context beside the library's default still works).
#include "device/device_test.hpp"

#include <cstdlib>

using namespace rocshmem;
using device_test::device_alloc;

namespace {

constexpr int kThreads = 64;
constexpr int kTries = 3;

struct Created {
  int status[kTries];
  int null_ctx[kTries];
  int every_item_agrees;
};

__global__ void create_contexts(Created* out, int destroy) {
  __shared__ rocshmem_ctx_t ctx[kTries];
  int status[kTries];
  for (int i = 0; i < kTries; ++i) status[i] = rocshmem_wg_ctx_create(0, &ctx[i]);
  if (threadIdx.x == 0) {
    for (int i = 0; i < kTries; ++i) {
      out->status[i] = status[i];
      out->null_ctx[i] = ctx[i].ctx_opaque == nullptr;
    }
    out->every_item_agrees = 1;
  }
  __syncthreads();
  for (int i = 0; i < kTries; ++i)
    if (status[i] != out->status[i]) atomicExch(&out->every_item_agrees, 0);
  if (destroy)
    for (int i = 0; i < kTries; ++i)
      if (status[i] == 0) rocshmem_wg_ctx_destroy(&ctx[i]);
}

void run(Created* out, int destroy, const char* label) {
  HIP_CHECK(hipMemset(out, 0, sizeof(Created)));
  DEVICE_LAUNCH_AND_SYNC(create_contexts, dim3(1), dim3(kThreads), out, destroy);
  std::string what = label;
  EMU_CHECK_EQ(out->status[0], 0, what + ": first device context");
  EMU_CHECK_EQ(out->status[1], 0, what + ": second device context");
  EMU_CHECK(out->status[2] != 0, what + ": a third device context past ROCSHMEM_MAX_NUM_CONTEXTS=2 must fail");
  EMU_CHECK_EQ(out->null_ctx[2], 1, what + ": the refused context stays null");
  EMU_CHECK_EQ(out->null_ctx[0] + out->null_ctx[1], 0, what + ": the created contexts are not null");
  EMU_CHECK_EQ(out->every_item_agrees, 1, what + ": every work-item got the leader's status");
}

}  // namespace

int main() {
  setenv("ROCSHMEM_MAX_NUM_CONTEXTS", "2", 1);
  setenv("ROCSHMEM_MAX_NUM_HOST_CONTEXTS", "2", 1);
  emu_test::init();
  Created* out = device_alloc<Created>(1);
  run(out, /*destroy=*/1, "first kernel");
  run(out, /*destroy=*/1, "second kernel (the slots were freed)");
  // Device contexts took no host slot: one host context beside the default one is allowed, a second is not.
  rocshmem_ctx_t host_ctx, second;
  EMU_CHECK_EQ(rocshmem_ctx_create(0, &host_ctx), 0, "one host context with ROCSHMEM_MAX_NUM_HOST_CONTEXTS=2");
  EMU_CHECK(rocshmem_ctx_create(0, &second) != 0, "a second host context is past the limit");
  rocshmem_ctx_destroy(host_ctx);
  HIP_CHECK(hipFree(out));
  rocshmem_finalize();
  emu_test::passed("device context limit");
  return 0;
}
