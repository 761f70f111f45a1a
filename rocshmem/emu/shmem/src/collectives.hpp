// Team collectives on shared memory. Every PE reads its peers' symmetric source directly
// through its own mappings, between two barriers of the team: the first one makes every
// source ready, the second one guarantees nobody still reads a source (or dest, when used in
// place) before a PE returns. Argument errors are detected before the first barrier, and
// consistently on every PE, so a bad call fails everywhere instead of deadlocking.
#pragma once

#include <cstring>
#include <memory>
#include <type_traits>
#include <vector>
#if defined(__x86_64__)
#include <emmintrin.h>
#endif

#include "rma.hpp"
#include "rocshmem_emu_workitem.h"
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

// Reductions. Every element is combined in team-index order (PE 0's value, then PE 1's, ...), by
// exactly one PE, whatever the algorithm: floating-point results are deterministic and the same
// on every PE; integers wrap (exact modulo 2^bits).
//   - direct (small sizes, or dest outside the symmetric heap): every PE reads all team sources,
//     n elements from each; the barriers dominate.
//   - split (reduce of kSplitReduceBytes or more with a symmetric dest): reduce-scatter then
//     allgather on shared memory. PE i combines chunk i of every source into its own dest, then
//     copies the other chunks from the peers' dests: each PE reads about 2n elements and writes n,
//     whatever the team size, instead of reading n from every PE.
// Work goes in tiles of kReduceTile elements through a stack buffer (no allocation per call).
constexpr size_t kSplitReduceBytes = size_t(16) << 10;
constexpr size_t kReduceTileBytes = size_t(8) << 10;

// dest[0, n) = source_0[0, n) op source_1[0, n) op ... (team-index order), read from this PE's
// mappings of the peers' sources at src_off + first * sizeof(T). dest may be this PE's source.
template <class T, RedOp op>
void combine_range(const Team* t, T* dest, size_t src_off, size_t first, size_t n) {
  constexpr size_t tile = kReduceTileBytes / sizeof(T) > 0 ? kReduceTileBytes / sizeof(T) : 1;
  T acc[tile];
  const auto& base = runtime().peer_base;
  for (size_t lo = 0; lo < n; lo += tile) {
    const size_t len = n - lo < tile ? n - lo : tile;
    for (int i = 0; i < t->members.size; i++) {
      const T* src = reinterpret_cast<const T*>(base[t->members.world_pe(i)] + src_off) + first + lo;
      if (i == 0)
        memcpy(acc, src, len * sizeof(T));
      else
        for (size_t k = 0; k < len; k++) acc[k] = combine<T, op>(acc[k], src[k]);
    }
    memcpy(dest + lo, acc, len * sizeof(T));
  }
}

// Where a reduction keeps its result until the last peer has read the sources (dest may be a source).
// On the host one buffer per OS thread serves (a thread is in one collective at a time); in a kernel the
// work-items of every work-group are fibers of one thread, and several may be inside a collective at once,
// each on its own team, so each call gets its own (on its stack when small).
class Staging {
 public:
  explicit Staging(size_t bytes) {
    if (!rocshmem_emu_wi_maybe_in_kernel()) {
      thread_local std::vector<unsigned char> host;
      if (host.size() < bytes) host.resize(bytes);
      data_ = host.data();
    } else if (bytes <= sizeof small_) {
      data_ = small_;
    } else {
      own_.reset(new unsigned char[bytes]);
      data_ = own_.get();
    }
  }
  template <class T>
  T* as() {
    return reinterpret_cast<T*>(data_);
  }

 private:
  alignas(64) unsigned char small_[512];
  std::unique_ptr<unsigned char[]> own_;
  unsigned char* data_ = nullptr;
};

// Chunk c of n elements split over parts: [lo, hi), cache-line aligned where possible.
template <class T>
void split_chunk(size_t n, int parts, int c, size_t* lo, size_t* hi) {
  const size_t line = sizeof(T) < 64 ? 64 / sizeof(T) : 1;
  const size_t per = ((n + size_t(parts) - 1) / size_t(parts) + line - 1) / line * line;
  *lo = per * size_t(c) < n ? per * size_t(c) : n;
  *hi = *lo + per < n ? *lo + per : n;
}

