// rocshmem-emu-scale: how the emulator's costs grow with the PE count. Every PE runs the same
// sequence; PE 0 reports. Run at 1, 2, 4, 8, 16 PEs (bench/scale.sh does, and writes the table):
//   rocshmem-emu-run -n N -- rocshmem-emu-scale [--quick]
// Rows (every PE active at once, so contention is part of the number):
//   host barrier_all; host rocshmem_long_p rate to the next PE; host long fetch_add, every PE on
//   PE 0's counter; host long sum reduce, broadcast and alltoallmem_on_stream at three sizes each;
//   reduce_scatter and sum_reduce_on_stream at one size; kernel launch + sync (empty 1 x 64);
//   device barrier_all_wg (1 x 64) and, for reference, __syncthreads (1 x 64), device rocshmem_long_p rate (4 x 256 work-items, to the next
//   PE), device sum_reduce_wg of 512 KiB.
// A row's value is the median over trials of PE 0's time per call (or rate). Results are checked
// (sums, blocks, counters); a wrong result makes the exit status 1. --quick: tiny iteration counts
// and sizes capped at 256 KiB (the smoke run of run-tests.sh; timings not meaningful).
// --only PREFIX runs the rows whose function (host_reduce, device_barrier, ...) starts with PREFIX.
// Prints "RESULT scale op=... bytes=... pes=N value=... unit=..." lines for bench/scale.sh.
#include <hip/hip_runtime.h>  // the emulator's: kernels run on the CPU (emu/kernel)
#include <rocshmem/rocshmem.hpp>

#include <time.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

using namespace rocshmem;

