// Device management: initialisation, versions, current device, properties and attributes.
#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstring>
#include <thread>

#include <hip/hip_version.h>

#include "devices.hpp"
#include "hip_emu_kernel.hpp"
#include "emu_errors.hpp"
#include "memory.hpp"

using hip_emu::report;

namespace {

// Device flags (hipSetDeviceFlags) are per process and device, as in HIP.
std::mutex device_flags_mutex;
unsigned int device_flags[hip_emu::kMaxDevices];

// The HDP flush control registers (hipDeviceAttributeHdpMem/RegFlushCntl): rocSHMEM writes 1 to
// them to flush the host data path before the host reads device memory. The emulator's device
// memory is host memory, so a write to these words has nothing to flush and is harmless.
unsigned int hdp_flush_registers[hip_emu::kMaxDevices][2];

// A stable, distinct PCI address per virtual device: domain 0, bus 0xE0 + ordinal % 32, etc.
int pci_bus_of(int device) { return 0xE0 + device % 32; }
int pci_device_of(int device) { return device / 32; }

void fill_properties(int device, hipDeviceProp_t* prop) {
  std::memset(prop, 0, sizeof(*prop));
  std::snprintf(prop->name, sizeof(prop->name), "rocSHMEM CPU emulator device %d", device);
  std::snprintf(prop->gcnArchName, sizeof(prop->gcnArchName), "cpu-emu");
  std::snprintf(prop->uuid.bytes, sizeof(prop->uuid.bytes), "cpu-emu-dev%04d", device);
  const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  prop->totalGlobalMem = hip_emu::physical_memory_bytes();
  prop->sharedMemPerBlock = 64 * 1024;
  prop->regsPerBlock = 65536;
  // The wavefront size of launches (ROCSHMEM_EMU_WAVE_SIZE: 64 as on CDNA, 32 as on gfx11/gfx12).
  prop->warpSize = static_cast<int>(hip_emu::kernel::default_wave_size());
  prop->memPitch = SIZE_MAX;
  prop->maxThreadsPerBlock = 1024;
  prop->maxThreadsDim[0] = prop->maxThreadsDim[1] = prop->maxThreadsDim[2] = 1024;
  prop->maxGridSize[0] = INT_MAX;
  prop->maxGridSize[1] = prop->maxGridSize[2] = 65536;
  prop->clockRate = 1000000;  // kHz; nominal (clock64() in a kernel is the CPU's time-stamp counter)
  prop->totalConstMem = 64 * 1024;
  // The compute capability of gfx942 (MI300), rocSHMEM's main target, so capability checks in
  // application code take the same path as on real hardware.
  prop->major = 9;
  prop->minor = 4;
  prop->textureAlignment = 256;
  prop->texturePitchAlignment = 256;
  prop->multiProcessorCount = cores;
  prop->canMapHostMemory = 1;
  prop->computeMode = 0;  // hipComputeModeDefault
  prop->concurrentKernels = 1;
  prop->pciBusID = pci_bus_of(device);
  prop->pciDeviceID = pci_device_of(device);
  prop->pciDomainID = 0;
  prop->asyncEngineCount = 1;
  prop->unifiedAddressing = 1;
  prop->memoryClockRate = 1000000;
  prop->memoryBusWidth = 64;
  prop->l2CacheSize = 4 * 1024 * 1024;
  prop->maxThreadsPerMultiProcessor = 2048;
  prop->streamPrioritiesSupported = 1;
  prop->sharedMemPerMultiprocessor = 64 * 1024;
  prop->regsPerMultiprocessor = 65536;
  prop->managedMemory = 1;
  prop->isMultiGpuBoard = hip_emu::device_count() > 1;
  prop->hostNativeAtomicSupported = 1;  // device memory is host memory
  prop->pageableMemoryAccess = 1;
  prop->concurrentManagedAccess = 1;
  prop->canUseHostPointerForRegisteredMem = 1;
  prop->sharedMemPerBlockOptin = 64 * 1024;
  prop->pageableMemoryAccessUsesHostPageTables = 1;
  prop->directManagedMemAccessFromHost = 1;
  prop->maxBlocksPerMultiProcessor = 32;
  prop->hostRegisterSupported = 1;
  prop->maxSharedMemoryPerMultiProcessor = 64 * 1024;
  prop->clockInstructionRate = 1000000;
  prop->isLargeBar = 1;
}

hipError_t check_device(int device) {
  if (hip_emu::device_count() == 0) return hipErrorNoDevice;
  return hip_emu::is_valid_device(device) ? hipSuccess : hipErrorInvalidDevice;
}

bool attribute_value(const hipDeviceProp_t& p, hipDeviceAttribute_t attr, int* value) {
  switch (attr) {
    case hipDeviceAttributeEccEnabled: *value = p.ECCEnabled; return true;
    case hipDeviceAttributeAsyncEngineCount: *value = p.asyncEngineCount; return true;
    case hipDeviceAttributeCanMapHostMemory: *value = p.canMapHostMemory; return true;
    case hipDeviceAttributeCanUseHostPointerForRegisteredMem:
      *value = p.canUseHostPointerForRegisteredMem; return true;
    case hipDeviceAttributeClockRate: *value = p.clockRate; return true;
    // wall_clock64() in a kernel counts nanoseconds (emu/kernel/include/rocshmem_emu_kernel.hpp).
    case hipDeviceAttributeWallClockRate: *value = 1000000; return true;
    case hipDeviceAttributeComputeMode: *value = p.computeMode; return true;
    case hipDeviceAttributeConcurrentKernels: *value = p.concurrentKernels; return true;
    case hipDeviceAttributeConcurrentManagedAccess: *value = p.concurrentManagedAccess; return true;
    case hipDeviceAttributeCooperativeLaunch: *value = p.cooperativeLaunch; return true;
    case hipDeviceAttributeDirectManagedMemAccessFromHost:
      *value = p.directManagedMemAccessFromHost; return true;
    case hipDeviceAttributeHostNativeAtomicSupported: *value = p.hostNativeAtomicSupported; return true;
    case hipDeviceAttributeIntegrated: *value = p.integrated; return true;
    case hipDeviceAttributeIsMultiGpuBoard: *value = p.isMultiGpuBoard; return true;
    case hipDeviceAttributeL2CacheSize: *value = p.l2CacheSize; return true;
    case hipDeviceAttributeComputeCapabilityMajor: *value = p.major; return true;
    case hipDeviceAttributeComputeCapabilityMinor: *value = p.minor; return true;
    case hipDeviceAttributeManagedMemory: *value = p.managedMemory; return true;
    case hipDeviceAttributeMaxBlocksPerMultiProcessor: *value = p.maxBlocksPerMultiProcessor; return true;
    case hipDeviceAttributeMaxBlockDimX: *value = p.maxThreadsDim[0]; return true;
    case hipDeviceAttributeMaxBlockDimY: *value = p.maxThreadsDim[1]; return true;
    case hipDeviceAttributeMaxBlockDimZ: *value = p.maxThreadsDim[2]; return true;
    case hipDeviceAttributeMaxGridDimX: *value = p.maxGridSize[0]; return true;
    case hipDeviceAttributeMaxGridDimY: *value = p.maxGridSize[1]; return true;
    case hipDeviceAttributeMaxGridDimZ: *value = p.maxGridSize[2]; return true;
    case hipDeviceAttributeMaxThreadsPerBlock: *value = p.maxThreadsPerBlock; return true;
    case hipDeviceAttributeMaxThreadsPerMultiProcessor:
      *value = p.maxThreadsPerMultiProcessor; return true;
    case hipDeviceAttributeMaxPitch: *value = INT_MAX; return true;
    case hipDeviceAttributeMemoryBusWidth: *value = p.memoryBusWidth; return true;
    case hipDeviceAttributeMemoryClockRate: *value = p.memoryClockRate; return true;
    case hipDeviceAttributeMultiprocessorCount: *value = p.multiProcessorCount; return true;
    case hipDeviceAttributePageableMemoryAccess: *value = p.pageableMemoryAccess; return true;
    case hipDeviceAttributePageableMemoryAccessUsesHostPageTables:
      *value = p.pageableMemoryAccessUsesHostPageTables; return true;
    case hipDeviceAttributePciBusId: *value = p.pciBusID; return true;
    case hipDeviceAttributePciDeviceId: *value = p.pciDeviceID; return true;
    case hipDeviceAttributePciDomainId: *value = p.pciDomainID; return true;
    case hipDeviceAttributeMaxRegistersPerBlock: *value = p.regsPerBlock; return true;
    case hipDeviceAttributeMaxRegistersPerMultiprocessor: *value = p.regsPerMultiprocessor; return true;
    case hipDeviceAttributeMaxSharedMemoryPerBlock:
      *value = static_cast<int>(p.sharedMemPerBlock); return true;
    case hipDeviceAttributeSharedMemPerBlockOptin:
      *value = static_cast<int>(p.sharedMemPerBlockOptin); return true;
    case hipDeviceAttributeSharedMemPerMultiprocessor:
      *value = static_cast<int>(p.sharedMemPerMultiprocessor); return true;
    case hipDeviceAttributeMaxSharedMemoryPerMultiprocessor:
      *value = static_cast<int>(p.maxSharedMemoryPerMultiProcessor); return true;
    case hipDeviceAttributeStreamPrioritiesSupported: *value = p.streamPrioritiesSupported; return true;
    case hipDeviceAttributeTextureAlignment: *value = static_cast<int>(p.textureAlignment); return true;
    case hipDeviceAttributeTexturePitchAlignment:
      *value = static_cast<int>(p.texturePitchAlignment); return true;
    case hipDeviceAttributeTotalConstantMemory: *value = static_cast<int>(p.totalConstMem); return true;
    case hipDeviceAttributeTotalGlobalMem:  // an int cannot hold it; saturate like a 32-bit view
      *value = static_cast<int>(std::min<size_t>(p.totalGlobalMem, INT_MAX)); return true;
    case hipDeviceAttributeUnifiedAddressing: *value = p.unifiedAddressing; return true;
    case hipDeviceAttributeWarpSize: *value = p.warpSize; return true;
    case hipDeviceAttributeMemoryPoolsSupported: *value = p.memoryPoolsSupported; return true;
    case hipDeviceAttributeHostRegisterSupported: *value = p.hostRegisterSupported; return true;
    case hipDeviceAttributeClockInstructionRate: *value = p.clockInstructionRate; return true;
    case hipDeviceAttributeIsLargeBar: *value = p.isLargeBar; return true;
    case hipDeviceAttributeAsicRevision: *value = p.asicRevision; return true;
    case hipDeviceAttributeKernelExecTimeout: *value = p.kernelExecTimeoutEnabled; return true;
    case hipDeviceAttributeTccDriver: *value = p.tccDriver; return true;
    case hipDeviceAttributeGlobalL1CacheSupported: *value = p.globalL1CacheSupported; return true;
    case hipDeviceAttributeLocalL1CacheSupported: *value = p.localL1CacheSupported; return true;
    case hipDeviceAttributeComputePreemptionSupported:
      *value = p.computePreemptionSupported; return true;
    case hipDeviceAttributeCooperativeMultiDeviceLaunch:
      *value = p.cooperativeMultiDeviceLaunch; return true;
    case hipDeviceAttributeMultiGpuBoardGroupID: *value = p.multiGpuBoardGroupID; return true;
    case hipDeviceAttributeImageSupport: *value = 0; return true;
    case hipDeviceAttributePhysicalMultiProcessorCount: *value = p.multiProcessorCount; return true;
    case hipDeviceAttributeFineGrainSupport: *value = 1; return true;
    case hipDeviceAttributeVirtualMemoryManagementSupported: *value = 0; return true;
    case hipDeviceAttributeCanUseStreamWaitValue: *value = 0; return true;
    case hipDeviceAttributeDeviceOverlap: *value = p.asyncEngineCount > 0; return true;
    case hipDeviceAttributeCooperativeMultiDeviceUnmatchedFunc:
      *value = p.cooperativeMultiDeviceUnmatchedFunc; return true;
    case hipDeviceAttributeCooperativeMultiDeviceUnmatchedGridDim:
      *value = p.cooperativeMultiDeviceUnmatchedGridDim; return true;
    case hipDeviceAttributeCooperativeMultiDeviceUnmatchedBlockDim:
      *value = p.cooperativeMultiDeviceUnmatchedBlockDim; return true;
    case hipDeviceAttributeCooperativeMultiDeviceUnmatchedSharedMem:
      *value = p.cooperativeMultiDeviceUnmatchedSharedMem; return true;
    case hipDeviceAttributeNumberOfXccs: *value = 1; return true;
    case hipDeviceAttributeMaxAvailableVgprsPerThread: *value = 512; return true;  // as CDNA3
    case hipDeviceAttributeHostNumaId: *value = 0; return true;
    default: return false;
  }
}

}  // namespace

