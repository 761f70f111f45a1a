// Settings both emulated libraries read from the environment, parsed in one place so that the
// same value means the same thing (and the same bad value fails the same way) in both.
#pragma once

#include <cerrno>
#include <cstdlib>
#include <string>

namespace emu_common {

constexpr const char* kBootstrapTimeoutVariable = "ROCSHMEM_EMU_BOOTSTRAP_TIMEOUT";
constexpr const char* kRealBootstrapTimeoutVariable = "ROCSHMEM_BOOTSTRAP_TIMEOUT";  // rocSHMEM's own
constexpr double kDefaultBootstrapTimeoutSeconds = 60.0;
constexpr long kLargestTimeoutSeconds = 86400;  // the emulators' limit of every timeout (chosen: one day)

// A number of seconds in (0, kLargestTimeoutSeconds] from variable `name` (whole seconds only when
// `whole`). Unset leaves *out alone; a bad value is false with one sentence naming the variable,
// the value and the limit in *error (never a silent default, never an overflow later).
inline bool read_seconds(const char* name, bool whole, double* out, std::string* error) {
  const char* v = std::getenv(name);
  if (v == nullptr) return true;
  char* end = nullptr;
  errno = 0;
  double s = std::strtod(v, &end);
  if (!*v || *end != '\0' || errno == ERANGE || !(s > 0) || s > kLargestTimeoutSeconds ||
      (whole && s != double(long(s)))) {
    *error = std::string("invalid ") + name + "='" + v + "' (expected " + (whole ? "whole " : "") +
             "seconds, > 0 and <= " + std::to_string(kLargestTimeoutSeconds) + ")";
    return false;
  }
  *out = s;
  return true;
}

// Seconds to wait for peers at init/finalize/split: ROCSHMEM_EMU_BOOTSTRAP_TIMEOUT, else the real
// library's ROCSHMEM_BOOTSTRAP_TIMEOUT, else 60. A bad value of either is an init error in both
// libraries.
inline bool bootstrap_timeout_seconds(double* seconds, std::string* error) {
  double s = kDefaultBootstrapTimeoutSeconds;
  if (!read_seconds(kRealBootstrapTimeoutVariable, false, &s, error) ||
      !read_seconds(kBootstrapTimeoutVariable, false, &s, error))
    return false;
  *seconds = s;
  return true;
}

}  // namespace emu_common
