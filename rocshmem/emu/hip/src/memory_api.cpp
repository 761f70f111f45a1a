// Memory API: allocation, copies and fills (stream-ordered), pointer queries.
// Device memory is ordinary host memory, so every copy kind is a memmove executed on the
// stream's worker; synchronous variants enqueue on the null stream and wait.
#include <cstdint>
#include <cstring>

#include "devices.hpp"
#include "emu_errors.hpp"
#include "memory.hpp"

using hip_emu::report;

namespace {

hipError_t allocate_on_current_device(void** ptr, size_t size, hipMemoryType type,
                                      unsigned int flags) {
  if (ptr == nullptr) return hipErrorInvalidValue;
  hipError_t status = hip_emu::check_current_device();
  if (status != hipSuccess) return status;
  if (size == 0) {  // HIP returns success and a null pointer for empty allocations
    *ptr = nullptr;
    return hipSuccess;
  }
  return hip_emu::allocate(ptr, size, type, hip_emu::current_device(), flags);
}

// Frees an owned allocation after the work of its device finished (as hipFree does: pending
// async copies may still read it). `accept` filters which memory types this API may free.
template <typename Accept>
hipError_t free_allocation(void* ptr, Accept accept) {
  if (ptr == nullptr) return hipSuccess;
  std::optional<hip_emu::Allocation> found = hip_emu::find_allocation(ptr);
  if (!found || found->base != ptr || found->registered || !accept(found->type)) {
    return hipErrorInvalidValue;
  }
  (void)hip_emu::synchronize_device(found->device);
  return hip_emu::release(ptr);
}

// Enqueues `work` on `handle` and, when `wait` is set, blocks until it ran.
hipError_t enqueue(hipStream_t handle, bool wait, std::function<void()> work) {
  hipError_t status = hip_emu::check_current_device();
  if (status != hipSuccess) return status;
  ihipStream_t* stream = hip_emu::resolve_stream(handle);
  if (stream == nullptr) return hipErrorInvalidHandle;
  uint64_t ticket = hip_emu::submit(stream, std::move(work));
  if (wait) stream->worker->wait_for(ticket);
  return hipSuccess;
}

hipError_t copy(void* dst, const void* src, size_t bytes, hipMemcpyKind kind, hipStream_t stream,
                bool wait) {
  if (kind < hipMemcpyHostToHost || kind > hipMemcpyDefault) return hipErrorInvalidMemcpyDirection;
  if (bytes != 0 && (dst == nullptr || src == nullptr)) return hipErrorInvalidValue;
  return enqueue(stream, wait, [=] {
    if (bytes != 0) std::memmove(dst, src, bytes);
  });
}

template <typename Element>
hipError_t fill(void* dst, Element value, size_t count, hipStream_t stream, bool wait) {
  if (count != 0 && dst == nullptr) return hipErrorInvalidValue;
  return enqueue(stream, wait, [=] {
    Element* out = static_cast<Element*>(dst);
    if (sizeof(Element) == 1) {
      std::memset(out, static_cast<unsigned char>(value), count);
    } else {
      for (size_t i = 0; i < count; ++i) out[i] = value;
    }
  });
}

}  // namespace

// ---- allocation -------------------------------------------------------------------------------

HIP_EMU_API hipError_t hipMalloc(void** ptr, size_t size) {
  return report(allocate_on_current_device(ptr, size, hipMemoryTypeDevice, 0));
}

HIP_EMU_API hipError_t hipExtMallocWithFlags(void** ptr, size_t sizeBytes, unsigned int flags) {
  return report(allocate_on_current_device(ptr, sizeBytes, hipMemoryTypeDevice, flags));
}

HIP_EMU_API hipError_t hipMallocManaged(void** dev_ptr, size_t size, unsigned int flags) {
  if (size == 0 || (flags != hipMemAttachGlobal && flags != hipMemAttachHost)) {
    return report(hipErrorInvalidValue);
  }
  return report(allocate_on_current_device(dev_ptr, size, hipMemoryTypeManaged, flags));
}

HIP_EMU_API hipError_t hipHostMalloc(void** ptr, size_t size, unsigned int flags) {
  constexpr unsigned int kKnownFlags = hipHostMallocPortable | hipHostMallocMapped |
                                       hipHostMallocWriteCombined | hipHostMallocUncached |
                                       hipHostMallocNumaUser | hipHostMallocCoherent |
                                       hipHostMallocNonCoherent;
  if (flags & ~kKnownFlags) return report(hipErrorInvalidValue);
  return report(allocate_on_current_device(ptr, size, hipMemoryTypeHost, flags));
}

