// Hand-written API: ordering (fence/quiet), barriers and syncs, and the *_on_stream family.
#include "api_include.hpp"
#include "engine.hpp"
#include "log.hpp"
#include "runtime.hpp"
#include "stats.hpp"
#include "teams.hpp"

using namespace rocshmem_emu;

namespace {

// quiet completes every queued operation of this PE (in deferred mode; completion.hpp); fence
// only orders them. Both end with a full fence (x86 mfence also drains non-temporal stores).
void quiet_now(Stat stat) {
  complete_all();
  count(stat);
}

void fence_now() {
  completion_fence();
  count(Stat::fence);
}

void barrier_on(Team* t, Stat stat, const char* fn, bool completes = true) {
  Collective call(fn);
  call.completes = completes;
  team_barrier(t, call);
  count(stat);
}

void team_barrier_api(rocshmem::rocshmem_team_t team, Stat stat, const char* fn) {
  if (Team* t = team_from_handle(team, fn)) barrier_on(t, stat, fn);
}

// Resolve now (so misuse is reported at the call) and again on the stream worker. On
// ROCSHMEM_TEAM_INVALID (a PE outside a split) every team collective is a silent no-op.
void team_barrier_on_stream(rocshmem::rocshmem_team_t team, hipStream_t stream, Stat stat, const char* fn) {
  if (!team_from_handle(team, fn)) return;
  enqueue_on_stream(stream, fn, [team, stat, fn] { team_barrier_api(team, stat, fn); });
}

}  // namespace

ROCSHMEM_EMU_API void rocshmem::rocshmem_fence() { fence_now(); }

ROCSHMEM_EMU_API void rocshmem::rocshmem_ctx_fence(rocshmem_ctx_t ctx) {
  if (ctx_usable(ctx, "rocshmem_ctx_fence")) fence_now();
}

ROCSHMEM_EMU_API void rocshmem::rocshmem_quiet() { quiet_now(Stat::quiet); }

ROCSHMEM_EMU_API void rocshmem::rocshmem_ctx_quiet(rocshmem_ctx_t ctx) {
  if (ctx_usable(ctx, "rocshmem_ctx_quiet")) quiet_now(Stat::quiet);
}

ROCSHMEM_EMU_API void rocshmem::rocshmem_quiet_on_stream(hipStream_t stream) {
  enqueue_on_stream(stream, "rocshmem_quiet_on_stream", [] { quiet_now(Stat::quiet); });
}

ROCSHMEM_EMU_API void rocshmem::rocshmem_barrier_all() {
  // On IPC without MPI the host barrier_all/sync_all are TCP bootstrap barriers: they complete no RMA
  // (a kernel's barrier_all is the device barrier and does).
  if (require_initialized("rocshmem_barrier_all"))
    barrier_on(world_team(), Stat::barrier, "rocshmem_barrier_all", !ipc_uid_restricts_host_call());
}

ROCSHMEM_EMU_API void rocshmem::rocshmem_sync_all() {
  if (require_initialized("rocshmem_sync_all"))
    barrier_on(world_team(), Stat::sync, "rocshmem_sync_all", !ipc_uid_restricts_host_call());
}

ROCSHMEM_EMU_API void rocshmem::rocshmem_barrier(rocshmem_team_t team) {
  team_barrier_api(team, Stat::barrier, "rocshmem_barrier");
}

ROCSHMEM_EMU_API void rocshmem::rocshmem_team_sync(rocshmem_team_t team) {
  team_barrier_api(team, Stat::sync, "rocshmem_team_sync");
}

ROCSHMEM_EMU_API void rocshmem::rocshmem_barrier_all_on_stream(hipStream_t stream) {
  if (!require_initialized("rocshmem_barrier_all_on_stream")) return;
  team_barrier_on_stream(reinterpret_cast<rocshmem_team_t>(world_team()), stream, Stat::barrier,
                         "rocshmem_barrier_all_on_stream");
}

ROCSHMEM_EMU_API void rocshmem::rocshmem_sync_all_on_stream(hipStream_t stream) {
  if (!require_initialized("rocshmem_sync_all_on_stream")) return;
  team_barrier_on_stream(reinterpret_cast<rocshmem_team_t>(world_team()), stream, Stat::sync,
                         "rocshmem_sync_all_on_stream");
}

