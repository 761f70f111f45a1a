// Put/get/p/g on the shared heaps: the peer's copy of a symmetric address is
// peer_base[pe] + (addr - heap_base). Every remote address is bounds-checked first; a bad
// address or PE gives one error line and moves no data, so a bug cannot corrupt other PEs.
// Delivery is completion.hpp's business: in deferred mode a put becomes visible at the target
// only at quiet/fence/barrier or through progress, an nbi get fills dest only then.
#pragma once

#include <cstring>

#include "completion.hpp"
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
  if (stat == Stat::put_nbi)
    deliver_put_nbi(target, source, bytes);
  else
    deliver_put(target, source, bytes);
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
  if (stat == Stat::get_nbi) {
    deliver_get_nbi(dest, origin, bytes);  // queued after this PE's earlier puts: sees them
  } else {
    complete_overlapping(origin, bytes);  // a PE reads its own writes
    memmove(dest, origin, bytes);
  }
  count(stat);
}

// This PE's own heap bytes as its queued puts address them (through peer_base[my_pe]), for
// read-your-own-writes before a local wait or test.
inline void complete_own_overlapping(const void* local, size_t bytes) {
  size_t off;
  if (!completion_pending() || !heap_offset(local, bytes, &off)) return;
  const Runtime& rt = runtime();
  complete_overlapping(rt.peer_base[rt.my_pe] + off, bytes);
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
  deliver_put(target, &value, sizeof(T));  // aligned words are stored atomically at delivery
  count(Stat::p);
}

template <class T>
T rma_g(const rocshmem::rocshmem_ctx_t& ctx, const T* source, int pe, const char* fn) {
  if (!ctx_usable(ctx, fn)) return T();
  const char* origin = remote_ptr(source, sizeof(T), pe, fn, "source");
  if (!origin) return T();
  complete_overlapping(origin, sizeof(T));
  count(Stat::g);
  return load_element(reinterpret_cast<const T*>(origin));
}

// Put-with-signal: the data, then the signal update (ROCSHMEM_SIGNAL_SET or _ADD), in that order,
// so a PE that sees the signal sees the data. Both targets are validated first: a failed put
// never raises the signal.
template <class T>
void rma_put_signal(const rocshmem::rocshmem_ctx_t& ctx, T* dest, const T* source, size_t nelems, uint64_t* sig_addr,
                    uint64_t signal, int sig_op, int pe, bool nbi, const char* fn) {
  size_t bytes;
  if (!ctx_usable(ctx, fn) || !byte_count(nelems, sizeof(T), &bytes, fn)) return;
  if (sig_op != rocshmem::ROCSHMEM_SIGNAL_SET && sig_op != rocshmem::ROCSHMEM_SIGNAL_ADD) {
    report_error("%s: invalid sig_op %d (expected ROCSHMEM_SIGNAL_SET or ROCSHMEM_SIGNAL_ADD); nothing done", fn,
                 sig_op);
    return;
  }
  char* target = bytes ? remote_ptr(dest, bytes, pe, fn, "dest") : nullptr;
  if (bytes && !target) return;
  if (reinterpret_cast<uintptr_t>(sig_addr) % sizeof(uint64_t) != 0) {
    report_error("%s: sig_addr %p is not 8-byte aligned; nothing done", fn, static_cast<void*>(sig_addr));
    return;
  }
  auto* signal_target = reinterpret_cast<uint64_t*>(remote_ptr(sig_addr, sizeof(uint64_t), pe, fn, "sig_addr"));
  if (!signal_target) return;
  if (bytes) {
    if (nbi)
      deliver_put_nbi(target, source, bytes);
    else
      deliver_put(target, source, bytes);
  }
  deliver_signal(signal_target, signal, sig_op);
  count(nbi ? Stat::put_nbi : Stat::put);
  count(Stat::putmem_signal);
}

}  // namespace rocshmem_emu