namespace {

bool g_quick = false;
const char* g_only = nullptr;  // --only PREFIX: the rows whose function name starts with it

bool want(const char* row) { return !g_only || strncmp(row, g_only, strlen(g_only)) == 0; }
int g_me = 0, g_npes = 1;
int g_failures = 0;

double now_s() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

void fail(const std::string& what) {
  fprintf(stderr, "rocshmem-emu-scale: PE %d: %s\n", g_me, what.c_str());
  ++g_failures;
}

void report(const char* op, size_t bytes, double value, const char* unit) {
  if (g_me != 0) return;
  printf("RESULT scale op=%s bytes=%zu pes=%d value=%.4f unit=%s\n", op, bytes, g_npes, value, unit);
  fflush(stdout);
}

// Median over trials of the seconds per call of `calls` calls of op(), all PEs lined up by a
// barrier before each trial.
template <class Op>
double seconds_per_call(int calls, Op op) {
  const int trials = g_quick ? 2 : 5;
  std::vector<double> per_call;
  op();  // warm-up (first touch of the peers' pages, lazy set-up)
  for (int t = 0; t < trials; ++t) {
    rocshmem_barrier_all();
    const double start = now_s();
    for (int i = 0; i < calls; ++i) op();
    per_call.push_back((now_s() - start) / calls);
  }
  rocshmem_barrier_all();
  return median(per_call);
}

// Calls so that a trial moves about `budget` bytes (at least 3, at most `cap`).
int calls_for(size_t bytes, size_t budget, int cap) {
  if (g_quick) return 2;
  return (int)std::clamp<size_t>(budget / std::max<size_t>(bytes, 1), 3, (size_t)cap);
}

size_t cap_size(size_t bytes) { return g_quick ? std::min(bytes, size_t{256} << 10) : bytes; }

void host_barrier() {
  const int calls = g_quick ? 50 : 2000;
  report("host_barrier_all", 0, seconds_per_call(calls, [] { rocshmem_barrier_all(); }) * 1e6, "us");
}

void host_put_rate() {
  auto* slot = static_cast<long*>(rocshmem_calloc(1, sizeof(long)));
  const int peer = (g_me + 1) % g_npes;
  const int calls = g_quick ? 1000 : 200000;
  long v = 0;
  const double s = seconds_per_call(calls, [&] { rocshmem_long_p(slot, ++v, peer); });
  rocshmem_quiet();
  rocshmem_barrier_all();
  if (*slot <= 0) fail("host long_p: nothing arrived");
  report("host_long_p_rate", 8, 1e-6 / s, "Mops/s");
  rocshmem_free(slot);
}

void host_atomic_contention() {
  auto* counter = static_cast<long*>(rocshmem_calloc(1, sizeof(long)));
  const int calls = g_quick ? 500 : 20000;
  const int trials = g_quick ? 2 : 5;
  const double s = seconds_per_call(calls, [&] { rocshmem_long_atomic_fetch_add(counter, 1, 0); });
  if (g_me == 0 && *counter != long(g_npes) * (long(calls) * trials + 1))
    fail("fetch_add under contention: counter " + std::to_string(*counter) + ", expected " +
         std::to_string(long(g_npes) * (long(calls) * trials + 1)));
  report("host_fetch_add_contended", 8, s * 1e9, "ns");
  rocshmem_barrier_all();
  rocshmem_free(counter);
}

void host_reduce(size_t bytes) {
  bytes = cap_size(bytes);
  const int n = int(bytes / sizeof(long));
  auto* src = static_cast<long*>(rocshmem_malloc(bytes));
  auto* dst = static_cast<long*>(rocshmem_malloc(bytes));
  for (int i = 0; i < n; ++i) src[i] = long(g_me) * 7 + i;
  rocshmem_barrier_all();
  const double s = seconds_per_call(calls_for(bytes, size_t{64} << 20, 2000), [&] {
    rocshmem_ctx_long_sum_reduce(ROCSHMEM_CTX_DEFAULT, ROCSHMEM_TEAM_WORLD, dst, src, n);
  });
  const long pes = g_npes;
  for (int i = 0; i < n; i += std::max(1, n / 97))
    if (dst[i] != 7 * pes * (pes - 1) / 2 + pes * i) {
      fail("sum_reduce of " + std::to_string(bytes) + " B: element " + std::to_string(i) + " is " +
           std::to_string(dst[i]));
      break;
    }
  report("host_sum_reduce", bytes, s * 1e6, "us");
  rocshmem_barrier_all();
  rocshmem_free(dst);
  rocshmem_free(src);
}

void host_reduce_scatter(size_t block_bytes) {
  block_bytes = cap_size(block_bytes);
  const int n = int(block_bytes / sizeof(long));
  auto* src = static_cast<long*>(rocshmem_malloc(block_bytes * g_npes));
  auto* dst = static_cast<long*>(rocshmem_malloc(block_bytes));
  for (long i = 0; i < long(n) * g_npes; ++i) src[i] = long(g_me) + i;
  rocshmem_barrier_all();
  const double s = seconds_per_call(calls_for(block_bytes * g_npes, size_t{64} << 20, 2000), [&] {
    rocshmem_ctx_long_sum_reduce_scatter(ROCSHMEM_CTX_DEFAULT, ROCSHMEM_TEAM_WORLD, dst, src, n);
  });
  const long pes = g_npes;
  const long i = n - 1, global = long(g_me) * n + i;
  if (dst[i] != pes * (pes - 1) / 2 + pes * global) fail("reduce_scatter: wrong last element");
  report("host_sum_reduce_scatter", block_bytes, s * 1e6, "us");
  rocshmem_barrier_all();
  rocshmem_free(dst);
  rocshmem_free(src);
}

void host_broadcast(size_t bytes) {
  bytes = cap_size(bytes);
  const int n = int(bytes / sizeof(long));
  auto* src = static_cast<long*>(rocshmem_malloc(bytes));
  auto* dst = static_cast<long*>(rocshmem_malloc(bytes));
  for (int i = 0; i < n; ++i) src[i] = long(g_me) * 1000 + i;
  rocshmem_barrier_all();
  const double s = seconds_per_call(calls_for(bytes, size_t{64} << 20, 2000), [&] {
    rocshmem_ctx_long_broadcast(ROCSHMEM_CTX_DEFAULT, ROCSHMEM_TEAM_WORLD, dst, src, n, 0);
  });
  if (dst[n - 1] != n - 1) fail("broadcast: wrong last element");
  report("host_broadcast", bytes, s * 1e6, "us");
  rocshmem_barrier_all();
  rocshmem_free(dst);
  rocshmem_free(src);
}

void stream_alltoall(hipStream_t stream, size_t per_pe) {
  per_pe = cap_size(per_pe);
  auto* src = static_cast<unsigned char*>(rocshmem_malloc(per_pe * g_npes));
  auto* dst = static_cast<unsigned char*>(rocshmem_malloc(per_pe * g_npes));
  for (int p = 0; p < g_npes; ++p) memset(src + p * per_pe, (g_me * 16 + p) & 0xff, per_pe);
  rocshmem_barrier_all();
  const double s = seconds_per_call(calls_for(per_pe * g_npes, size_t{32} << 20, 2000), [&] {
    rocshmem_alltoallmem_on_stream(ROCSHMEM_TEAM_WORLD, dst, src, per_pe, stream);
    (void)hipStreamSynchronize(stream);
  });
  for (int p = 0; p < g_npes; ++p)
    if (dst[p * per_pe + per_pe - 1] != ((p * 16 + g_me) & 0xff)) {
      fail("alltoallmem_on_stream: wrong block from PE " + std::to_string(p));
      break;
    }
  report("stream_alltoallmem", per_pe, s * 1e6, "us");
  rocshmem_barrier_all();
  rocshmem_free(dst);
  rocshmem_free(src);
}

void stream_reduce(hipStream_t stream, size_t bytes) {
  bytes = cap_size(bytes);
  const int n = int(bytes / sizeof(long));
  auto* src = static_cast<long*>(rocshmem_malloc(bytes));
  auto* dst = static_cast<long*>(rocshmem_malloc(bytes));
  for (int i = 0; i < n; ++i) src[i] = long(g_me) + i;
  rocshmem_barrier_all();
  const double s = seconds_per_call(calls_for(bytes, size_t{64} << 20, 2000), [&] {
    rocshmem_ctx_long_sum_reduce_on_stream(ROCSHMEM_CTX_DEFAULT, ROCSHMEM_TEAM_WORLD, dst, src, n, stream);
    (void)hipStreamSynchronize(stream);
  });
  const long pes = g_npes;
  if (dst[n - 1] != pes * (pes - 1) / 2 + pes * (n - 1)) fail("sum_reduce_on_stream: wrong last element");
  report("stream_sum_reduce", bytes, s * 1e6, "us");
  rocshmem_barrier_all();
  rocshmem_free(dst);
  rocshmem_free(src);
}

__global__ void empty_kernel() {}

__global__ void barrier_wg_kernel(int iters) {
  for (int k = 0; k < iters; ++k) rocshmem_barrier_all_wg();
}

__global__ void syncthreads_kernel(int iters) {
  for (int k = 0; k < iters; ++k) __syncthreads();
}

__global__ void long_p_kernel(long* dst, int iters, int pe) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < iters; ++k) rocshmem_long_p(&dst[i], k + 1, pe);
}

