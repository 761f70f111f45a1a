#include "fiber_switch.hpp"

#include <cstdint>
#include <cstring>

namespace hip_emu::kernel {

// Frame layout, from the saved stack pointer upwards: x87 control word (8 bytes), MXCSR (8),
// r15, r14, r13, r12, rbx, rbp, return address.
asm(R"(
  .text
  .globl rocshmem_emu_fiber_switch
  .hidden rocshmem_emu_fiber_switch
  .type rocshmem_emu_fiber_switch, @function
rocshmem_emu_fiber_switch:
  .cfi_startproc
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq $16, %rsp
  stmxcsr 8(%rsp)
  fnstcw (%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  ldmxcsr 8(%rsp)
  fldcw (%rsp)
  addq $16, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .cfi_endproc
  .size rocshmem_emu_fiber_switch, .-rocshmem_emu_fiber_switch
)");

void* prepare_fiber_stack(char* stack_low, size_t size, void (*entry)()) {
  // After the switch pops 64 bytes and returns, rsp = sp + 72 must be 8 mod 16 (as right after
  // a call), so sp is 16-aligned; a zero return address above the entry ends backtraces.
  uintptr_t top = reinterpret_cast<uintptr_t>(stack_low + size);
  uintptr_t sp = ((top - 80) & ~uintptr_t{15});
  uint64_t* frame = reinterpret_cast<uint64_t*>(sp);
  uint32_t mxcsr;
  uint16_t fpu_control;
  asm volatile("stmxcsr %0" : "=m"(mxcsr));
  asm volatile("fnstcw %0" : "=m"(fpu_control));
  memset(frame, 0, 80);
  memcpy(&frame[0], &fpu_control, sizeof fpu_control);
  memcpy(&frame[1], &mxcsr, sizeof mxcsr);
  frame[8] = reinterpret_cast<uint64_t>(entry);  // rbp..r15 = 0 (frames 2-7)
  frame[9] = 0;
  return frame;
}

}  // namespace hip_emu::kernel