HIP_EMU_API hipError_t hipInit(unsigned int flags) {
  if (flags != 0) return report(hipErrorInvalidValue);
  return report(hip_emu::device_count() > 0 ? hipSuccess : hipErrorNoDevice);
}

HIP_EMU_API hipError_t hipRuntimeGetVersion(int* runtimeVersion) {
  if (runtimeVersion == nullptr) return report(hipErrorInvalidValue);
  *runtimeVersion = HIP_VERSION;
  return hipSuccess;
}

HIP_EMU_API hipError_t hipDriverGetVersion(int* driverVersion) {
  if (driverVersion == nullptr) return report(hipErrorInvalidValue);
  *driverVersion = HIP_VERSION;
  return hipSuccess;
}

HIP_EMU_API hipError_t hipGetDeviceCount(int* count) {
  if (count == nullptr) return report(hipErrorInvalidValue);
  *count = hip_emu::device_count();
  return report(*count > 0 ? hipSuccess : hipErrorNoDevice);
}

HIP_EMU_API hipError_t hipSetDevice(int deviceId) {
  hipError_t status = check_device(deviceId);
  if (status == hipSuccess) hip_emu::current_device() = deviceId;
  return report(status);
}

HIP_EMU_API hipError_t hipGetDevice(int* deviceId) {
  if (deviceId == nullptr) return report(hipErrorInvalidValue);
  if (hip_emu::device_count() == 0) return report(hipErrorNoDevice);
  *deviceId = hip_emu::current_device();
  return hipSuccess;
}

