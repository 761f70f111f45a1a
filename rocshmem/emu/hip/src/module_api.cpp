// Kernels: HIP's module API over the emulator's code objects (.emuco, written by
// rocshmem-emu-hipcc), hipLaunchKernel for host-program kernels (hipLaunchKernelGGL), and the
// function attribute queries. A launch is validated here, its arguments are copied, and it runs
// in stream order on the stream's thread (emu/kernel/src/scheduler.cpp).
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "devices.hpp"
#include "emu_errors.hpp"
#include "hip_emu_kernel.hpp"  // the kernel engine (emu/kernel), through its public header only

using hip_emu::report;
using hip_emu::kernel::KernelInfo;

struct ihipModule_t;

// A kernel handle: of a loaded module, or of a host program (module == nullptr, never freed).
struct ihipModuleSymbol_t {
  ihipModule_t* module;
  KernelInfo info;
};

struct ihipModule_t {
  std::string label;  // file name or "<memory>", for messages
  void* handle = nullptr;
  std::vector<std::unique_ptr<ihipModuleSymbol_t>> functions;
  std::map<std::string, size_t> global_sizes;
  bool uses_rocshmem = false;
  bool rocshmem_initialized = false;  // guarded by registry mutex
  // The memfd holding the ELF image. dlopen knows the object by its path, /proc/self/fd/<fd>, and
  // returns an already loaded object of the same path instead of loading a new one: the descriptor
  // stays open while the object is loaded, so no other module can get that path.
  int fd = -1;
  ~ihipModule_t() {
    if (handle != nullptr) dlclose(handle);
    if (fd < 0) return;
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    if (void* resident = dlopen(path, RTLD_NOW | RTLD_NOLOAD)) {
      // The object stayed mapped (glibc keeps some objects, e.g. with unique symbols): keep its
      // path taken for the life of the process rather than let a later module be mistaken for it.
      dlclose(resident);
      return;
    }
    close(fd);
  }
};

namespace {

struct Registry {
  std::mutex mutex;
  std::map<ihipModule_t*, std::shared_ptr<ihipModule_t>> modules;
  std::set<const ihipModuleSymbol_t*> functions;             // of live modules and host kernels
  std::map<const void*, ihipModuleSymbol_t*> host_kernels;  // by address
};
Registry& registry() {
  static Registry* instance = new Registry;  // leaked: stream threads may launch during exit
  return *instance;
}

void complain(const char* api, const std::string& what) {
  fprintf(stderr, "HIP emulator: %s: %s\n", api, what.c_str());
}

// A code object that uses rocSHMEM needs librocshmem_cpu_emu.so (DT_NEEDED by soname). When the
// process has not loaded it yet, take the one next to this library (the installed layout, and
// the Java bundle's), so that the dependency resolves without LD_LIBRARY_PATH.
void preload_rocshmem_library() {
  if (dlopen("librocshmem_cpu_emu.so", RTLD_NOW | RTLD_NOLOAD) != nullptr) return;
  Dl_info self;
  if (dladdr(reinterpret_cast<void*>(&preload_rocshmem_library), &self) == 0 || self.dli_fname == nullptr) return;
  std::string path = self.dli_fname;
  path = path.substr(0, path.rfind('/') + 1) + "librocshmem_cpu_emu.so";
  (void)dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);  // kept loaded; a failure shows at the module's dlopen
}

