// Hand-written API: internal hooks, device-module glue, QP introspection, api_trace table,
// plus the emulator-private C API (rocshmem_emu_*).
#include <cstring>
#include <string>

#include "api_include.hpp"
#include "completion.hpp"
#include "rocshmem_emu.h"
#include "rocshmem_emu_workitem.h"
#include "context.hpp"
#include "globals.hpp"
#include "heap_alloc.hpp"
#include "log.hpp"
#include "runtime.hpp"
#include "wait.hpp"
#include "windows.hpp"

using namespace rocshmem_emu;

// Internal in rocSHMEM (hands the host default ctx to device code); nothing to hand over here.
ROCSHMEM_EMU_API void rocshmem::set_internal_ctx(rocshmem_ctx_t* ctx) {
  if (ctx && is_initialized()) *ctx = default_ctx();
}

// The emulator moves data through node-local shared memory, like the IPC backend.
ROCSHMEM_EMU_API rocshmem::BackendType rocshmem::rocshmem_query_backend_type() {
  return BackendType::IPC_BACKEND;
}

// Internal in rocSHMEM (copies the handle into device constant memory).
ROCSHMEM_EMU_API void rocshmem::set_team_world_device(rocshmem_team_t team_world) {
  device::ROCSHMEM_TEAM_WORLD = team_world;
}

ROCSHMEM_EMU_API void rocshmem::set_team_shared_device(rocshmem_team_t team_shared) {
  device::ROCSHMEM_TEAM_SHARED = team_shared;
}

// Deprecated: the address of the library's default context object.
ROCSHMEM_EMU_API void* rocshmem::rocshmem_get_device_ctx() {
  return is_initialized() ? default_ctx().ctx_opaque : nullptr;
}

// On a GPU this copies rocSHMEM's device globals into a code object loaded with hipModuleLoad.
// An emulator code object is a shared object whose device-API calls and globals bind to this
// library when it is loaded, so there is nothing to copy: the HIP emulator only records that
// the module was initialised (its `uses-rocshmem` kernels are refused until then).
ROCSHMEM_EMU_API int rocshmem::rocshmem_hipmodule_init(hipModule_t module, hipStream_t /*stream*/) {
  const char* fn = "rocshmem_hipmodule_init";
  if (!require_initialized(fn)) return ROCSHMEM_ERROR;
  if (!module) return report_error("%s: module is null", fn), ROCSHMEM_ERROR;
  if (rocshmem_emu_wi_module_mark_rocshmem(module) != 0) {
    report_error("%s(%p): not a loaded emulator code object (hipModuleLoad of an .emuco file); nothing done", fn,
                 static_cast<void*>(module));
    return ROCSHMEM_ERROR;
  }
  return ROCSHMEM_SUCCESS;
}

// Queue-pair introspection exists only for the GDA (GPU-direct network) backend.
ROCSHMEM_EMU_API rocshmem::QpInfoVendor rocshmem::rocshmem_qp_introspect_provider() { return QpInfoVendor::UNKNOWN; }

ROCSHMEM_EMU_API bool rocshmem::rocshmem_qp_introspect_available() { return false; }

ROCSHMEM_EMU_API bool rocshmem::rocshmem_query_qp_info(int /*peer*/, int /*ctx_id*/, QpInfo* /*out*/) { return false; }

extern "C" ROCSHMEM_EMU_API const rocshmemApiFuncTable* RocshmemGetFunctionTable(void) {
  static const rocshmemApiFuncTable table = {
      sizeof(rocshmemApiFuncTable),
      &rocshmem::rocshmem_barrier_all_on_stream,
      &rocshmem::rocshmem_quiet_on_stream,
      &rocshmem::rocshmem_sync_all_on_stream,
      &rocshmem::rocshmem_alltoallmem_on_stream,
      &rocshmem::rocshmem_broadcastmem_on_stream,
      &rocshmem::rocshmem_getmem_on_stream,
      &rocshmem::rocshmem_putmem_on_stream,
      &rocshmem::rocshmem_putmem_signal_on_stream,
      &rocshmem::rocshmem_signal_wait_until_on_stream,
  };
  return &table;
}

// ---- emulator-private C API (include/rocshmem_emu.h) -------------------------------------------
namespace {
thread_local std::string t_last_error;
}  // namespace

