// The kernel engine's public header: everything the HIP runtime (emu/hip) uses of it. The engine is
// its own component (CMake target hip_emu_kernel, sources in ../src, private there): what a launch
// is, checking and running one, the engine's settings and the code-object format.
//
// A launch runs on the thread of the stream it was submitted to (hip/src/stream_worker.cpp), as
// cooperative work-items (see src/scheduler.cpp for the execution model and README.md for its limits).
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "rocshmem_emu_kernel_abi.h"

namespace hip_emu::kernel {

constexpr unsigned kMaxWaveSize = 64;           // a CDNA wavefront; RDNA (gfx10-12) runs 32
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
  unsigned wave_size = 0;  // 32 or 64 when the code object's target fixes it; 0: ROCSHMEM_EMU_WAVE_SIZE
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

// Validates the engine's settings (ROCSHMEM_EMU_KERNEL_*, ROCSHMEM_EMU_WAVE_SIZE,
// ROCSHMEM_EMU_RESIDENT_WORK_ITEMS): false + one sentence naming the variable on a bad value.
// HIP's device registry and rocSHMEM's init call it, so a bad value ends init, not a launch.
bool validate_kernel_settings(std::string* error);

// The wavefront size of launches that the code object does not fix (ROCSHMEM_EMU_WAVE_SIZE);
// what hipDeviceProp_t::warpSize reports.
unsigned default_wave_size();

}  // namespace hip_emu::kernel

// ---- code objects -------------------------------------------------------------------------------
// The emulator's code object (.emuco): a text header, then an ELF shared object.
//
//   ROCSHMEM-EMU-CODE-OBJECT 2                                     (1 is read too: no param lines)
//   kernel <name> params=<n> sizes=<s1>,<s2>,... aligns=<a1>,... [uses-rocshmem]
//   param <position> <name|-> <pointer|value> <C type>              (per parameter; read by Java only)
//   global <name> size=<bytes>
//   end
//   <the bytes of the shared object, to the end of the file>
//
// Written by rocshmem-emu-hipcc (kernel/bin); read here by hipModuleLoad/LoadData and by Java. The
// ELF exports the kernel table (rocshmem_emu_module_kernels) and, when the compile named a target,
// its wavefront size (rocshmem_emu_module_wave_size).
namespace hip_emu {

struct CodeObjectKernel {
  std::string name;
  std::vector<unsigned> sizes;
  std::vector<unsigned> aligns;
  bool uses_rocshmem = false;
};

struct CodeObject {
  std::vector<CodeObjectKernel> kernels;
  std::map<std::string, size_t> globals;  // name -> bytes
  size_t elf_offset = 0;                   // where the shared object starts
};

// Parses `size` bytes (a whole file). false + `error` naming the line for anything malformed.
bool parse_code_object(const unsigned char* data, size_t size, CodeObject* out, std::string* error);

// hipModuleLoadData gets no size: the ELF's section header table ends the image (e_shoff +
// e_shnum * e_shentsize, where linkers put it). false + error when `data` is not a code object.
bool code_object_size(const unsigned char* data, size_t* size, std::string* error);

}  // namespace hip_emu
