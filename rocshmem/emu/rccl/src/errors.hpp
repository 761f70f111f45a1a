// Result codes, their strings and the "last error" text (ncclGetErrorString / ncclGetLastError).
#pragma once

#include <rccl/rccl.h>

#include <string>

// Marks a definition of the public API: C linkage, exported (everything else is hidden).
#define RCCL_EMU_API extern "C" __attribute__((visibility("default")))

namespace rccl_emu {

// The strings the real librccl 7.2.4 returns (checked by the Java tests on both variants).
const char* result_string(ncclResult_t result);

// Records `message` as the last error (process-wide, like RCCL's), prints it with NCCL_DEBUG=WARN
// or INFO, and returns `result` so API functions can `return fail(ncclInvalidArgument, ...)`.
ncclResult_t fail(ncclResult_t result, const std::string& message);

// The text ncclGetLastError returns: valid until the next failure.
const char* last_error();

}  // namespace rccl_emu
