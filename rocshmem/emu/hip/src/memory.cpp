#include "memory.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <vector>

namespace hip_emu {
namespace {

// Leaked on purpose: applications may free memory from their own static destructors.
struct Registry {
  std::mutex mutex;
  std::map<const char*, Allocation> by_base;  // ranges never overlap
};
Registry& registry() {
  static Registry* instance = new Registry;
  return *instance;
}

// The entry whose range contains `address`, or allocations.end(). Caller holds the mutex.
std::map<const char*, Allocation>::iterator containing(const void* address) {
  auto& allocations = registry().by_base;
  const char* p = static_cast<const char*>(address);
  auto it = allocations.upper_bound(p);
  if (it == allocations.begin()) return allocations.end();
  --it;
  const char* base = it->first;
  // A zero-size registration still owns its base address.
  if (p == base || p < base + it->second.size) return it;
  return allocations.end();
}

}  // namespace

size_t physical_memory_bytes() {
  long pages = sysconf(_SC_PHYS_PAGES);
  long page_size = sysconf(_SC_PAGESIZE);
  return pages > 0 && page_size > 0 ? static_cast<size_t>(pages) * static_cast<size_t>(page_size)
                                    : size_t{1} << 30;
}

size_t available_memory_bytes() {
  // MemAvailable (free + reclaimable caches) is what an allocation can really get.
  if (FILE* meminfo = std::fopen("/proc/meminfo", "r")) {
    char line[256];
    unsigned long long kib = 0;
    bool found = false;
    while (!found && std::fgets(line, sizeof(line), meminfo)) {
      found = std::sscanf(line, "MemAvailable: %llu kB", &kib) == 1;
    }
    std::fclose(meminfo);
    if (found) return static_cast<size_t>(kib) * 1024;
  }
  long pages = sysconf(_SC_AVPHYS_PAGES);
  long page_size = sysconf(_SC_PAGESIZE);
  return pages > 0 ? static_cast<size_t>(pages) * static_cast<size_t>(page_size) : 0;
}

hipError_t allocate(void** out, size_t size, hipMemoryType type, int device, unsigned int flags) {
  // More than the machine has can never be backed; fail now rather than at first touch.
  if (size > physical_memory_bytes()) return hipErrorOutOfMemory;
  void* memory = nullptr;
  if (posix_memalign(&memory, kAllocationAlignment, size) != 0 || memory == nullptr) {
    return hipErrorOutOfMemory;
  }
  std::lock_guard<std::mutex> lock(registry().mutex);
  auto& allocations = registry().by_base;
  allocations[static_cast<const char*>(memory)] = Allocation{memory, size, type, device, flags, false};
  *out = memory;
  return hipSuccess;
}

hipError_t release(void* base) {
  {
    std::lock_guard<std::mutex> lock(registry().mutex);
  auto& allocations = registry().by_base;
    auto it = allocations.find(static_cast<const char*>(base));
    if (it == allocations.end() || it->second.registered) return hipErrorInvalidValue;
    allocations.erase(it);
  }
  std::free(base);
  return hipSuccess;
}

std::optional<Allocation> find_allocation(const void* address) {
  std::lock_guard<std::mutex> lock(registry().mutex);
  auto& allocations = registry().by_base;
  auto it = containing(address);
  if (it == allocations.end()) return std::nullopt;
  return it->second;
}

hipError_t register_host_range(void* base, size_t size, unsigned int flags, int device) {
  const char* first = static_cast<const char*>(base);
  std::lock_guard<std::mutex> lock(registry().mutex);
  auto& allocations = registry().by_base;
  auto next = allocations.lower_bound(first);
  bool overlaps_next = next != allocations.end() && next->first < first + size;
  if (containing(base) != allocations.end() || overlaps_next) {
    return hipErrorHostMemoryAlreadyRegistered;
  }
  allocations[first] = Allocation{base, size, hipMemoryTypeHost, device, flags, true};
  return hipSuccess;
}

hipError_t unregister_host_range(void* base) {
  std::lock_guard<std::mutex> lock(registry().mutex);
  auto& allocations = registry().by_base;
  auto it = allocations.find(static_cast<const char*>(base));
  if (it == allocations.end() || !it->second.registered) return hipErrorHostMemoryNotRegistered;
  allocations.erase(it);
  return hipSuccess;
}

void release_device_allocations(int device) {
  std::vector<void*> doomed;
  {
    std::lock_guard<std::mutex> lock(registry().mutex);
  auto& allocations = registry().by_base;
    for (auto it = allocations.begin(); it != allocations.end();) {
      const Allocation& a = it->second;
      if (!a.registered && a.device == device && a.type != hipMemoryTypeHost) {
        doomed.push_back(a.base);
        it = allocations.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (void* base : doomed) std::free(base);
}

}  // namespace hip_emu
