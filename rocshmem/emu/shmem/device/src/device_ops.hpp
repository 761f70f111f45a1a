// Engine operations that only the device API has (put-with-signal, signals, fcollect,
// alltoallv, per-PE fence/quiet, context queries), next to the host engine's templates in
// ../../src. The generated device_api.cpp forwards to these and to the host templates.
#pragma once

#include <atomic>
#include <cstring>

#include "bf16_arith.hpp"  // before the engine templates are instantiated
#include "engine.hpp"
#include "group.hpp"
#include "log.hpp"
#include "runtime.hpp"
#include "teams.hpp"

namespace rocshmem_emu {

// ROCSHMEM_SIGNAL_SET / ROCSHMEM_SIGNAL_ADD on pe's copy of sig_addr.
bool signal_update(const rocshmem::rocshmem_ctx_t& ctx, uint64_t* sig_addr, uint64_t signal, int sig_op, int pe,
                   const char* fn);
uint64_t signal_fetch(const uint64_t* sig_addr, const char* fn);
uint64_t signal_wait_until(uint64_t* sig_addr, int cmp, uint64_t cmp_value, const char* fn);

// Data, then a full fence, then the signal: a PE that sees the signal sees the data. Both
// targets are validated first, so a failed put never raises the signal.
template <class T>
void put_signal(const rocshmem::rocshmem_ctx_t& ctx, void* dest, const void* source, size_t nelems, uint64_t* sig_addr,
                uint64_t signal, int sig_op, int pe, const char* fn) {
  size_t bytes;
  if (!ctx_usable(ctx, fn) || !byte_count(nelems, sizeof(T), &bytes, fn)) return;
  if (sig_op != rocshmem::ROCSHMEM_SIGNAL_SET && sig_op != rocshmem::ROCSHMEM_SIGNAL_ADD)
    return report_error("%s: invalid sig_op %d (expected ROCSHMEM_SIGNAL_SET or ROCSHMEM_SIGNAL_ADD); nothing done",
                        fn, sig_op);
  if (bytes > 0 && !remote_ptr(dest, bytes, pe, fn, "dest")) return;
  if (!remote_ptr(sig_addr, sizeof(uint64_t), pe, fn, "sig_addr")) return;
  rma_put<T>(ctx, dest, source, nelems, pe, Stat::put, fn);
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (signal_update(ctx, sig_addr, signal, sig_op, pe, fn)) count(Stat::putmem_signal);
}

// Team resolution shared by the device collectives: INVALID is a silent no-op (result true,
// *team null), a bad handle or context an error (false).
bool device_team(const rocshmem::rocshmem_ctx_t& ctx, rocshmem::rocshmem_team_t team, Team** out, const char* fn);

// Concatenation: block i of dest (nelems elements) = source of team PE i.
bool fcollect_bytes(Team* t, void* dest, const void* source, size_t bytes_per_pe, const char* fn);

// OpenSHMEM alltoallv: this PE's source block for PE j (source_nelems[j] elements at
// source_displs[j]) lands in PE j's dest at dest_displs[me]; dest_nelems[j] is what PE j sends.
bool alltoallv_elems(Team* t, void* dest, const size_t* dest_nelems, const size_t* dest_displs, const void* source,
                     const size_t* source_nelems, const size_t* source_displs, size_t elem, const char* fn);

template <class T>
int coll_alltoall(const rocshmem::rocshmem_ctx_t& ctx, rocshmem::rocshmem_team_t team, void* dest, const void* source,
                  int nelems, const char* fn) {
  Team* t;
  if (!device_team(ctx, team, &t, fn)) return kCollError;
  if (!t) return kCollOk;
  if (nelems < 0) return report_error("%s: negative nelems %d; nothing done", fn, nelems), kCollError;
  return alltoall_bytes(t, dest, source, sizeof(T) * size_t(nelems), fn) ? kCollOk : kCollError;
}

template <class T>
int coll_fcollect(const rocshmem::rocshmem_ctx_t& ctx, rocshmem::rocshmem_team_t team, void* dest, const void* source,
                  int nelems, const char* fn) {
  Team* t;
  if (!device_team(ctx, team, &t, fn)) return kCollError;
  if (!t) return kCollOk;
  if (nelems < 0) return report_error("%s: negative nelems %d; nothing done", fn, nelems), kCollError;
  return fcollect_bytes(t, dest, source, sizeof(T) * size_t(nelems), fn) ? kCollOk : kCollError;
}

template <class T>
int coll_broadcast(const rocshmem::rocshmem_ctx_t& ctx, rocshmem::rocshmem_team_t team, void* dest,
                   const void* source, int nelems, int pe_root, const char* fn) {
  Team* t;
  if (!device_team(ctx, team, &t, fn)) return kCollError;
  if (!t) return kCollOk;
  if (nelems < 0) return report_error("%s: negative nelems %d; nothing done", fn, nelems), kCollError;
  return broadcast_bytes(t, pe_root, dest, source, sizeof(T) * size_t(nelems), true, fn)
             ? kCollOk
             : kCollError;
}

template <class T>
void coll_alltoallv(rocshmem::rocshmem_team_t team, T* dest, const size_t* dest_nelems, const size_t* dest_displs,
                    const T* source, const size_t* source_nelems, const size_t* source_displs, const char* fn) {
  Team* t;
  if (!device_team(default_ctx(), team, &t, fn) || !t) return;
  alltoallv_elems(t, dest, dest_nelems, dest_displs, source, source_nelems, source_displs, sizeof(T), fn);
}

// Barrier (quiet + synchronisation) or sync (synchronisation only; puts complete eagerly) on a
// team; world when team is the world handle.
void device_barrier(const rocshmem::rocshmem_ctx_t& ctx, rocshmem::rocshmem_team_t team, Stat stat, const char* fn);
rocshmem::rocshmem_team_t world_handle();

void fence_pe(const rocshmem::rocshmem_ctx_t& ctx, int pe, const char* fn);
void pe_quiet(const rocshmem::rocshmem_ctx_t& ctx, const int* target_pes, size_t npes, const char* fn);
void threadfence_system(const rocshmem::rocshmem_ctx_t& ctx, const char* fn);
int ctx_n_pes(const rocshmem::rocshmem_ctx_t& ctx, const char* fn);
int ctx_my_pe(const rocshmem::rocshmem_ctx_t& ctx, const char* fn);

}  // namespace rocshmem_emu
