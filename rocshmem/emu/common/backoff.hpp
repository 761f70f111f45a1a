// How every blocking loop of the emulators waits without burning a shared machine: spin briefly
// (pause), then yield for 2 ms, then sleep with naps growing from 20 us to 1 ms; time_to_check()
// turns true about every 20 ms once spinning is over, the moment to look for aborts, dead peers and
// deadlines. One policy for rocSHMEM and RCCL (before, RCCL napped from 10 us to 0.5 ms after 1 ms
// of yielding): the numbers are tuned for a 2-core machine shared by several PEs, and a job mixing
// both libraries must not have one of them starve the other.
#pragma once

#include <cstdint>
#include <ctime>
#include <sched.h>
#include <unistd.h>

namespace emu_common {

inline int64_t monotonic_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

inline int online_cpus() {
  static const int n = [] {
    long c = sysconf(_SC_NPROCESSORS_ONLN);
    return c > 0 ? static_cast<int>(c) : 1;
  }();
  return n;
}

class Backoff {
 public:
  // Spinning only helps when every waiting process has a core; otherwise hand the CPU over at once.
  explicit Backoff(int processes = 1) : spin_limit_(processes <= online_cpus() ? 256 : 8) {}  // ~3 us of pause

  void pause() {
    if (++iterations_ < spin_limit_) {
      cpu_relax();
      return;
    }
    int64_t now = monotonic_ns();
    if (start_ns_ == 0) {
      start_ns_ = now;
      next_check_ns_ = now + kCheckPeriodNs;
    }
    if (now - start_ns_ < kYieldPhaseNs) {
      sched_yield();
      return;
    }
    int64_t nap = kFirstNapNs << (naps_ < 6 ? naps_ : 6);
    if (nap > kMaxNapNs) nap = kMaxNapNs;
    naps_++;
    timespec ts{0, static_cast<long>(nap)};
    nanosleep(&ts, nullptr);
  }

  // Starts the check clock without spinning or sleeping (a waiter that yields some other way).
  void start_clock() {
    if (start_ns_ == 0) {
      start_ns_ = monotonic_ns();
      next_check_ns_ = start_ns_ + kCheckPeriodNs;
    }
  }

  bool time_to_check() {
    if (start_ns_ == 0) return false;
    int64_t now = monotonic_ns();
    if (now < next_check_ns_) return false;
    next_check_ns_ = now + kCheckPeriodNs;
    return true;
  }

  // Back to spinning, after progress.
  void reset() {
    iterations_ = naps_ = 0;
    start_ns_ = next_check_ns_ = 0;
  }

 private:
  static constexpr int64_t kYieldPhaseNs = 2'000'000;
  static constexpr int64_t kCheckPeriodNs = 20'000'000;
  static constexpr int64_t kFirstNapNs = 20'000;
  static constexpr int64_t kMaxNapNs = 1'000'000;

  static void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    asm volatile("yield");
#endif
  }

  uint32_t iterations_ = 0;
  uint32_t spin_limit_;
  uint32_t naps_ = 0;
  int64_t start_ns_ = 0;
  int64_t next_check_ns_ = 0;
};

}  // namespace emu_common
