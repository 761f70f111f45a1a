#include "waiting.hpp"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <sched.h>
#include <unistd.h>

namespace rccl_emu {
namespace {

constexpr uint32_t kSpins = 64;               // a few microseconds of pause on x86
constexpr int64_t kYieldNs = 1'000'000;       // then yield for 1 ms
constexpr int64_t kLookPeriodNs = 20'000'000;  // checks every 20 ms
constexpr int64_t kMaxNapNs = 500'000;

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

}  // namespace

int64_t monotonic_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

void Backoff::pause() {
  if (++spins_ < kSpins) {
    cpu_relax();
    return;
  }
  int64_t now = monotonic_ns();
  if (started_ns_ == 0) {
    started_ns_ = now;
    next_look_ns_ = now + kLookPeriodNs;
  }
  if (now - started_ns_ < kYieldNs) {
    sched_yield();
    return;
  }
  int64_t nap = int64_t(10'000) << (naps_ < 6 ? naps_ : 6);
  if (nap > kMaxNapNs) nap = kMaxNapNs;
  ++naps_;
  timespec ts{0, static_cast<long>(nap)};
  nanosleep(&ts, nullptr);
}

bool Backoff::time_to_look() {
  if (started_ns_ == 0) return false;
  int64_t now = monotonic_ns();
  if (now < next_look_ns_) return false;
  next_look_ns_ = now + kLookPeriodNs;
  return true;
}

bool process_is_gone(int pid) {
  if (pid <= 0) return false;
  if (kill(pid, 0) != 0 && errno == ESRCH) return true;
  // A dead child of someone who has not reaped it yet still answers kill(): read its state.
  char path[64];
  std::snprintf(path, sizeof path, "/proc/%d/stat", pid);
  FILE* f = std::fopen(path, "r");
  if (f == nullptr) return false;
  char line[512] = {};
  size_t n = std::fread(line, 1, sizeof line - 1, f);
  std::fclose(f);
  line[n] = '\0';
  const char* close_paren = std::strrchr(line, ')');
  return close_paren != nullptr && close_paren[1] == ' ' && (close_paren[2] == 'Z' || close_paren[2] == 'X');
}

double bootstrap_timeout_seconds() {
  static const double seconds = [] {
    const char* text = std::getenv("ROCSHMEM_EMU_BOOTSTRAP_TIMEOUT");
    if (text == nullptr || *text == '\0') return 60.0;
    char* end = nullptr;
    double value = std::strtod(text, &end);
    if (end == text || *end != '\0' || !(value > 0)) {
      std::fprintf(stderr, "rccl_cpu_emu: ROCSHMEM_EMU_BOOTSTRAP_TIMEOUT='%s' is not a positive number of "
                           "seconds; using 60\n", text);
      return 60.0;
    }
    return value;
  }();
  return seconds;
}

}  // namespace rccl_emu
