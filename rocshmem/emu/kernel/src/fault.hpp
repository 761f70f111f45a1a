// How a kernel ends its PE: one message on stderr, exit status kFaultExitStatus (70), no atexit
// handlers (like the rocSHMEM emulator's fatal_exit), so the other PEs see a dead peer.
#pragma once

namespace hip_emu::kernel {

// SIGSEGV/SIGBUS/SIGFPE/SIGILL/SIGABRT in a work-item end the PE naming the kernel, block and
// thread; on any other thread the previous handler runs (the JVM's, for instance). Idempotent.
void install_fault_handlers();

// "<prefix>: kernel '<name>' <message>" and exit.
[[noreturn]] void die_in_launch(const char* kernel, const char* fmt, ...)
    __attribute__((format(printf, 2, 3)));

// "<prefix>: kernel '<name>', block (x,y,z), thread (x,y,z) <message>" for the running work-item.
[[noreturn]] void die_in_work_item(const char* fmt, ...) __attribute__((format(printf, 1, 2)));

}  // namespace hip_emu::kernel