HIP_EMU_API hipError_t hipDeviceGet(hipDevice_t* device, int ordinal) {
  if (device == nullptr) return report(hipErrorInvalidValue);
  hipError_t status = check_device(ordinal);
  if (status == hipSuccess) *device = ordinal;
  return report(status);
}

HIP_EMU_API hipError_t hipDeviceSynchronize(void) {
  hipError_t status = hip_emu::check_current_device();
  if (status != hipSuccess) return report(status);
  return report(hip_emu::synchronize_device(hip_emu::current_device()));
}

// Waits for the device, destroys its user streams and frees its allocations (like the real
// runtime, which tears down the device's state). Handles to them become invalid.
HIP_EMU_API hipError_t hipDeviceReset(void) {
  hipError_t status = hip_emu::check_current_device();
  if (status != hipSuccess) return report(status);
  const int device = hip_emu::current_device();
  (void)hip_emu::synchronize_device(device);
  hip_emu::destroy_user_streams(device);
  hip_emu::release_device_allocations(device);
  {
    std::lock_guard<std::mutex> lock(device_flags_mutex);
    device_flags[device] = 0;
  }
  return hipSuccess;
}

HIP_EMU_API hipError_t hipGetDevicePropertiesR0600(hipDeviceProp_tR0600* prop, int deviceId) {
  if (prop == nullptr) return report(hipErrorInvalidValue);
  hipError_t status = check_device(deviceId);
  if (status == hipSuccess) fill_properties(deviceId, prop);
  return report(status);
}