extern "C" {

ROCSHMEM_EMU_API const char* rocshmem_emu_last_init_error(void) { return runtime().last_error.c_str(); }

ROCSHMEM_EMU_API int rocshmem_emu_is_initialized(void) { return is_initialized() ? 1 : 0; }

ROCSHMEM_EMU_API size_t rocshmem_emu_heap_size(void) { return is_initialized() ? runtime().heap_size : 0; }

ROCSHMEM_EMU_API size_t rocshmem_emu_max_alignment(void) { return kHeapBaseAlignment; }

ROCSHMEM_EMU_API void* rocshmem_emu_view(const void* addr, size_t bytes) {
  std::string error;
  void* view = window_open(addr, bytes, &error);
  t_last_error = view ? std::string() : error;
  return view;
}

ROCSHMEM_EMU_API const char* rocshmem_emu_last_error(void) { return t_last_error.c_str(); }

ROCSHMEM_EMU_API const char* rocshmem_emu_settings(void) {
  static thread_local std::string text;
  EnvConfig cfg;
  std::string error;
  const bool ok = is_initialized() ? (cfg = runtime().cfg, true) : load_env_config(&cfg, &error);
  const int per_node = is_initialized() ? runtime().pes_per_node : 0;
  auto line = [&](const char* name, const std::string& value) { text += std::string(name) + "=" + value + "\n"; };
  text.clear();
  if (!ok) line("error", error);
  line("ROCSHMEM_HEAP_SIZE", std::to_string(cfg.heap_usable) + " bytes per PE");
  line("ROCSHMEM_MAX_NUM_HOST_CONTEXTS", std::to_string(cfg.max_host_contexts) + " (the default context included)");
  line("ROCSHMEM_MAX_NUM_CONTEXTS", std::to_string(cfg.max_contexts));
  line("ROCSHMEM_MAX_NUM_TEAMS", std::to_string(cfg.max_teams) + " (" + std::to_string(cfg.max_teams - kReservedTeams) +
                                     " user teams)");
  line("ROCSHMEM_MAX_SYMM_REGIONS", std::to_string(cfg.max_symm_regions));
  line("ROCSHMEM_DEBUG_LEVEL", kDebugLevels[cfg.debug_level]);
  line("ROCSHMEM_DISABLE_MIXED_IPC", cfg.disable_mixed_ipc ? "1" : "0");
  line("ROCSHMEM_HEAP_ALLOCATOR_TYPE", cfg.heap_allocator.empty() ? "(unset)" : cfg.heap_allocator);
  line("ROCSHMEM_EMU_BOOTSTRAP_TIMEOUT", std::to_string(cfg.bootstrap_timeout_s) + " s");
  line("ROCSHMEM_EMU_COMPLETION", cfg.completion == CompletionMode::deferred ? "deferred"
                                  : cfg.completion == CompletionMode::fifo   ? "fifo"
                                                                             : "immediate");
  if (uint64_t seed; is_initialized() && completion_seed(&seed))
    line("ROCSHMEM_EMU_DELIVERY_SEED", std::to_string(seed) + (cfg.delivery_seed_set ? "" : " (drawn for this job)"));
  line("ROCSHMEM_EMU_PROGRESS_MS", std::to_string(cfg.progress_ms));
  line("ROCSHMEM_EMU_PROFILE", cfg.profile == EmuProfile::ipc_uid ? "ipc-uid" : "none");
  if (per_node > 0) line("ROCSHMEM_EMU_PES_PER_NODE", std::to_string(per_node));
  line("ROCSHMEM_EMU_SHM_DIR", cfg.shm_dir);
  line("rocSHMEM version", std::to_string(ROCSHMEM_VENDOR_MAJOR_VERSION) + "." +
                               std::to_string(ROCSHMEM_VENDOR_MINOR_VERSION) + "." +
                               std::to_string(ROCSHMEM_VENDOR_PATCH_VERSION) + " (emulated)");
  return text.c_str();
}

ROCSHMEM_EMU_API void rocshmem_emu_abandon_job(void) {
  if (is_initialized()) claim_job_abort(kFailureExitStatus, kExitAbandoned);
}

}  // extern "C"
