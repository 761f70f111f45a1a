#include "profile.hpp"

#include "control.hpp"
#include "log.hpp"
#include "wait.hpp"

namespace rocshmem_emu {

std::atomic<bool> g_ipc_uid_profile{false};

void refuse_without_mpi(const char* fn) {
  claim_job_abort(134, kExitAbandoned);
  fatal_exit(134,
             "%s: rocSHMEM aborts here on the IPC backend without MPI (unique-id or TCP bootstrap): its host RMA, "
             "atomics other than int/long fetch_add, compare_swap and add, and host collectives need MPI windows. "
             "Shown because ROCSHMEM_EMU_PROFILE=ipc-uid; use putmem/getmem, the *_on_stream calls, or MPI init",
             fn);
}

void report_needs_mpi(const char* fn) {
  report_error("%s: only executable on MPI bootstrapping path (ROCSHMEM_EMU_PROFILE=ipc-uid); returning ROCSHMEM_ERROR",
               fn);
}

}  // namespace rocshmem_emu
