// Kernels of the real-GPU cross-check (dev/check-on-nvidia.sh), beside the samples' and the
// emulator tests' kernels. Plain HIP + rocSHMEM device API: they compile for the emulator and,
// through dev/nvidia/, for an NVIDIA GPU. The `xc_bug_*` kernels are wrong on purpose; each comment
// says what a GPU does with it. The host side (crosscheck.cpp) checks every result.
#include <hip/hip_runtime.h>
#include <rocshmem/rocshmem.hpp>

using namespace rocshmem;

// ---- correct kernels ----------------------------------------------------------------------------

// Every work-item puts 4 ints to the right neighbour (nbi), then completes its puts.
extern "C" __global__ void xc_put_nbi_quiet(int* dst, const int* src, int right) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  rocshmem_int_put_nbi(dst + 4 * i, src + 4 * i, 4, right);
  rocshmem_quiet();
}

// Every work-item reads its element of the right neighbour's src (g), a block reads a range (getmem).
extern "C" __global__ void xc_get(int* out, int* bulk, const int* src, int right, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = rocshmem_int_g(src + i, right);
  if (threadIdx.x == 0 && blockIdx.x == 0) rocshmem_getmem(bulk, src, n * sizeof(int), right);
}

// Each wave puts its own warpSize-element slice (portable to 32- and 64-lane waves).
extern "C" __global__ void xc_putmem_wave(int* dst, const int* src, int right) {
  const int wave = threadIdx.x / warpSize;
  rocshmem_putmem_wave(dst + wave * warpSize, src + wave * warpSize, warpSize * sizeof(int), right);
  rocshmem_quiet();
}

// Every work-item of every PE takes a ticket from PE 0's counter.
extern "C" __global__ void xc_fetch_add(long* counter, long* tickets) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  tickets[i] = rocshmem_long_atomic_fetch_add(counter, 1, 0);
}

// Each PE claims one of PE 0's slots (initially -1) with compare-and-swap.
extern "C" __global__ void xc_compare_swap(int* slots, int npes) {
  if (threadIdx.x != 0) return;
  const int me = rocshmem_my_pe();
  for (int s = 0; s < npes; ++s) {
    if (rocshmem_int_atomic_compare_swap(slots + s, -1, me, 0) == -1) break;
  }
  rocshmem_quiet();
}

// rocshmem_int_test with every comparison against 4, 5 and 6 when *ivar == 5 (GE and LE differ
// from NVSHMEM's numbering, so a header that passes the values through fails here).
extern "C" __global__ void xc_cmp_constants(int* ivar, int* results) {
  if (threadIdx.x != 0) return;
  const int cmps[6] = {ROCSHMEM_CMP_EQ, ROCSHMEM_CMP_NE, ROCSHMEM_CMP_GT,
                       ROCSHMEM_CMP_GE, ROCSHMEM_CMP_LT, ROCSHMEM_CMP_LE};
  for (int c = 0; c < 6; ++c) {
    for (int v = 0; v < 3; ++v) results[3 * c + v] = rocshmem_int_test(ivar, cmps[c], 4 + v) != 0;
  }
  rocshmem_int_wait_until(ivar, ROCSHMEM_CMP_GE, 5);
  rocshmem_int_wait_until(ivar, ROCSHMEM_CMP_LE, 5);
  results[18] = 1;  // both waits returned
}

// A block puts data with a SET signal to the right; then waits for its own signal from the left.
extern "C" __global__ void xc_signal_set(int* dst, const int* src, uint64_t* sig, int* seen, int n) {
  const int me = rocshmem_my_pe(), npes = rocshmem_n_pes();
  const int right = (me + 1) % npes, left = (me + npes - 1) % npes;
  rocshmem_putmem_signal_wg(dst, src, n * sizeof(int), sig, me + 1, ROCSHMEM_SIGNAL_SET, right);
  if (threadIdx.x == 0) {
    rocshmem_uint64_wait_until(sig, ROCSHMEM_CMP_EQ, left + 1);
    int ok = 1;
    for (int i = 0; i < n; ++i) ok &= dst[i] == left * 1000 + i;
    *seen = ok;
  }
}

