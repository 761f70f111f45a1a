#include "windows.hpp"

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <sys/mman.h>
#include <unistd.h>

#include "runtime.hpp"

namespace rocshmem_emu {

namespace {

constexpr int kMaxWindows = 16384;
// Windows are carved from large PROT_NONE reservations and never reused: a revoked window may
// still be reachable through a stale view. Adjacent revoked windows merge into one mapping.
constexpr size_t kArenaBytes = size_t(64) << 30;

struct Window {
  std::atomic<uintptr_t> start;  // page-aligned start of the mapping; 0 = unused slot
  size_t map_bytes;              // page-rounded length
  size_t heap_page_offset;       // heap offset mapped at `start`
  size_t view_offset;            // the block the view was asked for: [view_offset, + view_bytes)
  size_t view_bytes;
  int pe;                        // whose heap
};

Window g_windows[kMaxWindows];
std::atomic<int> g_used{0};  // slots [0, g_used) may be live
std::mutex g_mutex;          // open and revoke; lookups are lock-free
char* g_arena = nullptr;
size_t g_arena_left = 0;

size_t page_size() {
  static const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  return page;
}

char* reserve_address_range(size_t bytes) {
  if (bytes > g_arena_left) {
    size_t chunk = bytes > kArenaBytes ? bytes : kArenaBytes;
    void* p = mmap(nullptr, chunk, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return nullptr;
    g_arena = static_cast<char*>(p);
    g_arena_left = chunk;
  }
  char* range = g_arena;
  g_arena += bytes;
  g_arena_left -= bytes;
  return range;
}

// Caller holds g_mutex.
void revoke(Window& w) {
  uintptr_t start = w.start.load(std::memory_order_relaxed);
  if (!start) return;
  w.start.store(0, std::memory_order_release);
  // Scratch over the window: the shared pages are no longer reachable through it.
  void* p = mmap(reinterpret_cast<void*>(start), w.map_bytes, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED | MAP_NORESERVE, -1, 0);
  (void)p;  // MAP_FIXED over our own reservation cannot fail short of address-space exhaustion
}

}  // namespace

void* window_open(const void* addr, size_t bytes, std::string* error) {
  Runtime& rt = runtime();
  if (!is_initialized()) return *error = "rocSHMEM is not initialized", nullptr;
  const uintptr_t a = reinterpret_cast<uintptr_t>(addr);
  int pe = -1;
  for (int i = 0; i < rt.n_pes && pe < 0; i++) {
    const uintptr_t base = reinterpret_cast<uintptr_t>(rt.peer_base[i]);
    if (a >= base && bytes <= rt.heap_size && a - base <= rt.heap_size - bytes) pe = i;
  }
  if (pe < 0 || bytes == 0) {
    *error = "[" + std::to_string(a) + ", +" + std::to_string(bytes) + ") is not inside a symmetric heap";
    return nullptr;
  }
  if (!on_my_node(pe)) {
    *error = "PE " + std::to_string(pe) + " is on another (simulated) node: its memory cannot be viewed directly";
    return nullptr;
  }
  const size_t page = page_size();
  const uintptr_t base = reinterpret_cast<uintptr_t>(rt.peer_base[pe]);
  const size_t offset = a - base;
  const size_t page_offset = offset / page * page;
  const size_t map_bytes = (offset + bytes - page_offset + page - 1) / page * page;

  std::lock_guard<std::mutex> lock(g_mutex);
  int slot = -1;
  for (int i = 0; i < kMaxWindows && slot < 0; i++)
    if (!g_windows[i].start.load(std::memory_order_relaxed)) slot = i;
  if (slot < 0) {
    *error = "too many live views (" + std::to_string(kMaxWindows) + " buffers with as*Pointer/asByteBuffer views)";
    return nullptr;
  }
  char* target = reserve_address_range(map_bytes);
  if (!target) return *error = std::string("cannot reserve address space for a view: ") + strerror(errno), nullptr;
  void* p = mremap(rt.peer_base[pe] + page_offset, 0, map_bytes, MREMAP_MAYMOVE | MREMAP_FIXED, target);
  if (p == MAP_FAILED) return *error = std::string("cannot map a view (mremap): ") + strerror(errno), nullptr;
  Window& w = g_windows[slot];
  w.map_bytes = map_bytes;
  w.heap_page_offset = page_offset;
  w.view_offset = offset;
  w.view_bytes = bytes;
  w.pe = pe;
  w.start.store(reinterpret_cast<uintptr_t>(target), std::memory_order_release);
  if (slot >= g_used.load(std::memory_order_relaxed)) g_used.store(slot + 1, std::memory_order_release);
  return static_cast<char*>(p) + (offset - page_offset);
}

void windows_revoke(size_t offset, size_t bytes) {
  if (g_used.load(std::memory_order_acquire) == 0) return;
  std::lock_guard<std::mutex> lock(g_mutex);
  const int used = g_used.load(std::memory_order_relaxed);
  for (int i = 0; i < used; i++) {
    Window& w = g_windows[i];
    if (!w.start.load(std::memory_order_relaxed)) continue;
    if (w.view_offset < offset + bytes && offset < w.view_offset + w.view_bytes) revoke(w);
  }
}

void windows_revoke_all() {
  std::lock_guard<std::mutex> lock(g_mutex);
  for (Window& w : g_windows) revoke(w);
  g_used.store(0, std::memory_order_release);
}

bool window_offset(const void* p, size_t nbytes, size_t* offset) {
  const int used = g_used.load(std::memory_order_acquire);
  const uintptr_t a = reinterpret_cast<uintptr_t>(p);
  const int me = runtime().my_pe;
  for (int i = 0; i < used; i++) {
    const Window& w = g_windows[i];
    const uintptr_t start = w.start.load(std::memory_order_acquire);
    if (!start || a < start || w.pe != me) continue;
    const size_t into = a - start;
    if (into > w.map_bytes || nbytes > w.map_bytes - into) continue;
    const size_t page_offset = w.heap_page_offset;
    // Slots are reused, window addresses never are: an unchanged start means unchanged fields.
    if (w.start.load(std::memory_order_acquire) != start) continue;
    *offset = page_offset + into;
    return true;
  }
  return false;
}

}  // namespace rocshmem_emu
