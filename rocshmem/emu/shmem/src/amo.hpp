// Remote atomics: hardware atomics on the peer's shared mapping, so they are atomic across
// processes. Floating types use the generic __atomic forms on their bit pattern.
// Parameter orders follow the manifest's host rows (ctx first, pe last).
#pragma once

#include <type_traits>

#include "rma.hpp"

namespace rocshmem_emu {

// Validated, naturally aligned pointer to pe's copy of the element, or nullptr.
template <class T>
T* amo_target(const rocshmem::rocshmem_ctx_t& ctx, const T* addr, int pe, const char* fn) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "host atomics are 32/64-bit");
  if (!ctx_usable(ctx, fn)) return nullptr;
  complete_fenced();  // fence orders earlier puts before this atomic
  if (reinterpret_cast<uintptr_t>(addr) % sizeof(T) != 0) {
    report_error("%s: address %p is not aligned to %zu bytes; atomic not performed", fn, static_cast<const void*>(addr),
                 sizeof(T));
    count(Stat::errors);
    return nullptr;
  }
  T* t = reinterpret_cast<T*>(remote_ptr(addr, sizeof(T), pe, fn, "dest"));
  if (t) complete_overlapping(reinterpret_cast<const char*>(t), sizeof(T));  // sees this PE's own puts
  return t;
}

template <class T>
T amo_fetch(const rocshmem::rocshmem_ctx_t& ctx, T* source, int pe, const char* fn) {
  T* t = amo_target(ctx, source, pe, fn);
  if (!t) return T();
  T v;
  __atomic_load(t, &v, __ATOMIC_SEQ_CST);
  count(Stat::atomic_fetching);
  return v;
}

template <class T>
void amo_set(const rocshmem::rocshmem_ctx_t& ctx, T* dest, T value, int pe, const char* fn) {
  T* t = amo_target(ctx, dest, pe, fn);
  if (!t) return;
  __atomic_store(t, &value, __ATOMIC_SEQ_CST);
  count(Stat::atomic_nonfetching);
}

template <class T>
T amo_swap(const rocshmem::rocshmem_ctx_t& ctx, T* dest, T value, int pe, const char* fn) {
  T* t = amo_target(ctx, dest, pe, fn);
  if (!t) return T();
  T old;
  __atomic_exchange(t, &value, &old, __ATOMIC_SEQ_CST);
  count(Stat::atomic_fetching);
  return old;
}

template <class T>
T amo_compare_swap(const rocshmem::rocshmem_ctx_t& ctx, T* dest, T cond, T value, int pe, const char* fn) {
  T* t = amo_target(ctx, dest, pe, fn);
  if (!t) return T();
  // On failure `cond` receives the current value; on success it already equals the old value.
  __atomic_compare_exchange(t, &cond, &value, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  count(Stat::atomic_fetching);
  return cond;
}

enum class AmoOp { add, bit_and, bit_or, bit_xor };

template <class T, AmoOp op>
T amo_rmw(T* t, T value) {
  static_assert(std::is_integral_v<T>, "arithmetic/bitwise atomics are integer-only");
  switch (op) {
    case AmoOp::add: return __atomic_fetch_add(t, value, __ATOMIC_SEQ_CST);
    case AmoOp::bit_and: return __atomic_fetch_and(t, value, __ATOMIC_SEQ_CST);
    case AmoOp::bit_or: return __atomic_fetch_or(t, value, __ATOMIC_SEQ_CST);
    case AmoOp::bit_xor: return __atomic_fetch_xor(t, value, __ATOMIC_SEQ_CST);
  }
  return T();
}

template <class T, AmoOp op>
T amo_fetch_op(const rocshmem::rocshmem_ctx_t& ctx, T* dest, T value, int pe, const char* fn) {
  T* t = amo_target(ctx, dest, pe, fn);
  if (!t) return T();
  count(Stat::atomic_fetching);
  return amo_rmw<T, op>(t, value);
}

template <class T, AmoOp op>
void amo_op(const rocshmem::rocshmem_ctx_t& ctx, T* dest, T value, int pe, const char* fn) {
  T* t = amo_target(ctx, dest, pe, fn);
  if (!t) return;
  count(Stat::atomic_nonfetching);
  amo_rmw<T, op>(t, value);
}

// Names used by the generated API (one per manifest op, same parameter order).
template <class T> T amo_fetch_inc(const rocshmem::rocshmem_ctx_t& c, T* d, int pe, const char* fn) { return amo_fetch_op<T, AmoOp::add>(c, d, T(1), pe, fn); }
template <class T> void amo_inc(const rocshmem::rocshmem_ctx_t& c, T* d, int pe, const char* fn) { amo_op<T, AmoOp::add>(c, d, T(1), pe, fn); }
template <class T> T amo_fetch_add(const rocshmem::rocshmem_ctx_t& c, T* d, T v, int pe, const char* fn) { return amo_fetch_op<T, AmoOp::add>(c, d, v, pe, fn); }
template <class T> void amo_add(const rocshmem::rocshmem_ctx_t& c, T* d, T v, int pe, const char* fn) { amo_op<T, AmoOp::add>(c, d, v, pe, fn); }
template <class T> T amo_fetch_and(const rocshmem::rocshmem_ctx_t& c, T* d, T v, int pe, const char* fn) { return amo_fetch_op<T, AmoOp::bit_and>(c, d, v, pe, fn); }
template <class T> void amo_and(const rocshmem::rocshmem_ctx_t& c, T* d, T v, int pe, const char* fn) { amo_op<T, AmoOp::bit_and>(c, d, v, pe, fn); }
template <class T> T amo_fetch_or(const rocshmem::rocshmem_ctx_t& c, T* d, T v, int pe, const char* fn) { return amo_fetch_op<T, AmoOp::bit_or>(c, d, v, pe, fn); }
template <class T> void amo_or(const rocshmem::rocshmem_ctx_t& c, T* d, T v, int pe, const char* fn) { amo_op<T, AmoOp::bit_or>(c, d, v, pe, fn); }
template <class T> T amo_fetch_xor(const rocshmem::rocshmem_ctx_t& c, T* d, T v, int pe, const char* fn) { return amo_fetch_op<T, AmoOp::bit_xor>(c, d, v, pe, fn); }
template <class T> void amo_xor(const rocshmem::rocshmem_ctx_t& c, T* d, T v, int pe, const char* fn) { amo_op<T, AmoOp::bit_xor>(c, d, v, pe, fn); }

}  // namespace rocshmem_emu
