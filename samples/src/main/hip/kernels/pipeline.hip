// A producer/consumer pipeline between PE pairs (0 -> 1, 2 -> 3, ...): the producer's work-group sends each
// chunk with rocshmem_putmem_signal_wg, the consumer's work-group waits for the chunk's signal with a device-side
// wait_until and sums the chunk, while the following chunks are still on their way.
#include <hip/hip_runtime.h>
#include <rocshmem/rocshmem.hpp>

using namespace rocshmem;

// staging: chunks * chunk longs (symmetric), source: the producer's data (symmetric), signal: one uint64_t
// (symmetric, 0 at the start), sums: chunks longs (the consumer's results). One block per PE.
extern "C" __global__ void pipeline(long* staging, const long* source, uint64_t* signal, long* sums, int chunks,
                                    int chunk) {
  rocshmem_wg_init();
  const int me = rocshmem_my_pe();
  const bool producer = me % 2 == 0;
  const int partner = producer ? me + 1 : me - 1;
  for (int c = 0; c < chunks; ++c) {
    long* slot = staging + (long)c * chunk;
    if (producer) {
      rocshmem_putmem_signal_wg(slot, source + (long)c * chunk, chunk * sizeof(long), signal, 1,
                                ROCSHMEM_SIGNAL_ADD, partner);
    } else {
      if (threadIdx.x == 0) {
        rocshmem_uint64_wait_until(signal, ROCSHMEM_CMP_GE, (uint64_t)(c + 1));
      }
      __syncthreads();
      if (threadIdx.x == 0) {
        long sum = 0;
        for (int i = 0; i < chunk; ++i) sum += slot[i];
        sums[c] = sum;
      }
      __syncthreads();
    }
  }
  rocshmem_wg_finalize();
}