hipError_t load_image(hipModule_t* module, const unsigned char* data, size_t size,
                      const std::string& label, const char* api) {
  hip_emu::CodeObject object;
  std::string error;
  if (!hip_emu::parse_code_object(data, size, &object, &error)) {
    complain(api, label + ": " + error);
    return hipErrorInvalidImage;
  }
  // The ELF part is loaded from memory: a memfd keeps no file behind (LoadData has no file).
  int fd = memfd_create("rocshmem-emu-code-object", MFD_CLOEXEC);
  if (fd < 0) return hipErrorOperatingSystem;
  const unsigned char* elf = data + object.elf_offset;
  size_t left = size - object.elf_offset;
  while (left > 0) {
    ssize_t written = write(fd, elf, left);
    if (written <= 0) {
      close(fd);
      return hipErrorOperatingSystem;
    }
    elf += written;
    left -= static_cast<size_t>(written);
  }
  char path[64];
  snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
  for (const hip_emu::CodeObjectKernel& kernel : object.kernels) {
    if (kernel.uses_rocshmem) {
      preload_rocshmem_library();
      break;
    }
  }
  auto loaded = std::make_shared<ihipModule_t>();
  loaded->label = label;
  loaded->fd = fd;  // closed when the module goes (see ihipModule_t)
  loaded->handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (loaded->handle == nullptr) {
    complain(api, label + ": the code object does not load: " + dlerror());
    return hipErrorSharedObjectInitFailed;
  }
  auto* table = static_cast<const rocshmem_emu_wi_kernel_t*>(dlsym(loaded->handle, "rocshmem_emu_module_kernels"));
  auto* count = static_cast<const unsigned*>(dlsym(loaded->handle, "rocshmem_emu_module_kernel_count"));
  // Written when the compile named a target (--offload-arch): its wavefront size holds for every launch.
  auto* wave_size = static_cast<const unsigned*>(dlsym(loaded->handle, "rocshmem_emu_module_wave_size"));
  if (table == nullptr || count == nullptr) {
    complain(api, label + ": no kernel table (not written by rocshmem-emu-hipcc?)");
    return hipErrorInvalidImage;
  }
  for (const hip_emu::CodeObjectKernel& declared : object.kernels) {
    const rocshmem_emu_wi_kernel_t* found = nullptr;
    for (unsigned i = 0; i < *count; ++i) {
      if (declared.name == table[i].name) found = &table[i];
    }
    bool same = found != nullptr && found->num_params == declared.sizes.size();
    for (unsigned p = 0; same && p < found->num_params; ++p) {
      same = found->sizes[p] == declared.sizes[p] && found->aligns[p] == declared.aligns[p];
    }
    if (!same) {
      complain(api, label + ": kernel '" + declared.name +
                        "' of the header does not match the code object's kernel table");
      return hipErrorInvalidImage;
    }
    auto function = std::make_unique<ihipModuleSymbol_t>();
    function->module = loaded.get();
    function->info.name = declared.name;
    function->info.address = found->address;
    function->info.entry = found->entry;
    function->info.sizes = declared.sizes;
    function->info.aligns = declared.aligns;
    function->info.uses_rocshmem = declared.uses_rocshmem;
    function->info.dynamic_shared_capacity = found->dynamic_shared_capacity;
    function->info.dynamic_shared = found->dynamic_shared;
    function->info.wave_size = wave_size != nullptr ? *wave_size : 0;
    loaded->uses_rocshmem |= declared.uses_rocshmem;
    loaded->functions.push_back(std::move(function));
  }
  loaded->global_sizes = object.globals;
  std::lock_guard<std::mutex> lock(registry().mutex);
  for (const auto& function : loaded->functions) registry().functions.insert(function.get());
  registry().modules[loaded.get()] = loaded;
  *module = loaded.get();
  return hipSuccess;
}

// The live function behind a handle, and what keeps its module loaded while a launch waits.
const ihipModuleSymbol_t* live_function(hipFunction_t f, std::shared_ptr<ihipModule_t>* keep) {
  std::lock_guard<std::mutex> lock(registry().mutex);
  if (f == nullptr || registry().functions.count(f) == 0) return nullptr;
  if (f->module != nullptr) *keep = registry().modules.at(f->module);
  return f;
}

const ihipModuleSymbol_t* host_kernel(const void* address) {
  std::lock_guard<std::mutex> lock(registry().mutex);
  auto it = registry().host_kernels.find(address);
  return it == registry().host_kernels.end() ? nullptr : it->second;
}

bool module_initialized(const ihipModule_t* module) {
  std::lock_guard<std::mutex> lock(registry().mutex);
  return module->rocshmem_initialized;
}

const char* parse_extra(void** extra, void** buffer, size_t* size) {
  *buffer = nullptr;
  *size = 0;
  bool have_size = false;
  for (size_t i = 0; extra[i] != HIP_LAUNCH_PARAM_END; i += 2) {
    if (extra[i] == HIP_LAUNCH_PARAM_BUFFER_POINTER) {
      *buffer = extra[i + 1];
    } else if (extra[i] == HIP_LAUNCH_PARAM_BUFFER_SIZE) {
      if (extra[i + 1] == nullptr) return "HIP_LAUNCH_PARAM_BUFFER_SIZE points at nothing";
      *size = *static_cast<size_t*>(extra[i + 1]);
      have_size = true;
    } else {
      return "an unknown key (expected HIP_LAUNCH_PARAM_BUFFER_POINTER, _SIZE or _END)";
    }
  }
  if (*buffer == nullptr) return "no HIP_LAUNCH_PARAM_BUFFER_POINTER";
  if (!have_size) return "no HIP_LAUNCH_PARAM_BUFFER_SIZE";
  return nullptr;
}

