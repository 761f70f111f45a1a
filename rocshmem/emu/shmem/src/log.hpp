// Diagnostics of the emulator: every message is one stderr line that starts with
// "rocSHMEM emulator: PE <n>: " so a launcher that prefixes output per PE stays readable.
#pragma once

namespace rocshmem_emu {

// ROCSHMEM_DEBUG_LEVEL as a level index (ERROR = 1 when unset); read once.
int debug_level();

// One error line on stderr (the API call continues with its documented error result). Each kind
// of report (format string) is printed the first 5 times; later repeats are counted and
// report_suppressed() prints one line per kind with the count (at finalize and at exit).
void report_error(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
void report_suppressed();

// Printed only when ROCSHMEM_DEBUG_LEVEL is INFO (level 1), API (2) or TRACE (3) or above.
void debug_log(int level, const char* fmt, ...) __attribute__((format(printf, 2, 3)));

// Prints the message and terminates the process at once with the given status (no atexit
// handlers: a PE that cannot continue must not run user cleanup that may block on peers).
[[noreturn]] void fatal_exit(int status, const char* fmt, ...) __attribute__((format(printf, 2, 3)));

}  // namespace rocshmem_emu
