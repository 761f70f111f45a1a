// Host driver of the real-GPU cross-check (dev/check-on-nvidia.sh): runs one case on every PE and
// exits 0 when this PE's results are right, 1 (with a line saying what was wrong) when not.
//   crosscheck <case>     crosscheck --list   (name and kind: correct | buggy)
// The same source builds for the emulator (g++, the emulator's HIP and rocSHMEM) and for an NVIDIA
// GPU (nvcc, dev/nvidia/ mapping HIP onto CUDA and rocSHMEM onto NVSHMEM, XC_NVIDIA defined).
// The kernels are the project's own: the samples', the emulator tests', and kernels.hip.
#include <hip/hip_runtime.h>
#include <rocshmem/rocshmem.hpp>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "../../samples/src/main/hip/kernels/allreduce.hip"
#include "../../samples/src/main/hip/kernels/histogram.hip"
#include "../../samples/src/main/hip/kernels/pipeline.hip"
#include "../../samples/src/main/hip/kernels/ring.hip"
#include "../../samples/src/main/hip/kernels/scale.hip"
#include "../../rocshmem/emu/tests/device/device_ring.hip"
#include "../../rocshmem/src/test/hip/kernels/probes.hip"
#include "kernels.hip"

using namespace rocshmem;

namespace {

struct Pe {
  int me, npes, left, right;
};

std::string g_why;
bool fail(const char* format, ...) __attribute__((format(printf, 1, 2)));
bool fail(const char* format, ...) {
  char text[512];
  va_list args;
  va_start(args, format);
  vsnprintf(text, sizeof text, format, args);
  va_end(args);
  if (g_why.empty()) g_why = text;
  return false;
}

void hip_check(hipError_t status, const char* what) {
  if (status != hipSuccess) {
    fprintf(stderr, "crosscheck: %s: %s\n", what, hipGetErrorString(status));
    exit(3);
  }
}
#define HIP(call) hip_check((call), #call)

template <class T>
T* sym(size_t n, const std::vector<T>& init = {}) {
  T* p = static_cast<T*>(rocshmem_malloc(n * sizeof(T)));
  if (p == nullptr) {
    fprintf(stderr, "crosscheck: rocshmem_malloc(%zu) failed\n", n * sizeof(T));
    exit(3);
  }
  HIP(hipMemset(p, 0, n * sizeof(T)));
  if (!init.empty()) HIP(hipMemcpy(p, init.data(), init.size() * sizeof(T), hipMemcpyHostToDevice));
  return p;
}
template <class T>
T* dev(size_t n, const std::vector<T>& init = {}) {
  T* p = nullptr;
  HIP(hipMalloc(reinterpret_cast<void**>(&p), n * sizeof(T)));
  HIP(hipMemset(p, 0, n * sizeof(T)));
  if (!init.empty()) HIP(hipMemcpy(p, init.data(), init.size() * sizeof(T), hipMemcpyHostToDevice));
  return p;
}
template <class T>
std::vector<T> host(const T* p, size_t n) {
  std::vector<T> out(n);
  HIP(hipMemcpy(out.data(), p, n * sizeof(T), hipMemcpyDeviceToHost));
  return out;
}
template <class T, class F>
std::vector<T> filled(size_t n, F f) {
  std::vector<T> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = f(static_cast<int>(i));
  return v;
}

// Every PE is ready (data initialised) before any kernel starts.
void ready() {
  HIP(hipDeviceSynchronize());
  rocshmem_barrier_all();
}
// The kernel ran everywhere and its puts are complete before anyone checks.
void done() {
  HIP(hipGetLastError());
  HIP(hipDeviceSynchronize());
  rocshmem_barrier_all();
}

// A launch; `collective` for kernels whose blocks synchronise with other PEs or with each other
// (NVSHMEM wants nvshmemx_collective_launch for them). On the emulator it is hipLaunchKernelGGL
// with the kernel's own name, so that the emulator's messages name it.
#ifdef XC_NVIDIA
template <class... P, class... A>
void launch(bool collective, void (*kernel)(P...), dim3 grid, dim3 block, A... a) {
  if (!collective) {
    hipLaunchKernelGGL(kernel, grid, block, 0, 0, a...);
    return;
  }
  std::tuple<P...> values(a...);
  std::apply(
      [&](auto&... v) {
        void* args[] = {static_cast<void*>(&v)..., nullptr};
        int status = nvshmemx_collective_launch(reinterpret_cast<const void*>(kernel), grid, block, args, 0, 0);
        if (status != 0) {
          fprintf(stderr, "crosscheck: nvshmemx_collective_launch returned %d\n", status);
          exit(3);
        }
      },
      values);
}
#define LAUNCH(collective, kernel, grid, block, ...) launch(collective, kernel, grid, block, __VA_ARGS__)
#else
#define LAUNCH(collective, kernel, grid, block, ...) hipLaunchKernelGGL(kernel, grid, block, 0, 0, __VA_ARGS__)
#endif

// ---- cases: the samples' kernels -----------------------------------------------------------------

bool sample_ring(const Pe& pe) {
  const int n = 128;
  int* inbox = sym<int>(n);
  ready();
  LAUNCH(false, ring, dim3(2), dim3(64), inbox);
  done();
  std::vector<int> got = host(inbox, n);
  for (int i = 0; i < n; ++i)
    if (got[i] != pe.left * 1000 + i) return fail("inbox[%d] = %d, expected %d", i, got[i], pe.left * 1000 + i);
  return true;
}

bool sample_allreduce(const Pe& pe) {
  const int n = 256;
  int* dst = sym<int>(n);
  int* src = sym<int>(n, filled<int>(n, [&](int i) { return pe.me + i; }));
  ready();
  LAUNCH(true, allreduce, dim3(1), dim3(64), dst, static_cast<const int*>(src), n);
  done();
  std::vector<int> got = host(dst, n);
  for (int i = 0; i < n; ++i) {
    const int expected = pe.npes * i + pe.npes * (pe.npes - 1) / 2;
    if (got[i] != expected) return fail("dest[%d] = %d, expected %d", i, got[i], expected);
  }
  return true;
}

bool sample_histogram(const Pe& pe) {
  const int nbins = 16, count = 512;
  int* bins = sym<int>(nbins);
  int* values = sym<int>(count, filled<int>(count, [&](int i) { return (i * 7 + pe.me) % 19; }));
  ready();
  LAUNCH(false, histogram, dim3(2), dim3(128), bins, static_cast<const int*>(values), count, nbins);
  done();
  if (pe.me != 0) return true;
  std::vector<int> got = host(bins, nbins), expected(nbins, 0);
  for (int p = 0; p < pe.npes; ++p)
    for (int i = 0; i < count; ++i)
      if ((i * 7 + p) % 19 < nbins) ++expected[(i * 7 + p) % 19];
  for (int b = 0; b < nbins; ++b)
    if (got[b] != expected[b]) return fail("bin %d = %d, expected %d", b, got[b], expected[b]);
  return true;
}

bool sample_pipeline(const Pe& pe) {
  if (pe.npes % 2 != 0) return fail("needs an even number of PEs");
  const int chunks = 8, chunk = 64;
  long* staging = sym<long>(chunks * chunk);
  long* source = sym<long>(chunks * chunk, filled<long>(chunks * chunk, [&](int i) { return pe.me * 100000L + i; }));
  uint64_t* signal = sym<uint64_t>(1);
  long* sums = dev<long>(chunks);
  ready();
  LAUNCH(false, pipeline, dim3(1), dim3(64), staging, static_cast<const long*>(source), signal, sums, chunks, chunk);
  done();
  if (pe.me % 2 == 0) return true;
  std::vector<long> got = host(sums, chunks);
  for (int c = 0; c < chunks; ++c) {
    long expected = 0;
    for (int i = 0; i < chunk; ++i) expected += (pe.me - 1) * 100000L + c * chunk + i;
    if (got[c] != expected) return fail("chunk %d sum %ld, expected %ld", c, got[c], expected);
  }
  return true;
}

bool sample_scale(const Pe& pe) {
  const int n = 1000;
  long* data = dev<long>(n, filled<long>(n, [&](int i) { return i + pe.me; }));
  ready();
  LAUNCH(false, scale, dim3(2), dim3(128), data, n, 3L);
  done();
  std::vector<long> got = host(data, n);
  for (int i = 0; i < n; ++i)
    if (got[i] != 3L * (i + pe.me)) return fail("data[%d] = %ld", i, got[i]);
  return true;
}

// ---- cases: the emulator tests' and the Java tests' kernels -------------------------------------

bool device_ring_putmem_wg_case(const Pe& pe) {
  const size_t n = 256;
  int* dst = sym<int>(n);
  int* src = sym<int>(n, filled<int>(n, [&](int i) { return pe.me * 1000 + i; }));
  ready();
  LAUNCH(false, device_ring_putmem_wg, dim3(1), dim3(128), dst, static_cast<const int*>(src), n, pe.right);
  done();
  std::vector<int> got = host(dst, n);
  for (size_t i = 0; i < n; ++i)
    if (got[i] != pe.left * 1000 + static_cast<int>(i)) return fail("dst[%zu] = %d", i, got[i]);
  return true;
}

bool probes_echo(const Pe&) {
  long* out = dev<long>(8);
  ready();
  LAUNCH(false, echo, dim3(1), dim3(32), out, static_cast<char>(-3), static_cast<short>(-300), 70000, -5000000000L,
         1.5f, -2.25, static_cast<unsigned char>(250));
  done();
  std::vector<long> got = host(out, 8);
  const long expected[8] = {-3, -300, 70000, -5000000000L, 1500, -2250, 250, 1};
  for (int i = 0; i < 8; ++i)
    if (got[i] != expected[i]) return fail("out[%d] = %ld, expected %ld", i, got[i], expected[i]);
  return true;
}

// ---- cases: kernels.hip ------------------------------------------------------------------------------

bool put_nbi_quiet(const Pe& pe) {
  const int n = 4 * 128;
  int* dst = sym<int>(n);
  int* src = sym<int>(n, filled<int>(n, [&](int i) { return pe.me * 1000 + i; }));
  ready();
  LAUNCH(false, xc_put_nbi_quiet, dim3(2), dim3(64), dst, static_cast<const int*>(src), pe.right);
  done();
  std::vector<int> got = host(dst, n);
  for (int i = 0; i < n; ++i)
    if (got[i] != pe.left * 1000 + i) return fail("dst[%d] = %d", i, got[i]);
  return true;
}

bool get(const Pe& pe) {
  const int n = 128;
  int* src = sym<int>(n, filled<int>(n, [&](int i) { return pe.me * 1000 + i; }));
  int* out = dev<int>(n);
  int* bulk = dev<int>(n);
  ready();
  LAUNCH(false, xc_get, dim3(2), dim3(64), out, bulk, static_cast<const int*>(src), pe.right, n);
  done();
  std::vector<int> a = host(out, n), b = host(bulk, n);
  for (int i = 0; i < n; ++i) {
    if (a[i] != pe.right * 1000 + i) return fail("g: out[%d] = %d", i, a[i]);
    if (b[i] != pe.right * 1000 + i) return fail("getmem: bulk[%d] = %d", i, b[i]);
  }
  return true;
}

bool putmem_wave(const Pe& pe) {
  const int n = 256;
  int* dst = sym<int>(n);
  int* src = sym<int>(n, filled<int>(n, [&](int i) { return pe.me * 1000 + i; }));
  ready();
  LAUNCH(false, xc_putmem_wave, dim3(1), dim3(n), dst, static_cast<const int*>(src), pe.right);
  done();
  std::vector<int> got = host(dst, n);
  for (int i = 0; i < n; ++i)
    if (got[i] != pe.left * 1000 + i) return fail("dst[%d] = %d", i, got[i]);
  return true;
}

bool fetch_add(const Pe& pe) {
  const int threads = 128;
  long* counter = sym<long>(1);
  long* tickets = dev<long>(threads);
  ready();
  LAUNCH(false, xc_fetch_add, dim3(2), dim3(64), counter, tickets);
  done();
  std::vector<long> t = host(tickets, threads);
  std::set<long> unique(t.begin(), t.end());
  if (unique.size() != t.size()) return fail("%zu distinct tickets of %d", unique.size(), threads);
  for (long v : t)
    if (v < 0 || v >= static_cast<long>(threads) * pe.npes) return fail("ticket %ld out of range", v);
  if (pe.me == 0) {
    const long total = host(counter, 1)[0];
    if (total != static_cast<long>(threads) * pe.npes) return fail("counter = %ld", total);
  }
  return true;
}

bool compare_swap(const Pe& pe) {
  int* slots = sym<int>(pe.npes, std::vector<int>(pe.npes, -1));
  ready();
  LAUNCH(false, xc_compare_swap, dim3(1), dim3(64), slots, pe.npes);
  done();
  if (pe.me != 0) return true;
  std::vector<int> got = host(slots, pe.npes);
  std::set<int> owners(got.begin(), got.end());
  for (int p = 0; p < pe.npes; ++p)
    if (!owners.count(p)) return fail("PE %d claimed no slot (slot 0 = %d)", p, got[0]);
  return true;
}

bool cmp_constants(const Pe&) {
  int* ivar = sym<int>(1, {5});
  int* results = dev<int>(19);
  ready();
  LAUNCH(false, xc_cmp_constants, dim3(1), dim3(32), ivar, results);
  done();
  std::vector<int> got = host(results, 19);
  const char* names[6] = {"EQ", "NE", "GT", "GE", "LT", "LE"};
  for (int c = 0; c < 6; ++c) {
    for (int v = 0; v < 3; ++v) {
      const int value = 4 + v;
      const bool expected[6] = {5 == value, 5 != value, 5 > value, 5 >= value, 5 < value, 5 <= value};
      if (got[3 * c + v] != static_cast<int>(expected[c]))
        return fail("test(5 %s %d) returned %d", names[c], value, got[3 * c + v]);
    }
  }
  if (got[18] != 1) return fail("wait_until GE/LE did not return");
  return true;
}

bool signal_set(const Pe& pe) {
  const int n = 256;
  int* dst = sym<int>(n);
  int* src = sym<int>(n, filled<int>(n, [&](int i) { return pe.me * 1000 + i; }));
  uint64_t* sig = sym<uint64_t>(1);
  int* seen = dev<int>(1);
  ready();
  LAUNCH(false, xc_signal_set, dim3(1), dim3(64), dst, static_cast<const int*>(src), sig, seen, n);
  done();
  if (host(seen, 1)[0] != 1) return fail("the data was not there when the signal was");
  if (host(sig, 1)[0] != static_cast<uint64_t>(pe.left + 1)) return fail("signal = %llu", (unsigned long long)host(sig, 1)[0]);
  return true;
}

bool broadcast(const Pe& pe) {
  const int n = 64, root = 1 % pe.npes;
  int* dst = sym<int>(n);
  int* src = sym<int>(n, filled<int>(n, [&](int i) { return pe.me * 100 + i; }));
  ready();
  LAUNCH(true, xc_broadcast, dim3(1), dim3(64), dst, static_cast<const int*>(src), n, root);
  done();
  if (pe.me == root) return true;  // the root's dest is not specified the same way everywhere
  std::vector<int> got = host(dst, n);
  for (int i = 0; i < n; ++i)
    if (got[i] != root * 100 + i) return fail("dst[%d] = %d", i, got[i]);
  return true;
}

bool fcollect(const Pe& pe) {
  const int n = 32;
  int* dst = sym<int>(n * pe.npes);
  int* src = sym<int>(n, filled<int>(n, [&](int i) { return pe.me * 100 + i; }));
  ready();
  LAUNCH(true, xc_fcollect, dim3(1), dim3(64), dst, static_cast<const int*>(src), n);
  done();
  std::vector<int> got = host(dst, n * pe.npes);
  for (int i = 0; i < n * pe.npes; ++i)
    if (got[i] != (i / n) * 100 + i % n) return fail("dst[%d] = %d", i, got[i]);
  return true;
}

bool alltoall(const Pe& pe) {
  const int n = 16;
  int* dst = sym<int>(n * pe.npes);
  int* src = sym<int>(n * pe.npes, filled<int>(n * pe.npes, [&](int i) { return pe.me * 1000 + i; }));
  ready();
  LAUNCH(true, xc_alltoall, dim3(1), dim3(64), dst, static_cast<const int*>(src), n);
  done();
  std::vector<int> got = host(dst, n * pe.npes);
  for (int p = 0; p < pe.npes; ++p)
    for (int i = 0; i < n; ++i)
      if (got[p * n + i] != p * 1000 + pe.me * n + i) return fail("dst[%d] = %d", p * n + i, got[p * n + i]);
  return true;
}

bool barrier_all_wg(const Pe&) {
  int* dst = sym<int>(64);
  int* errors = dev<int>(1);
  ready();
  LAUNCH(true, xc_barrier_all_wg, dim3(1), dim3(64), dst, errors);
  done();
  const int e = host(errors, 1)[0];
  return e == 0 || fail("%d work-items saw stale data after barrier_all_wg", e);
}

bool sync_all_wg(const Pe&) {
  int* dst = sym<int>(64);
  int* errors = dev<int>(1);
  ready();
  LAUNCH(true, xc_sync_all_wg, dim3(1), dim3(64), dst, errors);
  done();
  const int e = host(errors, 1)[0];
  return e == 0 || fail("%d work-items saw stale data after quiet + sync_all_wg", e);
}

bool reductions(const Pe& pe) {
  const int n = 128;
  long* lmax = sym<long>(n);
  long* lsrc = sym<long>(n, filled<long>(n, [&](int i) { return (i * 7L + pe.me * 13L) % 101; }));
  float* fsum = sym<float>(n);
  float* fsrc = sym<float>(n, filled<float>(n, [&](int i) { return pe.me + 0.5f * i; }));
  ready();
  LAUNCH(true, xc_reductions, dim3(1), dim3(64), lmax, static_cast<const long*>(lsrc), fsum,
         static_cast<const float*>(fsrc), n);
  done();
  std::vector<long> lm = host(lmax, n);
  std::vector<float> fs = host(fsum, n);
  for (int i = 0; i < n; ++i) {
    long m = 0;
    float s = 0;
    for (int p = 0; p < pe.npes; ++p) {
      m = std::max(m, (i * 7L + p * 13L) % 101);
      s += p + 0.5f * i;
    }
    if (lm[i] != m) return fail("max[%d] = %ld, expected %ld", i, lm[i], m);
    if (fs[i] != s) return fail("sum[%d] = %g, expected %g", i, fs[i], s);
  }
  return true;
}

bool fence_flag_case(bool fenced, const Pe& pe) {
  const int n = 512;
  int* data = sym<int>(n);
  int* src = sym<int>(n, filled<int>(n, [&](int i) { return pe.me * 1000 + i; }));
  int* flag = sym<int>(1);
  int* seen = dev<int>(1);
  ready();
  if (fenced) {
    LAUNCH(false, xc_fence_flag, dim3(1), dim3(32), data, static_cast<const int*>(src), flag, seen, n);
  } else {
    LAUNCH(false, xc_bug_missing_fence, dim3(1), dim3(32), data, static_cast<const int*>(src), flag, seen, n);
  }
  done();
  return host(seen, 1)[0] == 1 || fail("the flag arrived before the data");
}
bool fence_flag(const Pe& pe) { return fence_flag_case(true, pe); }
bool bug_missing_fence(const Pe& pe) { return fence_flag_case(false, pe); }

bool inter_block_flag(const Pe&) {
  int* flag = dev<int>(1);
  int* data = dev<int>(1);
  int* seen = dev<int>(1);
  ready();
  LAUNCH(true, xc_inter_block_flag, dim3(2), dim3(64), flag, data, seen);
  done();
  return host(seen, 1)[0] == 1 || fail("block 0 never saw block 1's flag");
}

bool wave_reduce_case(bool portable, const Pe&) {
  const int n = 256;
  int* in = dev<int>(n, filled<int>(n, [](int i) { return i % 10 + 1; }));
  int* total = dev<int>(1);
  ready();
  if (portable) {
    LAUNCH(false, xc_wave_reduce, dim3(2), dim3(128), static_cast<const int*>(in), total);
  } else {
    LAUNCH(false, xc_bug_wave64_reduce, dim3(2), dim3(128), static_cast<const int*>(in), total);
  }
  done();
  int expected = 0;
  for (int i = 0; i < n; ++i) expected += i % 10 + 1;
  const int got = host(total, 1)[0];
  return got == expected || fail("total %d, expected %d", got, expected);
}
bool wave_reduce(const Pe& pe) { return wave_reduce_case(true, pe); }
bool bug_wave64_reduce(const Pe& pe) { return wave_reduce_case(false, pe); }

bool ballot(const Pe&) {
  int* count = dev<int>(1);
  ready();
  LAUNCH(false, xc_ballot, dim3(1), dim3(128), count);
  done();
  const int got = host(count, 1)[0];
  return got == 43 || fail("count %d, expected 43", got);
}

bool bug_wave64_signal(const Pe& pe) {
  const int n = 128;
  int* dst = sym<int>(n);
  int* src = sym<int>(n, filled<int>(n, [&](int i) { return pe.me * 1000 + i; }));
  uint64_t* sig = sym<uint64_t>(1);
  ready();
  LAUNCH(false, xc_bug_wave64_signal, dim3(1), dim3(n), dst, static_cast<const int*>(src), sig, pe.right);
  done();
  const uint64_t s = host(sig, 1)[0];
  if (s != n / 64) return fail("signal = %llu, expected %d (one per 64-lane wave)", (unsigned long long)s, n / 64);
  std::vector<int> got = host(dst, n);
  for (int i = 0; i < n; ++i)
    if (got[i] != pe.left * 1000 + i) return fail("dst[%d] = %d", i, got[i]);
  return true;
}

bool bug_half_block_wg(const Pe& pe) {
  const int n = 1024;
  int* dst = sym<int>(n);
  int* src = sym<int>(n, filled<int>(n, [&](int i) { return pe.me * 1000 + i; }));
  ready();
  LAUNCH(false, xc_bug_half_block_wg, dim3(1), dim3(64), dst, static_cast<const int*>(src), n, pe.right);
  done();
  std::vector<int> got = host(dst, n);
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += got[i] != pe.left * 1000 + i;
  return wrong == 0 || fail("%d of %d elements not delivered", wrong, n);
}

bool bug_nbi_reuse(const Pe& pe) {
  const int n = 4096;
  int* dst = sym<int>(n);
  int* src = sym<int>(n, filled<int>(n, [&](int i) { return pe.me * 1000 + i; }));
  ready();
  LAUNCH(false, xc_bug_nbi_reuse, dim3(1), dim3(32), dst, src, n, pe.right);
  done();
  std::vector<int> got = host(dst, n);
  int wrong = 0;
  for (int i = 0; i < n; ++i) wrong += got[i] != pe.left * 1000 + i;
  return wrong == 0 || fail("%d of %d elements came from the reused source", wrong, n);
}

bool bug_lost_update(const Pe& pe) {
  int* counter = sym<int>(1);
  ready();
  LAUNCH(false, xc_bug_lost_update, dim3(2), dim3(64), counter);
  done();
  if (pe.me != 0) return true;
  const int got = host(counter, 1)[0];
  return got == 128 * pe.npes || fail("counter %d, expected %d (lost updates)", got, 128 * pe.npes);
}

struct Case {
  const char* name;
  const char* kind;  // correct | buggy
  bool (*run)(const Pe&);
};
const Case kCases[] = {
    {"sample_ring", "correct", sample_ring},
    {"sample_allreduce", "correct", sample_allreduce},
    {"sample_histogram", "correct", sample_histogram},
    {"sample_pipeline", "correct", sample_pipeline},
    {"sample_scale", "correct", sample_scale},
    {"emu_test_device_ring_putmem_wg", "correct", device_ring_putmem_wg_case},
    {"java_test_probes_echo", "correct", probes_echo},
    {"put_nbi_quiet", "correct", put_nbi_quiet},
    {"get", "correct", get},
    {"putmem_wave", "correct", putmem_wave},
    {"fetch_add", "correct", fetch_add},
    {"compare_swap", "correct", compare_swap},
    {"cmp_constants", "correct", cmp_constants},
    {"signal_set", "correct", signal_set},
    {"broadcast_wg", "correct", broadcast},
    {"fcollect_wg", "correct", fcollect},
    {"alltoall_wg", "correct", alltoall},
    {"barrier_all_wg", "correct", barrier_all_wg},
    {"sync_all_wg", "correct", sync_all_wg},
    {"reductions_wg", "correct", reductions},
    {"fence_flag", "correct", fence_flag},
    {"inter_block_flag", "correct", inter_block_flag},
    {"wave_reduce", "correct", wave_reduce},
    {"ballot", "correct", ballot},
    {"bug_wave64_reduce", "buggy", bug_wave64_reduce},
    {"bug_wave64_signal", "buggy", bug_wave64_signal},
    {"bug_half_block_wg", "buggy", bug_half_block_wg},
    {"bug_nbi_reuse", "buggy", bug_nbi_reuse},
    {"bug_missing_fence", "buggy", bug_missing_fence},
    {"bug_lost_update", "buggy", bug_lost_update},
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: crosscheck <case> | --list\n");
    return 2;
  }
  if (strcmp(argv[1], "--list") == 0) {
    for (const Case& c : kCases) printf("%s %s\n", c.name, c.kind);
    return 0;
  }
  const Case* chosen = nullptr;
  for (const Case& c : kCases)
    if (strcmp(c.name, argv[1]) == 0) chosen = &c;
  if (chosen == nullptr) {
    fprintf(stderr, "crosscheck: unknown case %s\n", argv[1]);
    return 2;
  }
  rocshmem_init();
  Pe pe;
  pe.me = rocshmem_my_pe();
  pe.npes = rocshmem_n_pes();
  pe.left = (pe.me + pe.npes - 1) % pe.npes;
  pe.right = (pe.me + 1) % pe.npes;
  const bool ok = chosen->run(pe);
  if (!ok) printf("PE %d: FAIL %s: %s\n", pe.me, chosen->name, g_why.c_str());
  fflush(stdout);
  rocshmem_barrier_all();
  rocshmem_finalize();
  return ok ? 0 : 1;
}
