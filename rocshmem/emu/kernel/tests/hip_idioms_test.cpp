// HIP idioms that real HIP sources use and that must compile unchanged on the emulator's kernel
// toolchain: the hipThreadIdx_x ... hipGridDim_z macros, HIP_KERNEL_NAME, hipLaunchKernelGGL with
// an overloaded kernel name and with kernel templates deduced from the launch arguments, <cmath>
// device math through hip/hip_runtime.h, and the device attributes rocSHMEM reads at init.
// Each case checks the values the kernels produced. Usage: hip_idioms_test <case> [<module.emuco>]
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

#define CHECK(cond, ...)                                              \
  do {                                                                \
    if (!(cond)) {                                                    \
      fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
      fprintf(stderr, __VA_ARGS__);                                   \
      fprintf(stderr, "\n");                                          \
      exit(1);                                                        \
    }                                                                 \
  } while (0)
#define HIP_OK(call)                                                                 \
  do {                                                                               \
    hipError_t status_ = (call);                                                     \
    CHECK(status_ == hipSuccess, "%s returned %s", #call, hipGetErrorName(status_)); \
  } while (0)

static const char* g_module_path;

template <class T>
static T* device_array(size_t n) {
  T* p = nullptr;
  HIP_OK(hipMalloc(&p, n * sizeof(T)));
  HIP_OK(hipMemset(p, 0, n * sizeof(T)));
  return p;
}

template <class T>
static std::vector<T> to_host(const T* device, size_t n) {
  std::vector<T> host(n);
  HIP_OK(hipMemcpy(host.data(), device, n * sizeof(T), hipMemcpyDeviceToHost));
  return host;
}

// ---- hipThreadIdx_x ... hipGridDim_z ------------------------------------------------------------

__global__ void flat_ids(int* out) {
  const int block = hipBlockIdx_x + hipGridDim_x * (hipBlockIdx_y + hipGridDim_y * hipBlockIdx_z);
  const int thread = hipThreadIdx_x + hipBlockDim_x * (hipThreadIdx_y + hipBlockDim_y * hipThreadIdx_z);
  const int block_size = hipBlockDim_x * hipBlockDim_y * hipBlockDim_z;
  out[block * block_size + thread] = block * 1000 + thread;
}

static void id_macros() {
  const dim3 grid(2, 3, 2), block(4, 2, 3);
  const int n = 12 * 24;
  int* out = device_array<int>(n);
  hipLaunchKernelGGL(flat_ids, grid, block, 0, 0, out);
  HIP_OK(hipDeviceSynchronize());
  std::vector<int> got = to_host(out, n);
  for (int i = 0; i < n; ++i) CHECK(got[i] == (i / 24) * 1000 + i % 24, "out[%d] = %d", i, got[i]);
  HIP_OK(hipFree(out));
}

// ---- HIP_KERNEL_NAME and explicit template arguments --------------------------------------------

template <class T, int Step>
__global__ void arithmetic(T* out, T start) {
  const int i = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x;
  out[i] = start + static_cast<T>(Step * i);
}

static void kernel_name_macro() {
  long long* out = device_array<long long>(128);
  hipLaunchKernelGGL(HIP_KERNEL_NAME(arithmetic<long long, 7>), dim3(2), dim3(64), 0, 0, out, 5LL);
  double* d = device_array<double>(64);
  hipLaunchKernelGGL(HIP_KERNEL_NAME(arithmetic<double, 2>), 1, 64, 0, nullptr, d, 0.5);
  HIP_OK(hipDeviceSynchronize());
  std::vector<long long> got = to_host(out, 128);
  for (int i = 0; i < 128; ++i) CHECK(got[i] == 5 + 7 * i, "out[%d] = %lld", i, got[i]);
  std::vector<double> dg = to_host(d, 64);
  for (int i = 0; i < 64; ++i) CHECK(dg[i] == 0.5 + 2 * i, "d[%d] = %g", i, dg[i]);
  HIP_OK(hipFree(out));
  HIP_OK(hipFree(d));
}

// ---- an overloaded kernel name ------------------------------------------------------------------

__global__ void fill(int* out, int value) { out[hipThreadIdx_x] = value + 1; }
__global__ void fill(float* out, float value) { out[hipThreadIdx_x] = value * 2.0f; }
__global__ void fill(double* out, int count, double value) {
  if (static_cast<int>(hipThreadIdx_x) < count) out[hipThreadIdx_x] = -value;
}

static void overloaded_kernel() {
  int* i = device_array<int>(32);
  float* f = device_array<float>(32);
  double* d = device_array<double>(32);
  const int seven = 7;
  hipLaunchKernelGGL(fill, 1, 32, 0, 0, i, seven);  // exact: fill(int*, int)
  hipLaunchKernelGGL(fill, 1, 32, 0, 0, f, 1.25f);  // exact: fill(float*, float)
  hipLaunchKernelGGL(fill, 1, 32, 0, 0, d, 16, 3);  // converting: fill(double*, int, double) from an int
  HIP_OK(hipGetLastError());
  HIP_OK(hipDeviceSynchronize());
  std::vector<int> gi = to_host(i, 32);
  std::vector<float> gf = to_host(f, 32);
  std::vector<double> gd = to_host(d, 32);
  for (int k = 0; k < 32; ++k) {
    CHECK(gi[k] == 8, "int fill[%d] = %d", k, gi[k]);
    CHECK(gf[k] == 2.5f, "float fill[%d] = %g", k, gf[k]);
    CHECK(gd[k] == (k < 16 ? -3.0 : 0.0), "double fill[%d] = %g", k, gd[k]);
  }
  // The same name with a float pointer and a double value: only fill(float*, float) is viable.
  hipLaunchKernelGGL(fill, 1, 32, 0, 0, f, 0.75);
  HIP_OK(hipDeviceSynchronize());
  gf = to_host(f, 32);
  for (int k = 0; k < 32; ++k) CHECK(gf[k] == 1.5f, "float fill (converted)[%d] = %g", k, gf[k]);
  HIP_OK(hipFree(i));
  HIP_OK(hipFree(f));
  HIP_OK(hipFree(d));
}

// ---- kernel templates deduced from the launch arguments -----------------------------------------

template <class T>
__global__ void scale(T* data, T factor, int n) {
  const int k = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x;
  if (k < n) data[k] *= factor;
}

// const T* from a T* argument and a size_t from an int: deduction as in a call, then conversion.
// Each block sums its part in __shared__ memory (blocks must not see each other's copy).
template <class T>
__global__ void block_sums(const T* in, T* sums, size_t n) {
  __shared__ T partial[256];
  const size_t k = hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x;
  partial[hipThreadIdx_x] = k < n ? in[k] : T(0);
  __syncthreads();
  for (unsigned half = hipBlockDim_x / 2; half > 0; half /= 2) {
    if (hipThreadIdx_x < half) partial[hipThreadIdx_x] += partial[hipThreadIdx_x + half];
    __syncthreads();
  }
  if (hipThreadIdx_x == 0) sums[hipBlockIdx_x] = partial[0];
}

static void deduced_template() {
  const int n = 1000;
  std::vector<float> host(n);
  for (int k = 0; k < n; ++k) host[k] = static_cast<float>(k % 17);
  float* data = device_array<float>(n);
  HIP_OK(hipMemcpy(data, host.data(), n * sizeof(float), hipMemcpyHostToDevice));
  hipLaunchKernelGGL(scale, dim3((n + 255) / 256), dim3(256), 0, 0, data, 3.0f, n);  // T = float
  float* sums = device_array<float>(4);
  hipLaunchKernelGGL(block_sums, dim3(4), dim3(256), 0, 0, data, sums, n);  // T = float, n -> size_t
  HIP_OK(hipGetLastError());
  HIP_OK(hipDeviceSynchronize());
  std::vector<float> got = to_host(sums, 4);
  for (int b = 0; b < 4; ++b) {
    float expected = 0;
    for (int k = b * 256; k < std::min(n, (b + 1) * 256); ++k) expected += 3.0f * host[k];
    CHECK(got[b] == expected, "block %d sum %g, expected %g", b, got[b], expected);
  }
  int* counts = device_array<int>(64);
  hipLaunchKernelGGL(scale, 1, 64, 0, 0, counts, 2, 64);  // T = int
  HIP_OK(hipDeviceSynchronize());
  HIP_OK(hipFree(data));
  HIP_OK(hipFree(sums));
  HIP_OK(hipFree(counts));
}

// ---- <cmath> device math ------------------------------------------------------------------------

__global__ void math(const float* x, float* out, double* dout) {
  const int k = hipThreadIdx_x;
  const float v = x[k];
  out[8 * k + 0] = sqrtf(v) + std::sqrt(v);
  out[8 * k + 1] = expf(-v) + logf(v + 1.0f);
  out[8 * k + 2] = sinf(v) * cosf(v) + fabsf(-v);
  out[8 * k + 3] = powf(v, 1.5f) + floorf(v) + ceilf(v);
  out[8 * k + 4] = rsqrtf(v + 1.0f) + __fdividef(v, 4.0f);
  out[8 * k + 5] = max(v, 2.0f) + min(v, 2.0f) + static_cast<float>(max(k, 3) - min(k, 3));
  out[8 * k + 6] = __expf(v / 8.0f) + __sinf(v) + fmaf(v, v, 1.0f);
  out[8 * k + 7] = static_cast<float>(isnan(v) + isinf(v)) + copysignf(1.0f, -v);
  dout[k] = std::tgamma(1.0 + v) + erf(static_cast<double>(v)) + hypot(3.0, 4.0 * v);
}

static void device_math() {
  const int n = 16;
  std::vector<float> x(n);
  for (int k = 0; k < n; ++k) x[k] = 0.25f * k;
  float* dx = device_array<float>(n);
  float* out = device_array<float>(8 * n);
  double* dout = device_array<double>(n);
  HIP_OK(hipMemcpy(dx, x.data(), n * sizeof(float), hipMemcpyHostToDevice));
  hipLaunchKernelGGL(math, 1, n, 0, 0, dx, out, dout);
  HIP_OK(hipDeviceSynchronize());
  std::vector<float> got = to_host(out, 8 * n);
  std::vector<double> dgot = to_host(dout, n);
  for (int k = 0; k < n; ++k) {
    const float v = x[k];
    const float expected[8] = {
        2 * std::sqrt(v), std::exp(-v) + std::log(v + 1.0f), std::sin(v) * std::cos(v) + v,
        std::pow(v, 1.5f) + std::floor(v) + std::ceil(v), 1.0f / std::sqrt(v + 1.0f) + v / 4.0f,
        std::max(v, 2.0f) + std::min(v, 2.0f) + std::abs(k - 3), std::exp(v / 8.0f) + std::sin(v) + (v * v + 1.0f),
        -1.0f};  // copysignf(1, -v): -v is -0 or negative
    for (int j = 0; j < 8; ++j) {
      CHECK(std::fabs(got[8 * k + j] - expected[j]) <= 1e-5f * (1 + std::fabs(expected[j])),
            "x=%g function group %d: %.9g, expected %.9g", v, j, got[8 * k + j], expected[j]);
    }
    const double dexp = std::tgamma(1.0 + v) + std::erf(static_cast<double>(v)) + std::hypot(3.0, 4.0 * v);
    CHECK(std::fabs(dgot[k] - dexp) <= 1e-12 * (1 + std::fabs(dexp)), "x=%g double math %.17g vs %.17g", v,
          dgot[k], dexp);
  }
  HIP_OK(hipFree(dx));
  HIP_OK(hipFree(out));
  HIP_OK(hipFree(dout));
}

// ---- device attributes rocSHMEM and its tests read ----------------------------------------------

static void device_attributes() {
  int device = -1;
  HIP_OK(hipGetDevice(&device));
  // The HDP flush registers: HIP stores an address through the int pointer; rocSHMEM writes 1.
  unsigned int* mem_flush = nullptr;
  unsigned int* reg_flush = nullptr;
  HIP_OK(hipDeviceGetAttribute(reinterpret_cast<int*>(&mem_flush), hipDeviceAttributeHdpMemFlushCntl, device));
  HIP_OK(hipDeviceGetAttribute(reinterpret_cast<int*>(&reg_flush), hipDeviceAttributeHdpRegFlushCntl, device));
  CHECK(mem_flush != nullptr && reg_flush != nullptr && mem_flush != reg_flush, "flush registers %p %p",
        static_cast<void*>(mem_flush), static_cast<void*>(reg_flush));
  __atomic_store_n(mem_flush, 0x1, __ATOMIC_SEQ_CST);
  __atomic_store_n(reg_flush, 0x1, __ATOMIC_SEQ_CST);
  struct Expected {
    hipDeviceAttribute_t attribute;
    const char* name;
    int low, high;
  };
  const Expected expected[] = {
      {hipDeviceAttributeWallClockRate, "WallClockRate", 1000000, 1000000},
      {hipDeviceAttributeClockRate, "ClockRate", 1, 1 << 30},
      {hipDeviceAttributeMultiprocessorCount, "MultiprocessorCount", 1, 1 << 16},
      {hipDeviceAttributeMaxThreadsPerBlock, "MaxThreadsPerBlock", 1024, 1024},
      {hipDeviceAttributeWarpSize, "WarpSize", 32, 64},
      {hipDeviceAttributeMaxSharedMemoryPerBlock, "MaxSharedMemoryPerBlock", 65536, 65536},
      {hipDeviceAttributePciBusId, "PciBusId", 0, 255},
      {hipDeviceAttributeComputeCapabilityMajor, "ComputeCapabilityMajor", 9, 9},
      {hipDeviceAttributeIsLargeBar, "IsLargeBar", 1, 1},
      {hipDeviceAttributeCanMapHostMemory, "CanMapHostMemory", 1, 1},
      {hipDeviceAttributeFineGrainSupport, "FineGrainSupport", 1, 1},
      {hipDeviceAttributeDeviceOverlap, "DeviceOverlap", 1, 1},
      {hipDeviceAttributeCooperativeMultiDeviceUnmatchedFunc, "CooperativeMultiDeviceUnmatchedFunc", 0, 1},
      {hipDeviceAttributeCooperativeMultiDeviceUnmatchedGridDim, "CooperativeMultiDeviceUnmatchedGridDim", 0, 1},
      {hipDeviceAttributeCooperativeMultiDeviceUnmatchedBlockDim, "CooperativeMultiDeviceUnmatchedBlockDim", 0, 1},
      {hipDeviceAttributeCooperativeMultiDeviceUnmatchedSharedMem, "CooperativeMultiDeviceUnmatchedSharedMem", 0,
       1},
      {hipDeviceAttributeNumberOfXccs, "NumberOfXccs", 1, 1},
      {hipDeviceAttributeMaxAvailableVgprsPerThread, "MaxAvailableVgprsPerThread", 1, 1024},
      {hipDeviceAttributeHostNumaId, "HostNumaId", 0, 0},
  };
  for (const Expected& e : expected) {
    int value = -12345;
    hipError_t status = hipDeviceGetAttribute(&value, e.attribute, device);
    CHECK(status == hipSuccess, "hipDeviceAttribute%s returned %s", e.name, hipGetErrorName(status));
    CHECK(value >= e.low && value <= e.high, "hipDeviceAttribute%s = %d, expected %d..%d", e.name, value, e.low,
          e.high);
  }
  // A value outside the enumeration is still refused, as by HIP.
  int value = 0;
  CHECK(hipDeviceGetAttribute(&value, static_cast<hipDeviceAttribute_t>(0x7fff0000), device) ==
            hipErrorInvalidValue,
        "an unknown attribute was accepted");
}

// ---- a code object using the same idioms (hipModuleLoad) ----------------------------------------

static void module_idioms() {
  hipModule_t module;
  hipFunction_t function;
  HIP_OK(hipModuleLoad(&module, g_module_path));
  HIP_OK(hipModuleGetFunction(&function, module, "norms"));
  const int n = 256;
  std::vector<float> host(2 * n);
  for (int k = 0; k < 2 * n; ++k) host[k] = static_cast<float>(k % 13) - 6.0f;
  float* xy = device_array<float>(2 * n);
  float* out = device_array<float>(n);
  HIP_OK(hipMemcpy(xy, host.data(), host.size() * sizeof(float), hipMemcpyHostToDevice));
  int count = n;
  void* args[] = {&xy, &out, &count};
  HIP_OK(hipModuleLaunchKernel(function, 2, 1, 1, 128, 1, 1, 0, nullptr, args, nullptr));
  HIP_OK(hipDeviceSynchronize());
  std::vector<float> got = to_host(out, n);
  for (int k = 0; k < n; ++k) {
    const float expected = std::min(std::sqrt(host[2 * k] * host[2 * k] + host[2 * k + 1] * host[2 * k + 1]), 8.0f);
    CHECK(std::fabs(got[k] - expected) <= 1e-5f, "norm[%d] = %g, expected %g", k, got[k], expected);
  }
  HIP_OK(hipFree(xy));
  HIP_OK(hipFree(out));
  HIP_OK(hipModuleUnload(module));
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: hip_idioms_test <case> [<module.emuco>]\n");
    return 2;
  }
  g_module_path = argc > 2 ? argv[2] : nullptr;
  const std::map<std::string, std::function<void()>> cases = {
      {"id_macros", id_macros},         {"kernel_name_macro", kernel_name_macro},
      {"overloaded_kernel", overloaded_kernel}, {"deduced_template", deduced_template},
      {"device_math", device_math},     {"device_attributes", device_attributes},
      {"module_idioms", module_idioms}};
  auto it = cases.find(argv[1]);
  if (it == cases.end()) {
    fprintf(stderr, "unknown case %s\n", argv[1]);
    return 2;
  }
  it->second();
  printf("PASS %s\n", argv[1]);
  return 0;
}