HIP_EMU_API hipError_t hipHostAlloc(void** ptr, size_t size, unsigned int flags) {
  return hipHostMalloc(ptr, size, flags);
}

HIP_EMU_API hipError_t hipMallocHost(void** ptr, size_t size) { return hipHostMalloc(ptr, size, 0); }

HIP_EMU_API hipError_t hipMemAllocHost(void** ptr, size_t size) { return hipHostMalloc(ptr, size, 0); }

HIP_EMU_API hipError_t hipFree(void* ptr) {
  return report(free_allocation(ptr, [](hipMemoryType) { return true; }));
}

HIP_EMU_API hipError_t hipHostFree(void* ptr) {
  return report(free_allocation(ptr, [](hipMemoryType type) { return type == hipMemoryTypeHost; }));
}

HIP_EMU_API hipError_t hipFreeHost(void* ptr) { return hipHostFree(ptr); }

HIP_EMU_API hipError_t hipHostRegister(void* hostPtr, size_t sizeBytes, unsigned int flags) {
  if (hostPtr == nullptr || sizeBytes == 0) return report(hipErrorInvalidValue);
  hipError_t status = hip_emu::check_current_device();
  if (status != hipSuccess) return report(status);
  return report(hip_emu::register_host_range(hostPtr, sizeBytes, flags, hip_emu::current_device()));
}

HIP_EMU_API hipError_t hipHostUnregister(void* hostPtr) {
  if (hostPtr == nullptr) return report(hipErrorInvalidValue);
  return report(hip_emu::unregister_host_range(hostPtr));
}

HIP_EMU_API hipError_t hipHostGetDevicePointer(void** devPtr, void* hstPtr, unsigned int flags) {
  if (devPtr == nullptr || hstPtr == nullptr || flags != 0) return report(hipErrorInvalidValue);
  std::optional<hip_emu::Allocation> found = hip_emu::find_allocation(hstPtr);
  if (!found || found->type != hipMemoryTypeHost) return report(hipErrorInvalidValue);
  *devPtr = hstPtr;  // one address space: the device sees host memory at the same address
  return hipSuccess;
}

HIP_EMU_API hipError_t hipHostGetFlags(unsigned int* flagsPtr, void* hostPtr) {
  if (flagsPtr == nullptr || hostPtr == nullptr) return report(hipErrorInvalidValue);
  std::optional<hip_emu::Allocation> found = hip_emu::find_allocation(hostPtr);
  if (!found || found->type != hipMemoryTypeHost) return report(hipErrorInvalidValue);
  *flagsPtr = found->flags;
  return hipSuccess;
}

HIP_EMU_API hipError_t hipMemGetInfo(size_t* free, size_t* total) {
  if (free == nullptr || total == nullptr) return report(hipErrorInvalidValue);
  hipError_t status = hip_emu::check_current_device();
  if (status != hipSuccess) return report(status);
  *total = hip_emu::physical_memory_bytes();
  *free = hip_emu::available_memory_bytes();
  return hipSuccess;
}

HIP_EMU_API hipError_t hipMemPtrGetInfo(void* ptr, size_t* size) {
  if (ptr == nullptr || size == nullptr) return report(hipErrorInvalidValue);
  std::optional<hip_emu::Allocation> found = hip_emu::find_allocation(ptr);
  if (!found) return report(hipErrorInvalidValue);
  *size = found->size;
  return hipSuccess;
}

HIP_EMU_API hipError_t hipMemGetAddressRange(hipDeviceptr_t* pbase, size_t* psize,
                                            hipDeviceptr_t dptr) {
  std::optional<hip_emu::Allocation> found = hip_emu::find_allocation(dptr);
  if (!found) return report(hipErrorNotFound);
  if (pbase) *pbase = found->base;
  if (psize) *psize = found->size;
  return hipSuccess;
}

