// Put/get/p/g on the shared heaps: the peer's copy of a symmetric address is
// peer_base[pe] + (addr - heap_base). Every remote address is bounds-checked first; a bad
// address or PE gives one error line and moves no data, so a bug cannot corrupt other PEs.
// Non-blocking forms complete eagerly (quiet/fence are then plain memory fences).
#pragma once

#include <cstring>

#include "context.hpp"
#include "log.hpp"
#include "runtime.hpp"
#include "stats.hpp"

namespace rocshmem_emu {

// pe's mapping of symmetric [addr, addr+nbytes), or nullptr after an error line naming fn.
char* remote_ptr(const void* addr, size_t nbytes, int pe, const char* fn, const char* what);

// nelems * elem_size without overflow; false (with an error line) otherwise.
bool byte_count(size_t nelems, size_t elem_size, size_t* bytes, const char* fn);

template <class T>
void rma_put(const rocshmem::rocshmem_ctx_t& ctx, void* dest, const void* source, size_t nelems, int pe,
             Stat stat, const char* fn) {
  size_t bytes;
  if (!ctx_usable(ctx, fn) || !byte_count(nelems, sizeof(T), &bytes, fn)) return;
  if (bytes == 0) return;
  char* target = remote_ptr(dest, bytes, pe, fn, "dest");
  if (!target) return;
  memmove(target, source, bytes);
  count(stat);
}

template <class T>
void rma_get(const rocshmem::rocshmem_ctx_t& ctx, void* dest, const void* source, size_t nelems, int pe,
             Stat stat, const char* fn) {
  size_t bytes;
  if (!ctx_usable(ctx, fn) || !byte_count(nelems, sizeof(T), &bytes, fn)) return;
  if (bytes == 0) return;
  const char* origin = remote_ptr(source, bytes, pe, fn, "source");
  if (!origin) return;
  memmove(dest, origin, bytes);
  count(stat);
}

// Single elements use one atomic access when the size allows it, so a concurrent
// wait_until on the target never sees a torn value.
template <class T>
void store_element(T* target, T value) {
  if constexpr (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8) {
    if (reinterpret_cast<uintptr_t>(target) % sizeof(T) == 0) {
      __atomic_store(target, &value, __ATOMIC_RELEASE);
      return;
    }
  }
  memcpy(target, &value, sizeof(T));
}

template <class T>
T load_element(const T* origin) {
  T value;
  if constexpr (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8) {
    if (reinterpret_cast<uintptr_t>(origin) % sizeof(T) == 0) {
      __atomic_load(const_cast<T*>(origin), &value, __ATOMIC_ACQUIRE);
      return value;
    }
  }
  memcpy(&value, origin, sizeof(T));
  return value;
}

template <class T>
void rma_p(const rocshmem::rocshmem_ctx_t& ctx, T* dest, T value, int pe, const char* fn) {
  if (!ctx_usable(ctx, fn)) return;
  char* target = remote_ptr(dest, sizeof(T), pe, fn, "dest");
  if (!target) return;
  store_element(reinterpret_cast<T*>(target), value);
  count(Stat::p);
}

template <class T>
T rma_g(const rocshmem::rocshmem_ctx_t& ctx, const T* source, int pe, const char* fn) {
  if (!ctx_usable(ctx, fn)) return T();
  const char* origin = remote_ptr(source, sizeof(T), pe, fn, "source");
  if (!origin) return T();
  count(Stat::g);
  return load_element(reinterpret_cast<const T*>(origin));
}

}  // namespace rocshmem_emu
