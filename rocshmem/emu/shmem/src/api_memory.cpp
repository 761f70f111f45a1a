// Hand-written API: symmetric memory, rocshmem_ptr, buffer registration.
#include <cstring>

#include "api_include.hpp"
#include "buffer_registry.hpp"
#include "heap_alloc.hpp"
#include "log.hpp"
#include "runtime.hpp"
#include "stats.hpp"
#include "teams.hpp"
#include "wait.hpp"
#include "windows.hpp"

using namespace rocshmem_emu;

namespace {

constexpr int kHeapMisuseExitStatus = 134;  // what a shell reports for abort() (128 + SIGABRT)

// OpenSHMEM allocation: collective, ends with a barrier so every PE's block exists before
// anyone uses it. The same arguments give the same result on every PE (deterministic heap).
void* symmetric_alloc(size_t size, size_t alignment, bool zero, const char* fn) {
  if (!require_initialized(fn)) return nullptr;
  Runtime& rt = runtime();
  void* result = nullptr;
  size_t offset = 0;
  if (alignment == 0 || (alignment & (alignment - 1)) || alignment > kHeapBaseAlignment) {
    debug_log(1, "%s: alignment %zu is not a power of two <= %zu; returning null", fn, alignment, kHeapBaseAlignment);
  } else if (size == 0) {
    // OpenSHMEM: a zero-size request returns null.
  } else if (symmetric_heap().allocate(size, alignment, &offset)) {
    result = rt.heap_base + offset;
    if (zero) memset(result, 0, size);
  } else {
    debug_log(1, "%s: symmetric heap exhausted (%zu bytes requested, %zu of %zu in use); returning null. "
              "Raise ROCSHMEM_HEAP_SIZE.", fn, size, symmetric_heap().bytes_in_use(), rt.heap_size);
  }
  Collective call = strcmp(fn, "rocshmem_align") == 0 ? Collective(fn, "size", size, "alignment", alignment)
                                                      : Collective(fn, "size", size);
  team_barrier(world_team(), call);
  count(Stat::malloc);
  return result;
}

}  // namespace

ROCSHMEM_EMU_API void* rocshmem::rocshmem_malloc(size_t size) {
  return symmetric_alloc(size, kDefaultAlignment, false, "rocshmem_malloc");
}

ROCSHMEM_EMU_API void* rocshmem::rocshmem_align(size_t alignment, size_t size) {
  return symmetric_alloc(size, alignment, false, "rocshmem_align");
}

ROCSHMEM_EMU_API void* rocshmem::rocshmem_calloc(size_t count, size_t size) {
  size_t bytes;
  if (__builtin_mul_overflow(count, size, &bytes)) {
    debug_log(1, "rocshmem_calloc: %zu x %zu bytes overflows; returning null", count, size);
    bytes = 0;  // still collective: every PE takes the same path
  }
  return symmetric_alloc(bytes, kDefaultAlignment, true, "rocshmem_calloc");
}

// OpenSHMEM free: collective, starts with a barrier so no PE still uses the block.
ROCSHMEM_EMU_API void rocshmem::rocshmem_free(void* ptr) {
  const char* fn = "rocshmem_free";
  if (!require_initialized(fn)) return;
  size_t offset = 0;
  const bool in_heap = ptr && heap_offset(ptr, 0, &offset);
  // Every PE frees the same block: a different offset means the PEs disagree about the heap.
  Collective call(fn, "offset", in_heap ? offset : UINT64_MAX);
  team_barrier(world_team(), call);
  count(Stat::free);
  if (!ptr) return;
  size_t bytes = 0;
  if (!in_heap || !symmetric_heap().release(offset, &bytes)) {
    // rocSHMEM's dlmalloc aborts here with "Symmetric heap usage error detected, possibly at <ptr>".
    claim_job_abort(kHeapMisuseExitStatus, kExitAbandoned);
    fatal_exit(kHeapMisuseExitStatus,
               "%s: symmetric heap usage error detected, possibly at %p: it was not returned by "
               "rocshmem_malloc/align/calloc, or it was freed already; rocSHMEM aborts here, and so does this PE",
               fn, ptr);
  }
  windows_revoke(offset, bytes);  // raw views of the block die with it (see windows.hpp)
}

// A PE on this (simulated) node has a directly addressable copy; one on another node has none.
ROCSHMEM_EMU_API void* rocshmem::rocshmem_ptr(const void* dest, int pe) {
  Runtime& rt = runtime();
  if (!is_initialized() || pe < 0 || pe >= rt.n_pes || !on_my_node(pe)) return nullptr;
  size_t offset;
  if (!heap_offset(dest, 1, &offset)) return nullptr;
  return rt.peer_base[pe] + offset;
}

ROCSHMEM_EMU_API int rocshmem::rocshmem_buffer_register(void* addr, size_t length) {
  return buffer_register(addr, length, "rocshmem_buffer_register");
}

ROCSHMEM_EMU_API int rocshmem::rocshmem_buffer_unregister(void* addr) {
  return buffer_unregister(addr, "rocshmem_buffer_unregister");
}

ROCSHMEM_EMU_API void rocshmem::rocshmem_buffer_unregister_all() { buffer_registry_clear(); }

// rocSHMEM maps a VMM allocation (hipMemCreate) of every PE into the symmetric space. The CPU
// HIP runtime has no VMM memory and private process memory cannot be shared afterwards, so the
// emulator cannot honour this; it fails the same way on every PE (documented error: null).
ROCSHMEM_EMU_API void* rocshmem::rocshmem_buffer_register_symmetric(void* addr, size_t length) {
  report_error("rocshmem_buffer_register_symmetric(%p, %zu): needs HIP VMM memory, which the CPU emulator does not "
               "provide; returning null (use rocshmem_malloc)", addr, length);
  return nullptr;
}

ROCSHMEM_EMU_API int rocshmem::rocshmem_buffer_unregister_symmetric(void* addr) {
  report_error("rocshmem_buffer_unregister_symmetric(%p): nothing was registered (not supported by the CPU emulator)",
               addr);
  return ROCSHMEM_ERROR;
}
