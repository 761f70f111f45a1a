// RMA: putmem/getmem, typed put/get/p/g, nbi + quiet, contexts, rocshmem_ptr.
// Every PE writes a pattern that encodes (sender, index) into its right neighbour; after a barrier
// the target checks it holds exactly its left neighbour's pattern.
#include "emu_test.hpp"

#include <cstdint>
#include <cstring>
#include <vector>

using namespace rocshmem;

namespace {

int me, npes, right, left;

// The value PE `sender` writes at index i; differs per sender, per index and per type width.
template <typename T>
T pattern(int sender, size_t i) {
  return static_cast<T>(static_cast<uint64_t>(sender + 1) * 1000003u + i * 7u + 1u);
}

uint8_t byte_pattern(int sender, size_t i) { return static_cast<uint8_t>(sender * 31 + i * 13 + 5); }

void test_putmem_getmem() {
  const size_t bytes = 1 << 20;
  auto* dest = static_cast<uint8_t*>(rocshmem_malloc(bytes));
  auto* sym_src = static_cast<uint8_t*>(rocshmem_malloc(bytes));
  EMU_CHECK(dest && sym_src, "rocshmem_malloc(1 MiB) failed");
  memset(dest, 0, bytes);
  std::vector<uint8_t> local(bytes);
  for (size_t i = 0; i < bytes; ++i) {
    local[i] = byte_pattern(me, i);
    sym_src[i] = byte_pattern(me, i);
  }
  rocshmem_barrier_all();  // dest zeroed everywhere before anyone writes into it

  rocshmem_putmem(dest, local.data(), bytes, right);  // source need not be symmetric
  rocshmem_barrier_all();
  for (size_t i = 0; i < bytes; ++i)
    if (dest[i] != byte_pattern(left, i))
      EMU_CHECK_EQ(dest[i], byte_pattern(left, i), "putmem from left neighbour, byte " + std::to_string(i));

  std::vector<uint8_t> got(bytes, 0);
  rocshmem_getmem(got.data(), sym_src, bytes, right);  // blocking: data is there on return
  for (size_t i = 0; i < bytes; ++i)
    if (got[i] != byte_pattern(right, i))
      EMU_CHECK_EQ(got[i], byte_pattern(right, i), "getmem from right neighbour, byte " + std::to_string(i));

  // Put to self: a put like any other, complete at quiet (not at return).
  std::vector<uint8_t> mine(64, 0xA5);
  rocshmem_putmem(dest, mine.data(), mine.size(), me);
  rocshmem_quiet();
  EMU_CHECK_EQ(dest[0], uint8_t{0xA5}, "putmem to self");
  EMU_CHECK_EQ(dest[64], byte_pattern(left, 64), "putmem to self wrote past its length");

  EMU_CHECK_EQ(rocshmem_ptr(dest, me), static_cast<void*>(dest), "rocshmem_ptr to own PE");
  rocshmem_barrier_all();
  rocshmem_free(sym_src);
  rocshmem_free(dest);
  emu_test::passed("putmem/getmem");
}

// Typed put (and get of the neighbour's source), checked element by element.
template <typename T, typename Put, typename Get>
void check_typed(const char* name, Put put, Get get) {
  const size_t n = 1000;
  auto* dest = static_cast<T*>(rocshmem_malloc(n * sizeof(T)));
  auto* src = static_cast<T*>(rocshmem_malloc(n * sizeof(T)));
  EMU_CHECK(dest && src, "rocshmem_malloc failed");
  for (size_t i = 0; i < n; ++i) {
    src[i] = pattern<T>(me, i);
    dest[i] = T{};
  }
  rocshmem_barrier_all();
  put(dest, src, n, right);
  rocshmem_barrier_all();
  for (size_t i = 0; i < n; ++i)
    EMU_CHECK_EQ(dest[i], pattern<T>(left, i), std::string(name) + "_put element " + std::to_string(i));
  std::vector<T> got(n);
  get(got.data(), src, n, right);
  for (size_t i = 0; i < n; ++i)
    EMU_CHECK_EQ(got[i], pattern<T>(right, i), std::string(name) + "_get element " + std::to_string(i));
  rocshmem_barrier_all();
  rocshmem_free(src);
  rocshmem_free(dest);
}

void test_typed_put_get() {
  check_typed<int>("int", rocshmem_int_put, rocshmem_int_get);
  check_typed<long>("long", rocshmem_long_put, rocshmem_long_get);
  check_typed<double>("double", rocshmem_double_put, rocshmem_double_get);
  check_typed<uint8_t>("uint8", rocshmem_uint8_put, rocshmem_uint8_get);
  check_typed<int16_t>("int16", rocshmem_int16_put, rocshmem_int16_get);
  check_typed<uint64_t>("uint64", rocshmem_uint64_put, rocshmem_uint64_get);
  check_typed<size_t>("size", rocshmem_size_put, rocshmem_size_get);
  emu_test::passed("typed put/get");
}

// Single-element p/g: every PE writes its own slot on every PE, then reads the slots back remotely.
void test_p_g() {
  auto* ints = static_cast<int*>(rocshmem_calloc(npes, sizeof(int)));
  auto* dbls = static_cast<double*>(rocshmem_calloc(npes, sizeof(double)));
  auto* u64s = static_cast<uint64_t*>(rocshmem_calloc(npes, sizeof(uint64_t)));
  EMU_CHECK(ints && dbls && u64s, "rocshmem_calloc failed");
  rocshmem_barrier_all();
  for (int pe = 0; pe < npes; ++pe) {
    rocshmem_int_p(&ints[me], me * 100 + pe, pe);
    rocshmem_double_p(&dbls[me], me + pe * 0.25, pe);
    rocshmem_uint64_p(&u64s[me], (uint64_t{1} << 40) + me * 10 + pe, pe);
  }
  rocshmem_barrier_all();
  for (int s = 0; s < npes; ++s) {
    EMU_CHECK_EQ(ints[s], s * 100 + me, "int_p slot of PE " + std::to_string(s));
    EMU_CHECK_EQ(dbls[s], s + me * 0.25, "double_p slot of PE " + std::to_string(s));
    EMU_CHECK_EQ(u64s[s], (uint64_t{1} << 40) + s * 10 + me, "uint64_p slot of PE " + std::to_string(s));
  }
  for (int pe = 0; pe < npes; ++pe) {
    EMU_CHECK_EQ(rocshmem_int_g(&ints[me], pe), me * 100 + pe, "int_g from PE " + std::to_string(pe));
    EMU_CHECK_EQ(rocshmem_double_g(&dbls[me], pe), me + pe * 0.25, "double_g from PE " + std::to_string(pe));
    EMU_CHECK_EQ(rocshmem_uint64_g(&u64s[me], pe), (uint64_t{1} << 40) + me * 10 + pe,
                 "uint64_g from PE " + std::to_string(pe));
  }
  rocshmem_barrier_all();
  rocshmem_free(u64s);
  rocshmem_free(dbls);
  rocshmem_free(ints);
  emu_test::passed("p/g");
}

// Non-blocking puts/gets in several chunks, completed by quiet.
void test_nbi_quiet() {
  const size_t n = 4096, chunks = 8, per = n / chunks;
  auto* dest = static_cast<long*>(rocshmem_calloc(n, sizeof(long)));
  auto* src = static_cast<long*>(rocshmem_malloc(n * sizeof(long)));
  EMU_CHECK(dest && src, "rocshmem alloc failed");
  for (size_t i = 0; i < n; ++i) src[i] = pattern<long>(me, i);
  rocshmem_barrier_all();
  for (size_t c = 0; c < chunks; ++c) {
    if (c % 2)
      rocshmem_long_put_nbi(dest + c * per, src + c * per, per, right);
    else
      rocshmem_putmem_nbi(dest + c * per, src + c * per, per * sizeof(long), right);
  }
  rocshmem_quiet();
  rocshmem_barrier_all();
  for (size_t i = 0; i < n; ++i)
    EMU_CHECK_EQ(dest[i], pattern<long>(left, i), "put_nbi+quiet element " + std::to_string(i));

  std::vector<long> got(n, 0);
  for (size_t c = 0; c < chunks; ++c) {
    if (c % 2)
      rocshmem_long_get_nbi(got.data() + c * per, src + c * per, per, right);
    else
      rocshmem_getmem_nbi(got.data() + c * per, src + c * per, per * sizeof(long), right);
  }
  rocshmem_quiet();
  for (size_t i = 0; i < n; ++i)
    EMU_CHECK_EQ(got[i], pattern<long>(right, i), "get_nbi+quiet element " + std::to_string(i));
  rocshmem_barrier_all();
  rocshmem_free(src);
  rocshmem_free(dest);
  emu_test::passed("nbi + quiet");
}

// The same operations through an explicitly created context.
void test_ctx() {
  rocshmem_ctx_t ctx;
  EMU_CHECK_EQ(rocshmem_ctx_create(0, &ctx), 0, "rocshmem_ctx_create");
  const size_t n = 257;
  auto* dest = static_cast<int*>(rocshmem_calloc(n, sizeof(int)));
  auto* src = static_cast<int*>(rocshmem_malloc(n * sizeof(int)));
  EMU_CHECK(dest && src, "rocshmem alloc failed");
  for (size_t i = 0; i < n; ++i) src[i] = pattern<int>(me, i);
  rocshmem_barrier_all();
  rocshmem_ctx_int_put_nbi(ctx, dest, src, n - 1, right);
  rocshmem_ctx_int_p(ctx, dest + n - 1, -me, right);
  rocshmem_ctx_quiet(ctx);
  rocshmem_barrier_all();
  for (size_t i = 0; i + 1 < n; ++i)
    EMU_CHECK_EQ(dest[i], pattern<int>(left, i), "ctx_int_put_nbi element " + std::to_string(i));
  EMU_CHECK_EQ(dest[n - 1], -left, "ctx_int_p");
  EMU_CHECK_EQ(rocshmem_ctx_int_g(ctx, src + 3, right), pattern<int>(right, 3), "ctx_int_g");
  std::vector<int> got(n);
  rocshmem_ctx_getmem(ctx, got.data(), src, n * sizeof(int), right);
  for (size_t i = 0; i < n; ++i)
    EMU_CHECK_EQ(got[i], pattern<int>(right, i), "ctx_getmem element " + std::to_string(i));
  rocshmem_barrier_all();
  rocshmem_ctx_destroy(ctx);
  rocshmem_free(src);
  rocshmem_free(dest);
  emu_test::passed("ctx put/get");
}

// Every PE writes its own row on every PE: exercises all pairs, not just neighbours.
void test_all_pairs() {
  const size_t row = 128;
  auto* grid = static_cast<int32_t*>(rocshmem_calloc(row * npes, sizeof(int32_t)));
  EMU_CHECK(grid, "rocshmem_calloc failed");
  rocshmem_barrier_all();
  std::vector<int32_t> mine(row);
  for (int pe = 0; pe < npes; ++pe) {
    for (size_t i = 0; i < row; ++i) mine[i] = me * 1000000 + pe * 1000 + (int32_t)i;
    rocshmem_int32_put(grid + me * row, mine.data(), row, pe);
  }
  rocshmem_barrier_all();
  for (int s = 0; s < npes; ++s)
    for (size_t i = 0; i < row; ++i)
      EMU_CHECK_EQ(grid[s * row + i], s * 1000000 + me * 1000 + (int32_t)i,
                   "row from PE " + std::to_string(s) + " element " + std::to_string(i));
  rocshmem_barrier_all();
  rocshmem_free(grid);
  emu_test::passed("all pairs");
}

}  // namespace

int main() {
  std::tie(me, npes, right, left) = emu_test::init_ring();
  test_putmem_getmem();
  test_typed_put_get();
  test_p_g();
  test_nbi_quiet();
  test_ctx();
  test_all_pairs();
  rocshmem_finalize();
  return 0;
}
