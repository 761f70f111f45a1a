#include "watchdog.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>

#include "scheduler.hpp"

namespace hip_emu::kernel {
namespace {

unsigned watchdog_seconds() {
  static const unsigned seconds = [] {
    const char* text = getenv("ROCSHMEM_EMU_KERNEL_WATCHDOG");
    if (text == nullptr || *text == '\0') return 10u;
    char* end = nullptr;
    unsigned long value = strtoul(text, &end, 10);
    if (*end != '\0' || value > 86400) {
      fprintf(stderr, "HIP emulator: ignoring ROCSHMEM_EMU_KERNEL_WATCHDOG='%s' (seconds, 0: off)\n", text);
      return 10u;
    }
    return static_cast<unsigned>(value);
  }();
  return seconds;
}

struct Watched {
  std::mutex mutex;
  std::vector<LaunchProgress*> launches;
  bool thread_started = false;
};
Watched& watched() {
  static Watched* instance = new Watched;  // leaked: the thread may outlive static destruction
  return *instance;
}

void check(LaunchProgress* progress) {
  const uint64_t switches = progress->switches.load(std::memory_order_relaxed);
  const WorkItem* running = progress->running.load(std::memory_order_relaxed);
  if (switches != progress->last_switches || running == nullptr ||
      progress->waiting_to_run.load(std::memory_order_relaxed) == 0) {
    progress->last_switches = switches;
    progress->quiet_seconds = 0;
    return;
  }
  if (++progress->quiet_seconds < watchdog_seconds() || progress->warned) return;
  progress->warned = true;
  // The running work-item's ids are not written while it runs: the scheduler thread is inside it.
  const auto& ids = running->ids;
  fprintf(stderr,
          "HIP emulator: kernel '%s', block (%u,%u,%u), thread (%u,%u,%u) has run for %u s without "
          "yielding while %llu work-item(s) wait to run: if it spins on memory that another "
          "work-item of the launch writes, that work-item never runs on the emulator (call "
          "rocshmem_emu_wi_yield() in the loop; see rocshmem/emu/kernel/README.md)\n",
          progress->kernel, ids.block_idx.x, ids.block_idx.y, ids.block_idx.z, ids.thread_idx.x,
          ids.thread_idx.y, ids.thread_idx.z, progress->quiet_seconds,
          static_cast<unsigned long long>(progress->waiting_to_run.load(std::memory_order_relaxed)));
}

void watchdog_loop() {
  for (;;) {
    sleep(1);
    std::lock_guard<std::mutex> lock(watched().mutex);
    for (LaunchProgress* progress : watched().launches) check(progress);
  }
}

}  // namespace

void watch_launch(LaunchProgress* progress) {
  if (watchdog_seconds() == 0) return;
  std::lock_guard<std::mutex> lock(watched().mutex);
  watched().launches.push_back(progress);
  if (!watched().thread_started) {
    watched().thread_started = true;
    std::thread(watchdog_loop).detach();
  }
}

void unwatch_launch(LaunchProgress* progress) {
  if (watchdog_seconds() == 0) return;
  std::lock_guard<std::mutex> lock(watched().mutex);
  auto& launches = watched().launches;
  launches.erase(std::remove(launches.begin(), launches.end(), progress), launches.end());
}

}  // namespace hip_emu::kernel