__global__ void reduce_wg_kernel(long* dst, const long* src, int n, int iters, int* status) {
  for (int k = 0; k < iters; ++k) {
    const int s = rocshmem_ctx_long_sum_reduce_wg(ROCSHMEM_CTX_DEFAULT, ROCSHMEM_TEAM_WORLD, dst, src, n);
    if (s != 0) *status = s;
  }
}

// Seconds of one launch + device synchronize, median over trials (PEs lined up before each).
template <class Launch>
double launch_seconds(Launch launch) {
  const int trials = g_quick ? 2 : 5;
  std::vector<double> t;
  launch();
  if (hipDeviceSynchronize() != hipSuccess) fail("kernel launch failed");
  for (int i = 0; i < trials; ++i) {
    rocshmem_barrier_all();
    const double start = now_s();
    launch();
    if (hipDeviceSynchronize() != hipSuccess) fail("kernel launch failed");
    t.push_back(now_s() - start);
  }
  rocshmem_barrier_all();
  return median(t);
}

void kernel_launch() {
  const int calls = g_quick ? 20 : 1000;
  const double s = seconds_per_call(calls, [] {
    hipLaunchKernelGGL(empty_kernel, dim3(1), dim3(64), 0, 0);
    (void)hipStreamSynchronize(0);
  });
  report("kernel_launch_sync", 0, s * 1e6, "us");
}

