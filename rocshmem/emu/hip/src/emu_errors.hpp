// Per-thread last-error bookkeeping shared by every API entry point (hand-written and generated).
#pragma once

#include <hip/hip_runtime_api.h>

// Marks a hand-written HIP API definition: C linkage and exported even where the header's
// declarations are outside its `visibility push(default)` region (the *_spt functions).
// gen_hip_stubs.py finds the hand-implemented set by this marker at the start of a line.
#define HIP_EMU_API extern "C" __attribute__((visibility("default")))

namespace hip_emu {

// Records `status` as this thread's last error when it is a failure and returns it unchanged,
// so API functions end with `return report(status);`. hipErrorNotReady is a status, not a
// failure (hipStreamQuery/hipEventQuery), so like the real runtime it does not become sticky.
hipError_t report(hipError_t status);

}  // namespace hip_emu
