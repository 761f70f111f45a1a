#include "context.hpp"

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
  auto* c = new Context{kContextMagic, options};
  std::lock_guard<std::mutex> lock(g_ctx_mutex);
  g_contexts.insert(c);
  return c;
}

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
  g_default_team_handle = nullptr;
}

}  // namespace rocshmem_emu
