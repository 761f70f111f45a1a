#include "context.hpp"

#include <atomic>
#include <mutex>
#include <unordered_set>

#include "log.hpp"
#include "runtime.hpp"

namespace rocshmem_emu {

namespace {
Context g_default_context{kContextMagic, 0};
void* g_default_team_handle = nullptr;
std::mutex g_ctx_mutex;
std::unordered_set<Context*> g_contexts;
}  // namespace

rocshmem::rocshmem_ctx_t default_ctx() {
  rocshmem::rocshmem_ctx_t ctx;
  ctx.ctx_opaque = &g_default_context;
  ctx.team_opaque = g_default_team_handle;
  return ctx;
}

bool ctx_usable(const rocshmem::rocshmem_ctx_t& ctx, const char* fn) {
  // Deliberately cheap (every RMA call passes here): only the INVALID context is refused.
  if (ctx.ctx_opaque) return true;
  report_error("%s: context is ROCSHMEM_CTX_INVALID (null); nothing done", fn);
  return false;
}

void contexts_init(void* world_team_handle) { g_default_team_handle = world_team_handle; }

Context* ctx_create(int64_t options) {
  const size_t limit = runtime().cfg.max_host_contexts;
  std::lock_guard<std::mutex> lock(g_ctx_mutex);
  // The library's default host context takes one slot of ROCSHMEM_MAX_NUM_HOST_CONTEXTS.
  if (g_contexts.size() + 1 >= limit) {
    report_error("rocshmem_ctx_create: ROCSHMEM_MAX_NUM_HOST_CONTEXTS=%zu host contexts are in use (the library's "
                 "default context takes one of them); set ROCSHMEM_MAX_NUM_HOST_CONTEXTS=%zu or more. rocSHMEM "
                 "itself asserts or reads past its pool here",
                 limit, g_contexts.size() + 2);
    return nullptr;
  }
  auto* c = new Context{kContextMagic, options};
  g_contexts.insert(c);
  return c;
}

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

bool ctx_destroy(void* opaque) {
  std::lock_guard<std::mutex> lock(g_ctx_mutex);
  auto* c = static_cast<Context*>(opaque);
  if (!g_contexts.erase(c)) return false;
  c->magic = 0;
  delete c;
  return true;
}

void contexts_finalize() {
  std::lock_guard<std::mutex> lock(g_ctx_mutex);
  for (Context* c : g_contexts) delete c;
  g_contexts.clear();
  g_device_contexts.store(0, std::memory_order_relaxed);
  g_default_team_handle = nullptr;
}

}  // namespace rocshmem_emu
