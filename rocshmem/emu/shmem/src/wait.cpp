#include "wait.hpp"

#include <cstdio>

#include "log.hpp"
#include "rocshmem_emu_workitem.h"
#include "runtime.hpp"

namespace rocshmem_emu {

PeSet all_pes() { return PeSet{0, 1, runtime().n_pes}; }

Backoff::Backoff() : steps_(runtime().n_pes), in_kernel_(rocshmem_emu_wi_maybe_in_kernel() != 0) {}

void Backoff::pause() {
  if (in_kernel_) {
    // A work-item waits: let the other work-items of its launch run (one of them may be the writer)
    // instead of spinning or sleeping the carrier thread; idle throttling is the scheduler's job.
    // The clock still runs so that time_to_check() keeps the peer checks.
    steps_.start_clock();
    rocshmem_emu_wi_yield();
    return;
  }
  steps_.pause();
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
  if (!claim_job_abort(kFailureExitStatus, kExitCollectiveMismatch)) leave_aborted_job("a collective");
  fatal_exit(kFailureExitStatus, "%s", message.c_str());
}

void leave_aborted_job(const char* op) {
  ControlSegment* ctl = runtime().ctl;
  // The aborting PE fills in the details right after claiming the request (-1 -> 1).
  const int64_t give_up = monotonic_ns() + 1'000'000'000;
  Backoff backoff;
  while (ctl->exit_requested.load(std::memory_order_acquire) != 1 && monotonic_ns() < give_up) backoff.pause();
  if (ctl->exit_requested.load(std::memory_order_acquire) != 1)
    fatal_exit(kStoppedByPeerExitStatus, "leaving %s: another PE ended the job", op);
  const int status = ctl->exit_status.load(std::memory_order_relaxed);
  const int pe = ctl->exit_pe.load(std::memory_order_relaxed);
  const int reason = ctl->exit_reason.load(std::memory_order_relaxed);
  if (reason == kExitCollectiveMismatch)
    fatal_exit(kStoppedByPeerExitStatus,
               "leaving %s: PE %d ended the job for a collective mismatch (its message names both sides)", op, pe);
  if (reason == kExitAbandoned)
    fatal_exit(kStoppedByPeerExitStatus, "leaving %s: PE %d left the job without finalize (its program ended abnormally)",
               op, pe);
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
      fatal_exit(kStoppedByPeerExitStatus, "peer PE %d (pid %d) died while waiting in %s", pe, pid, op);
    }
    if (state == kPeFinalized) {
      finished_others++;
      if (policy == PeerPolicy::collective) {
        if (!still_waiting(arg)) return;
        fatal_exit(kFailureExitStatus, "peer PE %d (pid %d) finalized while this PE waits in %s", pe, pid, op);
      }
    }
  }
  if (policy == PeerPolicy::point_to_point && others > 0 && finished_others == others) {
    if (!still_waiting(arg)) return;
    fatal_exit(kFailureExitStatus, "every other PE has finalized; %s can never complete", op);
  }
}

}  // namespace rocshmem_emu