extern "C" __global__ void xc_broadcast(int* dst, const int* src, int n, int root) {
  rocshmem_wg_init();
  rocshmem_ctx_int_broadcast_wg(ROCSHMEM_CTX_DEFAULT, ROCSHMEM_TEAM_WORLD, dst, src, n, root);
  rocshmem_wg_finalize();
}

extern "C" __global__ void xc_fcollect(int* dst, const int* src, int n) {
  rocshmem_wg_init();
  rocshmem_ctx_int_fcollect_wg(ROCSHMEM_CTX_DEFAULT, ROCSHMEM_TEAM_WORLD, dst, src, n);
  rocshmem_wg_finalize();
}

extern "C" __global__ void xc_alltoall(int* dst, const int* src, int n) {
  rocshmem_wg_init();
  rocshmem_ctx_int_alltoall_wg(ROCSHMEM_CTX_DEFAULT, ROCSHMEM_TEAM_WORLD, dst, src, n);
  rocshmem_wg_finalize();
}

// Puts, then a block-wide barrier (which completes them), then each work-item checks what the
// left neighbour put here.
extern "C" __global__ void xc_barrier_all_wg(int* dst, int* errors) {
  const int me = rocshmem_my_pe(), npes = rocshmem_n_pes();
  const int right = (me + 1) % npes, left = (me + npes - 1) % npes;
  rocshmem_int_p(dst + threadIdx.x, me * 1000 + threadIdx.x, right);
  rocshmem_barrier_all_wg();
  if (dst[threadIdx.x] != left * 1000 + (int)threadIdx.x) atomicAdd(errors, 1);
}

// The same with quiet + sync_all_wg.
extern "C" __global__ void xc_sync_all_wg(int* dst, int* errors) {
  const int me = rocshmem_my_pe(), npes = rocshmem_n_pes();
  const int right = (me + 1) % npes, left = (me + npes - 1) % npes;
  rocshmem_int_p(dst + threadIdx.x, me * 7 + threadIdx.x, right);
  rocshmem_quiet();
  rocshmem_sync_all_wg();
  if (dst[threadIdx.x] != left * 7 + (int)threadIdx.x) atomicAdd(errors, 1);
}

extern "C" __global__ void xc_reductions(long* lmax, const long* lsrc, float* fsum, const float* fsrc, int n) {
  rocshmem_wg_init();
  rocshmem_ctx_long_max_reduce_wg(ROCSHMEM_CTX_DEFAULT, ROCSHMEM_TEAM_WORLD, lmax, lsrc, n);
  rocshmem_ctx_float_sum_reduce_wg(ROCSHMEM_CTX_DEFAULT, ROCSHMEM_TEAM_WORLD, fsum, fsrc, n);
  rocshmem_wg_finalize();
}

// Data, fence, flag to the right; then wait for the left's flag and check its data.
extern "C" __global__ void xc_fence_flag(int* data, const int* src, int* flag, int* seen, int n) {
  if (threadIdx.x != 0) return;
  const int me = rocshmem_my_pe(), npes = rocshmem_n_pes();
  const int right = (me + 1) % npes, left = (me + npes - 1) % npes;
  rocshmem_putmem_nbi(data, src, n * sizeof(int), right);
  rocshmem_fence();
  rocshmem_int_p(flag, 1, right);
  rocshmem_int_wait_until(flag, ROCSHMEM_CMP_EQ, 1);
  int ok = 1;
  for (int i = 0; i < n; ++i) ok &= data[i] == left * 1000 + i;
  *seen = ok;
  rocshmem_quiet();
}

