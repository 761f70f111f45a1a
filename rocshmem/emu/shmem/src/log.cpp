#include "log.hpp"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>

#include "runtime.hpp"

namespace rocshmem_emu {

int debug_level() {
  static const int level = [] {
    const char* v = getenv("ROCSHMEM_DEBUG_LEVEL");
    if (!v || !*v) return 0;
    char* end = nullptr;
    long n = strtol(v, &end, 10);
    if (*end != '\0' || n < 0) {
      fprintf(stderr, "rocSHMEM emulator: ignoring invalid ROCSHMEM_DEBUG_LEVEL='%s' (expected a non-negative integer)\n", v);
      return 0;
    }
    return static_cast<int>(n);
  }();
  return level;
}

static void vprint(const char* fmt, va_list ap) {
  // Build the whole line first so concurrent PEs do not interleave inside a line.
  char line[1024];
  int pe = runtime().my_pe;
  int n = pe >= 0 ? snprintf(line, sizeof line, "rocSHMEM emulator: PE %d: ", pe)
                  : snprintf(line, sizeof line, "rocSHMEM emulator: ");
  vsnprintf(line + n, sizeof line - n - 1, fmt, ap);
  size_t len = 0;
  while (line[len]) len++;
  if (len == 0 || line[len - 1] != '\n') line[len++] = '\n';
  ssize_t ignored = write(STDERR_FILENO, line, len);
  (void)ignored;
}

void report_error(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vprint(fmt, ap);
  va_end(ap);
}

void debug_log(int level, const char* fmt, ...) {
  if (debug_level() < level) return;
  va_list ap;
  va_start(ap, fmt);
  vprint(fmt, ap);
  va_end(ap);
}

void fatal_exit(int status, const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vprint(fmt, ap);
  va_end(ap);
  fflush(stdout);
  _exit(status);
}

}  // namespace rocshmem_emu
