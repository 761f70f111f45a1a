#include "wait.hpp"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

#include "log.hpp"
#include "rocshmem_emu_workitem.h"
#include "runtime.hpp"

namespace rocshmem_emu {

namespace {
constexpr int64_t kYieldPhaseNs = 2'000'000;   // yield for 2 ms before napping
constexpr int64_t kCheckPeriodNs = 20'000'000;  // liveness check period
constexpr int64_t kMaxNapNs = 1'000'000;

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

int online_cpus() {
  static const int n = [] {
    long c = sysconf(_SC_NPROCESSORS_ONLN);
    return c > 0 ? static_cast<int>(c) : 1;
  }();
  return n;
}
}  // namespace

int64_t monotonic_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

PeSet all_pes() { return PeSet{0, 1, runtime().n_pes}; }

Backoff::Backoff() {
  // Spinning only helps when every PE has a core; otherwise hand the CPU over at once.
  spin_limit_ = runtime().n_pes <= online_cpus() ? 256 : 8;  // ~3 us of pause on current x86
}

void Backoff::pause() {
  ++iterations_;
  if (rocshmem_emu_wi_in_kernel()) {
    // A work-item waits: let the other work-items of its launch run (one of them may be the
    // writer) instead of spinning or sleeping the carrier thread; idle throttling is the
    // scheduler's job. The clock still starts so that time_to_check() keeps the peer checks.
    if (start_ns_ == 0) {
      start_ns_ = monotonic_ns();
      next_check_ns_ = start_ns_ + kCheckPeriodNs;
    }
    rocshmem_emu_wi_yield();
    return;
  }
  if (iterations_ < spin_limit_) {
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
  int64_t nap = int64_t(20'000) << (naps_ < 6 ? naps_ : 6);
  if (nap > kMaxNapNs) nap = kMaxNapNs;
  naps_++;
  timespec ts{0, static_cast<long>(nap)};
  nanosleep(&ts, nullptr);
}

bool Backoff::time_to_check() {
  if (start_ns_ == 0) return false;
  int64_t now = monotonic_ns();
  if (now < next_check_ns_) return false;
  next_check_ns_ = now + kCheckPeriodNs;
  return true;
}

bool process_is_gone(int pid) {
  if (pid <= 0) return false;
  if (kill(pid, 0) != 0 && errno == ESRCH) return true;
  // A child that died but was not reaped yet still answers kill(); look at its state.
  char path[64];
  snprintf(path, sizeof path, "/proc/%d/stat", pid);
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char buf[256];
  ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  if (n <= 0) return false;
  buf[n] = '\0';
  const char* close_paren = strrchr(buf, ')');
  if (!close_paren || close_paren[1] != ' ') return false;
  char state = close_paren[2];
  return state == 'Z' || state == 'X';
}

bool claim_job_abort(int status, int reason) {
  Runtime& rt = runtime();
  ControlSegment* ctl = rt.ctl;
  if (!ctl) return true;
  int32_t idle = 0;
  if (!ctl->exit_requested.compare_exchange_strong(idle, -1, std::memory_order_acq_rel)) return false;
  ctl->exit_status.store(status, std::memory_order_relaxed);
  ctl->exit_pe.store(rt.my_pe, std::memory_order_relaxed);
  ctl->exit_reason.store(reason, std::memory_order_relaxed);
  ctl->exit_requested.store(1, std::memory_order_release);
  if (rt.pes && rt.my_pe >= 0) rt.pes[rt.my_pe].state.store(kPeExited, std::memory_order_release);
  return true;
}

void abort_job_for_mismatch(const std::string& message) {
  if (!claim_job_abort(kPeerDiedExitStatus, kExitCollectiveMismatch)) leave_aborted_job("a collective");
  fatal_exit(kPeerDiedExitStatus, "%s", message.c_str());
}

void leave_aborted_job(const char* op) {
  ControlSegment* ctl = runtime().ctl;
  // The aborting PE fills in the details right after claiming the request (-1 -> 1).
  const int64_t give_up = monotonic_ns() + 1'000'000'000;
  Backoff backoff;
  while (ctl->exit_requested.load(std::memory_order_acquire) != 1 && monotonic_ns() < give_up) backoff.pause();
  if (ctl->exit_requested.load(std::memory_order_acquire) != 1)
    fatal_exit(kPeerDiedExitStatus, "leaving %s: another PE ended the job", op);
  const int status = ctl->exit_status.load(std::memory_order_relaxed);
  const int pe = ctl->exit_pe.load(std::memory_order_relaxed);
  const int reason = ctl->exit_reason.load(std::memory_order_relaxed);
  if (reason == kExitCollectiveMismatch)
    fatal_exit(status, "leaving %s: PE %d ended the job for a collective mismatch (its message names both sides)", op,
               pe);
  if (reason == kExitAbandoned)
    fatal_exit(status, "leaving %s: PE %d left the job without finalize (its program ended abnormally)", op, pe);
  fatal_exit(status, "PE %d called rocshmem_global_exit(%d); leaving %s", pe, status, op);
}

void check_peers(const char* op, PeSet deps, PeerPolicy policy, bool (*still_waiting)(void*), void* arg) {
  Runtime& rt = runtime();
  ControlSegment* ctl = rt.ctl;
  if (!ctl) return;
  if (ctl->exit_requested.load(std::memory_order_acquire)) leave_aborted_job(op);
  int others = 0, finished_others = 0;
  for (int i = 0; i < deps.size; i++) {
    int pe = deps.world_pe(i);
    if (pe == rt.my_pe) continue;
    others++;
    PeSlot& slot = rt.pes[pe];
    int state = slot.state.load(std::memory_order_acquire);
    int pid = slot.pid.load(std::memory_order_relaxed);
    bool died = state == kPeExited || (state != kPeFinalized && process_is_gone(pid));
    if (died) {
      if (!still_waiting(arg)) return;
      fatal_exit(kPeerDiedExitStatus, "peer PE %d (pid %d) died while waiting in %s", pe, pid, op);
    }
    if (state == kPeFinalized) {
      finished_others++;
      if (policy == PeerPolicy::collective) {
        if (!still_waiting(arg)) return;
        fatal_exit(kPeerDiedExitStatus, "peer PE %d (pid %d) finalized while this PE waits in %s", pe, pid, op);
      }
    }
  }
  if (policy == PeerPolicy::point_to_point && others > 0 && finished_others == others) {
    if (!still_waiting(arg)) return;
    fatal_exit(kPeerDiedExitStatus, "every other PE has finalized; %s can never complete", op);
  }
}

}  // namespace rocshmem_emu
