#include "watchdog.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>

#include "scheduler.hpp"
#include "settings.hpp"

namespace hip_emu::kernel {
namespace {

unsigned watchdog_seconds() { return kernel_settings().watchdog_seconds; }

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
  // Plain loads are invisible to the scheduler, so the address of such a spin is unknown; the last
  // atomic any work-item of the launch made is named when there was one (often the flag's neighbour).
  const void* last = progress->last_address.load(std::memory_order_relaxed);
  char last_atomic[96] = "";
  if (last != nullptr) snprintf(last_atomic, sizeof last_atomic, "; the launch's last atomic was at %p", last);
  fprintf(stderr,
          "HIP emulator: kernel '%s', block (%u,%u,%u), thread (%u,%u,%u) has run for %u s without a "
          "switch while %llu work-item(s) wait to run: if it spins on plain memory (a load that is not an "
          "atomic, with no fence or sleep in the loop) that another work-item of the launch writes, that "
          "work-item never runs on the emulator; use an atomic load (__hip_atomic_load, atomicAdd(p, 0)) "
          "as HIP's memory model requires%s (see rocshmem/emu/kernel/README.md)\n",
          progress->kernel, ids.block_idx.x, ids.block_idx.y, ids.block_idx.z, ids.thread_idx.x,
          ids.thread_idx.y, ids.thread_idx.z, progress->quiet_seconds,
          static_cast<unsigned long long>(progress->waiting_to_run.load(std::memory_order_relaxed)), last_atomic);
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