HIP_EMU_API hipError_t hipChooseDeviceR0600(int* device, const hipDeviceProp_tR0600* prop) {
  if (device == nullptr || prop == nullptr) return report(hipErrorInvalidValue);
  if (hip_emu::device_count() == 0) return report(hipErrorNoDevice);
  *device = 0;  // all virtual devices are identical
  return hipSuccess;
}

HIP_EMU_API hipError_t hipDeviceGetAttribute(int* pi, hipDeviceAttribute_t attr, int deviceId) {
  if (pi == nullptr) return report(hipErrorInvalidValue);
  hipError_t status = check_device(deviceId);
  if (status != hipSuccess) return report(status);
  if (attr == hipDeviceAttributeHdpMemFlushCntl || attr == hipDeviceAttributeHdpRegFlushCntl) {
    // HIP stores the register's address through `pi` (the caller passes a pointer's storage).
    unsigned int* address = &hdp_flush_registers[deviceId][attr == hipDeviceAttributeHdpRegFlushCntl];
    std::memcpy(pi, &address, sizeof address);
    return hipSuccess;
  }
  hipDeviceProp_t prop;
  fill_properties(deviceId, &prop);
  return attribute_value(prop, attr, pi) ? hipSuccess : report(hipErrorInvalidValue);
}

