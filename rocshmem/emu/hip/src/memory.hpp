// Registry of memory the emulator handed out or had registered. Device memory is host memory;
// the registry only remembers what kind of allocation a range is, for hipFree checks and
// hipPointerGetAttributes.
#pragma once

#include <cstddef>
#include <optional>

#include <hip/hip_runtime_api.h>

namespace hip_emu {

// Every allocation is aligned like this (HIP guarantees at least 256 bytes for device memory).
constexpr size_t kAllocationAlignment = 256;

struct Allocation {
  void* base;
  size_t size;
  hipMemoryType type;  // hipMemoryTypeDevice, Host or Managed
  int device;
  unsigned int flags;  // as passed at allocation / registration
  bool registered;     // hipHostRegister'ed user memory: we do not own it
};

size_t physical_memory_bytes();
size_t available_memory_bytes();

// Allocates `size` aligned bytes and records them; hipErrorOutOfMemory on failure.
hipError_t allocate(void** out, size_t size, hipMemoryType type, int device, unsigned int flags);

// Removes the allocation starting exactly at `base` (must be owned, not registered) and frees it.
// hipErrorInvalidValue for unknown pointers.
hipError_t release(void* base);

// The allocation or registration containing `address`, if any.
std::optional<Allocation> find_allocation(const void* address);

hipError_t register_host_range(void* base, size_t size, unsigned int flags, int device);
hipError_t unregister_host_range(void* base);

// Frees all owned device and managed allocations of `device` (hipDeviceReset).
void release_device_allocations(int device);

}  // namespace hip_emu
