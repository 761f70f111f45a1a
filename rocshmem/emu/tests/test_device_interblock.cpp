// Inter-block patterns that are correct on a GPU and use no emulator call: blocks of one kernel
// wait for each other through HIP atomics, atomic loads and fences only (the kernel engine makes
// those scheduling points once a work-item repeats them without progress). Each pattern ends
// with rocSHMEM device RMA to the next PE, so what every PE receives checks the pattern:
//  - producer/consumer: block 1 fills a buffer and raises a flag; block 0 spins on the flag
//    (__hip_atomic_load) and forwards the buffer;
//  - split-K: every block writes its partial sum, fences and takes a ticket; the last block
//    reduces the partials and puts the total;
//  - work queue: block 0 enqueues items one by one (atomic tail); the other blocks spin on the
//    queue (atomicAdd(p, 0)), claim items with atomicCAS and put each result.
#include "device/device_test.hpp"

#include <vector>

using namespace rocshmem;
using device_test::device_alloc;
using device_test::symmetric_alloc;

namespace {

constexpr int kItems = 96, kBlocks = 4, kThreads = 64;

__global__ void producer_consumer(int* buffer, int* flag, int* inbox, int next, int me) {
  if (blockIdx.x == 1) {
    buffer[threadIdx.x] = me * 1000 + static_cast<int>(threadIdx.x);
    __syncthreads();
    if (threadIdx.x == 0) {
      __threadfence();
      __hip_atomic_store(flag, 1, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_AGENT);
    }
    return;
  }
  if (threadIdx.x == 0) {
    while (__hip_atomic_load(flag, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_AGENT) == 0) {
    }
  }
  __syncthreads();
  rocshmem_int_p(&inbox[threadIdx.x], buffer[threadIdx.x], next);
  rocshmem_quiet();
}

__global__ void split_k(const int* values, long* partials, unsigned* tickets, long* total, int next) {
  __shared__ long block_sum;
  if (threadIdx.x == 0) block_sum = 0;
  __syncthreads();
  atomicAdd(reinterpret_cast<unsigned long long*>(&block_sum),
            static_cast<unsigned long long>(values[blockIdx.x * blockDim.x + threadIdx.x]));
  __syncthreads();
  if (threadIdx.x != 0) return;
  partials[blockIdx.x] = block_sum;
  __threadfence();
  if (atomicInc(tickets, gridDim.x - 1) != gridDim.x - 1) return;  // not the last block
  long sum = 0;
  for (unsigned b = 0; b < gridDim.x; ++b) sum += __hip_atomic_load(&partials[b], __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
  rocshmem_long_p(total, sum, next);
  rocshmem_quiet();
}

__global__ void work_queue(int* items, unsigned* tail, unsigned* head, int* results, int next, int me) {
  if (blockIdx.x == 0) {  // the producer, one item at a time
    if (threadIdx.x != 0) return;
    for (unsigned i = 0; i < kItems; ++i) {
      items[i] = me * 10000 + static_cast<int>(i) * 3;
      __threadfence();
      atomicAdd(tail, 1u);
    }
    return;
  }
  for (;;) {  // consumers: every work-item claims items until all are taken
    unsigned claimed = atomicAdd(head, 0u);
    if (claimed >= kItems) return;
    if (claimed >= atomicAdd(tail, 0u)) continue;  // the queue is empty for now: spin
    if (atomicCAS(head, claimed, claimed + 1) != claimed) continue;
    rocshmem_int_p(&results[claimed], items[claimed] + 1, next);
  }
}

}  // namespace

int main() {
  const int me = emu_test::init();
  const int npes = rocshmem_n_pes();
  const int next = (me + 1) % npes, prev = (me + npes - 1) % npes;

  auto* inbox = symmetric_alloc<int>(kThreads);
  auto* total = symmetric_alloc<long>(1);
  auto* results = symmetric_alloc<int>(kItems);
  rocshmem_barrier_all();

  int* buffer = device_alloc<int>(kThreads);
  int* flag = device_alloc<int>(1);
  DEVICE_LAUNCH_AND_SYNC(producer_consumer, dim3(2), dim3(kThreads), buffer, flag, inbox, next, me);
  for (int t = 0; t < kThreads; ++t) EMU_CHECK_EQ(inbox[t], prev * 1000 + t, "producer/consumer: forwarded buffer");

  int* values = device_alloc<int>(kBlocks * kThreads);
  std::vector<int> host(kBlocks * kThreads);
  long expected = 0;
  for (int i = 0; i < kBlocks * kThreads; ++i) host[i] = (i * 7 + me) % 101, expected += host[i];
  HIP_CHECK(hipMemcpy(values, host.data(), host.size() * sizeof(int), hipMemcpyHostToDevice));
  long* partials = device_alloc<long>(kBlocks);
  unsigned* tickets = device_alloc<unsigned>(1);
  DEVICE_LAUNCH_AND_SYNC(split_k, dim3(kBlocks), dim3(kThreads), values, partials, tickets, total, next);
  long expected_prev = 0;
  for (int i = 0; i < kBlocks * kThreads; ++i) expected_prev += (i * 7 + prev) % 101;
  (void)expected;
  EMU_CHECK_EQ(*total, expected_prev, "split-K: the last block's total");

  int* items = device_alloc<int>(kItems);
  unsigned* tail = device_alloc<unsigned>(1);
  unsigned* head = device_alloc<unsigned>(1);
  DEVICE_LAUNCH_AND_SYNC(work_queue, dim3(kBlocks), dim3(kThreads), items, tail, head, results, next, me);
  for (int i = 0; i < kItems; ++i) EMU_CHECK_EQ(results[i], prev * 10000 + i * 3 + 1, "work queue: item result");
  rocshmem_finalize();
  return 0;
}
