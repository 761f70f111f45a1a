// Collectives with exact results: broadcast (team and legacy active-set forms), reductions
// (sum/min/max/prod/and/or/xor on integer types, sum/min/max/prod on float/double), reduce_scatter,
// and the stream-ordered alltoallmem / broadcastmem / reduce. Expected values are recomputed here
// from the same per-PE input formula. (fcollect has no host function in rocSHMEM, so none here.)
#include "emu_test.hpp"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

using namespace rocshmem;

namespace {

int me, npes;

#define HIP_CHECK(call) EMU_CHECK_EQ((call), hipSuccess, #call)

template <typename T>
T* sym_alloc(size_t n) {
  auto* p = static_cast<T*>(rocshmem_calloc(n, sizeof(T)));
  EMU_CHECK(p, "rocshmem_calloc failed");
  return p;
}

void test_broadcast() {
  const int n = 300;
  auto* src = sym_alloc<long>(n);
  auto* dst = sym_alloc<long>(n);
  for (int root = 0; root < npes; ++root) {
    for (int i = 0; i < n; ++i) {
      src[i] = me * 100000L + root * 1000L + i;  // only the root's values may arrive
      dst[i] = -1;
    }
    rocshmem_barrier_all();
    rocshmem_ctx_long_broadcast(ROCSHMEM_CTX_DEFAULT, ROCSHMEM_TEAM_WORLD, dst, src, n, root);
    rocshmem_barrier_all();
    // The team form follows OpenSHMEM 1.5: the root's dest receives the data too.
    for (int i = 0; i < n; ++i)
      EMU_CHECK_EQ(dst[i], root * 100000L + root * 1000L + i, "broadcast from root " + std::to_string(root));
  }

  // Legacy active-set form over all PEs (start 0, log stride 0) with a pSync work array.
  auto* psync = sym_alloc<long>(ROCSHMEM_BCAST_SYNC_SIZE);
  for (size_t i = 0; i < ROCSHMEM_BCAST_SYNC_SIZE; ++i) psync[i] = ROCSHMEM_SYNC_VALUE;
  auto* isrc = sym_alloc<int>(n);
  auto* idst = sym_alloc<int>(n);
  const int root = npes - 1;
  for (int i = 0; i < n; ++i) isrc[i] = me * 7 + i;
  rocshmem_barrier_all();
  rocshmem_ctx_int_broadcast(ROCSHMEM_CTX_DEFAULT, idst, isrc, n, root, 0, 0, npes, psync);
  rocshmem_barrier_all();
  if (me != root)  // the legacy form (OpenSHMEM 1.4) leaves the root's dest alone
    for (int i = 0; i < n; ++i) EMU_CHECK_EQ(idst[i], root * 7 + i, "active-set broadcast");
  if (me == root) EMU_CHECK_EQ(idst[0], 0, "active-set broadcast wrote the root's dest");
  rocshmem_barrier_all();
  for (void* p : {(void*)idst, (void*)isrc, (void*)psync, (void*)dst, (void*)src}) rocshmem_free(p);
  emu_test::passed("broadcast");
}

// Input of PE p at index i, kept small so that products of up to 4 PEs stay exact.
template <typename T>
T input(int p, int i) {
  return static_cast<T>(((p * 5 + i * 3) % 7) + 1 + (i % 2 ? 0 : p));
}

template <typename T>
using Reduce = int (*)(rocshmem_ctx_t, rocshmem_team_t, T*, const T*, int);

template <typename T>
void check_reduce(const char* name, Reduce<T> reduce, const std::function<T(T, T)>& op) {
  const int n = 97;
  auto* src = sym_alloc<T>(n);
  auto* dst = sym_alloc<T>(n);
  for (int i = 0; i < n; ++i) src[i] = input<T>(me, i);
  rocshmem_barrier_all();
  EMU_CHECK_EQ(reduce(ROCSHMEM_CTX_DEFAULT, ROCSHMEM_TEAM_WORLD, dst, src, n), 0, std::string(name) + " status");
  for (int i = 0; i < n; ++i) {
    T expected = input<T>(0, i);
    for (int p = 1; p < npes; ++p) expected = op(expected, input<T>(p, i));
    EMU_CHECK_EQ(dst[i], expected, std::string(name) + " element " + std::to_string(i));
  }
  rocshmem_barrier_all();
  rocshmem_free(dst);
  rocshmem_free(src);
}

template <typename T>
T add(T a, T b) { return a + b; }
template <typename T>
T mul(T a, T b) { return a * b; }
template <typename T>
T min_of(T a, T b) { return std::min(a, b); }
template <typename T>
T max_of(T a, T b) { return std::max(a, b); }
template <typename T>
T and_of(T a, T b) { return a & b; }
template <typename T>
T or_of(T a, T b) { return a | b; }
template <typename T>
T xor_of(T a, T b) { return a ^ b; }

void test_reductions() {
  check_reduce<int>("int sum", rocshmem_ctx_int_sum_reduce, add<int>);
  check_reduce<int>("int min", rocshmem_ctx_int_min_reduce, min_of<int>);
  check_reduce<int>("int max", rocshmem_ctx_int_max_reduce, max_of<int>);
  check_reduce<int>("int prod", rocshmem_ctx_int_prod_reduce, mul<int>);
  check_reduce<int>("int and", rocshmem_ctx_int_and_reduce, and_of<int>);
  check_reduce<int>("int or", rocshmem_ctx_int_or_reduce, or_of<int>);
  check_reduce<int>("int xor", rocshmem_ctx_int_xor_reduce, xor_of<int>);
  check_reduce<long>("long sum", rocshmem_ctx_long_sum_reduce, add<long>);
  check_reduce<long>("long xor", rocshmem_ctx_long_xor_reduce, xor_of<long>);
  check_reduce<short>("short max", rocshmem_ctx_short_max_reduce, max_of<short>);
  check_reduce<short>("short or", rocshmem_ctx_short_or_reduce, or_of<short>);
  check_reduce<long long>("longlong prod", rocshmem_ctx_longlong_prod_reduce, mul<long long>);
  check_reduce<long long>("longlong and", rocshmem_ctx_longlong_and_reduce, and_of<long long>);
  check_reduce<float>("float sum", rocshmem_ctx_float_sum_reduce, add<float>);
  check_reduce<float>("float min", rocshmem_ctx_float_min_reduce, min_of<float>);
  check_reduce<double>("double max", rocshmem_ctx_double_max_reduce, max_of<double>);
  check_reduce<double>("double prod", rocshmem_ctx_double_prod_reduce, mul<double>);
  emu_test::passed("reductions");
}

// Large reductions take the split path (reduce-scatter then allgather through the PEs' dests,
// from 16 KiB with a symmetric dest): sizes that do not divide by the team size, in place, a dest
// off the 16-byte alignment, a private (non-symmetric) dest, which takes the direct path, and a float sum whose result depends
// on the order of combination: it must equal PE 0's value + PE 1's + ... in that order, on every PE.
void test_large_reductions() {
  for (int n : {2049, 100003}) {
    auto* src = sym_alloc<long>(n);
    auto* dst = sym_alloc<long>(n);
    for (int i = 0; i < n; ++i) src[i] = (long)me * 1000003L + i;
    rocshmem_barrier_all();
    EMU_CHECK_EQ(rocshmem_ctx_long_sum_reduce(ROCSHMEM_CTX_DEFAULT, ROCSHMEM_TEAM_WORLD, dst, src, n), 0,
                 "large long sum status");
    const long pe_sum = (long)npes * (npes - 1) / 2 * 1000003L;
    for (int i = 0; i < n; ++i)
      if (dst[i] != pe_sum + (long)npes * i)
        EMU_CHECK_EQ(dst[i], pe_sum + (long)npes * i, "large long sum (n " + std::to_string(n) + ") element " +
                                                          std::to_string(i));
    // In place: dest == source.
    EMU_CHECK_EQ(rocshmem_ctx_long_max_reduce(ROCSHMEM_CTX_DEFAULT, ROCSHMEM_TEAM_WORLD, src, src, n), 0,
                 "in-place max status");
    for (int i = 0; i < n; ++i)
      if (src[i] != (long)(npes - 1) * 1000003L + i)
        EMU_CHECK_EQ(src[i], (long)(npes - 1) * 1000003L + i, "in-place max element " + std::to_string(i));
    // A dest 8 bytes past a 16-byte boundary (the allgather's streaming copy starts unaligned).
    auto* shifted = sym_alloc<long>(n + 1);
    for (int i = 0; i < n; ++i) src[i] = (long)me * 1000003L + i;
    rocshmem_barrier_all();
    EMU_CHECK_EQ(rocshmem_ctx_long_sum_reduce(ROCSHMEM_CTX_DEFAULT, ROCSHMEM_TEAM_WORLD, shifted + 1, src, n), 0,
                 "shifted-dest sum status");
    for (int i = 0; i < n; ++i)
      if (shifted[i + 1] != pe_sum + (long)npes * i)
        EMU_CHECK_EQ(shifted[i + 1], pe_sum + (long)npes * i, "shifted-dest sum element " + std::to_string(i));
    EMU_CHECK_EQ(shifted[0], 0L, "shifted-dest sum wrote before dest");
    rocshmem_barrier_all();
    rocshmem_free(shifted);
    // A private dest (direct path) gives the same sums.
    for (int i = 0; i < n; ++i) src[i] = (long)me * 1000003L + i;
    std::vector<long> private_dst(n, -1);
    rocshmem_barrier_all();
    EMU_CHECK_EQ(rocshmem_ctx_long_sum_reduce(ROCSHMEM_CTX_DEFAULT, ROCSHMEM_TEAM_WORLD, private_dst.data(), src, n),
                 0, "private-dest sum status");
    for (int i = 0; i < n; ++i)
      if (private_dst[i] != pe_sum + (long)npes * i)
        EMU_CHECK_EQ(private_dst[i], pe_sum + (long)npes * i, "private-dest sum element " + std::to_string(i));
    rocshmem_barrier_all();
    rocshmem_free(dst);
    rocshmem_free(src);
  }
  // Float sums in team-index order: 1e8 + 1 + ... is not 1 + ... + 1e8 in single precision.
  const int n = 8191;
  auto* fsrc = sym_alloc<float>(n);
  auto* fdst = sym_alloc<float>(n);
  auto value = [](int p, int i) { return p % 2 == 0 ? 1.0e8f * float((i % 5) + 1) : 1.0f + float(i % 3); };
  for (int i = 0; i < n; ++i) fsrc[i] = (me % 3 == 2 ? -1.0f : 1.0f) * value(me, i);
  rocshmem_barrier_all();
  EMU_CHECK_EQ(rocshmem_ctx_float_sum_reduce(ROCSHMEM_CTX_DEFAULT, ROCSHMEM_TEAM_WORLD, fdst, fsrc, n), 0,
               "large float sum status");
  for (int i = 0; i < n; ++i) {
    float expected = value(0, i);
    for (int p = 1; p < npes; ++p) expected += (p % 3 == 2 ? -1.0f : 1.0f) * value(p, i);
    if (fdst[i] != expected)
      EMU_CHECK_EQ(fdst[i], expected, "float sum in PE order, element " + std::to_string(i));
  }
  rocshmem_barrier_all();
  rocshmem_free(fdst);
  rocshmem_free(fsrc);
  emu_test::passed("large reductions (split path, in place, private dest, float order)");
}

// reduce_scatter: source holds npes blocks of nreduce elements; PE p receives the reduction of
// block p (the NVSHMEM/MPI convention; the manifest gives only the signature).
void test_reduce_scatter() {
  const int nreduce = 33;
  auto* src = sym_alloc<int>((size_t)nreduce * npes);
  auto* dst = sym_alloc<int>(nreduce);
  for (int i = 0; i < nreduce * npes; ++i) src[i] = input<int>(me, i);
  rocshmem_barrier_all();
  EMU_CHECK_EQ(rocshmem_ctx_int_sum_reduce_scatter(ROCSHMEM_CTX_DEFAULT, ROCSHMEM_TEAM_WORLD, dst, src, nreduce),
               0, "sum_reduce_scatter status");
  for (int i = 0; i < nreduce; ++i) {
    int expected = 0;
    for (int p = 0; p < npes; ++p) expected += input<int>(p, me * nreduce + i);
    EMU_CHECK_EQ(dst[i], expected, "sum_reduce_scatter element " + std::to_string(i));
  }
  rocshmem_barrier_all();
  EMU_CHECK_EQ(rocshmem_ctx_int_max_reduce_scatter(ROCSHMEM_CTX_DEFAULT, ROCSHMEM_TEAM_WORLD, dst, src, nreduce),
               0, "max_reduce_scatter status");
  for (int i = 0; i < nreduce; ++i) {
    int expected = input<int>(0, me * nreduce + i);
    for (int p = 1; p < npes; ++p) expected = std::max(expected, input<int>(p, me * nreduce + i));
    EMU_CHECK_EQ(dst[i], expected, "max_reduce_scatter element " + std::to_string(i));
  }
  rocshmem_barrier_all();
  rocshmem_free(dst);
  rocshmem_free(src);
  emu_test::passed("reduce_scatter");
}

// Stream-ordered collectives; results are read after hipStreamSynchronize.
void test_on_stream() {
  hipStream_t stream;
  HIP_CHECK(hipStreamCreate(&stream));
  const size_t per_pe = 64;  // bytes each PE sends to each PE
  auto* a2a_src = sym_alloc<uint8_t>(per_pe * npes);
  auto* a2a_dst = sym_alloc<uint8_t>(per_pe * npes);
  for (int p = 0; p < npes; ++p)
    for (size_t b = 0; b < per_pe; ++b) a2a_src[p * per_pe + b] = (uint8_t)(me * 64 + p * 8 + b);
  const int n = 50;
  auto* bsrc = sym_alloc<double>(n);
  auto* bdst = sym_alloc<double>(n);
  for (int i = 0; i < n; ++i) bsrc[i] = me + i / 8.0;
  auto* rsrc = sym_alloc<long>(n);
  auto* rdst = sym_alloc<long>(n);
  for (int i = 0; i < n; ++i) rsrc[i] = input<long>(me, i);
  rocshmem_barrier_all();

  const int root = npes > 1 ? 1 : 0;
  rocshmem_alltoallmem_on_stream(ROCSHMEM_TEAM_WORLD, a2a_dst, a2a_src, per_pe, stream);
  rocshmem_broadcastmem_on_stream(ROCSHMEM_TEAM_WORLD, bdst, bsrc, n * sizeof(double), root, stream);
  EMU_CHECK_EQ(rocshmem_ctx_long_sum_reduce_on_stream(ROCSHMEM_CTX_DEFAULT, ROCSHMEM_TEAM_WORLD, rdst, rsrc, n,
                                                      stream),
               0, "long_sum_reduce_on_stream status");
  rocshmem_barrier_all_on_stream(stream);
  HIP_CHECK(hipStreamSynchronize(stream));

  for (int p = 0; p < npes; ++p)
    for (size_t b = 0; b < per_pe; ++b)
      EMU_CHECK_EQ(a2a_dst[p * per_pe + b], (uint8_t)(p * 64 + me * 8 + b),
                   "alltoallmem block from PE " + std::to_string(p));
  if (me != root)
    for (int i = 0; i < n; ++i) EMU_CHECK_EQ(bdst[i], root + i / 8.0, "broadcastmem_on_stream");
  for (int i = 0; i < n; ++i) {
    long expected = 0;
    for (int p = 0; p < npes; ++p) expected += input<long>(p, i);
    EMU_CHECK_EQ(rdst[i], expected, "sum_reduce_on_stream element " + std::to_string(i));
  }
  rocshmem_barrier_all();
  HIP_CHECK(hipStreamDestroy(stream));
  for (void* p : {(void*)rdst, (void*)rsrc, (void*)bdst, (void*)bsrc, (void*)a2a_dst, (void*)a2a_src})
    rocshmem_free(p);
  emu_test::passed("on_stream collectives");
}

}  // namespace

int main() {
  me = emu_test::init();
  npes = rocshmem_n_pes();
  test_broadcast();
  test_reductions();
  test_large_reductions();
  test_reduce_scatter();
  test_on_stream();
  rocshmem_finalize();
  return 0;
}
