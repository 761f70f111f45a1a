// How the CPU RCCL waits: for peers at init, for ring slots while data moves, for its turn on a
// communicator. The policy, dead-peer detection and the timeout setting are the ones the rocSHMEM
// emulator uses (emu/common), applied to communicators instead of the one-per-process rocSHMEM job.
#pragma once

#include <string>

#include "backoff.hpp"
#include "process.hpp"

namespace rccl_emu {

using emu_common::Backoff;
using emu_common::monotonic_ns;
using emu_common::process_is_gone;

// ROCSHMEM_EMU_BOOTSTRAP_TIMEOUT (shared with the rocSHMEM emulator, default 60 s), read once. A bad
// value fails every communicator init with ncclInvalidArgument: false and the sentence in *error.
bool bootstrap_timeout_valid(std::string* error);

// Seconds to wait for peers at init/finalize/split (after bootstrap_timeout_valid() said yes).
double bootstrap_timeout_seconds();

}  // namespace rccl_emu