std::string describe_params(const KernelInfo& kernel, const std::vector<size_t>& offsets) {
  std::ostringstream out;
  for (size_t i = 0; i < kernel.sizes.size(); ++i) {
    out << (i ? ", " : "") << "#" << i << ": " << kernel.sizes[i] << " bytes at offset " << offsets[i];
  }
  return kernel.sizes.empty() ? std::string("no parameters") : out.str();
}

// A cooperative launch needs every block resident at once (HIP: hipErrorCooperativeLaunchTooLarge).
hipError_t check_cooperative(const char* api, const ihipModuleSymbol_t* function, dim3 grid, dim3 block) {
  if (function == nullptr) return hipSuccess;  // launch() reports the handle
  const uint64_t blocks = uint64_t(grid.x) * grid.y * grid.z;
  const uint64_t block_size = uint64_t(block.x) * block.y * block.z;
  if (block_size == 0 || block_size > hip_emu::kernel::kMaxBlockSize) return hipSuccess;  // launch() refuses
  const uint64_t resident = hip_emu::kernel::max_resident_blocks(static_cast<unsigned>(block_size));
  if (blocks <= resident) return hipSuccess;
  complain(api, "kernel '" + function->info.name + "': " + std::to_string(blocks) + " blocks of " +
                    std::to_string(block_size) + " work-items, but only " + std::to_string(resident) +
                    " are resident at once (ROCSHMEM_EMU_RESIDENT_WORK_ITEMS)");
  return hipErrorCooperativeLaunchTooLarge;
}

hipError_t launch(const char* api, const ihipModuleSymbol_t* function,
                  std::shared_ptr<ihipModule_t> keep, dim3 grid, dim3 block, size_t shared_bytes,
                  hipStream_t stream_handle, void** kernel_params, void** extra) {
  if (function == nullptr) return hipErrorInvalidHandle;
  const KernelInfo& kernel = function->info;
  hipError_t status = hip_emu::check_current_device();
  if (status != hipSuccess) return status;
  ihipStream_t* stream = hip_emu::resolve_stream(stream_handle);
  if (stream == nullptr) return hipErrorInvalidHandle;
  hip_emu::kernel::LaunchShape shape{{grid.x, grid.y, grid.z}, {block.x, block.y, block.z}, shared_bytes};
  status = static_cast<hipError_t>(hip_emu::kernel::check_shape(kernel, shape));
  if (status != hipSuccess) return status;
  if (kernel.uses_rocshmem && function->module != nullptr && !module_initialized(function->module)) {
    complain(api, "kernel '" + kernel.name + "' uses rocSHMEM: call rocshmem_hipmodule_init on its "
                  "module first");
    return hipErrorNotInitialized;
  }
  hip_emu::kernel::PackedArgs args;
  const size_t total = hip_emu::kernel::packed_layout(kernel, &args.offsets);
  args.bytes.resize(total);
  if (kernel_params != nullptr && extra != nullptr) {
    complain(api, "kernel '" + kernel.name + "': both kernelParams and extra were given");
    return hipErrorInvalidValue;
  }
  if (kernel_params != nullptr) {
    for (size_t i = 0; i < kernel.sizes.size(); ++i) {
      if (kernel_params[i] == nullptr) {
        complain(api, "kernel '" + kernel.name + "': kernelParams[" + std::to_string(i) + "] is null");
        return hipErrorInvalidValue;
      }
      memcpy(args.bytes.data() + args.offsets[i], kernel_params[i], kernel.sizes[i]);
    }
  } else if (extra != nullptr) {
    void* buffer;
    size_t size;
    const char* problem = parse_extra(extra, &buffer, &size);
    if (problem != nullptr && total == 0 && buffer == nullptr) problem = nullptr;  // nothing to pass
    if (problem != nullptr) {
      complain(api, "kernel '" + kernel.name + "': extra has " + problem);
      return hipErrorInvalidValue;
    }
    if (size != total) {
      complain(api, "kernel '" + kernel.name + "': extra holds " + std::to_string(size) +
                        " bytes of arguments, the kernel takes " + std::to_string(total) + " (" +
                        describe_params(kernel, args.offsets) + ")");
      return hipErrorInvalidValue;
    }
    if (total != 0) memcpy(args.bytes.data(), buffer, total);
  } else if (!kernel.sizes.empty()) {
    complain(api, "kernel '" + kernel.name + "' takes " + std::to_string(kernel.sizes.size()) +
                      " parameter(s) but neither kernelParams nor extra was given");
    return hipErrorInvalidValue;
  }
  hip_emu::submit(stream, [function, keep, shape, args] {
    hip_emu::kernel::run_launch(function->info, shape, args);
  });
  return hipSuccess;
}