HIP_EMU_API hipError_t hipDeviceGetName(char* name, int len, hipDevice_t device) {
  if (name == nullptr || len <= 0) return report(hipErrorInvalidValue);
  hipError_t status = check_device(device);
  if (status != hipSuccess) return report(status);
  hipDeviceProp_t prop;
  fill_properties(device, &prop);
  std::snprintf(name, static_cast<size_t>(len), "%s", prop.name);
  return hipSuccess;
}

HIP_EMU_API hipError_t hipDeviceGetPCIBusId(char* pciBusId, int len, int device) {
  if (pciBusId == nullptr || len <= 0) return report(hipErrorInvalidValue);
  hipError_t status = check_device(device);
  if (status != hipSuccess) return report(status);
  char text[32];
  int needed = std::snprintf(text, sizeof(text), "%04x:%02x:%02x.%01x", 0, pci_bus_of(device),
                             pci_device_of(device), 0);
  if (len <= needed) return report(hipErrorInvalidValue);
  std::memcpy(pciBusId, text, static_cast<size_t>(needed) + 1);
  return hipSuccess;
}

HIP_EMU_API hipError_t hipDeviceGetByPCIBusId(int* device, const char* pciBusId) {
  if (device == nullptr || pciBusId == nullptr) return report(hipErrorInvalidValue);
  unsigned domain = 0, bus = 0, slot = 0, function = 0;
  if (std::sscanf(pciBusId, "%x:%x:%x.%x", &domain, &bus, &slot, &function) != 4) {
    return report(hipErrorInvalidValue);
  }
  for (int d = 0; d < hip_emu::device_count(); ++d) {
    if (domain == 0 && bus == static_cast<unsigned>(pci_bus_of(d)) &&
        slot == static_cast<unsigned>(pci_device_of(d)) && function == 0) {
      *device = d;
      return hipSuccess;
    }
  }
  return report(hipErrorInvalidDevice);
}

