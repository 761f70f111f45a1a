// Symmetric heap: malloc/calloc/align/free give the same heap offsets on every PE (that is what
// makes an address usable as a remote address), calloc zeroes reused memory, align honours the
// alignment, and a request larger than the heap returns nullptr on every PE without breaking
// later allocations. Run with a small ROCSHMEM_HEAP_SIZE (set by CMake) so exhaustion is cheap.
#include "emu_test.hpp"

#include <cstdint>
#include <cstring>
#include <vector>

using namespace rocshmem;

namespace {

int me, npes;

// A fixed, irregular allocation script; every PE runs the same one.
std::vector<int64_t> run_allocation_script(uint8_t* base) {
  std::vector<int64_t> offsets;
  std::vector<void*> live;
  auto record = [&](void* p) {
    EMU_CHECK(p != nullptr, "allocation " + std::to_string(offsets.size()) + " returned nullptr");
    offsets.push_back(static_cast<uint8_t*>(p) - base);
    live.push_back(p);
  };
  const size_t sizes[] = {1, 7, 64, 4096, 100, 1 << 16, 3, 250000};
  for (size_t s : sizes) record(rocshmem_malloc(s));
  for (size_t a : {16, 256, 4096, 65536}) {
    void* p = rocshmem_align(a, 1000 + a);
    EMU_CHECK(p != nullptr, "rocshmem_align(" + std::to_string(a) + ") returned nullptr");
    EMU_CHECK_EQ(reinterpret_cast<uintptr_t>(p) % a, uintptr_t{0}, "address from rocshmem_align(" + std::to_string(a) + ") modulo alignment");
    record(p);
  }
  record(rocshmem_calloc(33, 17));
  // Free every other block, then allocate again: reuse decisions must also be identical.
  const size_t first_round = live.size();
  for (size_t i = 0; i < first_round; i += 2) rocshmem_free(live[i]);
  for (size_t s : {50, 5000, 70000}) record(rocshmem_malloc(s));
  for (size_t i = 1; i < first_round; i += 2) rocshmem_free(live[i]);
  for (size_t i = first_round; i < live.size(); ++i) rocshmem_free(live[i]);
  return offsets;
}

void test_symmetric_offsets() {
  auto* anchor = static_cast<uint8_t*>(rocshmem_malloc(8));
  EMU_CHECK(anchor, "anchor allocation failed");
  std::vector<int64_t> offsets = run_allocation_script(anchor);
  const size_t n = offsets.size();
  // Everyone publishes its offsets to PE 0, which compares them with its own.
  auto* table = static_cast<int64_t*>(rocshmem_calloc(n * npes, sizeof(int64_t)));
  EMU_CHECK(table, "table allocation failed");
  rocshmem_int64_put(table + me * n, offsets.data(), n, 0);
  rocshmem_barrier_all();
  if (me == 0)
    for (int p = 1; p < npes; ++p)
      for (size_t i = 0; i < n; ++i)
        EMU_CHECK_EQ(table[p * n + i], table[i],
                     "offset of allocation " + std::to_string(i) + " on PE " + std::to_string(p) + " vs PE 0");
  // Offsets must also be distinct among blocks that were live at the same time (the first 13).
  for (size_t i = 0; i < 13; ++i)
    for (size_t j = i + 1; j < 13; ++j) EMU_CHECK(offsets[i] != offsets[j], "two live blocks share an offset");
  rocshmem_barrier_all();
  rocshmem_free(table);
  rocshmem_free(anchor);
  emu_test::passed("symmetric offsets");
}

void test_calloc_zeroes_reused_memory() {
  const size_t bytes = 1 << 16;
  for (int round = 0; round < 4; ++round) {
    auto* dirty = static_cast<uint8_t*>(rocshmem_malloc(bytes));
    EMU_CHECK(dirty, "malloc failed");
    memset(dirty, 0xEE, bytes);
    rocshmem_free(dirty);
    auto* clean = static_cast<uint8_t*>(rocshmem_calloc(bytes / 8, 8));
    EMU_CHECK(clean, "calloc failed");
    for (size_t i = 0; i < bytes; ++i)
      if (clean[i]) EMU_CHECK_EQ(clean[i], uint8_t{0}, "calloc byte " + std::to_string(i));
    rocshmem_free(clean);
  }
  emu_test::passed("calloc zeroes");
}

void test_remote_access_to_fresh_block() {
  // A block allocated after frees is still addressable remotely at the same address.
  auto* v = static_cast<int*>(rocshmem_malloc(sizeof(int) * npes));
  EMU_CHECK(v, "malloc failed");
  rocshmem_barrier_all();
  for (int p = 0; p < npes; ++p) rocshmem_int_p(&v[me], me + 1000, p);
  rocshmem_barrier_all();
  for (int p = 0; p < npes; ++p) EMU_CHECK_EQ(v[p], p + 1000, "slot from PE " + std::to_string(p));
  rocshmem_barrier_all();
  rocshmem_free(v);
  emu_test::passed("remote access after reuse");
}

// rocSHMEM's ALIGNMENT: every allocation is 128-byte aligned, and never more than asked for.
void test_default_alignment() {
  void* a = rocshmem_malloc(1);
  void* b = rocshmem_malloc(1);
  EMU_CHECK(a && b, "malloc");
  EMU_CHECK_EQ(reinterpret_cast<uintptr_t>(a) % 128, uintptr_t{0}, "malloc alignment");
  EMU_CHECK_EQ(static_cast<char*>(b) - static_cast<char*>(a), ptrdiff_t{128}, "blocks are packed at 128 bytes");
  EMU_CHECK_EQ(rocshmem_malloc(0), (void*)nullptr, "malloc(0) is NULL");
  rocshmem_free(b);
  rocshmem_free(a);
  emu_test::passed("128-byte allocation granularity, malloc(0) is NULL");
}

void test_exhaustion() {
  const char* env = getenv("ROCSHMEM_HEAP_SIZE");
  EMU_CHECK(env != nullptr, "this test expects ROCSHMEM_HEAP_SIZE (set in CMakeLists.txt)");
  const size_t heap = strtoull(env, nullptr, 10);  // bytes, as rocSHMEM reads it (no suffix)
  EMU_CHECK_EQ(rocshmem_malloc(heap + 1), (void*)nullptr, "malloc larger than the heap");
  EMU_CHECK_EQ(rocshmem_malloc(size_t{1} << 50), (void*)nullptr, "malloc of 1 PiB");
  EMU_CHECK_EQ(rocshmem_calloc(size_t{1} << 40, size_t{1} << 30), (void*)nullptr, "calloc whose size overflows");
  // Fill the heap with half-heap-sized blocks until it refuses; it must refuse after at most 2.
  std::vector<void*> blocks;
  for (int i = 0; i < 4; ++i) {
    void* p = rocshmem_malloc(heap / 2 - 4096);
    if (!p) break;
    blocks.push_back(p);
  }
  EMU_CHECK(!blocks.empty() && blocks.size() <= 2, "half-heap blocks granted: " + std::to_string(blocks.size()));
  for (void* p : blocks) rocshmem_free(p);
  void* again = rocshmem_malloc(heap / 2 - 4096);
  EMU_CHECK(again != nullptr, "heap usable again after freeing");
  rocshmem_free(again);
  rocshmem_barrier_all();
  emu_test::passed("heap exhaustion returns nullptr");
}

}  // namespace

int main() {
  me = emu_test::init();
  npes = rocshmem_n_pes();
  test_symmetric_offsets();
  test_calloc_zeroes_reused_memory();
  test_remote_access_to_fresh_block();
  test_default_alignment();
  test_exhaustion();
  rocshmem_finalize();
  return 0;
}
