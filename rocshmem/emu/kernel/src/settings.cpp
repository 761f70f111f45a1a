#include "settings.hpp"

#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>

#include "../../common/random_bytes.hpp"
#include "../../common/settings.hpp"
#include "hip_emu_kernel.hpp"
#include "scheduler.hpp"

namespace hip_emu::kernel {

bool load_kernel_settings(KernelSettings* s, std::string* error) {
  uint64_t stack = s->stack_bytes, resident = s->resident_work_items, watchdog = s->watchdog_seconds,
           wave = s->wave_size;
  int schedule = static_cast<int>(s->schedule);
  if (!emu_common::read_unsigned("ROCSHMEM_EMU_KERNEL_STACK", 16 << 10, 64 << 20, true, "bytes", &stack, error) ||
      !emu_common::read_unsigned("ROCSHMEM_EMU_RESIDENT_WORK_ITEMS", 1, 1 << 20, false, "work-items", &resident,
                                 error) ||
      !emu_common::read_unsigned("ROCSHMEM_EMU_KERNEL_WATCHDOG", 0, emu_common::kLargestTimeoutSeconds, false,
                                 "seconds, 0 off", &watchdog, error) ||
      !emu_common::read_choice("ROCSHMEM_EMU_KERNEL_SCHEDULE", {"random", "fifo"}, &schedule, error) ||
      !emu_common::read_unsigned("ROCSHMEM_EMU_KERNEL_SEED", 0, UINT64_MAX, false, "a whole number", &s->seed,
                                 error))
    return false;
  int wave_choice = wave == 32 ? 0 : 1;
  if (!emu_common::read_choice("ROCSHMEM_EMU_WAVE_SIZE", {"32", "64"}, &wave_choice, error)) return false;
  const long page = sysconf(_SC_PAGESIZE);
  s->stack_bytes = (stack + page - 1) / page * page;
  s->resident_work_items = resident;
  s->watchdog_seconds = static_cast<unsigned>(watchdog);
  s->wave_size = wave_choice == 0 ? 32 : 64;
  s->schedule = static_cast<ScheduleMode>(schedule);
  const char* seed = getenv("ROCSHMEM_EMU_KERNEL_SEED");
  s->seed_given = seed != nullptr && *seed != '\0';
  if (!s->seed_given && !emu_common::random_bytes(&s->seed, sizeof s->seed)) s->seed = uint64_t(getpid());
  return true;
}

const KernelSettings& kernel_settings() {
  static const KernelSettings settings = [] {
    KernelSettings s;
    std::string error;
    if (!load_kernel_settings(&s, &error)) {
      fprintf(stderr, "HIP emulator: %s\n", error.c_str());
      fflush(stdout);
      _exit(kFaultExitStatus);
    }
    return s;
  }();
  return settings;
}

unsigned default_wave_size() { return kernel_settings().wave_size; }

namespace {
// A process that ran kernels in the random schedule and exits with a failure names the seed, so
// that ROCSHMEM_EMU_KERNEL_SEED reproduces the order: at exit() with a non-zero status, and in the
// engine's own fatal endings (fault.cpp, which may run in a signal handler: the line is made here).
char g_seed_line[256];
std::atomic<bool> g_seed_line_ready{false};

void print_seed_on_failure(int status, void*) {
  if (status != 0) fputs(g_seed_line, stderr);
}
}  // namespace

void note_random_schedule(bool random) {
  static std::atomic<bool> registered{false};
  if (!random || registered.exchange(true)) return;
  snprintf(g_seed_line, sizeof g_seed_line,
           "HIP emulator: this process ran its kernels in a random schedule; ROCSHMEM_EMU_KERNEL_SEED=%llu repeats "
           "it (ROCSHMEM_EMU_KERNEL_SCHEDULE=fifo: the deterministic order)\n",
           static_cast<unsigned long long>(kernel_settings().seed));
  g_seed_line_ready.store(true, std::memory_order_release);
  on_exit(print_seed_on_failure, nullptr);
}

const char* random_schedule_seed_line() {
  return g_seed_line_ready.load(std::memory_order_acquire) ? g_seed_line : nullptr;
}

bool validate_kernel_settings(std::string* error) {
  KernelSettings s;
  return load_kernel_settings(&s, error);
}

}  // namespace hip_emu::kernel
