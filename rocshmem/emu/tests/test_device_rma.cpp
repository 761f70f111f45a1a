// Device RMA from many work-items: every work-item of several blocks sends its own element to the
// right neighbour with p, its own chunk with put (default and ctx form, ROCSHMEM_CTX_DEFAULT),
// and reads the left neighbour's chunk with get and g. Then the same ring from a kernel loaded
// with hipModuleLoad, which may run only after rocshmem_hipmodule_init.
// usage (under rocshmem-emu-run): test_device_rma <device_ring.emuco>
#include "device/device_test.hpp"

#include <cstring>
#include <string>

using namespace rocshmem;
using device_test::device_alloc;
using device_test::symmetric_alloc;

namespace {

constexpr int kBlocks = 4, kThreads = 96, kN = kBlocks * kThreads, kChunk = 5;

__host__ __device__ int p_value(int pe, int i) { return pe * 100000 + i; }
__host__ __device__ long put_value(int pe, int i, int k) { return pe * 1000000L + i * 10L + k; }

__global__ void ring_p(int* dst, int right, int me) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  rocshmem_int_p(&dst[i], p_value(me, i), right);
}

// Odd work-items use the ctx form with the device default context.
__global__ void ring_put(long* dst, long* src, int right, int me) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < kChunk; ++k) src[i * kChunk + k] = put_value(me, i, k);
  if (i % 2)
    rocshmem_ctx_long_put(ROCSHMEM_CTX_DEFAULT, dst + i * kChunk, src + i * kChunk, kChunk, right);
  else
    rocshmem_long_put(dst + i * kChunk, src + i * kChunk, kChunk, right);
  // The device-only ordering calls: per-PE fence, pe_quiet, system fence.
  const int targets[1] = {right};
  rocshmem_fence(right);
  rocshmem_pe_quiet(targets, 1);
  rocshmem_ctx_threadfence_system(ROCSHMEM_CTX_DEFAULT);
  rocshmem_quiet();
}

// Stores straight into the right neighbour's heap through rocshmem_ptr (node-local peers).
__global__ void ring_ptr(int* dst, int right, int me, int* null_ptrs) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int* peer = static_cast<int*>(rocshmem_ptr(dst, right));
  if (!peer) {
    atomicAdd(null_ptrs, 1);
    return;
  }
  __atomic_store_n(&peer[i], p_value(me, i) + 7, __ATOMIC_RELEASE);
}

// Reads the left neighbour's src (symmetric) into local device memory.
__global__ void ring_get(long* got, long* got_g, const long* src, int left) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  rocshmem_long_get(got + i * kChunk, src + i * kChunk, kChunk, left);
  got_g[i] = rocshmem_ctx_long_g(ROCSHMEM_CTX_DEFAULT, src + i * kChunk + kChunk - 1, left);
}

// Two wavefronts per block at wave64 (four at wave32): each wave moves its warpSize elements with
// one _wave put and raises its own signal once (ADD 1: above 1, the data moved more than once).
__global__ void ring_wave(int* dst, const int* src, uint64_t* sig, int right) {
  const int wave = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  rocshmem_ctx_int_put_signal_wave(ROCSHMEM_CTX_DEFAULT, dst + wave * warpSize, src + wave * warpSize, warpSize,
                                   &sig[wave], 1, ROCSHMEM_SIGNAL_ADD, right);
}

// Every block fetches the left neighbour's whole array with one _wg get (nbi, then quiet).
__global__ void ring_get_wg(int* got, const int* src, size_t n, int left) {
  rocshmem_getmem_nbi_wg(got + blockIdx.x * n, src, n * sizeof(int), left);
  rocshmem_quiet();
}

void test_group_ring(int me, int right, int left) {
  hipDeviceProp_t prop;
  HIP_CHECK(hipGetDeviceProperties(&prop, 0));
  const int kWaves = kN / prop.warpSize;  // the launches' wavefront size (ROCSHMEM_EMU_WAVE_SIZE)
  int* dst = symmetric_alloc<int>(kN);
  int* src = symmetric_alloc<int>(kN);
  auto* sig = symmetric_alloc<uint64_t>(kWaves);
  int* got = device_alloc<int>(size_t(kBlocks) * kN);
  for (int i = 0; i < kN; ++i) src[i] = p_value(me, i);
  rocshmem_barrier_all();
  DEVICE_LAUNCH_AND_SYNC(ring_wave, dim3(kBlocks / 2), dim3(2 * kThreads), dst, src, sig, right);
  for (int w = 0; w < kWaves; ++w) EMU_CHECK_EQ(sig[w], uint64_t(1), "signal of wave " + std::to_string(w));
  for (int i = 0; i < kN; ++i) EMU_CHECK_EQ(dst[i], p_value(left, i), "put_signal_wave element " + std::to_string(i));
  DEVICE_LAUNCH_AND_SYNC(ring_get_wg, dim3(kBlocks), dim3(kThreads), got, src, size_t(kN), left);
  for (int b = 0; b < kBlocks; ++b)
    for (int i = 0; i < kN; ++i) EMU_CHECK_EQ(got[b * kN + i], p_value(left, i), "getmem_nbi_wg of block " + std::to_string(b));
  // From a host thread a group form is a group of one.
  rocshmem_barrier_all();  // everybody checked dst before it is cleared and written again
  memset(dst, 0, kN * sizeof(int));
  rocshmem_barrier_all();
  rocshmem_int_put_wg(dst, src, kN, right);
  rocshmem_barrier_all();
  for (int i = 0; i < kN; ++i) EMU_CHECK_EQ(dst[i], p_value(left, i), "host-thread put_wg element " + std::to_string(i));
  HIP_CHECK(hipFree(got));
  rocshmem_free(sig);
  rocshmem_free(src);
  rocshmem_free(dst);
  emu_test::passed("_wave put_signal (two waves per block), _wg get, host-thread _wg call");
}

