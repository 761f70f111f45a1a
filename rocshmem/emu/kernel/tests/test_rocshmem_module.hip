// A code object that references rocSHMEM: the kernels that reach a rocSHMEM function (directly or
// through __device__ functions) are marked uses-rocshmem and launch only after
// rocshmem_hipmodule_init (here: the engine's rocshmem_emu_wi_module_mark_rocshmem); the others
// launch at once.
#include <hip/hip_runtime.h>
#include <rocshmem/rocshmem.hpp>

__device__ __attribute__((noinline)) void put_one(int* out) {
  rocshmem::rocshmem_int_p(out, 1, 0);  // a demangled name with spaces: (int*, int, int)
}

static __device__ __attribute__((noinline)) void maybe_put(int* out, int ask) {
  if (ask) put_one(out);
}

extern "C" __global__ void rocshmem_user(int* out, int ask) {
  out[threadIdx.x] = 5;
  maybe_put(out, ask);
}

extern "C" __global__ void plain_kernel(int* out) { out[threadIdx.x] = 6; }