ROCSHMEM_EMU_API void rocshmem::rocshmem_barrier_on_stream(rocshmem_team_t team, hipStream_t stream) {
  team_barrier_on_stream(team, stream, Stat::barrier, "rocshmem_barrier_on_stream");
}

ROCSHMEM_EMU_API void rocshmem::rocshmem_team_sync_on_stream(rocshmem_team_t team, hipStream_t stream) {
  team_barrier_on_stream(team, stream, Stat::sync, "rocshmem_team_sync_on_stream");
}

// size = bytes exchanged with each PE (dest and source hold team-size blocks of `size` bytes).
ROCSHMEM_EMU_API void rocshmem::rocshmem_alltoallmem_on_stream(rocshmem_team_t team, void* dest, const void* source,
                                                               size_t size, hipStream_t stream) {
  const char* fn = "rocshmem_alltoallmem_on_stream";
  if (!team_from_handle(team, fn)) return;
  enqueue_on_stream(stream, fn, [=] {
    if (Team* t = team_from_handle(team, fn)) alltoall_bytes(t, dest, source, size, fn);
  });
}

// nelems counts bytes; pe_root is a team index. The root's dest is written too (OpenSHMEM 1.5).
ROCSHMEM_EMU_API void rocshmem::rocshmem_broadcastmem_on_stream(rocshmem_team_t team, void* dest, const void* source,
                                                                size_t nelems, int pe_root, hipStream_t stream) {
  const char* fn = "rocshmem_broadcastmem_on_stream";
  if (!team_from_handle(team, fn)) return;
  enqueue_on_stream(stream, fn, [=] {
    if (Team* t = team_from_handle(team, fn))
      broadcast_bytes(t, pe_root, dest, source, nelems, true, fn);
  });
}

ROCSHMEM_EMU_API void rocshmem::rocshmem_getmem_on_stream(void* dest, const void* source, size_t nelems, int pe,
                                                          hipStream_t stream) {
  const char* fn = "rocshmem_getmem_on_stream";
  enqueue_on_stream(stream, fn, [=] { rma_get<char>(default_ctx(), dest, source, nelems, pe, Stat::get, fn); });
}

ROCSHMEM_EMU_API void rocshmem::rocshmem_putmem_on_stream(void* dest, const void* source, size_t nelems, int pe,
                                                          hipStream_t stream) {
  const char* fn = "rocshmem_putmem_on_stream";
  enqueue_on_stream(stream, fn, [=] { rma_put<char>(default_ctx(), dest, source, nelems, pe, Stat::put, fn); });
}

// Data first, then the signal (rma_put_signal): a PE that sees the signal sees the data.
ROCSHMEM_EMU_API void rocshmem::rocshmem_putmem_signal_on_stream(void* dest, const void* source, size_t nelems,
                                                                 uint64_t* sig_addr, uint64_t signal, int sig_op,
                                                                 int pe, hipStream_t stream) {
  const char* fn = "rocshmem_putmem_signal_on_stream";
  if (sig_op != ROCSHMEM_SIGNAL_SET && sig_op != ROCSHMEM_SIGNAL_ADD) {
    report_error("%s: invalid sig_op %d (expected ROCSHMEM_SIGNAL_SET or ROCSHMEM_SIGNAL_ADD); nothing done", fn,
                 sig_op);
    return;
  }
  enqueue_on_stream(stream, fn, [=] {
    rma_put_signal<char>(default_ctx(), static_cast<char*>(dest), static_cast<const char*>(source), nelems, sig_addr,
                         signal, sig_op, pe, false, fn);
  });
}

ROCSHMEM_EMU_API void rocshmem::rocshmem_signal_wait_until_on_stream(uint64_t* sig_addr, int cmp, uint64_t cmp_value,
                                                                     hipStream_t stream) {
  const char* fn = "rocshmem_signal_wait_until_on_stream";
  if (!valid_cmp(cmp, fn)) return;
  enqueue_on_stream(stream, fn, [=] {
    p2p_wait_until<uint64_t>(sig_addr, cmp, cmp_value, fn);
    count(Stat::signal_wait_until);
  });
}
