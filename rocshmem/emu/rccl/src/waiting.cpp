#include "waiting.hpp"

#include "settings.hpp"

namespace rccl_emu {
namespace {

struct Timeout {
  double seconds = emu_common::kDefaultBootstrapTimeoutSeconds;
  bool valid = false;
  std::string error;
};

const Timeout& timeout() {
  static const Timeout t = [] {
    Timeout read;
    read.valid = emu_common::bootstrap_timeout_seconds(&read.seconds, &read.error);
    if (!read.valid) read.seconds = emu_common::kDefaultBootstrapTimeoutSeconds;
    return read;
  }();
  return t;
}

}  // namespace

bool bootstrap_timeout_valid(std::string* error) {
  if (!timeout().valid) *error = timeout().error;
  return timeout().valid;
}

double bootstrap_timeout_seconds() { return timeout().seconds; }

}  // namespace rccl_emu
