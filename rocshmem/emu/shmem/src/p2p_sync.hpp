// Point-to-point synchronisation on local symmetric variables (OpenSHMEM 1.5 wait_until and
// test families). Any PE may be the writer, so waits watch every PE (PeerPolicy::point_to_point).
#pragma once

#include <cstdint>

#include "rma.hpp"
#include "wait.hpp"

namespace rocshmem_emu {

// rocshmem_cmps values: EQ=0, NE=1, GT=2, GE=3, LT=4, LE=5.
bool valid_cmp(int cmp, const char* fn);

template <class T>
bool compare(T value, int cmp, T ref) {
  switch (cmp) {
    case 0: return value == ref;
    case 1: return value != ref;
    case 2: return value > ref;
    case 3: return value >= ref;
    case 4: return value < ref;
    case 5: return value <= ref;
  }
  return false;
}

template <class T>
bool satisfied(T* ivar, int cmp, T ref) {
  return compare(load_element(ivar), cmp, ref);
}

bool p2p_args_ok(const void* ivars, int cmp, const char* fn);

template <class T>
void p2p_wait_until(T* ivars, int cmp, T val, const char* fn) {
  if (!p2p_args_ok(ivars, cmp, fn)) return;
  complete_own_overlapping(ivars, sizeof(T));
  count(Stat::wait_until);
  wait_for([&] { return satisfied(ivars, cmp, val); }, fn, all_pes(), PeerPolicy::point_to_point);
}

template <class T>
int p2p_test(T* ivars, int cmp, T val, const char* fn) {
  if (!p2p_args_ok(ivars, cmp, fn)) return 0;
  complete_own_overlapping(ivars, sizeof(T));
  count(Stat::test);
  return satisfied(ivars, cmp, val) ? 1 : 0;
}

// Array forms: status[i] != 0 excludes element i; ref(i) gives its comparison value.
inline bool included(const int* status, size_t i) {
  return !status || status[i] == 0;
}

template <class T, class Ref>
void wait_all_core(T* ivars, size_t nelems, const int* status, int cmp, Ref ref, const char* fn) {
  if (nelems == 0) return;
  if (!p2p_args_ok(ivars, cmp, fn)) return;
  complete_own_overlapping(ivars, nelems * sizeof(T));
  count(Stat::wait_until);
  for (size_t i = 0; i < nelems; i++) {
    if (!included(status, i)) continue;
    wait_for([&] { return satisfied(&ivars[i], cmp, ref(i)); }, fn, all_pes(), PeerPolicy::point_to_point);
  }
}

// Returns the lowest satisfied, non-excluded index; SIZE_MAX when every element is excluded.
template <class T, class Ref>
size_t wait_any_core(T* ivars, size_t nelems, const int* status, int cmp, Ref ref, const char* fn) {
  if (nelems == 0) return SIZE_MAX;
  if (!p2p_args_ok(ivars, cmp, fn)) return SIZE_MAX;
  bool any_included = false;
  for (size_t i = 0; i < nelems; i++) any_included |= included(status, i);
  if (!any_included) return SIZE_MAX;
  complete_own_overlapping(ivars, nelems * sizeof(T));
  count(Stat::wait_until);
  size_t found = SIZE_MAX;
  wait_for(
      [&] {
        for (size_t i = 0; i < nelems; i++)
          if (included(status, i) && satisfied(&ivars[i], cmp, ref(i))) {
            found = i;
            return true;
          }
        return false;
      },
      fn, all_pes(), PeerPolicy::point_to_point);
  return found;
}

// Fills indices with every satisfied, non-excluded index (at least one); 0 if all excluded.
template <class T, class Ref>
size_t wait_some_core(T* ivars, size_t nelems, size_t* indices, const int* status, int cmp, Ref ref, const char* fn) {
  if (nelems == 0) return 0;
  if (!p2p_args_ok(ivars, cmp, fn)) return 0;
  if (!indices) {
    report_error("%s: indices is null; nothing done", fn);
    return 0;
  }
  bool any_included = false;
  for (size_t i = 0; i < nelems; i++) any_included |= included(status, i);
  if (!any_included) return 0;
  complete_own_overlapping(ivars, nelems * sizeof(T));
  count(Stat::wait_until);
  size_t found = 0;
  wait_for(
      [&] {
        found = 0;
        for (size_t i = 0; i < nelems; i++)
          if (included(status, i) && satisfied(&ivars[i], cmp, ref(i))) indices[found++] = i;
        return found > 0;
      },
      fn, all_pes(), PeerPolicy::point_to_point);
  return found;
}

template <class T>
void p2p_wait_until_all(T* ivars, size_t nelems, const int* status, int cmp, T val, const char* fn) {
  wait_all_core(ivars, nelems, status, cmp, [val](size_t) { return val; }, fn);
}
template <class T>
size_t p2p_wait_until_any(T* ivars, size_t nelems, const int* status, int cmp, T val, const char* fn) {
  return wait_any_core(ivars, nelems, status, cmp, [val](size_t) { return val; }, fn);
}
template <class T>
size_t p2p_wait_until_some(T* ivars, size_t nelems, size_t* indices, const int* status, int cmp, T val,
                           const char* fn) {
  return wait_some_core(ivars, nelems, indices, status, cmp, [val](size_t) { return val; }, fn);
}
template <class T>
void p2p_wait_until_all_vector(T* ivars, size_t nelems, const int* status, int cmp, T* vals, const char* fn) {
  if (!vals && nelems) return report_error("%s: vals is null; nothing done", fn);
  wait_all_core(ivars, nelems, status, cmp, [vals](size_t i) { return vals[i]; }, fn);
}
template <class T>
size_t p2p_wait_until_any_vector(T* ivars, size_t nelems, const int* status, int cmp, T* vals, const char* fn) {
  if (!vals && nelems) return report_error("%s: vals is null; nothing done", fn), SIZE_MAX;
  return wait_any_core(ivars, nelems, status, cmp, [vals](size_t i) { return vals[i]; }, fn);
}
template <class T>
size_t p2p_wait_until_some_vector(T* ivars, size_t nelems, size_t* indices, const int* status, int cmp, T* vals,
                                  const char* fn) {
  if (!vals && nelems) return report_error("%s: vals is null; nothing done", fn), 0;
  return wait_some_core(ivars, nelems, indices, status, cmp, [vals](size_t i) { return vals[i]; }, fn);
}

}  // namespace rocshmem_emu
