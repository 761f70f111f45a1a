// Schedule fuzzing inside a PE (ROCSHMEM_EMU_KERNEL_SCHEDULE=random): a work-item puts data to its
// own PE, raises a flag with an atomic and only then quiets. Another block of the same PE that
// sees the flag reads the data: before the quiet it may still be in flight, as on a GPU where the
// other wavefronts run meanwhile. The engine switches work-items at the end of rocSHMEM calls in a
// seeded order, so the reader falls into that window in some rounds; with the quiet (or a fence)
// before the flag it never sees stale data. Usage: emu_test_device_schedule_fuzz <expect>, where
// <expect> is `window` (the missing ordering must show in some round) or `hidden` (fifo: the
// deterministic order never switches there).
#include "device/device_test.hpp"

#include <cstring>

using namespace rocshmem;
using device_test::device_alloc;
using device_test::symmetric_alloc;

namespace {

constexpr int kRounds = 200;
enum Order { flag_then_quiet = 0, quiet_then_flag = 1, fence_then_flag = 2 };

__global__ void flag_and_data(int* data, int* flags, int* stale, int order, int me) {
  if (blockIdx.x == 0) {  // the writer
    for (int r = 0; r < kRounds; ++r) {
      rocshmem_int_p(&data[r], r + 1, me);
      if (order == quiet_then_flag) rocshmem_quiet();
      if (order == fence_then_flag) rocshmem_fence();
      rocshmem_int_atomic_set(&flags[r], 1, me);
      if (order == flag_then_quiet) rocshmem_quiet();
    }
    return;
  }
  for (int r = 0; r < kRounds; ++r) {  // the reader, on the same PE
    while (rocshmem_int_atomic_fetch(&flags[r], me) == 0) {
    }
    if (__hip_atomic_load(&data[r], __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_AGENT) != r + 1) atomicAdd(stale, 1);
  }
}

int run(int order, int launches) {
  int total = 0;
  for (int l = 0; l < launches; ++l) {
    auto* data = symmetric_alloc<int>(kRounds);
    auto* flags = symmetric_alloc<int>(kRounds);
    int* stale = device_alloc<int>(1);
    DEVICE_LAUNCH_AND_SYNC(flag_and_data, dim3(2), dim3(1), data, flags, stale, order, rocshmem_my_pe());
    total += *stale;
    HIP_CHECK(hipFree(stale));
    rocshmem_free(flags);
    rocshmem_free(data);
  }
  return total;
}

}  // namespace

int main(int argc, char** argv) {
  const bool expect_window = argc > 1 && strcmp(argv[1], "window") == 0;
  const int me = emu_test::init();
  const int launches = 5;
  const int unordered = run(flag_then_quiet, launches);
  const int quieted = run(quiet_then_flag, launches);
  const int fenced = run(fence_then_flag, launches);
  printf("PE %d: stale reads in %d rounds: flag before quiet %d, quiet before flag %d, fence before flag %d\n", me,
         launches * kRounds, unordered, quieted, fenced);
  EMU_CHECK_EQ(quieted, 0, "quiet before the flag: the reader never sees stale data");
  EMU_CHECK_EQ(fenced, 0, "fence before the flag: the reader never sees stale data");
  if (expect_window) {
    EMU_CHECK(unordered > 0, "the random schedule never let the reader in between the flag and the quiet");
  } else {
    EMU_CHECK_EQ(unordered, 0, "the fifo schedule switched between two calls that do not block");
  }
  rocshmem_finalize();
  return 0;
}