void device_barrier() {
  const int iters = g_quick ? 10 : 500;
  const double s = launch_seconds([&] { hipLaunchKernelGGL(barrier_wg_kernel, dim3(1), dim3(64), 0, 0, iters); });
  report("device_barrier_all_wg", 0, s / iters * 1e6, "us");
  // The kernel engine's own meeting of 64 work-items, for reference (no rocSHMEM call).
  const double m = launch_seconds([&] { hipLaunchKernelGGL(syncthreads_kernel, dim3(1), dim3(64), 0, 0, iters); });
  report("device_syncthreads", 0, m / iters * 1e6, "us");
}

void device_put_rate() {
  constexpr int kBlocks = 4, kThreads = 256;
  const int iters = g_quick ? 10 : 400;
  auto* dst = static_cast<long*>(rocshmem_calloc(kBlocks * kThreads, sizeof(long)));
  const int peer = (g_me + 1) % g_npes;
  rocshmem_barrier_all();
  const double s = launch_seconds(
      [&] { hipLaunchKernelGGL(long_p_kernel, dim3(kBlocks), dim3(kThreads), 0, 0, dst, iters, peer); });
  rocshmem_barrier_all();
  if (dst[kBlocks * kThreads - 1] != iters) fail("device long_p: last value did not arrive");
  report("device_long_p_rate", 8, double(kBlocks) * kThreads * iters / s / 1e6, "Mops/s");
  rocshmem_free(dst);
}

void device_reduce(size_t bytes) {
  bytes = cap_size(bytes);
  const int n = int(bytes / sizeof(long));
  const int iters = g_quick ? 2 : 20;
  auto* src = static_cast<long*>(rocshmem_malloc(bytes));
  auto* dst = static_cast<long*>(rocshmem_malloc(bytes));
  int* status = nullptr;
  if (hipMalloc(&status, sizeof(int)) != hipSuccess) return fail("hipMalloc");
  *status = 0;
  for (int i = 0; i < n; ++i) src[i] = long(g_me) + i;
  rocshmem_barrier_all();
  const double s = launch_seconds(
      [&] { hipLaunchKernelGGL(reduce_wg_kernel, dim3(1), dim3(64), 0, 0, dst, src, n, iters, status); });
  const long pes = g_npes;
  if (*status != 0 || dst[n - 1] != pes * (pes - 1) / 2 + pes * (n - 1)) fail("sum_reduce_wg: wrong result");
  report("device_sum_reduce_wg", bytes, s / iters * 1e6, "us");
  rocshmem_barrier_all();
  (void)hipFree(status);
  rocshmem_free(dst);
  rocshmem_free(src);
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--quick") == 0) {
      g_quick = true;
    } else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc) {
      g_only = argv[++i];
    } else {
      fprintf(stderr, "usage: rocshmem-emu-run -n N -- %s [--quick] [--only ROW-PREFIX]\n", argv[0]);
      return 2;
    }
  }
  rocshmem_init();
  g_me = rocshmem_my_pe();
  g_npes = rocshmem_n_pes();
  if (g_me == 0) printf("rocshmem-emu-scale: %d PEs%s\n", g_npes, g_quick ? " (quick)" : "");

  if (want("host_barrier")) host_barrier();
  if (want("host_put_rate")) host_put_rate();
  if (want("host_atomic")) host_atomic_contention();
  if (want("host_reduce"))
    for (size_t b : {size_t{64}, size_t{64} << 10, size_t{8} << 20}) host_reduce(b);
  if (want("host_reduce_scatter")) host_reduce_scatter(size_t{64} << 10);
  if (want("host_broadcast"))
    for (size_t b : {size_t{64}, size_t{64} << 10, size_t{8} << 20}) host_broadcast(b);
  hipStream_t stream;
  if (hipStreamCreate(&stream) != hipSuccess) fail("hipStreamCreate");
  if (want("stream_alltoall"))
    for (size_t b : {size_t{64}, size_t{4} << 10, size_t{64} << 10}) stream_alltoall(stream, b);
  if (want("stream_reduce")) stream_reduce(stream, size_t{8} << 20);
  (void)hipStreamDestroy(stream);
  if (want("kernel_launch")) kernel_launch();
  if (want("device_barrier")) device_barrier();
  if (want("device_put_rate")) device_put_rate();
  if (want("device_reduce")) device_reduce(size_t{512} << 10);

  rocshmem_barrier_all();
  rocshmem_finalize();
  return g_failures ? 1 : 0;
}
