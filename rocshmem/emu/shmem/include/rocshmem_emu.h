/* The CPU emulator's private C API (librocshmem_cpu_emu.so only; real rocSHMEM has none of it).
 * Bound in Java by org.rocshmem.api.EmulatorNative. */
#ifndef ROCSHMEM_EMU_H
#define ROCSHMEM_EMU_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Why the last rocshmem_init* failed ("" when it did not): rocshmem_init() returns void. */
const char* rocshmem_emu_last_init_error(void);

/* 1 between a successful init and finalize. */
int rocshmem_emu_is_initialized(void);

/* Bytes of each PE's symmetric heap (0 before init). */
size_t rocshmem_emu_heap_size(void);

/* The largest alignment rocshmem_align accepts. */
size_t rocshmem_emu_max_alignment(void);

/* A raw view of [addr, addr + bytes) inside a symmetric heap (own or a peer's): the same memory at
 * an address of its own. When the block is freed (or at finalize) the view is replaced by scratch
 * memory, so it never reaches a later allocation; rocSHMEM calls accept views of this PE's heap as
 * symmetric addresses. NULL on failure: rocshmem_emu_last_error() says why. */
void* rocshmem_emu_view(const void* addr, size_t bytes);

/* Why the calling thread's last rocshmem_emu_view failed. */
const char* rocshmem_emu_last_error(void);

/* The emulator's effective settings, one "NAME=value" line each (defaults filled in, as init would
 * use them now; the running values after init). A setting init would refuse gives a line
 * "error=<why>". The text stays valid until the calling thread calls this again. */
const char* rocshmem_emu_settings(void);

/* The program of this PE ends abnormally with rocSHMEM still initialized (Java: an uncaught exception,
 * System.exit or a signal): ends the job for every other PE, which stops at its next wait or collective
 * with a message naming this PE, without ending this process. No collective call is made. */
void rocshmem_emu_abandon_job(void);

#ifdef __cplusplus
}
#endif

#endif /* ROCSHMEM_EMU_H */
