// Stream ordering of the *_on_stream calls on the emulated HIP stream:
//  1. hipMemcpyAsync fills a symmetric buffer, putmem_on_stream sends it to the right neighbour,
//     barrier_all_on_stream, hipStreamSynchronize: the neighbour sees the copied data, so the put
//     ran after the copy and the barrier after the put.
//  2. A host function that blocks the stream keeps a later putmem_on_stream from executing: the
//     target is unchanged (and an event behind it is not ready) until the blocker is released.
#include "emu_test.hpp"

#include <unistd.h>

#include <atomic>
#include <cstring>
#include <cstdint>
#include <vector>

using namespace rocshmem;

namespace {

int me, npes, right, left;

#define HIP_CHECK(call) EMU_CHECK_EQ((call), hipSuccess, #call)

uint32_t value(int pe, size_t i, uint32_t round) { return (uint32_t)pe * 0x01000000u + round * 0x10000u + (uint32_t)i; }

void test_copy_then_put_then_barrier() {
  const size_t n = 1 << 18;  // 1 MiB of uint32
  hipStream_t stream;
  HIP_CHECK(hipStreamCreate(&stream));
  auto* staging = static_cast<uint32_t*>(rocshmem_malloc(n * sizeof(uint32_t)));
  auto* inbox = static_cast<uint32_t*>(rocshmem_calloc(n, sizeof(uint32_t)));
  EMU_CHECK(staging && inbox, "rocshmem alloc failed");
  for (uint32_t round = 1; round <= 3; ++round) {
    std::vector<uint32_t> host(n);
    for (size_t i = 0; i < n; ++i) host[i] = value(me, i, round);
    memset(staging, 0, n * sizeof(uint32_t));
    rocshmem_barrier_all();  // nobody still reads last round's inbox
    HIP_CHECK(hipMemcpyAsync(staging, host.data(), n * sizeof(uint32_t), hipMemcpyHostToDevice, stream));
    rocshmem_putmem_on_stream(inbox, staging, n * sizeof(uint32_t), right, stream);
    rocshmem_quiet_on_stream(stream);
    rocshmem_barrier_all_on_stream(stream);
    HIP_CHECK(hipStreamSynchronize(stream));
    for (size_t i = 0; i < n; ++i)
      if (inbox[i] != value(left, i, round))
        EMU_CHECK_EQ(inbox[i], value(left, i, round), "inbox element " + std::to_string(i) + " round " + std::to_string(round));
  }
  // getmem_on_stream reads the right neighbour's staging buffer (last round's data).
  rocshmem_barrier_all();
  std::vector<uint32_t> got(1024, 0);
  rocshmem_getmem_on_stream(got.data(), staging, got.size() * sizeof(uint32_t), right, stream);
  HIP_CHECK(hipStreamSynchronize(stream));
  for (size_t i = 0; i < got.size(); ++i) EMU_CHECK_EQ(got[i], value(right, i, 3), "getmem_on_stream element");
  rocshmem_sync_all_on_stream(stream);
  rocshmem_barrier_on_stream(ROCSHMEM_TEAM_WORLD, stream);
  rocshmem_team_sync_on_stream(ROCSHMEM_TEAM_WORLD, stream);
  HIP_CHECK(hipStreamSynchronize(stream));
  rocshmem_barrier_all();
  HIP_CHECK(hipStreamDestroy(stream));
  rocshmem_free(inbox);
  rocshmem_free(staging);
  emu_test::passed("memcpyAsync -> putmem_on_stream -> barrier_all_on_stream");
}

std::atomic<bool> release_blocker{false};
std::atomic<bool> blocker_running{false};

void blocker(void*) {
  blocker_running = true;
  while (!release_blocker.load()) usleep(1000);
}

void test_host_func_blocks_later_ops() {
  hipStream_t stream;
  HIP_CHECK(hipStreamCreate(&stream));
  hipEvent_t done;
  HIP_CHECK(hipEventCreate(&done));
  auto* target = static_cast<int*>(rocshmem_calloc(16, sizeof(int)));
  auto* src = static_cast<int*>(rocshmem_malloc(16 * sizeof(int)));
  EMU_CHECK(target && src, "rocshmem alloc failed");
  for (int i = 0; i < 16; ++i) src[i] = 500 + me * 16 + i;
  rocshmem_barrier_all();

  HIP_CHECK(hipLaunchHostFunc(stream, blocker, nullptr));
  rocshmem_putmem_on_stream(target, src, 16 * sizeof(int), me, stream);  // to self: checkable locally
  rocshmem_quiet_on_stream(stream);  // a put on a stream completes at a quiet, like any put
  HIP_CHECK(hipEventRecord(done, stream));
  for (int i = 0; i < 200 && !blocker_running; ++i) usleep(1000);
  EMU_CHECK(blocker_running.load(), "host function did not start within 200 ms");
  usleep(50 * 1000);  // give a wrongly eager implementation time to run the put
  EMU_CHECK_EQ(target[0], 0, "putmem_on_stream ran before the stream reached it");
  EMU_CHECK_EQ(hipEventQuery(done), hipErrorNotReady, "event behind the blocker");
  release_blocker = true;
  HIP_CHECK(hipStreamSynchronize(stream));
  EMU_CHECK_EQ(hipEventQuery(done), hipSuccess, "event after synchronize");
  for (int i = 0; i < 16; ++i) EMU_CHECK_EQ(target[i], 500 + me * 16 + i, "putmem_on_stream after release");
  rocshmem_barrier_all();
  HIP_CHECK(hipEventDestroy(done));
  HIP_CHECK(hipStreamDestroy(stream));
  rocshmem_free(src);
  rocshmem_free(target);
  emu_test::passed("host-func blocker holds back putmem_on_stream");
}

}  // namespace

int main() {
  std::tie(me, npes, right, left) = emu_test::init_ring();
  test_copy_then_put_then_barrier();
  test_host_func_blocks_later_ops();
  rocshmem_finalize();
  return 0;
}
