// Hand-written device API (gen_device_api.py HAND_WRITTEN): work-group init/finalize and
// contexts, the tile-collective wait, and the __global__ kernels the headers declare.
#include "device_ops.hpp"

using namespace rocshmem_emu;

namespace {

// Device code without a rocSHMEM host init would crash or hang on a GPU: end the PE instead.
bool initialized_for_device(const char* fn) {
  if (is_initialized()) return true;
  if (!rocshmem_emu_wi_in_kernel()) return require_initialized(fn);
  char what[160];
  snprintf(what, sizeof what, "%s: rocSHMEM is not initialized on this PE (call rocshmem_init before the launch)",
           fn);
  rocshmem_emu_wi_fault(what);
  return false;
}

struct CreatedCtx {
  int status;
  rocshmem::rocshmem_ctx_t ctx;
};

// The leader creates one context for the work-group; every work-item gets it in *ctx.
int wg_create(rocshmem::rocshmem_team_t team, int64_t options, rocshmem::rocshmem_ctx_t* ctx, const char* fn) {
  CreatedCtx made = group_call(Scope::block, fn, [&] {
    CreatedCtx c{rocshmem::ROCSHMEM_ERROR, {nullptr, nullptr}};
    if (!initialized_for_device(fn)) return c;
    // ROCSHMEM_TEAM_INVALID (a PE outside a split) gets the error status without a message.
    if (is_invalid_team(team) || !team_from_handle(team, fn)) return c;
    c.ctx.ctx_opaque = ctx_create(options);
    c.ctx.team_opaque = team;
    c.status = rocshmem::ROCSHMEM_SUCCESS;
    return c;
  });
  if (ctx) *ctx = made.ctx;
  return made.status;
}

// __global__ kernels: the library's *_on_stream paths launch them with one work-item; a user
// launch with more work-items still performs the operation once, in the grid's first work-item.
bool first_work_item() {
  if (!rocshmem_emu_wi_in_kernel()) return true;
  unsigned thread[3], block[3], block_dim[3], grid_dim[3];
  rocshmem_emu_wi_ids(thread, block, block_dim, grid_dim);
  return (thread[0] | thread[1] | thread[2] | block[0] | block[1] | block[2]) == 0;
}

}  // namespace

ROCSHMEM_EMU_API void rocshmem::rocshmem_wg_init() {
  group_call(Scope::block, "rocshmem_wg_init", [] { initialized_for_device("rocshmem_wg_init"); });
}

ROCSHMEM_EMU_API void rocshmem::rocshmem_wg_finalize() {
  group_call(Scope::block, "rocshmem_wg_finalize", [] { std::atomic_thread_fence(std::memory_order_seq_cst); });
}

ROCSHMEM_EMU_API void rocshmem::rocshmem_wg_init_thread(int /*requested*/, int* provided) {
  group_call(Scope::block, "rocshmem_wg_init_thread", [] { initialized_for_device("rocshmem_wg_init_thread"); });
  rocshmem_query_thread(provided);
}

ROCSHMEM_EMU_API int rocshmem::rocshmem_wg_ctx_create(int64_t options, rocshmem_ctx_t* ctx) {
  return wg_create(world_handle(), options, ctx, "rocshmem_wg_ctx_create");
}

ROCSHMEM_EMU_API int rocshmem::rocshmem_wg_team_create_ctx(rocshmem_team_t team, long options, rocshmem_ctx_t* ctx) {
  return wg_create(team, options, ctx, "rocshmem_wg_team_create_ctx");
}

ROCSHMEM_EMU_API void rocshmem::rocshmem_wg_ctx_destroy(rocshmem_ctx_t* ctx) {
  group_call(Scope::block, "rocshmem_wg_ctx_destroy", [&] {
    if (ctx) rocshmem_ctx_destroy(*ctx);
  });
}

// No tile operation exists on the emulator, so none is ever outstanding.
ROCSHMEM_EMU_API int rocshmem::rocshmem_ctx_tile_collective_wait(rocshmem_ctx_t ctx, rocshmem_team_t team,
                                                                 uint64_t /*flags*/) {
  Team* t;
  return device_team(ctx, team, &t, "rocshmem_ctx_tile_collective_wait") ? ROCSHMEM_SUCCESS : ROCSHMEM_ERROR;
}

ROCSHMEM_EMU_API int rocshmem::rocshmem_tile_collective_wait(rocshmem_team_t team, uint64_t flags) {
  return rocshmem_ctx_tile_collective_wait(default_ctx(), team, flags);
}

ROCSHMEM_EMU_API void rocshmem::rocshmem_getmem_kernel(void* dest, const void* source, size_t nelems, int pe) {
  if (first_work_item()) rocshmem_getmem(dest, source, nelems, pe);
}

ROCSHMEM_EMU_API void rocshmem::rocshmem_putmem_kernel(void* dest, const void* source, size_t nelems, int pe) {
  if (first_work_item()) rocshmem_putmem(dest, source, nelems, pe);
}

ROCSHMEM_EMU_API void rocshmem::rocshmem_quiet_kernel() {
  if (first_work_item()) rocshmem_quiet();
}

ROCSHMEM_EMU_API void rocshmem::rocshmem_putmem_signal_kernel(void* dest, const void* source, size_t nelems,
                                                              uint64_t* sig_addr, uint64_t signal, int sig_op, int pe) {
  if (first_work_item()) rocshmem_putmem_signal(dest, source, nelems, sig_addr, signal, sig_op, pe);
}

ROCSHMEM_EMU_API void rocshmem::rocshmem_signal_wait_until_kernel(uint64_t* sig_addr, int cmp, uint64_t cmp_value) {
  if (first_work_item()) rocshmem_signal_wait_until(sig_addr, cmp, cmp_value);
}

ROCSHMEM_EMU_API void rocshmem::rocshmem_barrier_all_kernel() {
  if (first_work_item()) rocshmem_barrier_all();
}

ROCSHMEM_EMU_API void rocshmem::rocshmem_barrier_kernel(rocshmem_team_t team) {
  if (first_work_item()) rocshmem_barrier(team);
}

ROCSHMEM_EMU_API void rocshmem::rocshmem_sync_all_kernel() {
  if (first_work_item()) rocshmem_sync_all();
}

ROCSHMEM_EMU_API void rocshmem::rocshmem_team_sync_kernel(rocshmem_team_t team) {
  if (first_work_item()) rocshmem_team_sync(team);
}

// size = bytes per PE, as in rocshmem_alltoallmem_on_stream.
ROCSHMEM_EMU_API void rocshmem::rocshmem_alltoallmem_kernel(rocshmem_team_t team, void* dest, const void* source,
                                                            size_t size) {
  const char* fn = "rocshmem_alltoallmem_kernel";
  if (!first_work_item()) return;
  Team* t;
  if (device_team(default_ctx(), team, &t, fn) && t) alltoall_bytes(t, dest, source, size, fn);
}

ROCSHMEM_EMU_API void rocshmem::rocshmem_broadcastmem_kernel(rocshmem_team_t team, void* dest, const void* source,
                                                             size_t nelems, int pe_root) {
  const char* fn = "rocshmem_broadcastmem_kernel";
  if (!first_work_item()) return;
  Team* t;
  if (device_team(default_ctx(), team, &t, fn) && t)
    broadcast_bytes(t, pe_root, dest, source, nelems, true, fn);
}