// memcpy for the allgather's large copies, with non-temporal stores on x86-64 from
// kStreamingCopyBytes: the destination is not read first (a normal store reads each line before
// writing it), which at 16 PEs is a quarter of the memory traffic of a large reduction.
constexpr size_t kStreamingCopyBytes = size_t(256) << 10;
inline void copy_large(void* dest, const void* source, size_t bytes) {
#if defined(__x86_64__)
  if (bytes >= kStreamingCopyBytes) {
    auto* d = static_cast<char*>(dest);
    auto* s = static_cast<const char*>(source);
    const size_t head = (16 - reinterpret_cast<uintptr_t>(d) % 16) % 16;
    memcpy(d, s, head);
    d += head, s += head, bytes -= head;
    const size_t body = bytes & ~size_t(63);
    for (size_t i = 0; i < body; i += 64) {
      const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i));
      const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i + 16));
      const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i + 32));
      const __m128i e = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + i + 48));
      _mm_stream_si128(reinterpret_cast<__m128i*>(d + i), a);
      _mm_stream_si128(reinterpret_cast<__m128i*>(d + i + 16), b);
      _mm_stream_si128(reinterpret_cast<__m128i*>(d + i + 32), c);
      _mm_stream_si128(reinterpret_cast<__m128i*>(d + i + 48), e);
    }
    memcpy(d + body, s + body, bytes - body);
    _mm_sfence();  // the streamed stores are visible before the barrier that follows
    return;
  }
#endif
  memcpy(dest, source, bytes);
}

// Shared by reduce (scatter=false: every PE gets all nreduce results) and reduce_scatter
// (scatter=true: source holds team_size blocks of nreduce elements; PE i gets block i reduced).
template <class T, RedOp op>
int reduce_core(Team* t, T* dest, const T* source, int nreduce, bool scatter, const char* fn) {
  if (nreduce < 0) return report_error("%s: negative nreduce %d; nothing done", fn, nreduce), kCollError;
  const size_t n = size_t(nreduce);
  const size_t total = scatter ? n * size_t(t->members.size) : n;
  size_t src_off = 0, dst_off = 0;
  if (n > 0) {
    if (!dest) return report_error("%s: dest is null; nothing done", fn), kCollError;
    if (!heap_offset(source, total * sizeof(T), &src_off))
      return report_error("%s: source %p (+%zu bytes) is not in the symmetric heap; nothing done", fn,
                          static_cast<const void*>(source), total * sizeof(T)),
             kCollError;
  }
  Collective call(fn, "nreduce", n, "source offset", src_off);
  const bool split = !scatter && t->members.size > 1 && n * sizeof(T) >= kSplitReduceBytes &&
                     heap_offset(dest, n * sizeof(T), &dst_off);
  team_barrier(t, call);
  if (split) {
    // Reduce-scatter: this PE's chunk of every source, into its own dest (in place is safe: only
    // this PE reads chunk `me` of its own source, and each tile is read before it is written).
    size_t lo, hi;
    split_chunk<T>(n, t->members.size, t->my_index, &lo, &hi);
    combine_range<T, op>(t, dest + lo, src_off, lo, hi - lo);
    team_barrier(t, call);
    // Allgather: the other chunks from their owners' dests, starting after this PE's own so that
    // the PEs do not all read the same peer at once.
    const auto& base = runtime().peer_base;
    for (int k = 1; k < t->members.size; k++) {
      const int owner = (t->my_index + k) % t->members.size;
      split_chunk<T>(n, t->members.size, owner, &lo, &hi);
      if (hi > lo)
        copy_large(dest + lo, reinterpret_cast<const T*>(base[t->members.world_pe(owner)] + dst_off) + lo,
                   (hi - lo) * sizeof(T));
    }
    team_barrier(t, call);  // nobody changes its dest while a peer still copies from it
  } else if (scatter) {
    // Block `me` of every source, combined into dest after the last read of any source (dest may
    // be this PE's source, which the other PEs read until the barrier).
    Staging staging(n * sizeof(T));
    T* acc = staging.as<T>();
    combine_range<T, op>(t, acc, src_off, size_t(t->my_index) * n, n);
    team_barrier(t, call);
    if (n > 0) memcpy(dest, acc, n * sizeof(T));
  } else {
    // Direct: small or private dest. Same order of combination, results after the last read.
    Staging staging(n * sizeof(T));
    T* acc = staging.as<T>();
    combine_range<T, op>(t, acc, src_off, 0, n);
    team_barrier(t, call);
    if (n > 0) memcpy(dest, acc, n * sizeof(T));
  }
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
