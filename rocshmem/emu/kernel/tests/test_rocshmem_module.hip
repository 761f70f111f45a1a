// A code object that references rocSHMEM (uses-rocshmem): its kernels launch only after
// rocshmem_hipmodule_init (here: the engine's rocshmem_emu_wi_module_mark_rocshmem) marked it.
#include <hip/hip_runtime.h>
#include <rocshmem/rocshmem.hpp>

extern "C" __global__ void rocshmem_user(int* out, int ask) {
  out[threadIdx.x] = 5;
  if (ask) out[threadIdx.x] = rocshmem::rocshmem_my_pe();
}
