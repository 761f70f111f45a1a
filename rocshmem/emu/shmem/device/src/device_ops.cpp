#include "device_ops.hpp"


namespace rocshmem_emu {

bool signal_update(const rocshmem::rocshmem_ctx_t& ctx, uint64_t* sig_addr, uint64_t signal, int sig_op, int pe,
                   const char* fn) {
  uint64_t* target = amo_target(ctx, sig_addr, pe, fn);
  if (!target) return false;
  if (sig_op == rocshmem::ROCSHMEM_SIGNAL_ADD)
    __atomic_fetch_add(target, signal, __ATOMIC_SEQ_CST);
  else
    __atomic_store_n(target, signal, __ATOMIC_SEQ_CST);
  return true;
}

uint64_t signal_fetch(const uint64_t* sig_addr, const char* fn) {
  const uint64_t* local = amo_target(default_ctx(), sig_addr, runtime().my_pe, fn);
  return local ? __atomic_load_n(local, __ATOMIC_SEQ_CST) : 0;
}

uint64_t signal_wait_until(uint64_t* sig_addr, int cmp, uint64_t cmp_value, const char* fn) {
  if (!p2p_args_ok(sig_addr, cmp, fn)) return 0;
  complete_own_overlapping(sig_addr, sizeof(uint64_t));
  uint64_t seen = 0;
  count(Stat::signal_wait_until);
  wait_for(
      [&] {
        seen = __atomic_load_n(sig_addr, __ATOMIC_SEQ_CST);
        return compare(seen, cmp, cmp_value);
      },
      fn, all_pes(), PeerPolicy::point_to_point);
  return seen;
}

bool device_team(const rocshmem::rocshmem_ctx_t& ctx, rocshmem::rocshmem_team_t team, Team** out, const char* fn) {
  *out = nullptr;
  if (!ctx_usable(ctx, fn)) return false;
  if (is_invalid_team(team)) return true;
  *out = team_from_handle(team, fn);
  return *out != nullptr;
}

bool fcollect_bytes(Team* t, void* dest, const void* source, size_t bytes_per_pe, const char* fn) {
  size_t total;
  if (!byte_count(bytes_per_pe, size_t(t->members.size), &total, fn)) return false;
  size_t src_off = 0;
  if (bytes_per_pe > 0) {
    if (!dest) return report_error("%s: dest is null; nothing done", fn), false;
    if (!heap_offset(source, bytes_per_pe, &src_off)) {
      report_error("%s: source %p (+%zu bytes) is not in the symmetric heap; nothing done", fn, source, bytes_per_pe);
      return false;
    }
  }
  Collective call(fn, "bytes per PE", bytes_per_pe, "source offset", src_off);
  team_barrier(t, call);
  const auto& base = runtime().peer_base;
  for (int k = 0; k < t->members.size && bytes_per_pe > 0; k++) {
    const int i = (t->my_index + k) % t->members.size;  // staggered, as in alltoall_bytes
    memcpy(static_cast<char*>(dest) + size_t(i) * bytes_per_pe, base[t->members.world_pe(i)] + src_off, bytes_per_pe);
  }
  team_barrier(t, call);
  count(Stat::alltoall);  // the stats table has no fcollect row; it is the nearest collective
  return true;
}

// GET algorithm (rocSHMEM's documented default): this PE pulls dest_nelems[i] elements from
// team PE i. The arrays are local, and a PE cannot read a peer's, so the offset in PE i's
// source is this PE's source_displs[me]: the displacement arrays must describe one layout on
// every PE (PE i's block for me starts at the same source_displs[me] everywhere).
bool alltoallv_elems(Team* t, void* dest, const size_t* dest_nelems, const size_t* dest_displs, const void* source,
                     const size_t* source_nelems, const size_t* source_displs, size_t elem, const char* fn) {
  const int n = t->members.size;
  if (!dest_nelems || !dest_displs || !source_nelems || !source_displs)
    return report_error("%s: a count or displacement array is null; nothing done", fn), false;
  const size_t from = source_displs[t->my_index];
  size_t src_off = 0;
  size_t widest = 0;
  for (int i = 0; i < n; i++) widest = dest_nelems[i] > widest ? dest_nelems[i] : widest;
  size_t span;
  if (!byte_count(from + widest, elem, &span, fn)) return false;
  if (widest > 0 && !heap_offset(static_cast<const char*>(source) + from * elem, widest * elem, &src_off))
    return report_error("%s: source block at element %zu (+%zu elements) is not in the symmetric heap; nothing done",
                        fn, from, widest),
           false;
  Collective call(fn, "team size", static_cast<uint64_t>(n));
  team_barrier(t, call);
  const auto& base = runtime().peer_base;
  for (int k = 0; k < n; k++) {
    const int i = (t->my_index + k) % n;  // staggered, as in alltoall_bytes
    if (dest_nelems[i])
      memcpy(static_cast<char*>(dest) + dest_displs[i] * elem, base[t->members.world_pe(i)] + src_off,
             dest_nelems[i] * elem);
  }
  team_barrier(t, call);
  count(Stat::alltoall);
  return true;
}

rocshmem::rocshmem_team_t world_handle() { return reinterpret_cast<rocshmem::rocshmem_team_t>(world_team()); }

void device_barrier(const rocshmem::rocshmem_ctx_t& ctx, rocshmem::rocshmem_team_t team, Stat stat, const char* fn) {
  Team* t;
  if (!require_initialized(fn) || !device_team(ctx, team, &t, fn) || !t) return;
  Collective call(fn);
  team_barrier(t, call);
  count(stat);
}

namespace {
bool pe_ok(int pe, const char* fn) {
  if (pe >= 0 && pe < runtime().n_pes) return true;
  report_error("%s: PE %d is outside 0..%d; nothing done", fn, pe, runtime().n_pes - 1);
  count(Stat::errors);
  return false;
}
}  // namespace

void fence_pe(const rocshmem::rocshmem_ctx_t& ctx, int pe, const char* fn) {
  if (!ctx_usable(ctx, fn) || !pe_ok(pe, fn)) return;
  completion_fence();  // orders this PE's queued puts (to every PE, which includes `pe`)
  count(Stat::fence);
}

void pe_quiet(const rocshmem::rocshmem_ctx_t& ctx, const int* target_pes, size_t npes, const char* fn) {
  if (!ctx_usable(ctx, fn)) return;
  if (npes && !target_pes) return report_error("%s: target_pes is null; nothing done", fn);
  for (size_t i = 0; i < npes; i++)
    if (!pe_ok(target_pes[i], fn)) return;
  complete_all();  // completes the puts to the named PEs (and, allowed by OpenSHMEM, the others)
  count(Stat::quiet);
}

void threadfence_system(const rocshmem::rocshmem_ctx_t& ctx, const char* fn) {
  if (ctx_usable(ctx, fn)) std::atomic_thread_fence(std::memory_order_seq_cst);
}

namespace {
Team* ctx_team(const rocshmem::rocshmem_ctx_t& ctx, const char* fn) {
  if (!ctx_usable(ctx, fn)) return nullptr;
  return team_lookup(ctx.team_opaque ? ctx.team_opaque : world_team());
}
}  // namespace

int ctx_n_pes(const rocshmem::rocshmem_ctx_t& ctx, const char* fn) {
  Team* t = ctx_team(ctx, fn);
  return t ? t->members.size : -1;
}

int ctx_my_pe(const rocshmem::rocshmem_ctx_t& ctx, const char* fn) {
  Team* t = ctx_team(ctx, fn);
  return t ? t->my_index : -1;
}

}  // namespace rocshmem_emu
