// Per-operation counters of this PE, printed by rocshmem_dump_stats.
#pragma once

#include <atomic>
#include <cstdint>

#include "rocshmem_emu_workitem.h"

namespace rocshmem_emu {

#define ROCSHMEM_EMU_STATS(X)                                                                    \
  X(put) X(put_nbi) X(get) X(get_nbi) X(p) X(g) X(atomic_fetching) X(atomic_nonfetching)         \
  X(wait_until) X(test) X(barrier) X(sync) X(fence) X(quiet) X(broadcast) X(reduce)              \
  X(reduce_scatter) X(alltoall) X(putmem_signal) X(signal_wait_until) X(malloc) X(free)          \
  X(stream_enqueued) X(errors)

enum class Stat : int {
#define ROCSHMEM_EMU_ENUM(name) name,
  ROCSHMEM_EMU_STATS(ROCSHMEM_EMU_ENUM)
#undef ROCSHMEM_EMU_ENUM
  count
};

extern std::atomic<uint64_t> g_stats[static_cast<int>(Stat::count)];

// Counted when an operation took effect, so also the end of a device call: the kernel engine's
// schedule fuzzing may switch work-items there (RMA, AMO, waits, fence, quiet, put-with-signal;
// never where the library holds a lock). While no kernel runs in the process (every host call of a
// host program) one load decides it: no call into the kernel engine.
inline void count(Stat s, uint64_t n = 1) {
  g_stats[static_cast<int>(s)].fetch_add(n, std::memory_order_relaxed);
  if ((s <= Stat::quiet || s == Stat::putmem_signal) &&
      __builtin_expect(__atomic_load_n(&rocshmem_emu_wi_launches_running, __ATOMIC_RELAXED) != 0, 0))
    rocshmem_emu_wi_call_boundary(s == Stat::g || s == Stat::get || s == Stat::atomic_fetching || s == Stat::test);
}

void stats_dump();
void stats_reset();

}  // namespace rocshmem_emu
