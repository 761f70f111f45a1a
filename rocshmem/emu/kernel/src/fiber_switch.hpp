// A minimal context switch between work-items (x86-64 System V).
//
// Why not ucontext: swapcontext saves and restores the signal mask, one system call per switch
// (~0.3-1 us), and a launch switches several times per work-item (start, every meeting, end).
// This switch saves only what the ABI says a callee preserves (rbx, rbp, r12-r15, the MXCSR and
// x87 control words) on the stack being left and costs a few nanoseconds. The signal mask is
// the same for every work-item (kernels do not change it).
#pragma once

#include <cstddef>

#if !defined(__x86_64__)
#error "the kernel engine's fiber switch is written for x86-64 (the only platform of the emulator)"
#endif

namespace hip_emu::kernel {

// Saves the running context's stack pointer in *save and continues the context whose stack
// pointer is `next` (saved by an earlier switch or prepared by prepare_fiber_stack).
extern "C" void rocshmem_emu_fiber_switch(void** save, void* next);

// Prepares a new context on [stack_low, stack_low + size) that starts in `entry` (which must
// never return); returns its stack pointer for rocshmem_emu_fiber_switch.
void* prepare_fiber_stack(char* stack_low, size_t size, void (*entry)());

}  // namespace hip_emu::kernel