HIP_EMU_API hipError_t hipDeviceComputeCapability(int* major, int* minor, hipDevice_t device) {
  if (major == nullptr || minor == nullptr) return report(hipErrorInvalidValue);
  hipError_t status = check_device(device);
  if (status != hipSuccess) return report(status);
  hipDeviceProp_t prop;
  fill_properties(device, &prop);
  *major = prop.major;
  *minor = prop.minor;
  return hipSuccess;
}

HIP_EMU_API hipError_t hipDeviceTotalMem(size_t* bytes, hipDevice_t device) {
  if (bytes == nullptr) return report(hipErrorInvalidValue);
  hipError_t status = check_device(device);
  if (status == hipSuccess) *bytes = hip_emu::physical_memory_bytes();
  return report(status);
}

HIP_EMU_API hipError_t hipDeviceGetUuid(hipUUID* uuid, hipDevice_t device) {
  if (uuid == nullptr) return report(hipErrorInvalidValue);
  hipError_t status = check_device(device);
  if (status != hipSuccess) return report(status);
  hipDeviceProp_t prop;
  fill_properties(device, &prop);
  *uuid = prop.uuid;
  return hipSuccess;
}

HIP_EMU_API hipError_t hipSetDeviceFlags(unsigned flags) {
  constexpr unsigned kKnownFlags = hipDeviceScheduleMask | hipDeviceMapHost | hipDeviceLmemResizeToMax;
  if (flags & ~kKnownFlags) return report(hipErrorInvalidValue);
  hipError_t status = hip_emu::check_current_device();
  if (status != hipSuccess) return report(status);
  std::lock_guard<std::mutex> lock(device_flags_mutex);
  device_flags[hip_emu::current_device()] = flags;
  return hipSuccess;
}

HIP_EMU_API hipError_t hipGetDeviceFlags(unsigned int* flags) {
  if (flags == nullptr) return report(hipErrorInvalidValue);
  hipError_t status = hip_emu::check_current_device();
  if (status != hipSuccess) return report(status);
  std::lock_guard<std::mutex> lock(device_flags_mutex);
  *flags = device_flags[hip_emu::current_device()];
  return hipSuccess;
}

// Peer access: all virtual devices share host memory, so any two distinct devices are peers.
namespace {
std::mutex peer_mutex;
std::set<std::pair<int, int>> enabled_peers;  // (device, peer)
}  // namespace

HIP_EMU_API hipError_t hipDeviceCanAccessPeer(int* canAccessPeer, int deviceId, int peerDeviceId) {
  if (canAccessPeer == nullptr) return report(hipErrorInvalidValue);
  hipError_t status = check_device(deviceId);
  if (status == hipSuccess) status = check_device(peerDeviceId);
  if (status != hipSuccess) return report(status);
  *canAccessPeer = deviceId != peerDeviceId;
  return hipSuccess;
}

HIP_EMU_API hipError_t hipDeviceEnablePeerAccess(int peerDeviceId, unsigned int flags) {
  if (flags != 0) return report(hipErrorInvalidValue);
  hipError_t status = hip_emu::check_current_device();
  if (status == hipSuccess) status = check_device(peerDeviceId);
  if (status != hipSuccess) return report(status);
  const int device = hip_emu::current_device();
  if (device == peerDeviceId) return report(hipErrorInvalidDevice);
  std::lock_guard<std::mutex> lock(peer_mutex);
  if (!enabled_peers.insert({device, peerDeviceId}).second) {
    return report(hipErrorPeerAccessAlreadyEnabled);
  }
  return hipSuccess;
}

HIP_EMU_API hipError_t hipDeviceDisablePeerAccess(int peerDeviceId) {
  hipError_t status = hip_emu::check_current_device();
  if (status == hipSuccess) status = check_device(peerDeviceId);
  if (status != hipSuccess) return report(status);
  std::lock_guard<std::mutex> lock(peer_mutex);
  if (enabled_peers.erase({hip_emu::current_device(), peerDeviceId}) == 0) {
    return report(hipErrorPeerAccessNotEnabled);
  }
  return hipSuccess;
}
