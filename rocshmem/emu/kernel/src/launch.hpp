// The kernel engine of the HIP emulator: what a launch is, and running one.
//
// A launch runs on the thread of the stream it was submitted to (hip/src/stream_worker.cpp), as
// cooperative work-items (see scheduler.cpp for the execution model and README.md for its limits).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "rocshmem_emu_kernel_abi.h"

namespace hip_emu::kernel {

constexpr unsigned kWaveSize = 64;              // a CDNA wavefront
constexpr unsigned kMaxBlockSize = 1024;        // work-items per block, as on AMD GPUs
constexpr size_t kMaxSharedBytes = 64 * 1024;   // LDS per block (hipDeviceProp_t::sharedMemPerBlock)
constexpr int kFaultExitStatus = 70;            // the rocSHMEM emulator's dead-peer status

// Everything known about one kernel, from a code object's table or a host-program registration.
struct KernelInfo {
  std::string name;
  const void* address = nullptr;
  rocshmem_emu_wi_entry_t entry = nullptr;
  std::vector<unsigned> sizes;
  std::vector<unsigned> aligns;
  bool uses_rocshmem = false;
  size_t dynamic_shared_capacity = 0;  // see rocshmem_emu_wi_kernel_t
  void* (*dynamic_shared)(void) = nullptr;
};

struct LaunchShape {
  rocshmem_emu_wi_dim_t grid;
  rocshmem_emu_wi_dim_t block;
  size_t dynamic_shared;
};

// The bytes of a launch's arguments, packed at their natural alignment (the layout of HIP's
// `extra` buffer), and one pointer per parameter into them.
struct PackedArgs {
  std::vector<unsigned char> bytes;
  std::vector<size_t> offsets;
};

// Offsets of each parameter in the packed layout; returns the total size.
size_t packed_layout(const KernelInfo& kernel, std::vector<size_t>* offsets);

// Bytes of static __shared__ variables of the kernel's module (0 when none).
size_t static_shared_bytes(const KernelInfo& kernel);

// How many blocks of `block_size` work-items are resident at once (at least 1).
uint64_t max_resident_blocks(unsigned block_size);

// hipSuccess, or the error real HIP returns for this shape (see launch_checks.cpp).
int check_shape(const KernelInfo& kernel, const LaunchShape& shape);

// Runs every work-item of the launch on the calling thread and returns when all have finished.
// A fault, or a launch that can never complete, ends the process (kFaultExitStatus, one message).
void run_launch(const KernelInfo& kernel, const LaunchShape& shape, const PackedArgs& args);

}  // namespace hip_emu::kernel