// Unknown pointers are reported as hipMemoryTypeUnregistered with success, as HIP does since
// ROCm 6 (matching CUDA 11+); a null pointer is an invalid value.
HIP_EMU_API hipError_t hipPointerGetAttributes(hipPointerAttribute_t* attributes, const void* ptr) {
  if (attributes == nullptr || ptr == nullptr) return report(hipErrorInvalidValue);
  std::memset(attributes, 0, sizeof(*attributes));
  std::optional<hip_emu::Allocation> found = hip_emu::find_allocation(ptr);
  if (!found) {
    attributes->type = hipMemoryTypeUnregistered;
    attributes->device = hip_emu::current_device();
    return hipSuccess;
  }
  void* address = const_cast<void*>(ptr);
  attributes->type = found->type;
  attributes->device = found->device;
  attributes->devicePointer = address;
  attributes->hostPointer = found->type == hipMemoryTypeDevice ? nullptr : address;
  attributes->isManaged = found->type == hipMemoryTypeManaged;
  attributes->allocationFlags = found->flags;
  return hipSuccess;
}

HIP_EMU_API hipError_t hipPointerGetAttribute(void* data, hipPointer_attribute attribute,
                                             hipDeviceptr_t ptr) {
  if (data == nullptr || ptr == nullptr) return report(hipErrorInvalidValue);
  std::optional<hip_emu::Allocation> found = hip_emu::find_allocation(ptr);
  if (!found) return report(hipErrorInvalidValue);
  switch (attribute) {
    case HIP_POINTER_ATTRIBUTE_MEMORY_TYPE:
      *static_cast<unsigned int*>(data) = found->type;
      return hipSuccess;
    case HIP_POINTER_ATTRIBUTE_DEVICE_POINTER:
      *static_cast<void**>(data) = ptr;
      return hipSuccess;
    case HIP_POINTER_ATTRIBUTE_HOST_POINTER:
      *static_cast<void**>(data) = found->type == hipMemoryTypeDevice ? nullptr : ptr;
      return hipSuccess;
    case HIP_POINTER_ATTRIBUTE_IS_MANAGED:
      *static_cast<bool*>(data) = found->type == hipMemoryTypeManaged;
      return hipSuccess;
    case HIP_POINTER_ATTRIBUTE_DEVICE_ORDINAL:
      *static_cast<int*>(data) = found->device;
      return hipSuccess;
    case HIP_POINTER_ATTRIBUTE_RANGE_START_ADDR:
      *static_cast<void**>(data) = found->base;
      return hipSuccess;
    case HIP_POINTER_ATTRIBUTE_RANGE_SIZE:
      *static_cast<size_t*>(data) = found->size;
      return hipSuccess;
    case HIP_POINTER_ATTRIBUTE_MAPPED:
      *static_cast<bool*>(data) = true;
      return hipSuccess;
    default:
      return report(hipErrorNotSupported);
  }
}

// ---- copies -----------------------------------------------------------------------------------

HIP_EMU_API hipError_t hipMemcpy(void* dst, const void* src, size_t sizeBytes, hipMemcpyKind kind) {
  return report(copy(dst, src, sizeBytes, kind, nullptr, true));
}

HIP_EMU_API hipError_t hipMemcpyWithStream(void* dst, const void* src, size_t sizeBytes,
                                          hipMemcpyKind kind, hipStream_t stream) {
  return report(copy(dst, src, sizeBytes, kind, stream, true));
}

HIP_EMU_API hipError_t hipMemcpyAsync(void* dst, const void* src, size_t sizeBytes,
                                     hipMemcpyKind kind, hipStream_t stream) {
  return report(copy(dst, src, sizeBytes, kind, stream, false));
}

HIP_EMU_API hipError_t hipMemcpyHtoD(hipDeviceptr_t dst, const void* src, size_t sizeBytes) {
  return report(copy(dst, src, sizeBytes, hipMemcpyHostToDevice, nullptr, true));
}

HIP_EMU_API hipError_t hipMemcpyDtoH(void* dst, hipDeviceptr_t src, size_t sizeBytes) {
  return report(copy(dst, src, sizeBytes, hipMemcpyDeviceToHost, nullptr, true));
}

HIP_EMU_API hipError_t hipMemcpyDtoD(hipDeviceptr_t dst, hipDeviceptr_t src, size_t sizeBytes) {
  return report(copy(dst, src, sizeBytes, hipMemcpyDeviceToDevice, nullptr, true));
}

HIP_EMU_API hipError_t hipMemcpyHtoDAsync(hipDeviceptr_t dst, const void* src, size_t sizeBytes,
                                         hipStream_t stream) {
  return report(copy(dst, src, sizeBytes, hipMemcpyHostToDevice, stream, false));
}

HIP_EMU_API hipError_t hipMemcpyDtoHAsync(void* dst, hipDeviceptr_t src, size_t sizeBytes,
                                         hipStream_t stream) {
  return report(copy(dst, src, sizeBytes, hipMemcpyDeviceToHost, stream, false));
}