void fill_attributes(const KernelInfo& kernel, hipFuncAttributes* attr) {
  memset(attr, 0, sizeof *attr);
  attr->sharedSizeBytes = hip_emu::kernel::static_shared_bytes(kernel);
  attr->maxThreadsPerBlock = static_cast<int>(hip_emu::kernel::kMaxBlockSize);
  attr->maxDynamicSharedSizeBytes =
      static_cast<int>(hip_emu::kernel::kMaxSharedBytes - std::min(attr->sharedSizeBytes, hip_emu::kernel::kMaxSharedBytes));
  attr->binaryVersion = attr->ptxVersion = 0;
}

}  // namespace

// ---- modules ------------------------------------------------------------------------------------

HIP_EMU_API hipError_t hipModuleLoad(hipModule_t* module, const char* fname) {
  if (module == nullptr || fname == nullptr) return report(hipErrorInvalidValue);
  std::ifstream in(fname, std::ios::binary);
  if (!in) return report(hipErrorFileNotFound);
  std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return report(load_image(module, bytes.data(), bytes.size(), fname, "hipModuleLoad"));
}

// The image is a whole .emuco file; its size comes from the header (see code_object.cpp).
HIP_EMU_API hipError_t hipModuleLoadData(hipModule_t* module, const void* image) {
  if (module == nullptr || image == nullptr) return report(hipErrorInvalidValue);
  size_t size = 0;
  std::string error;
  if (!hip_emu::code_object_size(static_cast<const unsigned char*>(image), &size, &error)) {
    complain("hipModuleLoadData", error);
    return report(hipErrorInvalidImage);
  }
  return report(load_image(module, static_cast<const unsigned char*>(image), size, "<memory>",
                           "hipModuleLoadData"));
}

HIP_EMU_API hipError_t hipModuleLoadDataEx(hipModule_t* module, const void* image, unsigned int,
                                          hipJitOption*, void**) {
  return hipModuleLoadData(module, image);  // JIT options do not apply to a CPU code object
}

// Queued launches keep the module loaded until they ran; the handle is invalid at once.
HIP_EMU_API hipError_t hipModuleUnload(hipModule_t module) {
  std::shared_ptr<ihipModule_t> unloaded;
  {
    std::lock_guard<std::mutex> lock(registry().mutex);
    auto it = registry().modules.find(module);
    if (it == registry().modules.end()) return report(hipErrorInvalidHandle);
    unloaded = it->second;
    registry().modules.erase(it);
    for (const auto& function : unloaded->functions) registry().functions.erase(function.get());
  }
  return hipSuccess;
}

HIP_EMU_API hipError_t hipModuleGetFunction(hipFunction_t* function, hipModule_t module,
                                           const char* kname) {
  if (function == nullptr || kname == nullptr) return report(hipErrorInvalidValue);
  std::lock_guard<std::mutex> lock(registry().mutex);
  auto it = registry().modules.find(module);
  if (it == registry().modules.end()) return report(hipErrorInvalidHandle);
  for (const auto& candidate : it->second->functions) {
    if (candidate->info.name == kname) {
      *function = candidate.get();
      return hipSuccess;
    }
  }
  return report(hipErrorNotFound);
}

HIP_EMU_API hipError_t hipModuleGetFunctionCount(unsigned int* count, hipModule_t module) {
  if (count == nullptr) return report(hipErrorInvalidValue);
  std::lock_guard<std::mutex> lock(registry().mutex);
  auto it = registry().modules.find(module);
  if (it == registry().modules.end()) return report(hipErrorInvalidHandle);
  *count = static_cast<unsigned>(it->second->functions.size());
  return hipSuccess;
}

