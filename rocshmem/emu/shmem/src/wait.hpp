// Waiting without burning a shared 2-core machine and without ever hanging forever.
// Every blocking loop of the emulator goes through wait_for(): it spins briefly (pause), then
// yields, then sleeps with growing naps; every ~20 ms it checks that the PEs it depends on are
// still alive and that nobody called rocshmem_global_exit. A dead peer ends this PE with
// status kStoppedByPeerExitStatus and a one-line message.
#pragma once

#include <cstdint>
#include <ctime>
#include <string>

#include "backoff.hpp"
#include "process.hpp"

namespace rocshmem_emu {

// Exit statuses (docs/reliability.md). 70: this PE failed or found the failure (a collective mismatch, a peer
// that finalized under a wait, a kernel fault). 71: this PE was stopped because another PE failed (it died, left
// without finalize, or ended the job for a mismatch); the launchers report the PE that failed, not this one.
constexpr int kFailureExitStatus = 70;
constexpr int kStoppedByPeerExitStatus = 71;

// World PEs start + i*stride for i < size.
struct PeSet {
  int start;
  int stride;
  int size;
  int world_pe(int i) const { return start + i * stride; }
};

PeSet all_pes();

enum class PeerPolicy {
  collective,     // every dependency must take part: a finalized peer is as fatal as a dead one
  point_to_point  // anyone may write: fatal when a PE died or every other PE has finalized
};

// emu_common::Backoff (the policy both emulated libraries share), sized for this job's PEs.
class Backoff {
 public:
  Backoff();
  void pause();             // one step of spin -> yield -> sleep
  bool time_to_check() { return steps_.time_to_check(); }  // about every 20 ms once past spinning
 private:
  emu_common::Backoff steps_;
  bool in_kernel_;  // a work-item waits (asked once: a call into the kernel engine per pause slowed every spin)
};

using emu_common::monotonic_ns;

// Returns when the PEs are fine; otherwise exits the process (unless still_waiting() turns
// false, which means the awaited event raced with the peer leaving and we can return).
void check_peers(const char* op, PeSet deps, PeerPolicy policy, bool (*still_waiting)(void*), void* arg);

void completion_progress();  // completion.hpp: a PE that waits delivers its queued operations

template <class Done>
void wait_for(Done done, const char* op, PeSet deps, PeerPolicy policy = PeerPolicy::collective) {
  if (done()) return;
  completion_progress();
  Backoff backoff;
  for (;;) {
    backoff.pause();
    if (done()) return;
    if (backoff.time_to_check()) {
      completion_progress();  // a waiting PE keeps delivering (held-back puts too)
      check_peers(op, deps, policy, [](void* d) { return !(*static_cast<Done*>(d))(); }, &done);
      if (done()) return;
    }
  }
}

// Ends the job: records the abort in the control segment (so every waiting PE leaves within
// ~20 ms, and no PE enters another collective), prints `message` and exits this PE. Only the first
// PE to abort prints the full message; a later one only says that the job was already aborted.
// Records a job abort (status, ExitReason) in the control segment and marks this PE as gone;
// false when another PE claimed the abort first.
bool claim_job_abort(int status, int reason);

[[noreturn]] void abort_job_for_mismatch(const std::string& message);

// Exits this PE because the job was aborted (rocshmem_global_exit or a collective mismatch).
[[noreturn]] void leave_aborted_job(const char* op);

// True when the process with this pid is gone or a zombie.
using emu_common::process_is_gone;

}  // namespace rocshmem_emu
