// Device RMA from many work-items: every work-item of several blocks sends its own element to the
// right neighbour with p, its own chunk with put (default and ctx form, ROCSHMEM_CTX_DEFAULT),
// and reads the left neighbour's chunk with get and g. Then the same ring from a kernel loaded
// with hipModuleLoad, which may run only after rocshmem_hipmodule_init.
// usage (under rocshmem-emu-run): test_device_rma <device_ring.emuco>
#include "device/device_test.hpp"

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
  rocshmem_quiet();
}

// Reads the left neighbour's src (symmetric) into local device memory.
__global__ void ring_get(long* got, long* got_g, const long* src, int left) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  rocshmem_long_get(got + i * kChunk, src + i * kChunk, kChunk, left);
  got_g[i] = rocshmem_ctx_long_g(ROCSHMEM_CTX_DEFAULT, src + i * kChunk + kChunk - 1, left);
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
  test_module_ring(argv[1], me, right, left);
  rocshmem_finalize();
  return 0;
}