HIP_EMU_API hipError_t hipModuleGetGlobal(hipDeviceptr_t* dptr, size_t* bytes, hipModule_t hmod,
                                         const char* name) {
  if (name == nullptr || (dptr == nullptr && bytes == nullptr)) return report(hipErrorInvalidValue);
  std::lock_guard<std::mutex> lock(registry().mutex);
  auto it = registry().modules.find(hmod);
  if (it == registry().modules.end()) return report(hipErrorInvalidHandle);
  auto global = it->second->global_sizes.find(name);
  void* address = global == it->second->global_sizes.end() ? nullptr : dlsym(it->second->handle, name);
  if (address == nullptr) return report(hipErrorNotFound);
  if (dptr != nullptr) *dptr = address;
  if (bytes != nullptr) *bytes = global->second;
  return hipSuccess;
}

// ---- launches -----------------------------------------------------------------------------------

HIP_EMU_API hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned int gridDimX,
                                            unsigned int gridDimY, unsigned int gridDimZ,
                                            unsigned int blockDimX, unsigned int blockDimY,
                                            unsigned int blockDimZ, unsigned int sharedMemBytes,
                                            hipStream_t stream, void** kernelParams, void** extra) {
  std::shared_ptr<ihipModule_t> keep;
  const ihipModuleSymbol_t* function = live_function(f, &keep);
  return report(launch("hipModuleLaunchKernel", function, keep, dim3(gridDimX, gridDimY, gridDimZ),
                       dim3(blockDimX, blockDimY, blockDimZ), sharedMemBytes, stream, kernelParams,
                       extra));
}

HIP_EMU_API hipError_t hipLaunchKernel(const void* function_address, dim3 numBlocks,
                                      dim3 dimBlocks, void** args, size_t sharedMemBytes,
                                      hipStream_t stream) {
  const ihipModuleSymbol_t* function = host_kernel(function_address);
  if (function == nullptr) return report(hipErrorInvalidDeviceFunction);
  return report(launch("hipLaunchKernel", function, nullptr, numBlocks, dimBlocks, sharedMemBytes,
                       stream, args, nullptr));
}

HIP_EMU_API hipError_t hipLaunchKernel_spt(const void* function_address, dim3 numBlocks,
                                          dim3 dimBlocks, void** args, size_t sharedMemBytes,
                                          hipStream_t stream) {
  return hipLaunchKernel(function_address, numBlocks, dimBlocks, args, sharedMemBytes,
                         stream == nullptr ? hipStreamPerThread : stream);
}

// Cooperative launches: every block is resident at once, so they may all wait for each other
// (there is no grid-wide sync of cooperative groups: its header needs a GPU compiler).
HIP_EMU_API hipError_t hipModuleLaunchCooperativeKernel(hipFunction_t f, unsigned int gridDimX,
                                                       unsigned int gridDimY, unsigned int gridDimZ,
                                                       unsigned int blockDimX, unsigned int blockDimY,
                                                       unsigned int blockDimZ,
                                                       unsigned int sharedMemBytes, hipStream_t stream,
                                                       void** kernelParams) {
  std::shared_ptr<ihipModule_t> keep;
  const ihipModuleSymbol_t* function = live_function(f, &keep);
  const dim3 grid(gridDimX, gridDimY, gridDimZ), block(blockDimX, blockDimY, blockDimZ);
  hipError_t status = check_cooperative("hipModuleLaunchCooperativeKernel", function, grid, block);
  if (status != hipSuccess) return report(status);
  return report(launch("hipModuleLaunchCooperativeKernel", function, keep, grid, block, sharedMemBytes,
                       stream, kernelParams, nullptr));
}

HIP_EMU_API hipError_t hipLaunchCooperativeKernel(const void* f, dim3 gridDim, dim3 blockDimX,
                                                 void** kernelParams, unsigned int sharedMemBytes,
                                                 hipStream_t stream) {
  const ihipModuleSymbol_t* function = host_kernel(f);
  if (function == nullptr) return report(hipErrorInvalidDeviceFunction);
  hipError_t status = check_cooperative("hipLaunchCooperativeKernel", function, gridDim, blockDimX);
  if (status != hipSuccess) return report(status);
  return report(launch("hipLaunchCooperativeKernel", function, nullptr, gridDim, blockDimX,
                       sharedMemBytes, stream, kernelParams, nullptr));
}