void test_kernel_ring(int me, int right, int left) {
  int* p_dst = symmetric_alloc<int>(kN);
  long* put_dst = symmetric_alloc<long>(kN * kChunk);
  long* put_src = symmetric_alloc<long>(kN * kChunk);
  long* got = device_alloc<long>(kN * kChunk);
  long* got_g = device_alloc<long>(kN);
  rocshmem_barrier_all();

  DEVICE_LAUNCH_AND_SYNC(ring_p, dim3(kBlocks), dim3(kThreads), p_dst, right, me);
  for (int i = 0; i < kN; ++i) EMU_CHECK_EQ(p_dst[i], p_value(left, i), "p from work-item " + std::to_string(i));
  emu_test::passed("device p ring from every work-item");

  int* null_ptrs = device_alloc<int>(1);
  rocshmem_barrier_all();  // everybody checked p_dst before the next kernel overwrites it
  DEVICE_LAUNCH_AND_SYNC(ring_ptr, dim3(kBlocks), dim3(kThreads), p_dst, right, me, null_ptrs);
  EMU_CHECK_EQ(*null_ptrs, 0, "rocshmem_ptr to a node-local peer");
  for (int i = 0; i < kN; ++i) EMU_CHECK_EQ(p_dst[i], p_value(left, i) + 7, "store through rocshmem_ptr " + std::to_string(i));
  HIP_CHECK(hipFree(null_ptrs));
  emu_test::passed("device stores through rocshmem_ptr");

  DEVICE_LAUNCH_AND_SYNC(ring_put, dim3(kBlocks), dim3(kThreads), put_dst, put_src, right, me);
  for (int i = 0; i < kN; ++i)
    for (int k = 0; k < kChunk; ++k)
      EMU_CHECK_EQ(put_dst[i * kChunk + k], put_value(left, i, k), "put from work-item " + std::to_string(i));
  emu_test::passed("device put ring (default and ctx form)");

  DEVICE_LAUNCH_AND_SYNC(ring_get, dim3(kBlocks), dim3(kThreads), got, got_g, put_src, left);
  for (int i = 0; i < kN; ++i) {
    for (int k = 0; k < kChunk; ++k)
      EMU_CHECK_EQ(got[i * kChunk + k], put_value(left, i, k), "get by work-item " + std::to_string(i));
    EMU_CHECK_EQ(got_g[i], put_value(left, i, kChunk - 1), "g by work-item " + std::to_string(i));
  }
  emu_test::passed("device get and g from every work-item");

  HIP_CHECK(hipFree(got_g));
  HIP_CHECK(hipFree(got));
  rocshmem_free(put_src);
  rocshmem_free(put_dst);
  rocshmem_free(p_dst);
}

void test_module_ring(const char* code_object, int me, int right, int left) {
  hipModule_t module = nullptr;
  HIP_CHECK(hipModuleLoad(&module, code_object));
  hipFunction_t ring = nullptr;
  HIP_CHECK(hipModuleGetFunction(&ring, module, "device_ring_putmem_wg"));
  int* dst = symmetric_alloc<int>(kN);
  int* src = symmetric_alloc<int>(kN);
  for (int i = 0; i < kN; ++i) src[i] = p_value(me, i);
  rocshmem_barrier_all();

  size_t count = kN;
  void* params[] = {&dst, &src, &count, &right};
  // A GPU would fault on the module's uninitialised device globals; the emulator refuses.
  EMU_CHECK_EQ(hipModuleLaunchKernel(ring, 1, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr), hipErrorNotInitialized,
               "launch before rocshmem_hipmodule_init");
  EMU_CHECK_EQ(rocshmem_hipmodule_init(module, nullptr), static_cast<int>(ROCSHMEM_SUCCESS), "rocshmem_hipmodule_init");
  HIP_CHECK(hipModuleLaunchKernel(ring, 1, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr));
  HIP_CHECK(hipDeviceSynchronize());
  rocshmem_barrier_all();
  for (int i = 0; i < kN; ++i) EMU_CHECK_EQ(dst[i], p_value(left, i), "module putmem_wg element " + std::to_string(i));
  HIP_CHECK(hipModuleUnload(module));
  rocshmem_barrier_all();
  rocshmem_free(src);
  rocshmem_free(dst);
  emu_test::passed("hipModuleLoad kernel with rocshmem_putmem_wg after rocshmem_hipmodule_init");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: %s <device_ring.emuco>\n", argv[0]);
    return 2;
  }
  auto [me, npes, right, left] = emu_test::init_ring();
  (void)npes;
  test_kernel_ring(me, right, left);
  test_group_ring(me, right, left);
  test_module_ring(argv[1], me, right, left);
  rocshmem_finalize();
  return 0;
}
