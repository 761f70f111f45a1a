// The kernel engine's settings, read once and validated through emu/common (a bad value is refused,
// never replaced by a default). docs/settings.md lists them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace hip_emu::kernel {

enum class ScheduleMode { random, fifo };

struct KernelSettings {
  size_t stack_bytes = 128 * 1024;        // ROCSHMEM_EMU_KERNEL_STACK (page-rounded)
  size_t resident_work_items = 8192;      // ROCSHMEM_EMU_RESIDENT_WORK_ITEMS
  unsigned watchdog_seconds = 10;         // ROCSHMEM_EMU_KERNEL_WATCHDOG (0: off)
  unsigned wave_size = 64;                // ROCSHMEM_EMU_WAVE_SIZE (32 or 64)
  ScheduleMode schedule = ScheduleMode::random;  // ROCSHMEM_EMU_KERNEL_SCHEDULE
  uint64_t seed = 0;                      // ROCSHMEM_EMU_KERNEL_SEED (drawn at random when unset)
  bool seed_given = false;
};

// Parses every setting; false + one sentence naming the variable on a bad value.
bool load_kernel_settings(KernelSettings* settings, std::string* error);

// The process's settings (parsed on first use). A bad value ends the process with its message:
// HIP and rocSHMEM init refuse it earlier (validate_kernel_settings), this is the last line.
const KernelSettings& kernel_settings();

}  // namespace hip_emu::kernel
