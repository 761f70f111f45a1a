/* What compiled kernel code and the HIP emulator exchange (private exports of libhip_cpu_emu.so,
 * prefix rocshmem_emu_wi_). Kernel sources never use this header directly: the kernel language
 * (rocshmem_emu_kernel.hpp) and the code-object registration written by rocshmem-emu-hipcc do. */
#ifndef ROCSHMEM_EMU_KERNEL_ABI_H
#define ROCSHMEM_EMU_KERNEL_ABI_H

#include <stddef.h>
#include <stdint.h>

#include "rocshmem_emu_workitem.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Calls `kernel` (the __global__ function's address) with the arguments args[0..n-1], each
 * pointing at a parameter's bytes. Generated per parameter list by the kernel language. */
typedef void (*rocshmem_emu_wi_entry_t)(const void* kernel, void** args);

/* One kernel: what a launch needs to call it and to check its arguments. */
typedef struct rocshmem_emu_wi_kernel {
  const char* name;          /* symbol name (extern "C" name or mangled C++ name) */
  const void* address;       /* the __global__ function */
  rocshmem_emu_wi_entry_t entry;
  unsigned num_params;
  const unsigned* sizes;     /* num_params parameter sizes in bytes */
  const unsigned* aligns;    /* their alignments */
  /* Bytes of the module's thread-local image that are the dynamic shared memory buffer
   * (extern __shared__), not static __shared__ variables. */
  unsigned dynamic_shared_capacity;
  /* The calling thread's address of that buffer (NULL when the object has none). */
  void* (*dynamic_shared)(void);
} rocshmem_emu_wi_kernel_t;

/* The ids of the running work-item (threadIdx etc.); on a host thread: zeros and dims of 1. */
typedef struct rocshmem_emu_wi_dim { unsigned x, y, z; } rocshmem_emu_wi_dim_t;
typedef struct rocshmem_emu_wi_id_set {
  rocshmem_emu_wi_dim_t thread_idx, block_idx, block_dim, grid_dim;
} rocshmem_emu_wi_id_set_t;
const rocshmem_emu_wi_id_set_t* rocshmem_emu_wi_current_ids(void);

/* __syncthreads(): a meeting of every live work-item of the block. */
void rocshmem_emu_wi_syncthreads(void);

/* Wavefront exchanges: every live lane of the wavefront calls with the same op.
 * SHUFFLE returns `value` of lane `src_lane` (own value when that lane does not take part);
 * BALLOT returns the mask of lanes whose `value` is non-zero. */
#define ROCSHMEM_EMU_WI_SHUFFLE 0
#define ROCSHMEM_EMU_WI_BALLOT 1
uint64_t rocshmem_emu_wi_wave_exchange(int op, uint64_t value, int src_lane);

/* Scheduling points of the kernel language (see the README's execution model): after an atomic
 * (its address and the value it returned), at a fence and at a sleep. A work-item that repeats them
 * without progress lets the others run. */
#define ROCSHMEM_EMU_WI_SPIN_ATOMIC 0
#define ROCSHMEM_EMU_WI_SPIN_FENCE 1
#define ROCSHMEM_EMU_WI_SPIN_SLEEP 2
void rocshmem_emu_wi_spin_point(int kind, const volatile void* address, uint64_t observed);

/* The running launch's wavefront size (32 or 64) is the thread-local int rocshmem_emu_wi_warp_size,
 * which the kernel language names warpSize (64 on a thread that runs no launch). */

/* Registers a host-program kernel (hipLaunchKernelGGL, hipLaunchKernel by address): the
 * description is copied; the first registration of an address wins. */
void rocshmem_emu_wi_register_kernel(const rocshmem_emu_wi_kernel_t* kernel);

#ifdef __cplusplus
}
#endif

#endif /* ROCSHMEM_EMU_KERNEL_ABI_H */
