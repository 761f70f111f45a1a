#include "buffer_registry.hpp"

#include <cstdint>
#include <iterator>
#include <map>
#include <mutex>

#include "log.hpp"
#include "runtime.hpp"

namespace rocshmem_emu {

namespace {
std::mutex g_mutex;
std::map<uintptr_t, size_t> g_registered;  // start -> length
}  // namespace

int buffer_register(void* addr, size_t length, const char* fn) {
  if (!require_initialized(fn)) return 1;
  if (!addr || length == 0) {
    report_error("%s: null address or zero length; nothing registered", fn);
    return 1;
  }
  uintptr_t start = reinterpret_cast<uintptr_t>(addr);
  if (start + length < start) {
    report_error("%s: range %p + %zu wraps around; nothing registered", fn, addr, length);
    return 1;
  }
  std::lock_guard<std::mutex> lock(g_mutex);
  auto next = g_registered.lower_bound(start);
  bool overlaps = (next != g_registered.end() && next->first < start + length);
  if (!overlaps && next != g_registered.begin()) {
    auto prev = std::prev(next);
    overlaps = prev->first + prev->second > start;
  }
  if (overlaps) {
    report_error("%s: range %p + %zu overlaps a registered buffer; nothing registered", fn, addr, length);
    return 1;
  }
  g_registered[start] = length;
  return 0;
}

int buffer_unregister(void* addr, const char* fn) {
  if (!require_initialized(fn)) return 1;
  std::lock_guard<std::mutex> lock(g_mutex);
  if (g_registered.erase(reinterpret_cast<uintptr_t>(addr)) == 0) {
    report_error("%s: %p is not the start of a registered buffer", fn, addr);
    return 1;
  }
  return 0;
}

void buffer_registry_clear() {
  std::lock_guard<std::mutex> lock(g_mutex);
  g_registered.clear();
}

}  // namespace rocshmem_emu