HIP_EMU_API hipError_t hipMemcpyDtoDAsync(hipDeviceptr_t dst, hipDeviceptr_t src, size_t sizeBytes,
                                         hipStream_t stream) {
  return report(copy(dst, src, sizeBytes, hipMemcpyDeviceToDevice, stream, false));
}

HIP_EMU_API hipError_t hipMemcpyPeer(void* dst, int dstDeviceId, const void* src, int srcDeviceId,
                                    size_t sizeBytes) {
  if (!hip_emu::is_valid_device(dstDeviceId) || !hip_emu::is_valid_device(srcDeviceId)) {
    return report(hip_emu::device_count() == 0 ? hipErrorNoDevice : hipErrorInvalidDevice);
  }
  return report(copy(dst, src, sizeBytes, hipMemcpyDeviceToDevice, nullptr, true));
}

HIP_EMU_API hipError_t hipMemcpyPeerAsync(void* dst, int dstDeviceId, const void* src,
                                         int srcDevice, size_t sizeBytes, hipStream_t stream) {
  if (!hip_emu::is_valid_device(dstDeviceId) || !hip_emu::is_valid_device(srcDevice)) {
    return report(hip_emu::device_count() == 0 ? hipErrorNoDevice : hipErrorInvalidDevice);
  }
  return report(copy(dst, src, sizeBytes, hipMemcpyDeviceToDevice, stream, false));
}

// ---- fills ------------------------------------------------------------------------------------

HIP_EMU_API hipError_t hipMemset(void* dst, int value, size_t sizeBytes) {
  return report(fill(dst, static_cast<unsigned char>(value), sizeBytes, nullptr, true));
}

HIP_EMU_API hipError_t hipMemsetAsync(void* dst, int value, size_t sizeBytes, hipStream_t stream) {
  return report(fill(dst, static_cast<unsigned char>(value), sizeBytes, stream, false));
}

HIP_EMU_API hipError_t hipMemsetD8(hipDeviceptr_t dest, unsigned char value, size_t count) {
  return report(fill(dest, value, count, nullptr, true));
}

HIP_EMU_API hipError_t hipMemsetD8Async(hipDeviceptr_t dest, unsigned char value, size_t count,
                                       hipStream_t stream) {
  return report(fill(dest, value, count, stream, false));
}

HIP_EMU_API hipError_t hipMemsetD16(hipDeviceptr_t dest, unsigned short value, size_t count) {
  return report(fill(dest, value, count, nullptr, true));
}

HIP_EMU_API hipError_t hipMemsetD16Async(hipDeviceptr_t dest, unsigned short value, size_t count,
                                        hipStream_t stream) {
  return report(fill(dest, value, count, stream, false));
}

HIP_EMU_API hipError_t hipMemsetD32(hipDeviceptr_t dest, int value, size_t count) {
  return report(fill(dest, value, count, nullptr, true));
}

HIP_EMU_API hipError_t hipMemsetD32Async(hipDeviceptr_t dst, int value, size_t count,
                                        hipStream_t stream) {
  return report(fill(dst, value, count, stream, false));
}

// ---- per-thread-default-stream variants: a null stream argument means hipStreamPerThread ------

namespace {
hipStream_t per_thread_if_null(hipStream_t stream) {
  return stream == nullptr ? hipStreamPerThread : stream;
}
}  // namespace

HIP_EMU_API hipError_t hipMemcpy_spt(void* dst, const void* src, size_t sizeBytes,
                                    hipMemcpyKind kind) {
  return report(copy(dst, src, sizeBytes, kind, hipStreamPerThread, true));
}

HIP_EMU_API hipError_t hipMemcpyAsync_spt(void* dst, const void* src, size_t sizeBytes,
                                         hipMemcpyKind kind, hipStream_t stream) {
  return report(copy(dst, src, sizeBytes, kind, per_thread_if_null(stream), false));
}

HIP_EMU_API hipError_t hipMemset_spt(void* dst, int value, size_t sizeBytes) {
  return report(fill(dst, static_cast<unsigned char>(value), sizeBytes, hipStreamPerThread, true));
}

HIP_EMU_API hipError_t hipMemsetAsync_spt(void* dst, int value, size_t sizeBytes,
                                         hipStream_t stream) {
  return report(fill(dst, static_cast<unsigned char>(value), sizeBytes,
                     per_thread_if_null(stream), false));
}
