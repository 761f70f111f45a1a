// Tests of the kernel engine: kernels in this program (hipLaunchKernelGGL) and in a code object
// (hipModuleLoad), checked against serial results. Usage: kernel_engine_test <case> <module.emuco>
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CHECK(cond, ...)                                                   \
  do {                                                                     \
    if (!(cond)) {                                                         \
      fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond);      \
      fprintf(stderr, __VA_ARGS__);                                        \
      fprintf(stderr, "\n");                                               \
      exit(1);                                                             \
    }                                                                      \
  } while (0)
#define HIP_OK(call)                                                                          \
  do {                                                                                        \
    hipError_t status_ = (call);                                                              \
    CHECK(status_ == hipSuccess, "%s returned %s", #call, hipGetErrorName(status_));          \
  } while (0)

static const char* g_module_path;

__global__ void add_one(int* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += 1;
}

static int smoke() {
  const int n = 1000;
  int* data;
  HIP_OK(hipMalloc(&data, n * sizeof(int)));
  HIP_OK(hipMemset(data, 0, n * sizeof(int)));
  hipLaunchKernelGGL(add_one, dim3(4), dim3(256), 0, 0, data, n);
  HIP_OK(hipGetLastError());
  HIP_OK(hipDeviceSynchronize());
  std::vector<int> host(n);
  HIP_OK(hipMemcpy(host.data(), data, n * sizeof(int), hipMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) CHECK(host[i] == 1, "data[%d] = %d", i, host[i]);

  hipModule_t module;
  HIP_OK(hipModuleLoad(&module, g_module_path));
  hipFunction_t fill;
  HIP_OK(hipModuleGetFunction(&fill, module, "fill_ids"));
  unsigned* out;
  const unsigned blocks = 2 * 3 * 1, threads = 4 * 2 * 8;
  HIP_OK(hipMalloc(&out, blocks * threads * sizeof(unsigned)));
  int bias = 7;
  void* params[] = {&out, &bias};
  HIP_OK(hipModuleLaunchKernel(fill, 2, 3, 1, 4, 2, 8, 0, nullptr, params, nullptr));
  HIP_OK(hipDeviceSynchronize());
  std::vector<unsigned> ids(blocks * threads);
  HIP_OK(hipMemcpy(ids.data(), out, ids.size() * sizeof(unsigned), hipMemcpyDeviceToHost));
  for (unsigned b = 0; b < blocks; ++b)
    for (unsigned t = 0; t < threads; ++t)
      CHECK(ids[b * threads + t] == b * 10000 + t + 7, "ids[%u] = %u", b * threads + t, ids[b * threads + t]);
  HIP_OK(hipModuleUnload(module));
  HIP_OK(hipFree(out));
  HIP_OK(hipFree(data));
  printf("PASS smoke\n");
  return 0;
}

int main(int argc, char** argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s <case> <module.emuco>\n", argv[0]);
    return 2;
  }
  g_module_path = argv[2];
  std::string name = argv[1];
  if (name == "smoke") return smoke();
  fprintf(stderr, "unknown case %s\n", argv[1]);
  return 2;
}
