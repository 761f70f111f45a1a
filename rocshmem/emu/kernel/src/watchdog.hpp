// The launch watchdog: a hint for the one hang the scheduler cannot see. A work-item that spins
// without yielding (on memory another work-item of the launch writes) keeps every other
// work-item from running; a GPU would progress, the emulator hangs. When a work-item has run for
// ROCSHMEM_EMU_KERNEL_WATCHDOG seconds (default 10, 0: off) without a switch while others wait to
// run, one warning line names it and the fix. The launch is not ended: a long computation that
// does not yield is legal, only unusual.
#pragma once

#include <atomic>
#include <cstdint>

namespace hip_emu::kernel {

struct WorkItem;

// What a running launch publishes for the watchdog thread (relaxed atomics: a hint, not a lock).
struct LaunchProgress {
  const char* kernel = "";
  std::atomic<uint64_t> switches{0};
  std::atomic<const WorkItem*> running{nullptr};
  std::atomic<uint64_t> waiting_to_run{0};
  std::atomic<const void*> last_address{nullptr};  // of the last atomic a work-item made
  // Watchdog thread only:
  uint64_t last_switches = 0;
  unsigned quiet_seconds = 0;
  bool warned = false;
};

void watch_launch(LaunchProgress* progress);
void unwatch_launch(LaunchProgress* progress);

}  // namespace hip_emu::kernel
