// Team collectives on shared memory. Every PE reads its peers' symmetric source directly
// through its own mappings, between two barriers of the team: the first one makes every
// source ready, the second one guarantees nobody still reads a source (or dest, when used in
// place) before a PE returns. Argument errors are detected before the first barrier, and
// consistently on every PE, so a bad call fails everywhere instead of deadlocking.
#pragma once

#include <cstring>
#include <type_traits>
#include <vector>

#include "rma.hpp"
#include "teams.hpp"

namespace rocshmem_emu {

enum class RedOp { sum, min, max, prod, bit_and, bit_or, bit_xor };

template <class T, RedOp op>
T combine(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;  // wrap-around instead of signed-overflow UB
    switch (op) {
      case RedOp::sum: return static_cast<T>(static_cast<U>(a) + static_cast<U>(b));
      case RedOp::prod: return static_cast<T>(static_cast<U>(a) * static_cast<U>(b));
      case RedOp::min: return b < a ? b : a;
      case RedOp::max: return a < b ? b : a;
      case RedOp::bit_and: return a & b;
      case RedOp::bit_or: return a | b;
      case RedOp::bit_xor: return a ^ b;
    }
  } else {
    static_assert(op == RedOp::sum || op == RedOp::prod || op == RedOp::min || op == RedOp::max,
                  "bitwise reductions are integer-only");
    switch (op) {
      case RedOp::sum: return a + b;
      case RedOp::prod: return a * b;
      case RedOp::min: return b < a ? b : a;
      case RedOp::max: return a < b ? b : a;
      default: break;
    }
  }
  return a;
}

constexpr int kCollOk = 0;     // ROCSHMEM_SUCCESS
constexpr int kCollError = 1;  // ROCSHMEM_ERROR

// Root-to-all copy over a PE set. update_root: the OpenSHMEM 1.5 team form writes the root's
// dest too; the legacy active-set form (OpenSHMEM 1.4) leaves it alone.
bool broadcast_bytes(const Team* team, int root_index, void* dest, const void* source, size_t bytes, bool update_root,
                     const char* fn);

// Block i of dest on PE j = block j of source on PE i (blocks of bytes_per_pe bytes).
bool alltoall_bytes(Team* team, void* dest, const void* source, size_t bytes_per_pe, const char* fn);

template <class T>
void broadcast_team(const rocshmem::rocshmem_ctx_t& ctx, rocshmem::rocshmem_team_t team, T* dest, const T* source,
                    int nelems, int pe_root, const char* fn) {
  Team* t = team_from_handle(team, fn);
  if (!t || !ctx_usable(ctx, fn)) return;
  if (nelems < 0) return report_error("%s: negative nelems %d; nothing done", fn, nelems);
  broadcast_bytes(t, pe_root, dest, source, sizeof(T) * size_t(nelems), true, fn);
}

// OpenSHMEM 1.4 active set (pe_start, 2^log_pe_stride, pe_size). The emulator keeps the barrier
// state in the control segment, so p_sync is not touched (it may hold anything).
bool active_set(int pe_start, int log_pe_stride, int pe_size, PeSet* set, int* my_index, const char* fn);

template <class T>
void broadcast_active_set(const rocshmem::rocshmem_ctx_t& ctx, T* dest, const T* source, int nelems, int pe_root,
                          int pe_start, int log_pe_stride, int pe_size, long* /*p_sync*/, const char* fn) {
  PeSet set;
  int me;
  if (!ctx_usable(ctx, fn) || !active_set(pe_start, log_pe_stride, pe_size, &set, &me, fn)) return;
  if (nelems < 0) return report_error("%s: negative nelems %d; nothing done", fn, nelems);
  Team scope;
  init_active_set_team(&scope, set, me, nullptr);
  TeamSlot* slot = slot_for(set, scope.id, true);  // pinned: keyed by the members, as the active set
  if (!slot) return report_error("%s: team table full; nothing done", fn);
  scope.slot = slot;
  broadcast_bytes(&scope, pe_root, dest, source, sizeof(T) * size_t(nelems), false, fn);
}

// Shared by reduce (scatter=false: every PE gets all nreduce results) and reduce_scatter
// (scatter=true: source holds team_size blocks of nreduce elements; PE i gets block i reduced).
template <class T, RedOp op>
int reduce_core(Team* t, T* dest, const T* source, int nreduce, bool scatter, const char* fn) {
  if (nreduce < 0) return report_error("%s: negative nreduce %d; nothing done", fn, nreduce), kCollError;
  const size_t n = size_t(nreduce);
  const size_t total = scatter ? n * size_t(t->members.size) : n;
  size_t src_off = 0;
  if (n > 0) {
    if (!dest) return report_error("%s: dest is null; nothing done", fn), kCollError;
    if (!heap_offset(source, total * sizeof(T), &src_off))
      return report_error("%s: source %p (+%zu bytes) is not in the symmetric heap; nothing done", fn,
                          static_cast<const void*>(source), total * sizeof(T)),
             kCollError;
  }
  Collective call(fn, "nreduce", n, "source offset", src_off);
  team_barrier(t, call);
  std::vector<T> acc(n);
  const size_t block = scatter ? size_t(t->my_index) * n : 0;
  const auto& base = runtime().peer_base;
  for (int i = 0; i < t->members.size && n > 0; i++) {
    const T* src = reinterpret_cast<const T*>(base[t->members.world_pe(i)] + src_off) + block;
    if (i == 0)
      memcpy(acc.data(), src, n * sizeof(T));
    else
      for (size_t k = 0; k < n; k++) acc[k] = combine<T, op>(acc[k], src[k]);
  }
  team_barrier(t, call);
  if (n > 0) memcpy(dest, acc.data(), n * sizeof(T));
  count(scatter ? Stat::reduce_scatter : Stat::reduce);
  return kCollOk;
}

template <class T, RedOp op>
int coll_reduce(const rocshmem::rocshmem_ctx_t& ctx, rocshmem::rocshmem_team_t team, T* dest, const T* source,
                int nreduce, const char* fn) {
  if (is_invalid_team(team)) return kCollOk;  // not a member: nothing to reduce
  Team* t = team_from_handle(team, fn);
  if (!t || !ctx_usable(ctx, fn)) return kCollError;
  return reduce_core<T, op>(t, dest, source, nreduce, false, fn);
}

template <class T, RedOp op>
int coll_reduce_scatter(const rocshmem::rocshmem_ctx_t& ctx, rocshmem::rocshmem_team_t team, T* dest,
                        const T* source, int nreduce, const char* fn) {
  if (is_invalid_team(team)) return kCollOk;
  Team* t = team_from_handle(team, fn);
  if (!t || !ctx_usable(ctx, fn)) return kCollError;
  return reduce_core<T, op>(t, dest, source, nreduce, true, fn);
}

}  // namespace rocshmem_emu
