// Settings both emulated libraries read from the environment, parsed in one place so that the
// same value means the same thing (and the same bad value fails the same way) in both.
#pragma once

#include <cerrno>
#include <cstdlib>
#include <string>

namespace emu_common {

constexpr const char* kBootstrapTimeoutVariable = "ROCSHMEM_EMU_BOOTSTRAP_TIMEOUT";
constexpr double kDefaultBootstrapTimeoutSeconds = 60.0;

// Seconds to wait for peers at init/finalize/split: ROCSHMEM_EMU_BOOTSTRAP_TIMEOUT, default 60.
// A value that is not a number of seconds in (0, 86400] is an init error in both libraries (never
// a silent default): false, with one sentence naming the variable in *error.
inline bool bootstrap_timeout_seconds(double* seconds, std::string* error) {
  const char* v = std::getenv(kBootstrapTimeoutVariable);
  if (v == nullptr) {
    *seconds = kDefaultBootstrapTimeoutSeconds;
    return true;
  }
  char* end = nullptr;
  errno = 0;
  double s = std::strtod(v, &end);
  if (!*v || *end != '\0' || errno == ERANGE || !(s > 0) || s > 86400) {
    *error = std::string("invalid ") + kBootstrapTimeoutVariable + "='" + v + "' (expected seconds, > 0 and <= 86400)";
    return false;
  }
  *seconds = s;
  return true;
}

}  // namespace emu_common
