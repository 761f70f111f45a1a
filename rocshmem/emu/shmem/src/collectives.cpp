#include "collectives.hpp"

namespace rocshmem_emu {

bool broadcast_bytes(const Team* team, int root_index, void* dest, const void* source, size_t bytes, bool update_root,
                     const char* fn) {
  const PeSet members = team->members;
  if (root_index < 0 || root_index >= members.size) {
    report_error("%s: pe_root %d is outside the team (size %d); nothing done", fn, root_index, members.size);
    return false;
  }
  size_t src_off = 0;
  if (bytes > 0) {
    if (!dest) return report_error("%s: dest is null; nothing done", fn), false;
    if (!heap_offset(source, bytes, &src_off)) {
      report_error("%s: source %p (+%zu bytes) is not in the symmetric heap; nothing done", fn, source, bytes);
      return false;
    }
  }
  Collective call(fn, "bytes", bytes, "root", static_cast<uint64_t>(root_index));
  team_barrier(team, call);
  const bool am_root = team->my_index == root_index;
  if (bytes > 0 && (!am_root || update_root)) {
    const char* from = runtime().peer_base[members.world_pe(root_index)] + src_off;
    if (from != dest) memmove(dest, from, bytes);
  }
  team_barrier(team, call);
  count(Stat::broadcast);
  return true;
}

bool alltoall_bytes(Team* t, void* dest, const void* source, size_t bytes_per_pe, const char* fn) {
  size_t total;
  if (!byte_count(bytes_per_pe, size_t(t->members.size), &total, fn)) return false;
  size_t src_off = 0;
  if (total > 0) {
    if (!dest) return report_error("%s: dest is null; nothing done", fn), false;
    if (!heap_offset(source, total, &src_off)) {
      report_error("%s: source %p (+%zu bytes) is not in the symmetric heap; nothing done", fn, source, total);
      return false;
    }
  }
  Collective call(fn, "bytes per PE", bytes_per_pe, "source offset", src_off);
  team_barrier(t, call);
  const auto& base = runtime().peer_base;
  // Each PE reads its block from every peer (O(bytes received) per PE), starting with its own
  // and then the next PEs in turn, so that the PEs do not all read the same peer at once.
  for (int k = 0; k < t->members.size && total > 0; k++) {
    const int i = (t->my_index + k) % t->members.size;
    const char* from = base[t->members.world_pe(i)] + src_off + size_t(t->my_index) * bytes_per_pe;
    memcpy(static_cast<char*>(dest) + size_t(i) * bytes_per_pe, from, bytes_per_pe);
  }
  team_barrier(t, call);
  count(Stat::alltoall);
  return true;
}

bool active_set(int pe_start, int log_pe_stride, int pe_size, PeSet* set, int* my_index, const char* fn) {
  if (!require_initialized(fn)) return false;
  const int n = runtime().n_pes;
  if (pe_start < 0 || log_pe_stride < 0 || log_pe_stride > 30 || pe_size < 1 ||
      int64_t(pe_start) + (int64_t(pe_size) - 1) * (int64_t(1) << log_pe_stride) >= n) {
    report_error("%s: invalid active set (pe_start %d, log_pe_stride %d, pe_size %d) for %d PEs; nothing done", fn,
                 pe_start, log_pe_stride, pe_size, n);
    return false;
  }
  *set = PeSet{pe_start, 1 << log_pe_stride, pe_size};
  *my_index = index_in(*set, runtime().my_pe);
  if (*my_index < 0) {
    report_error("%s: this PE is not in the active set (pe_start %d, log_pe_stride %d, pe_size %d); nothing done", fn,
                 pe_start, log_pe_stride, pe_size);
    return false;
  }
  return true;
}

}  // namespace rocshmem_emu
