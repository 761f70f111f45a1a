// A kernel of the Java kernel tests that takes a team and a context (KernelArgumentsTest).
#include <hip/hip_runtime.h>
#include <rocshmem/rocshmem.hpp>

using namespace rocshmem;

// out[0..1]: this PE's number in `team` and its size; out[2]: whether ctx arrived (its context word is not null);
// out[3]: `check`, so that a test sees the argument after the 16-byte context in place.
extern "C" __global__ void team_info(long* out, rocshmem_team_t team, rocshmem_ctx_t ctx, int check) {
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    out[0] = rocshmem_team_my_pe(team);
    out[1] = rocshmem_team_n_pes(team);
    out[2] = ctx.ctx_opaque != nullptr;
    out[3] = check;
  }
}
