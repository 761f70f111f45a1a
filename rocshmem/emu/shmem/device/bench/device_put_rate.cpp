// Device-side put rate on the emulator (information only, no target): kernels on PE 0 whose
// work-items put to PE 1, timed around the launch. Rows:
//   thread p      every work-item: rocshmem_int_p, kIters times
//   thread put    every work-item: rocshmem_putmem of 64 bytes, kIters times
//   wg putmem     one _wg call per block per iteration, 64 KiB each
// usage: rocshmem-emu-run -n 2 -- rocshmem-emu-device-put-rate [--quick]
#include <hip/hip_runtime.h>
#include <rocshmem/rocshmem.hpp>

#include <chrono>
#include <cstdio>
#include <cstring>

using namespace rocshmem;

namespace {

constexpr int kBlocks = 4, kThreads = 64;
constexpr size_t kWgBytes = 64 * 1024, kPutBytes = 64;

__global__ void thread_p(int* dst, int iters, int pe) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < iters; ++k) rocshmem_int_p(&dst[i], k, pe);
}

__global__ void thread_put(char* dst, const char* src, int iters, int pe) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < iters; ++k) rocshmem_putmem(dst + i * kPutBytes, src + i * kPutBytes, kPutBytes, pe);
}

__global__ void wg_putmem(char* dst, const char* src, int iters, int pe) {
  for (int k = 0; k < iters; ++k)
    rocshmem_putmem_wg(dst + blockIdx.x * kWgBytes, src + blockIdx.x * kWgBytes, kWgBytes, pe);
}

template <class Launch>
double seconds(Launch launch) {
  const auto start = std::chrono::steady_clock::now();
  launch();
  if (hipDeviceSynchronize() != hipSuccess) return -1;
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = argc > 1 && strcmp(argv[1], "--quick") == 0;
  rocshmem_init();
  const int me = rocshmem_my_pe();
  if (rocshmem_n_pes() < 2) {
    if (me == 0) fprintf(stderr, "rocshmem-emu-device-put-rate needs 2 PEs\n");
    rocshmem_finalize();
    return 2;
  }
  const int iters = quick ? 20 : 2000;
  const int wg_iters = quick ? 4 : 200;
  auto* ints = static_cast<int*>(rocshmem_calloc(kBlocks * kThreads, sizeof(int)));
  auto* dst = static_cast<char*>(rocshmem_calloc(kBlocks, kWgBytes));
  auto* src = static_cast<char*>(rocshmem_calloc(kBlocks, kWgBytes));
  if (!ints || !dst || !src) return 1;
  memset(src, 7, kBlocks * kWgBytes);
  rocshmem_barrier_all();
  if (me == 0) {
    const double n = double(kBlocks) * kThreads * iters;
    const double tp = seconds([&] { hipLaunchKernelGGL(thread_p, dim3(kBlocks), dim3(kThreads), 0, 0, ints, iters, 1); });
    const double tput =
        seconds([&] { hipLaunchKernelGGL(thread_put, dim3(kBlocks), dim3(kThreads), 0, 0, dst, src, iters, 1); });
    const double twg =
        seconds([&] { hipLaunchKernelGGL(wg_putmem, dim3(kBlocks), dim3(kThreads), 0, 0, dst, src, wg_iters, 1); });
    const double wg_bytes = double(kBlocks) * wg_iters * kWgBytes;
    printf("rocshmem-emu-device-put-rate: PE 0 -> PE 1, %d blocks x %d work-items\n", kBlocks, kThreads);
    printf("%-34s %10.3f Mops/s\n", "device int_p (every work-item)", n / tp / 1e6);
    printf("%-34s %10.3f Mops/s\n", "device putmem 64 B (every work-item)", n / tput / 1e6);
    printf("%-34s %10.3f GB/s\n", "device putmem_wg 64 KiB", wg_bytes / twg / 1e9);
    printf("RESULT device_put_rate op=int_p ops=%.0f seconds=%.6f mops=%.3f\n", n, tp, n / tp / 1e6);
    printf("RESULT device_put_rate op=putmem_64 ops=%.0f seconds=%.6f mops=%.3f\n", n, tput, n / tput / 1e6);
    printf("RESULT device_put_rate op=putmem_wg_64k bytes=%.0f seconds=%.6f gbps=%.3f\n", wg_bytes, twg,
           wg_bytes / twg / 1e9);
  }
  rocshmem_barrier_all();
  // The last thread_p iteration wrote iters-1 into PE 1's ints; the bytes came from src.
  int bad = 0;
  if (me == 1) {
    for (int i = 0; i < kBlocks * kThreads; ++i) bad += ints[i] != iters - 1;
    for (size_t i = 0; i < kBlocks * kWgBytes; ++i) bad += dst[i] != 7;
    if (bad) fprintf(stderr, "rocshmem-emu-device-put-rate: PE 1: %d wrong values\n", bad);
  }
  rocshmem_free(src);
  rocshmem_free(dst);
  rocshmem_free(ints);
  rocshmem_finalize();
  return bad ? 1 : 0;
}
