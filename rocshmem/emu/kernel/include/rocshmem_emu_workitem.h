/* The work-item C ABI of the HIP emulator (exported by libhip_cpu_emu.so, prefix rocshmem_emu_wi_).
 *
 * Kernels run as cooperative work-items (fibers) on the launching stream's thread; see
 * rocshmem/emu/kernel/README.md for the execution model. The rocSHMEM emulator's device API uses
 * these functions to let other work-items run while it waits and to implement the block- and
 * wavefront-wide (_wg/_wave) calls.
 *
 * Every function is safe on a plain host thread: there in_kernel() is 0, yield() returns at once,
 * the ids are 0 and the sizes 1, group_enter() returns 1 (the caller is a group of one).
 */
#ifndef ROCSHMEM_EMU_WORKITEM_H
#define ROCSHMEM_EMU_WORKITEM_H

#ifdef __cplusplus
extern "C" {
#endif

/* 1 inside a work-item of a running launch. */
int rocshmem_emu_wi_in_kernel(void);

/* Launches running in this process now, on any stream thread (read it with a relaxed atomic load).
 * 0 proves that the caller is not in a kernel: the stream thread that runs one counts it before its
 * first work-item starts. The rocSHMEM emulator's host calls read it (one load) instead of calling
 * in_kernel() and call_boundary() (each a call into this library and a thread-local read). */
extern int rocshmem_emu_wi_launches_running;

/* in_kernel(), without the call while no launch runs in the process. */
static inline int rocshmem_emu_wi_maybe_in_kernel(void) {
  return __atomic_load_n(&rocshmem_emu_wi_launches_running, __ATOMIC_RELAXED) != 0 && rocshmem_emu_wi_in_kernel();
}

/* Lets the other work-items of the launch run; returns when this one is scheduled again
 * (never blocks forever: the caller is runnable again at once). */
void rocshmem_emu_wi_yield(void);

/* threadIdx, blockIdx, blockDim and gridDim of the caller (x, y, z). */
void rocshmem_emu_wi_ids(unsigned thread[3], unsigned block[3], unsigned block_dim[3],
                         unsigned grid_dim[3]);

unsigned rocshmem_emu_wi_flat_thread(void); /* thread id within the block, x fastest */
unsigned rocshmem_emu_wi_block_size(void);  /* work-items per block */
unsigned rocshmem_emu_wi_lane(void);        /* flat_thread % the launch's wave size (32 or 64) */
unsigned rocshmem_emu_wi_wave_size(void);   /* lanes of the caller's wavefront (the last may be partial) */
const char* rocshmem_emu_wi_kernel_name(void); /* the running kernel, for messages ("" outside) */

/* The end of a rocSHMEM device call: under ROCSHMEM_EMU_KERNEL_SCHEDULE=random the engine may switch
 * to another work-item here (a seeded choice), so code between two calls of one work-item can be
 * interleaved with the others, as on a GPU. `poll` is 1 for a call that only reads (g, get, atomic
 * fetches, test): repeated, it is a spin, and the work-item lets the others run like at a repeated
 * atomic; 0 (puts, stores, fence, quiet) is progress. Returns at once on a host thread. */
void rocshmem_emu_wi_call_boundary(int poll);

/* Validates the kernel engine's settings: 0, or non-zero with one sentence naming the variable
 * written into message[size] (rocSHMEM's init refuses such a value). */
int rocshmem_emu_wi_check_settings(char* message, unsigned long size);

/* Scopes of a group call. */
#define ROCSHMEM_EMU_WI_WAVE 0
#define ROCSHMEM_EMU_WI_BLOCK 1

/* Group calls. Every work-item of the block (scope 1) or of the wavefront (scope 0) must call
 * with the same name. Returns 1 in exactly one caller (the leader: flat thread 0 / lane 0 of the
 * wave) once all have arrived, 0 in the others. The leader does the work, then calls group_leave;
 * the others return from group_leave only after that (the leader returns at once).
 * If the group can never complete (some work-items finished the kernel or wait in a different
 * call), the engine ends the PE with exit status 70 (like a dead peer) and one message: call name,
 * kernel, block, how many arrived of how many, and what the others are doing. */
int rocshmem_emu_wi_group_enter(int scope, const char* call);
void rocshmem_emu_wi_group_leave(int scope);

/* group_leave for a call with a result of at most ROCSHMEM_EMU_WI_GROUP_VALUE_BYTES bytes: the
 * leader passes its result in value[bytes], every other member receives it there. Outside a
 * kernel it returns at once (value is left as it is). */
#define ROCSHMEM_EMU_WI_GROUP_VALUE_BYTES 32
void rocshmem_emu_wi_group_leave_value(int scope, void* value, unsigned long bytes);

/* Ends the PE as a device fault would: one message naming the kernel, block, thread and `what`,
 * exit status 70 (the job then ends through the rocSHMEM emulator's dead-peer path). */
void rocshmem_emu_wi_fault(const char* what) __attribute__((noreturn));

/* Module initialisation handshake (called by rocshmem_hipmodule_init): marks `module` (a
 * hipModule_t) as initialised for rocSHMEM, so its `uses-rocshmem` kernels may be launched.
 * Returns 0 on success, non-zero when `module` is not a loaded emulator code object. */
int rocshmem_emu_wi_module_mark_rocshmem(void* module);

#ifdef __cplusplus
}
#endif

#endif /* ROCSHMEM_EMU_WORKITEM_H */
