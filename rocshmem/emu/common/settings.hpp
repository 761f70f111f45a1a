// Settings the emulated libraries read from the environment, parsed in one place so that the
// same value means the same thing (and the same bad value fails the same way) everywhere. One
// policy for a bad value: refuse it (false + one sentence naming the variable, the value and the
// limit), never warn and fall back. Unset or empty leaves the default.
#pragma once

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
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

// An unsigned whole number in [lo, hi] from variable `name`; with `byte_suffixes`, K, M and G
// (binary) may follow. `unit` names what it counts in the message ("bytes", "seconds").
inline bool read_unsigned(const char* name, uint64_t lo, uint64_t hi, bool byte_suffixes, const char* unit,
                          uint64_t* out, std::string* error) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return true;
  char* end = nullptr;
  errno = 0;
  unsigned long long value = *v >= '0' && *v <= '9' ? std::strtoull(v, &end, 10) : 0;
  bool ok = end != nullptr && errno != ERANGE;
  if (ok && byte_suffixes && *end != '\0' && end[1] == '\0') {
    const int shift = (*end == 'K' || *end == 'k') ? 10 : (*end == 'M' || *end == 'm') ? 20 : (*end == 'G' || *end == 'g') ? 30 : -1;
    ok = shift > 0 && value <= (~0ull >> shift);
    if (ok) value <<= shift, ++end;
  }
  if (!ok || *end != '\0' || value < lo || value > hi) {
    *error = std::string("invalid ") + name + "='" + v + "' (expected " + unit + ", " + std::to_string(lo) + ".." +
             std::to_string(hi) + (byte_suffixes ? ", K/M/G suffixes allowed" : "") + ")";
    return false;
  }
  *out = value;
  return true;
}

// One of `choices` from variable `name`: *out is its index.
inline bool read_choice(const char* name, std::initializer_list<const char*> choices, int* out, std::string* error) {
  const char* v = std::getenv(name);
  if (v == nullptr || *v == '\0') return true;
  int index = 0;
  std::string expected;
  for (const char* choice : choices) {
    if (std::strcmp(v, choice) == 0) {
      *out = index;
      return true;
    }
    expected += (index ? (index + 1 == int(choices.size()) ? " or " : ", ") : "") + std::string(choice);
    ++index;
  }
  *error = std::string("invalid ") + name + "='" + v + "' (expected " + expected + ")";
  return false;
}

}  // namespace emu_common
