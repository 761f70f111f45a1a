// Atomics under contention: every PE hammers the same remote words; totals must be exact and
// the values returned by fetch-ops must form a permutation (no lost or duplicated update).
// Float/double only have fetch/set/swap in the host AMO matrix, so no float add is tested.
#include "emu_test.hpp"

#include <sched.h>

#include <algorithm>
#include <cstdint>
#include <vector>

using namespace rocshmem;

namespace {

int me, npes, right, left;
constexpr int kIncrements = 4000;  // per PE and counter
constexpr int kLockRounds = 300;   // per PE

void test_counters() {
  auto* ctr = static_cast<int*>(rocshmem_calloc(1, sizeof(int)));
  auto* adds = static_cast<int*>(rocshmem_calloc(1, sizeof(int)));
  auto* u64 = static_cast<uint64_t*>(rocshmem_calloc(1, sizeof(uint64_t)));
  auto* sz = static_cast<size_t*>(rocshmem_calloc(1, sizeof(size_t)));
  auto* fetched_all = static_cast<int*>(rocshmem_calloc((size_t)npes * kIncrements, sizeof(int)));
  EMU_CHECK(ctr && adds && u64 && sz && fetched_all, "rocshmem_calloc failed");
  rocshmem_barrier_all();

  const int last = npes - 1;
  std::vector<int> fetched(kIncrements);
  for (int k = 0; k < kIncrements; ++k) {
    fetched[k] = rocshmem_int_atomic_fetch_inc(ctr, 0);
    rocshmem_int_atomic_add(adds, 3, 0);
    rocshmem_uint64_atomic_inc(u64, 0);
    rocshmem_size_atomic_fetch_add(sz, (size_t)me + 1, last);
  }
  // One PE's view of a shared counter only ever grows.
  for (int k = 1; k < kIncrements; ++k)
    EMU_CHECK(fetched[k] > fetched[k - 1], "fetch_inc results not increasing at " + std::to_string(k));
  rocshmem_int_put(fetched_all + me * kIncrements, fetched.data(), kIncrements, 0);
  rocshmem_barrier_all();

  if (me == 0) {
    EMU_CHECK_EQ(*ctr, npes * kIncrements, "int fetch_inc total");
    EMU_CHECK_EQ(*adds, 3 * npes * kIncrements, "int add total");
    EMU_CHECK_EQ(*u64, (uint64_t)npes * kIncrements, "uint64 inc total");
    std::vector<int> all(fetched_all, fetched_all + (size_t)npes * kIncrements);
    std::sort(all.begin(), all.end());
    for (size_t i = 0; i < all.size(); ++i)
      EMU_CHECK_EQ(all[i], (int)i, "sorted fetch_inc results must be 0..N*K-1");
  }
  if (me == last)
    EMU_CHECK_EQ(*sz, (size_t)kIncrements * npes * (npes + 1) / 2, "size fetch_add total");
  // Remote read of the counter agrees with the owner's view.
  EMU_CHECK_EQ(rocshmem_int_atomic_fetch(ctr, 0), npes * kIncrements, "int atomic_fetch of PE 0 counter");
  rocshmem_barrier_all();
  rocshmem_free(fetched_all);
  rocshmem_free(sz);
  rocshmem_free(u64);
  rocshmem_free(adds);
  rocshmem_free(ctr);
  emu_test::passed("contended counters");
}

// A spin lock built on compare_swap protects a non-atomic read-modify-write (g, then p) of a
// counter on PE 0: without mutual exclusion increments would be lost.
void test_cas_lock() {
  auto* lock = static_cast<long*>(rocshmem_calloc(1, sizeof(long)));
  auto* shared = static_cast<int*>(rocshmem_calloc(1, sizeof(int)));
  EMU_CHECK(lock && shared, "rocshmem_calloc failed");
  rocshmem_barrier_all();
  const long token = me + 1;
  for (int r = 0; r < kLockRounds; ++r) {
    while (rocshmem_long_atomic_compare_swap(lock, 0, token, 0) != 0) sched_yield();
    int v = rocshmem_int_g(shared, 0);
    rocshmem_int_p(shared, v + 1, 0);
    rocshmem_quiet();  // the write lands before the lock is released
    long prev = rocshmem_long_atomic_compare_swap(lock, token, 0, 0);
    EMU_CHECK_EQ(prev, token, "lock word while holding the lock");
  }
  rocshmem_barrier_all();
  if (me == 0) {
    EMU_CHECK_EQ(*shared, npes * kLockRounds, "lock-protected counter");
    EMU_CHECK_EQ(*lock, 0L, "lock released");
  }
  rocshmem_barrier_all();
  rocshmem_free(shared);
  rocshmem_free(lock);
  emu_test::passed("compare_swap lock");
}

void test_bitwise() {
  auto* ors = static_cast<uint64_t*>(rocshmem_calloc(1, sizeof(uint64_t)));
  auto* ands = static_cast<uint32_t*>(rocshmem_malloc(sizeof(uint32_t)));
  auto* xors = static_cast<int64_t*>(rocshmem_calloc(1, sizeof(int64_t)));
  auto* plain = static_cast<unsigned int*>(rocshmem_malloc(3 * sizeof(unsigned int)));
  EMU_CHECK(ors && ands && xors && plain, "rocshmem alloc failed");
  *ands = 0xFFFFFFFFu;
  plain[0] = 0;
  plain[1] = 0xFFFFFFFFu;
  plain[2] = 0x0F0F0F0Fu;
  rocshmem_barrier_all();

  const uint64_t my_bit = uint64_t{1} << me;
  uint64_t before_or = rocshmem_uint64_atomic_fetch_or(ors, my_bit, 0);
  EMU_CHECK_EQ(before_or & my_bit, uint64_t{0}, "own bit already set before fetch_or");
  uint32_t before_and = rocshmem_uint32_atomic_fetch_and(ands, ~(1u << me), 0);
  EMU_CHECK_EQ(before_and & (1u << me), 1u << me, "own bit already cleared before fetch_and");
  rocshmem_int64_atomic_fetch_xor(xors, (int64_t)(me + 1) << 20 | 0x5A, 0);
  // Non-fetching forms on the right neighbour: each word has exactly one writer per op.
  rocshmem_uint_atomic_or(&plain[0], 0x100u << me, right);
  rocshmem_uint_atomic_and(&plain[1], ~(0x100u << me), right);
  rocshmem_uint_atomic_xor(&plain[2], 0xFFFFFFFFu, right);
  rocshmem_barrier_all();

  const uint64_t all_bits = (uint64_t{1} << npes) - 1;
  int64_t expected_xor = 0;
  for (int p = 0; p < npes; ++p) expected_xor ^= (int64_t)(p + 1) << 20 | 0x5A;
  if (me == 0) {
    EMU_CHECK_EQ(*ors, all_bits, "fetch_or of every PE's bit");
    EMU_CHECK_EQ(*ands, ~(uint32_t)all_bits, "fetch_and clearing every PE's bit");
    EMU_CHECK_EQ(*xors, expected_xor, "fetch_xor of every PE's value");
  }
  EMU_CHECK_EQ(plain[0], 0x100u << left, "uint or from left neighbour");
  EMU_CHECK_EQ(plain[1], ~(0x100u << left), "uint and from left neighbour");
  EMU_CHECK_EQ(plain[2], 0xF0F0F0F0u, "uint xor from left neighbour");
  rocshmem_barrier_all();
  rocshmem_free(plain);
  rocshmem_free(xors);
  rocshmem_free(ands);
  rocshmem_free(ors);
  emu_test::passed("bitwise atomics");
}

// fetch/set/swap (incl. float and double) and a failing compare_swap, one writer per word.
void test_fetch_set_swap() {
  auto* f = static_cast<float*>(rocshmem_calloc(1, sizeof(float)));
  auto* d = static_cast<double*>(rocshmem_calloc(1, sizeof(double)));
  auto* l = static_cast<long*>(rocshmem_calloc(1, sizeof(long)));
  EMU_CHECK(f && d && l, "rocshmem_calloc failed");
  rocshmem_barrier_all();
  rocshmem_float_atomic_set(f, me + 0.5f, right);
  rocshmem_double_atomic_set(d, me + 0.25, right);
  rocshmem_long_atomic_set(l, 1000L + me, right);
  rocshmem_barrier_all();
  EMU_CHECK_EQ(rocshmem_float_atomic_fetch(f, me), left + 0.5f, "float set by left neighbour");
  EMU_CHECK_EQ(rocshmem_double_atomic_fetch(d, right), me + 0.25, "double I set on right neighbour");
  rocshmem_barrier_all();  // the left neighbour swaps my float next
  EMU_CHECK_EQ(rocshmem_float_atomic_swap(f, 100.0f + me, right), me + 0.5f, "float swap old value");
  EMU_CHECK_EQ(rocshmem_double_atomic_swap(d, -1.0 * me, right), me + 0.25, "double swap old value");
  // A compare_swap whose condition does not hold returns the current value and changes nothing.
  EMU_CHECK_EQ(rocshmem_long_atomic_compare_swap(l, -5L, 7L, right), 1000L + me, "failed compare_swap");
  EMU_CHECK_EQ(rocshmem_long_atomic_compare_swap(l, 1000L + me, 2000L + me, right), 1000L + me,
               "successful compare_swap");
  rocshmem_barrier_all();
  EMU_CHECK_EQ(*f, 100.0f + left, "float after swap");
  EMU_CHECK_EQ(*d, -1.0 * left, "double after swap");
  EMU_CHECK_EQ(*l, 2000L + left, "long after compare_swap");
  rocshmem_barrier_all();
  rocshmem_free(l);
  rocshmem_free(d);
  rocshmem_free(f);
  emu_test::passed("fetch/set/swap/compare_swap");
}

void test_ctx_atomics() {
  rocshmem_ctx_t ctx;
  EMU_CHECK_EQ(rocshmem_ctx_create(0, &ctx), 0, "rocshmem_ctx_create");
  auto* c = static_cast<long long*>(rocshmem_calloc(1, sizeof(long long)));
  EMU_CHECK(c, "rocshmem_calloc failed");
  rocshmem_barrier_all();
  for (int k = 0; k < 500; ++k) rocshmem_ctx_longlong_atomic_fetch_add(ctx, c, 2, 0);
  rocshmem_ctx_quiet(ctx);
  rocshmem_barrier_all();
  if (me == 0) EMU_CHECK_EQ(*c, 2LL * 500 * npes, "ctx longlong fetch_add total");
  rocshmem_barrier_all();
  rocshmem_ctx_destroy(ctx);
  rocshmem_free(c);
  emu_test::passed("ctx atomics");
}

}  // namespace

int main() {
  std::tie(me, npes, right, left) = emu_test::init_ring();
  test_counters();
  test_cas_lock();
  test_bitwise();
  test_fetch_set_swap();
  test_ctx_atomics();
  rocshmem_finalize();
  return 0;
}