// Correct GPU code: block 0 spins on an atomic flag that block 1 sets (blocks are co-resident).
// The spin is bounded so that a scheduler that never runs block 1 gives a verdict, not a hang.
extern "C" __global__ void xc_inter_block_flag(int* flag, int* data, int* seen) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 1) {
    *data = 42;
    __threadfence();
    atomicExch(flag, 1);
  } else {
    long spins = 0;
    while (atomicAdd(flag, 0) == 0 && spins < (1L << 26)) ++spins;
    __threadfence();
    *seen = atomicAdd(flag, 0) == 1 && *(volatile int*)data == 42;
  }
}

// A per-wave sum with shuffles, written for any wave size.
extern "C" __global__ void xc_wave_reduce(const int* in, int* total) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int offset = warpSize / 2; offset > 0; offset /= 2) v += __shfl_down(v, offset);
  if (threadIdx.x % warpSize == 0) atomicAdd(total, v);
}

// A ballot counted per wave, for any wave size.
extern "C" __global__ void xc_ballot(int* count) {
  const unsigned long long votes = __ballot(threadIdx.x % 3 == 0);
  if (threadIdx.x % warpSize == 0) atomicAdd(count, __popcll(votes));
}

// ---- deliberately buggy kernels -------------------------------------------------------------------

// Assumes 64-lane waves: offsets from 32, one leader per 64 work-items. Right with 64 lanes only.
extern "C" __global__ void xc_bug_wave64_reduce(const int* in, int* total) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  for (int offset = 32; offset > 0; offset /= 2) v += __shfl_down(v, offset);
  if (threadIdx.x % 64 == 0) atomicAdd(total, v);
}

// Assumes 64-lane waves: one _wave put with signal per 64 elements; the receiver expects
// blockDim / 64 signal increments. With 32 lanes every slice is sent twice and the count doubles.
extern "C" __global__ void xc_bug_wave64_signal(int* dst, const int* src, uint64_t* sig, int right) {
  const int slice = threadIdx.x / 64;
  rocshmem_putmem_signal_wave(dst + slice * 64, src + slice * 64, 64 * sizeof(int), sig, 1, ROCSHMEM_SIGNAL_ADD,
                              right);
  rocshmem_quiet();
}

// A _wg call made by half of the block (a GPU leaves half the data unsent or hangs).
extern "C" __global__ void xc_bug_half_block_wg(int* dst, const int* src, int n, int right) {
  if (threadIdx.x < blockDim.x / 2) rocshmem_putmem_wg(dst, src, n * sizeof(int), right);
  if (threadIdx.x == 0) rocshmem_quiet();
}

// Reuses the source of an nbi put before quiet (OpenSHMEM: undefined; a GPU's P2P put may have
// copied already).
extern "C" __global__ void xc_bug_nbi_reuse(int* dst, int* src, int n, int right) {
  if (threadIdx.x != 0) return;
  rocshmem_putmem_nbi(dst, src, n * sizeof(int), right);
  for (int i = 0; i < n; ++i) src[i] = -1;
  rocshmem_quiet();
}

// Data then flag with no fence: OpenSHMEM does not order them (a network backend may reorder).
extern "C" __global__ void xc_bug_missing_fence(int* data, const int* src, int* flag, int* seen, int n) {
  if (threadIdx.x != 0) return;
  const int me = rocshmem_my_pe(), npes = rocshmem_n_pes();
  const int right = (me + 1) % npes, left = (me + npes - 1) % npes;
  rocshmem_putmem_nbi(data, src, n * sizeof(int), right);
  rocshmem_int_p(flag, 1, right);
  rocshmem_int_wait_until(flag, ROCSHMEM_CMP_EQ, 1);
  int ok = 1;
  for (int i = 0; i < n; ++i) ok &= data[i] == left * 1000 + i;
  *seen = ok;
  rocshmem_quiet();
}

// A read-modify-write of PE 0's counter by g + p instead of an atomic: updates are lost.
extern "C" __global__ void xc_bug_lost_update(int* counter) {
  const int v = rocshmem_int_g(counter, 0);
  rocshmem_int_p(counter, v + 1, 0);
  rocshmem_quiet();
}