HIP_EMU_API hipError_t hipLaunchCooperativeKernel_spt(const void* f, dim3 gridDim, dim3 blockDim,
                                                     void** kernelParams, uint32_t sharedMemBytes,
                                                     hipStream_t hStream) {
  return hipLaunchCooperativeKernel(f, gridDim, blockDim, kernelParams, sharedMemBytes,
                                    hStream == nullptr ? hipStreamPerThread : hStream);
}

HIP_EMU_API hipError_t hipGetFuncBySymbol(hipFunction_t* functionPtr, const void* symbolPtr) {
  if (functionPtr == nullptr) return report(hipErrorInvalidValue);
  const ihipModuleSymbol_t* function = host_kernel(symbolPtr);
  if (function == nullptr) return report(hipErrorInvalidDeviceFunction);
  *functionPtr = const_cast<ihipModuleSymbol_t*>(function);
  return hipSuccess;
}

// Accepts a host kernel's address or a hipFunction_t of a loaded module.
HIP_EMU_API hipError_t hipFuncGetAttributes(hipFuncAttributes* attr, const void* func) {
  if (attr == nullptr) return report(hipErrorInvalidValue);
  const ihipModuleSymbol_t* function = host_kernel(func);
  std::shared_ptr<ihipModule_t> keep;
  if (function == nullptr) {
    function = live_function(static_cast<hipFunction_t>(const_cast<void*>(func)), &keep);
  }
  if (function == nullptr) return report(hipErrorInvalidDeviceFunction);
  fill_attributes(function->info, attr);
  return hipSuccess;
}

HIP_EMU_API hipError_t hipFuncGetAttribute(int* value, hipFunction_attribute attrib,
                                          hipFunction_t hfunc) {
  if (value == nullptr) return report(hipErrorInvalidValue);
  std::shared_ptr<ihipModule_t> keep;
  const ihipModuleSymbol_t* function = live_function(hfunc, &keep);
  if (function == nullptr) return report(hipErrorInvalidHandle);
  hipFuncAttributes attr;
  fill_attributes(function->info, &attr);
  switch (attrib) {
    case HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *value = attr.maxThreadsPerBlock; break;
    case HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: *value = static_cast<int>(attr.sharedSizeBytes); break;
    case HIP_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: *value = attr.maxDynamicSharedSizeBytes; break;
    case HIP_FUNC_ATTRIBUTE_CONST_SIZE_BYTES:
    case HIP_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES:
    case HIP_FUNC_ATTRIBUTE_NUM_REGS:
    case HIP_FUNC_ATTRIBUTE_PTX_VERSION:
    case HIP_FUNC_ATTRIBUTE_BINARY_VERSION:
    case HIP_FUNC_ATTRIBUTE_CACHE_MODE_CA:
    case HIP_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT: *value = 0; break;
    default: return report(hipErrorInvalidValue);
  }
  return hipSuccess;
}

// ---- private exports ----------------------------------------------------------------------------

extern "C" __attribute__((visibility("default"))) void rocshmem_emu_wi_register_kernel(
    const rocshmem_emu_wi_kernel_t* kernel) {
  if (kernel == nullptr || kernel->address == nullptr) return;
  std::lock_guard<std::mutex> lock(registry().mutex);
  if (registry().host_kernels.count(kernel->address)) return;
  auto* function = new ihipModuleSymbol_t{nullptr, {}};  // host kernels live as long as the process
  function->info.name = kernel->name != nullptr ? kernel->name : "(unnamed kernel)";
  function->info.address = kernel->address;
  function->info.entry = kernel->entry;
  function->info.sizes.assign(kernel->sizes, kernel->sizes + kernel->num_params);
  function->info.aligns.assign(kernel->aligns, kernel->aligns + kernel->num_params);
  function->info.dynamic_shared_capacity = kernel->dynamic_shared_capacity;
  function->info.dynamic_shared = kernel->dynamic_shared;
  registry().host_kernels[kernel->address] = function;
  registry().functions.insert(function);
}

extern "C" __attribute__((visibility("default"))) int rocshmem_emu_wi_module_mark_rocshmem(
    void* module) {
  std::lock_guard<std::mutex> lock(registry().mutex);
  auto it = registry().modules.find(static_cast<ihipModule_t*>(module));
  if (it == registry().modules.end()) return 1;
  it->second->rocshmem_initialized = true;
  return 0;
}
