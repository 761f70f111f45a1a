#include "log.hpp"

#include <atomic>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

#include "completion.hpp"
#include "env_config.hpp"
#include "runtime.hpp"

namespace rocshmem_emu {

// ROCSHMEM_DEBUG_LEVEL as a level index (env_config.hpp: NONE=0 ... INFO=5 ... TRACE=7); an
// invalid value keeps the default (ERROR) here and ends init with a message (load_env_config).
// debug_log(n, ...) prints from level INFO + n - 1 on.
int debug_level() {
  static const int level = [] {
    const char* v = getenv("ROCSHMEM_DEBUG_LEVEL");
    int parsed = v && *v ? parse_debug_level(v) : -1;
    return parsed < 0 ? 1 : parsed;
  }();
  return level;
}

namespace {

// Repeated misuse (a program retrying a rejected call in a loop) must not flood the output: each
// kind of report (its format string) is printed kFullReports times, later ones are only counted
// and summarised in one line at finalize or process exit.
constexpr int kFullReports = 5;
constexpr int kReportKinds = 256;

struct ReportKind {
  std::atomic<const char*> fmt{nullptr};
  std::atomic<uint64_t> count{0};
  char first[200];  // the first message of this kind, for the summary
};
ReportKind g_kinds[kReportKinds];
std::atomic<bool> g_summary_registered{false};

// The entry of fmt, or nullptr when the table is full (then every report is printed).
ReportKind* kind_of(const char* fmt) {
  size_t h = (reinterpret_cast<uintptr_t>(fmt) >> 3) % kReportKinds;
  for (int probe = 0; probe < kReportKinds; probe++) {
    ReportKind& k = g_kinds[(h + probe) % kReportKinds];
    const char* seen = k.fmt.load(std::memory_order_acquire);
    if (seen == fmt) return &k;
    if (!seen) {
      const char* expected = nullptr;
      if (k.fmt.compare_exchange_strong(expected, fmt, std::memory_order_acq_rel) || expected == fmt) return &k;
    }
  }
  return nullptr;
}

size_t format_line(char* line, size_t size, const char* fmt, va_list ap) {
  int pe = runtime().my_pe;
  int n = pe >= 0 ? snprintf(line, size, "rocSHMEM emulator: PE %d: ", pe) : snprintf(line, size, "rocSHMEM emulator: ");
  vsnprintf(line + n, size - n - 1, fmt, ap);
  size_t len = strlen(line);
  if (len == 0 || line[len - 1] != '\n') line[len++] = '\n';
  line[len] = '\0';
  return len;
}

void write_line(const char* line, size_t len) {
  ssize_t ignored = write(STDERR_FILENO, line, len);
  (void)ignored;
}

}  // namespace

static void vprint(const char* fmt, va_list ap) {
  // Build the whole line first so concurrent PEs do not interleave inside a line.
  char line[1024];
  size_t len = format_line(line, sizeof line, fmt, ap);
  write_line(line, len);
}

static void print_line(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
static void print_line(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vprint(fmt, ap);
  va_end(ap);
}

void report_suppressed() {
  for (ReportKind& k : g_kinds) {
    if (!k.fmt.load(std::memory_order_acquire)) continue;
    const uint64_t n = k.count.exchange(0, std::memory_order_acq_rel);
    if (n <= uint64_t(kFullReports)) continue;
    char line[512];
    const int pe = runtime().my_pe;
    char prefix[48];
    if (pe >= 0)
      snprintf(prefix, sizeof prefix, "rocSHMEM emulator: PE %d: ", pe);
    else
      snprintf(prefix, sizeof prefix, "rocSHMEM emulator: ");
    int len = snprintf(line, sizeof line, "%s%llu more reports like \"%s\" were suppressed (only the first %d are printed)\n",
                       prefix, static_cast<unsigned long long>(n - kFullReports), k.first, kFullReports);
    write_line(line, size_t(len) < sizeof line ? size_t(len) : sizeof line - 1);
  }
}

void report_error(const char* fmt, ...) {
  ReportKind* kind = kind_of(fmt);
  const uint64_t seen = kind ? kind->count.fetch_add(1, std::memory_order_relaxed) : 0;
  if (seen >= uint64_t(kFullReports)) {
    if (!g_summary_registered.exchange(true)) atexit(report_suppressed);
    return;
  }
  char line[1024];
  va_list ap;
  va_start(ap, fmt);
  size_t len = format_line(line, sizeof line, fmt, ap);
  va_end(ap);
  if (kind && seen == 0) {
    // The message without the "rocSHMEM emulator: PE n: " prefix and the newline.
    const char* text = strstr(line, ": ");
    text = text && strncmp(line, "rocSHMEM emulator: PE", 21) == 0 ? strstr(text + 2, ": ") : text;
    const char* from = text ? text + 2 : line;
    size_t n = strnlen(from, sizeof kind->first - 1);  // truncated on purpose
    if (n && from[n - 1] == '\n') n--;
    memcpy(kind->first, from, n);
    kind->first[n] = '\0';
  }
  write_line(line, len);
}

void debug_log(int level, const char* fmt, ...) {
  if (debug_level() < 4 + level) return;
  va_list ap;
  va_start(ap, fmt);
  vprint(fmt, ap);
  va_end(ap);
}

void fatal_exit(int status, const char* fmt, ...) {
  report_suppressed();
  va_list ap;
  va_start(ap, fmt);
  vprint(fmt, ap);
  va_end(ap);
  if (uint64_t seed; completion_seed(&seed))
    print_line("puts were delivered in a seeded order: ROCSHMEM_EMU_DELIVERY_SEED=%llu reproduces its choices",
          static_cast<unsigned long long>(seed));
  fflush(stdout);
  _exit(status);
}

}  // namespace rocshmem_emu
