#include "stats.hpp"

#include <cstdio>

#include "runtime.hpp"

namespace rocshmem_emu {

std::atomic<uint64_t> g_stats[static_cast<int>(Stat::count)];

static const char* const kStatNames[] = {
#define ROCSHMEM_EMU_NAME(name) #name,
    ROCSHMEM_EMU_STATS(ROCSHMEM_EMU_NAME)
#undef ROCSHMEM_EMU_NAME
};

void stats_dump() {
  // One block per PE, written in one call so PEs do not interleave lines.
  char buf[4096];
  int n = snprintf(buf, sizeof buf, "rocSHMEM emulator stats, PE %d of %d:\n", runtime().my_pe, runtime().n_pes);
  for (int i = 0; i < static_cast<int>(Stat::count) && n < static_cast<int>(sizeof buf); i++)
    n += snprintf(buf + n, sizeof buf - n, "  %-20s %llu\n", kStatNames[i],
                  static_cast<unsigned long long>(g_stats[i].load(std::memory_order_relaxed)));
  fputs(buf, stdout);
  fflush(stdout);
}

void stats_reset() {
  for (auto& s : g_stats) s.store(0, std::memory_order_relaxed);
}

}  // namespace rocshmem_emu
