// ROCSHMEM_EMU_PROFILE=ipc-uid: the host calls that cannot work on rocSHMEM's IPC backend when it
// was initialised without MPI (unique id / TCP bootstrap), shown before a GPU run does. Real
// rocSHMEM aborts without a message in most of them; the emulator ends the job with one naming the
// call and the profile. Off by default: the emulator then allows every call on every launch mode.
// The generated host API (gen_typed_api.py) starts the affected functions with these macros; the
// engine templates are shared with device code and never check. A kernel's call of a device
// function that resolves to the same host symbol is not restricted: device RMA, atomics and
// signals are exactly what works on IPC without MPI.
#pragma once

#include <atomic>

#include "rocshmem_emu_workitem.h"

namespace rocshmem_emu {

extern std::atomic<bool> g_ipc_uid_profile;  // set at init from ROCSHMEM_EMU_PROFILE

// True when the profile restricts this call: the profile is on and the caller is a host thread.
inline bool ipc_uid_restricts_host_call() {
  return __builtin_expect(g_ipc_uid_profile.load(std::memory_order_relaxed), 0) && !rocshmem_emu_wi_maybe_in_kernel();
}

// Ends the job: the call aborts on IPC without MPI.
[[noreturn]] void refuse_without_mpi(const char* fn);
// Prints why the call fails on IPC without MPI; the caller returns ROCSHMEM_ERROR.
void report_needs_mpi(const char* fn);

}  // namespace rocshmem_emu

#define ROCSHMEM_EMU_IPC_UID_ABORT(fn)                                                  \
  do {                                                                                  \
    if (rocshmem_emu::ipc_uid_restricts_host_call()) rocshmem_emu::refuse_without_mpi(fn); \
  } while (0)

#define ROCSHMEM_EMU_IPC_UID_ERROR(fn)                                                           \
  do {                                                                                           \
    if (rocshmem_emu::ipc_uid_restricts_host_call()) return rocshmem_emu::report_needs_mpi(fn), 1; \
  } while (0)
