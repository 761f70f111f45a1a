#include "errors.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <unistd.h>

namespace rccl_emu {
namespace {

std::mutex g_mutex;
char g_last_error[1024] = "";

bool debug_warnings_enabled() {
  static const bool enabled = [] {
    const char* level = std::getenv("NCCL_DEBUG");
    if (level == nullptr) return false;
    return strcasecmp(level, "WARN") == 0 || strcasecmp(level, "INFO") == 0 || strcasecmp(level, "TRACE") == 0;
  }();
  return enabled;
}

}  // namespace

const char* result_string(ncclResult_t result) {
  switch (result) {
    case ncclSuccess: return "no error";
    case ncclUnhandledCudaError: return "unhandled cuda error (run with NCCL_DEBUG=INFO for details)";
    case ncclSystemError: return "unhandled system error (run with NCCL_DEBUG=INFO for details)";
    case ncclInternalError: return "internal error - please report this issue to the NCCL developers";
    case ncclInvalidArgument: return "invalid argument (run with NCCL_DEBUG=WARN for details)";
    case ncclInvalidUsage: return "invalid usage (run with NCCL_DEBUG=WARN for details)";
    case ncclRemoteError: return "remote process exited or there was a network error";
    case ncclInProgress: return "NCCL operation in progress";
    default: return "unknown result code";
  }
}

ncclResult_t fail(ncclResult_t result, const std::string& message) {
  {
    std::lock_guard<std::mutex> lock(g_mutex);
    std::snprintf(g_last_error, sizeof g_last_error, "%s", message.c_str());
  }
  if (debug_warnings_enabled()) {
    std::fprintf(stderr, "rccl_cpu_emu pid %d NCCL WARN %s\n", static_cast<int>(getpid()), message.c_str());
  }
  return result;
}

const char* last_error() {
  return g_last_error;
}

}  // namespace rccl_emu
