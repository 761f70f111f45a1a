// How the CPU RCCL waits: for peers at init, for ring slots while data moves, for its turn on a
// communicator. Same policy as the rocSHMEM emulator (spin briefly, then yield, then nap, and look
// around every ~20 ms), written for communicators instead of the one-per-process rocSHMEM job.
#pragma once

#include <cstdint>

namespace rccl_emu {

int64_t monotonic_ns();

// One waiting loop: call pause() while nothing happens; time_to_look() turns true about every
// 20 ms once spinning is over (the moment to check for aborts, dead peers and deadlines).
class Backoff {
 public:
  void pause();
  bool time_to_look();
  void reset() { *this = Backoff(); }

 private:
  uint32_t spins_ = 0;
  uint32_t naps_ = 0;
  int64_t started_ns_ = 0;
  int64_t next_look_ns_ = 0;
};

// True when `pid` no longer runs (exited, or a zombie that nobody reaped yet).
bool process_is_gone(int pid);

// Seconds to wait for peers at init/finalize/split: ROCSHMEM_EMU_BOOTSTRAP_TIMEOUT (shared with the
// rocSHMEM emulator), default 60.
double bootstrap_timeout_seconds();

}  // namespace rccl_emu
