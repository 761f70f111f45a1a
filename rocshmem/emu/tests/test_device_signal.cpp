// A _wg put-with-signal pipeline across blocks and PEs: in every round, block b of each PE sends
// its chunk to block b of the right neighbour with one put_signal_wg call (blocking and nbi, typed
// and mem forms alternate), the receiving block waits on its signal with wait_until /
// signal_wait_until, checks every element, and acks to the sender before the next round may
// overwrite the chunk.
#include "device/device_test.hpp"

#include <string>

using namespace rocshmem;
using device_test::device_alloc;
using device_test::symmetric_alloc;

namespace {

constexpr int kBlocks = 4, kThreads = 64, kChunk = 300, kRounds = 6;

__host__ __device__ int value(int pe, int block, int round, int i) { return ((pe * 8 + block) * 16 + round) * 1000 + i; }

__global__ void pipeline(int* inbox, int* outbox, uint64_t* sig, uint64_t* ack, int* errors, uint64_t* seen_sig,
                         int right, int left, int me) {
  const int b = blockIdx.x;
  int* chunk = inbox + b * kChunk;
  int* mine = outbox + b * kChunk;
  for (int r = 1; r <= kRounds; ++r) {
    for (int i = threadIdx.x; i < kChunk; i += blockDim.x) mine[i] = value(me, b, r, i);
    __syncthreads();
    switch (r % 4) {
      case 0: rocshmem_ctx_int_put_signal_wg(ROCSHMEM_CTX_DEFAULT, chunk, mine, kChunk, &sig[b], 1, ROCSHMEM_SIGNAL_ADD, right); break;
      case 1: rocshmem_putmem_signal_wg(chunk, mine, kChunk * sizeof(int), &sig[b], r, ROCSHMEM_SIGNAL_SET, right); break;
      case 2: rocshmem_int_put_signal_nbi_wg(chunk, mine, kChunk, &sig[b], 1, ROCSHMEM_SIGNAL_ADD, right); break;
      case 3: rocshmem_ctx_putmem_signal_nbi_wg(ROCSHMEM_CTX_DEFAULT, chunk, mine, kChunk * sizeof(int), &sig[b], r, ROCSHMEM_SIGNAL_SET, right); break;
    }
    rocshmem_quiet();
    // The left neighbour's chunk for round r: every work-item waits on the signal itself.
    if (r % 2)
      rocshmem_uint64_wait_until(&sig[b], ROCSHMEM_CMP_GE, uint64_t(r));
    else
      (void)rocshmem_signal_wait_until(&sig[b], ROCSHMEM_CMP_GE, uint64_t(r));
    for (int i = threadIdx.x; i < kChunk; i += blockDim.x)
      if (chunk[i] != value(left, b, r, i)) atomicAdd(errors, 1);
    const uint64_t s = rocshmem_signal_fetch_wg(&sig[b]);  // every work-item gets the leader's value
    if (s != uint64_t(r)) atomicAdd(errors, 1000);
    seen_sig[b * kThreads + threadIdx.x] = s;
    __syncthreads();
    if (threadIdx.x == 0) rocshmem_uint64_atomic_add(&ack[b], 1, left);
    if (threadIdx.x == 0) rocshmem_uint64_wait_until(&ack[b], ROCSHMEM_CMP_GE, uint64_t(r));
    __syncthreads();
  }
}

}  // namespace

int main() {
  auto [me, npes, right, left] = emu_test::init_ring();
  (void)npes;
  int* inbox = symmetric_alloc<int>(kBlocks * kChunk);
  int* outbox = symmetric_alloc<int>(kBlocks * kChunk);
  auto* sig = symmetric_alloc<uint64_t>(kBlocks);
  auto* ack = symmetric_alloc<uint64_t>(kBlocks);
  int* errors = device_alloc<int>(1);
  auto* seen = device_alloc<uint64_t>(kBlocks * kThreads);
  rocshmem_barrier_all();
  DEVICE_LAUNCH_AND_SYNC(pipeline, dim3(kBlocks), dim3(kThreads), inbox, outbox, sig, ack, errors, seen, right, left,
                         me);
  EMU_CHECK_EQ(*errors, 0, "mismatching elements (1000 per wrong signal value) seen by the receiving blocks");
  for (int b = 0; b < kBlocks; ++b) {
    EMU_CHECK_EQ(sig[b], uint64_t(kRounds), "final signal of block " + std::to_string(b));
    EMU_CHECK_EQ(ack[b], uint64_t(kRounds), "acks of block " + std::to_string(b));
    for (int i = 0; i < kChunk; ++i)
      EMU_CHECK_EQ(inbox[b * kChunk + i], value(left, b, kRounds, i), "last chunk of block " + std::to_string(b));
    for (int t = 0; t < kThreads; ++t)
      EMU_CHECK_EQ(seen[b * kThreads + t], uint64_t(kRounds), "signal_fetch_wg result of work-item " + std::to_string(t));
  }
  emu_test::passed("_wg put_signal pipeline across blocks and PEs");
  HIP_CHECK(hipFree(seen));
  HIP_CHECK(hipFree(errors));
  rocshmem_free(ack);
  rocshmem_free(sig);
  rocshmem_free(outbox);
  rocshmem_free(inbox);
  rocshmem_finalize();
  return 0;
}
