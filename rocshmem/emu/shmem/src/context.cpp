#include "context.hpp"

#include <atomic>
#include <mutex>
#include <unordered_set>

#include "control.hpp"
#include "log.hpp"
#include "rocshmem_emu_workitem.h"
#include "wait.hpp"
#include "runtime.hpp"

namespace rocshmem_emu {

namespace {
Context g_default_context{kContextMagic, 0};
void* g_default_team_handle = nullptr;
std::mutex g_ctx_mutex;
std::unordered_set<Context*> g_contexts;  // host and device contexts this PE created
size_t g_host_contexts = 0;               // of them, host contexts (guarded by g_ctx_mutex)
}  // namespace

rocshmem::rocshmem_ctx_t default_ctx() {
  rocshmem::rocshmem_ctx_t ctx;
  ctx.ctx_opaque = &g_default_context;
  ctx.team_opaque = g_default_team_handle;
  return ctx;
}

bool ctx_usable(const rocshmem::rocshmem_ctx_t& ctx, const char* fn) {
  // Deliberately cheap (every RMA call passes here): the default context passes at once.
  if (ctx.ctx_opaque == &g_default_context) return true;
  if (!ctx.ctx_opaque) {
    report_error("%s: context is ROCSHMEM_CTX_INVALID (null); nothing done", fn);
    return false;
  }
  // A host context (rocshmem_ctx_create) lives in host memory: device code on a GPU cannot use it.
  if (!static_cast<const Context*>(ctx.ctx_opaque)->device && rocshmem_emu_wi_maybe_in_kernel()) {
    claim_job_abort(kFailureExitStatus, kExitAbandoned);
    fatal_exit(kFailureExitStatus,
               "%s in a kernel: the context is a host context (rocshmem_ctx_create, a Java Context), which device "
               "code cannot use on a GPU; in a kernel use ROCSHMEM_CTX_DEFAULT or a context from "
               "rocshmem_wg_ctx_create / rocshmem_wg_team_create_ctx",
               fn);
  }
  return true;
}

void contexts_init(void* world_team_handle) { g_default_team_handle = world_team_handle; }

namespace {
std::atomic<size_t> g_device_contexts{0};
}  // namespace

bool device_ctx_acquire(const char* fn) {
  const size_t limit = runtime().cfg.max_contexts;
  size_t used = g_device_contexts.load(std::memory_order_relaxed);
  do {
    if (used >= limit) {
      report_error("%s: all ROCSHMEM_MAX_NUM_CONTEXTS=%zu device contexts are in use; returning non-zero", fn, limit);
      return false;
    }
  } while (!g_device_contexts.compare_exchange_weak(used, used + 1, std::memory_order_acq_rel));
  return true;
}

void device_ctx_release() { g_device_contexts.fetch_sub(1, std::memory_order_acq_rel); }

Context* ctx_create(int64_t options, bool device, const char* fn) {
  if (device) {
    if (!device_ctx_acquire(fn)) return nullptr;
    std::lock_guard<std::mutex> lock(g_ctx_mutex);
    auto* c = new Context{kContextMagic, options, true};
    g_contexts.insert(c);
    return c;
  }
  const size_t limit = runtime().cfg.max_host_contexts;
  std::lock_guard<std::mutex> lock(g_ctx_mutex);
  // The library's default host context takes one slot of ROCSHMEM_MAX_NUM_HOST_CONTEXTS.
  if (g_host_contexts + 1 >= limit) {
    report_error("%s: ROCSHMEM_MAX_NUM_HOST_CONTEXTS=%zu host contexts are in use (the library's "
                 "default context takes one of them); set ROCSHMEM_MAX_NUM_HOST_CONTEXTS=%zu or more. rocSHMEM "
                 "itself asserts or reads past its pool here",
                 fn, limit, g_host_contexts + 2);
    return nullptr;
  }
  auto* c = new Context{kContextMagic, options};
  g_contexts.insert(c);
  g_host_contexts++;
  return c;
}

bool ctx_destroy(void* opaque) {
  std::lock_guard<std::mutex> lock(g_ctx_mutex);
  auto* c = static_cast<Context*>(opaque);
  if (!g_contexts.erase(c)) return false;
  if (c->device)
    device_ctx_release();
  else
    g_host_contexts--;
  c->magic = 0;
  delete c;
  return true;
}

void contexts_finalize() {
  std::lock_guard<std::mutex> lock(g_ctx_mutex);
  for (Context* c : g_contexts) delete c;
  g_contexts.clear();
  g_host_contexts = 0;
  g_device_contexts.store(0, std::memory_order_relaxed);
  g_default_team_handle = nullptr;
}

}  // namespace rocshmem_emu
