// Kernel faults. A work-item that touches an invalid address (or traps, or aborts) ends its PE
// like a GPU fault ends the process: one line naming the kernel, the PE, the block and the
// thread, then _exit(70). The rocSHMEM emulator's peers then see a dead PE and end the job
// through their dead-peer path; the shared-memory objects were unlinked at init, so nothing
// stays in /dev/shm.
#include "fault.hpp"

#include <signal.h>
#include <ucontext.h>
#include <unistd.h>

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "scheduler.hpp"

namespace hip_emu::kernel {
namespace {

constexpr int kFaultSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
struct sigaction previous_actions[NSIG];

// "PE 3" when launched as a rocSHMEM PE (RANK / OMPI_COMM_WORLD_RANK, as the bootstrap reads
// them), else "process <pid>". Built once, before any fault, so the handler formats nothing new.
const char* pe_label() {
  static char label[48];
  static std::once_flag once;
  std::call_once(once, [] {
    const char* rank = getenv("RANK");
    if (rank == nullptr || *rank == '\0') rank = getenv("OMPI_COMM_WORLD_RANK");
    if (rank != nullptr && *rank != '\0') {
      snprintf(label, sizeof label, "PE %.16s", rank);
    } else {
      snprintf(label, sizeof label, "process %d", static_cast<int>(getpid()));
    }
  });
  return label;
}

[[noreturn]] void end_process(const char* line, size_t length) {
  // write(2) is async-signal-safe; stdout is not flushed here (the faulting work-item may hold
  // its lock), but device printf flushes after every call.
  ssize_t ignored = write(STDERR_FILENO, line, length);
  if (const char* seed = random_schedule_seed_line()) ignored = write(STDERR_FILENO, seed, strlen(seed));
  (void)ignored;
  _exit(kFaultExitStatus);
}

size_t work_item_prefix(char* out, size_t size) {
  const WorkItem* item = tl_item;
  const Launch* launch = tl_launch;
  const auto& ids = item->ids;
  int n = snprintf(out, size, "HIP emulator: %s: kernel '%s', block (%u,%u,%u), thread (%u,%u,%u) ",
                   pe_label(), launch->kernel().name.c_str(), ids.block_idx.x, ids.block_idx.y,
                   ids.block_idx.z, ids.thread_idx.x, ids.thread_idx.y, ids.thread_idx.z);
  return n < 0 ? 0 : std::min(static_cast<size_t>(n), size - 1);
}

const char* describe(int signal_number) {
  switch (signal_number) {
    case SIGSEGV: return "made an invalid memory access (SIGSEGV)";
    case SIGBUS: return "made an invalid memory access (SIGBUS)";
    case SIGFPE: return "raised an arithmetic exception (SIGFPE, e.g. an integer division by zero)";
    case SIGILL: return "executed an illegal instruction or a trap (SIGILL)";
    case SIGABRT: return "aborted (a failed assert or abort(), SIGABRT)";
    default: return "received a fatal signal";
  }
}

void chain(int signal_number, siginfo_t* info, void* context) {
  const struct sigaction& old = previous_actions[signal_number];
  if ((old.sa_flags & SA_SIGINFO) && old.sa_sigaction != nullptr) {
    old.sa_sigaction(signal_number, info, context);
  } else if (old.sa_handler != SIG_DFL && old.sa_handler != SIG_IGN) {
    old.sa_handler(signal_number);
  } else {
    // Default action: reinstall it; a fault re-executes and kills, a sent signal is re-raised.
    signal(signal_number, SIG_DFL);
    if (info->si_code <= 0) raise(signal_number);
  }
}

[[noreturn]] __attribute__((noinline)) void end_faulting_work_item(int signal_number, siginfo_t* info,
                                                                    void* context) {
  char line[640];
  size_t n = work_item_prefix(line, sizeof line);
  int more = snprintf(line + n, sizeof line - n, "%s", describe(signal_number));
  if (more > 0) n = std::min(n + more, sizeof line - 1);
  if (signal_number == SIGSEGV || signal_number == SIGBUS) {
    // An overflow shows as a fault in the guard page or, when a large frame jumped over the
    // guard, as a stack pointer below the stack.
    const char* address = static_cast<const char*>(info->si_addr);
    const char* guard = tl_item->guard;
    const long page = sysconf(_SC_PAGESIZE);
    const auto* machine = static_cast<const ucontext_t*>(context);
    const char* stack_pointer = reinterpret_cast<const char*>(machine->uc_mcontext.gregs[REG_RSP]);
    more = (address >= guard && address < guard + page) || stack_pointer < guard + page
               ? snprintf(line + n, sizeof line - n,
                          " at %p: its stack overflowed (ROCSHMEM_EMU_KERNEL_STACK sets the size)",
                          info->si_addr)
               : snprintf(line + n, sizeof line - n, " at address %p", info->si_addr);
    if (more > 0) n = std::min(n + more, sizeof line - 1);
  }
  more = snprintf(line + n, sizeof line - n, "; ending the PE\n");
  if (more > 0) n = std::min(n + more, sizeof line - 1);
  end_process(line, n);
}

// Small on the way to the previous handler: the JVM handles its own SIGSEGVs (stack banging,
// implicit null checks) on the faulting thread's stack, where every byte of ours counts.
void on_fault_signal(int signal_number, siginfo_t* info, void* context) {
  if (tl_item == nullptr) {
    chain(signal_number, info, context);
    return;
  }
  end_faulting_work_item(signal_number, info, context);
}

// Each stream thread gets its own alternate signal stack (a fault may be a stack overflow).
struct AltStack {
  void* memory = nullptr;
  AltStack() {
    stack_t current;
    if (sigaltstack(nullptr, &current) == 0 && !(current.ss_flags & SS_DISABLE)) return;
    const size_t size = 64 * 1024;
    memory = malloc(size);
    stack_t stack{};
    stack.ss_sp = memory;
    stack.ss_size = size;
    if (memory == nullptr || sigaltstack(&stack, nullptr) != 0) {
      free(memory);
      memory = nullptr;
    }
  }
  ~AltStack() {
    if (memory == nullptr) return;
    stack_t off{};
    off.ss_flags = SS_DISABLE;
    sigaltstack(&off, nullptr);
    free(memory);
  }
};

}  // namespace

void install_fault_handlers() {
  thread_local AltStack alt_stack;
  (void)alt_stack;
  static std::once_flag once;
  std::call_once(once, [] {
    pe_label();
    for (int signal_number : kFaultSignals) {
      struct sigaction action{};
      action.sa_sigaction = on_fault_signal;
      // No SA_NODEFER: a fault inside the handler then kills the process at once.
      action.sa_flags = SA_SIGINFO | SA_ONSTACK;
      sigemptyset(&action.sa_mask);
      sigaction(signal_number, &action, &previous_actions[signal_number]);
    }
  });
}

void die_in_launch(const char* kernel, const char* fmt, ...) {
  char line[1024];
  int n = snprintf(line, sizeof line, "HIP emulator: %s: kernel '%s' ", pe_label(), kernel);
  va_list args;
  va_start(args, fmt);
  n += vsnprintf(line + n, sizeof line - n, fmt, args);
  va_end(args);
  n = std::min<int>(n, sizeof line - 2);
  line[n++] = '\n';
  fflush(stdout);
  end_process(line, n);
}

void die_in_work_item(const char* fmt, ...) {
  char line[1024];
  size_t n = work_item_prefix(line, sizeof line);
  va_list args;
  va_start(args, fmt);
  int more = vsnprintf(line + n, sizeof line - n, fmt, args);
  va_end(args);
  if (more > 0) n = std::min(n + more, sizeof line - 2);
  line[n++] = '\n';
  fflush(stdout);
  end_process(line, n);
}

}  // namespace hip_emu::kernel
