// Hand-written API: teams (OpenSHMEM 1.5 semantics) and contexts.
#include <algorithm>

#include "api_include.hpp"
#include "rocshmem_emu_workitem.h"
#include "completion.hpp"
#include "context.hpp"
#include "log.hpp"
#include "runtime.hpp"
#include "teams.hpp"

using namespace rocshmem_emu;

namespace {

int contexts_from(const rocshmem::rocshmem_team_config_t* config, long mask) {
  return (config && (mask & rocshmem::ROCSHMEM_TEAM_NUM_CONTEXTS)) ? config->num_contexts : 0;
}

rocshmem::rocshmem_team_t handle(Team* t) { return reinterpret_cast<rocshmem::rocshmem_team_t>(t); }

// Members of parent indices start + i*stride (i < size) as world PEs.
PeSet compose(const Team* parent, int start, int stride, int size) {
  return PeSet{parent->members.world_pe(start), stride * parent->members.stride, size};
}

}  // namespace

ROCSHMEM_EMU_API int rocshmem::rocshmem_team_n_pes(rocshmem_team_t team) {
  Team* t = team_lookup(team);
  return t ? t->members.size : -1;
}

ROCSHMEM_EMU_API int rocshmem::rocshmem_team_my_pe(rocshmem_team_t team) {
  Team* t = team_lookup(team);
  return t ? t->my_index : -1;
}

ROCSHMEM_EMU_API int rocshmem::rocshmem_team_translate_pe(rocshmem_team_t src_team, int src_pe,
                                                          rocshmem_team_t dest_team) {
  Team* src = team_lookup(src_team);
  Team* dest = team_lookup(dest_team);
  if (!src || !dest || src_pe < 0 || src_pe >= src->members.size) return -1;
  return index_in(dest->members, src->members.world_pe(src_pe));
}

// Collective over the parent. Members of the new team get a handle; the others get
// ROCSHMEM_TEAM_INVALID and status 0 (OpenSHMEM 1.5). Bad arguments fail on every PE alike.
ROCSHMEM_EMU_API int rocshmem::rocshmem_team_split_strided(rocshmem_team_t parent_team, int start, int stride,
                                                           int size, const rocshmem_team_config_t* config,
                                                           long config_mask, rocshmem_team_t* new_team) {
  const char* fn = "rocshmem_team_split_strided";
  if (!new_team) return report_error("%s: new_team is null", fn), -1;
  *new_team = ROCSHMEM_TEAM_INVALID;
  if (is_invalid_team(parent_team)) return 0;  // OpenSHMEM: no team is created, new_team is INVALID
  Team* parent = team_from_handle(parent_team, fn);
  if (!parent) return -1;
  const int n = parent->members.size;
  const int64_t last = int64_t(start) + int64_t(stride) * (size - 1);
  if (size < 1 || start < 0 || start >= n || last < 0 || last >= n || (size > 1 && stride == 0)) {
    report_error("%s: start %d, stride %d, size %d do not fit the parent team of %d PEs", fn, start, stride, size, n);
    return -1;
  }
  PeSet members = compose(parent, start, stride, size);
  char label[sizeof Team::label];
  const uint64_t id = next_split_id(parent, 0, label, sizeof label);
  int status = 0;
  if (index_in(members, runtime().my_pe) >= 0) {
    Team* t = team_create(members, contexts_from(config, config_mask), id, label);
    if (t)
      *new_team = handle(t);
    else
      status = -1;
  }
  Collective call(fn, "start", static_cast<uint64_t>(start), "size", static_cast<uint64_t>(size));
  team_barrier(parent, call);
  return status;
}

// OpenSHMEM 1.5: x-axis teams are consecutive runs of xrange parent PEs, y-axis teams take
// every xrange-th parent PE; every parent PE belongs to one of each. xrange > parent size is
// clamped to the parent size.
ROCSHMEM_EMU_API int rocshmem::rocshmem_team_split_2d(rocshmem_team_t parent_team, int xrange,
                                                      const rocshmem_team_config_t* xaxis_config, long xaxis_mask,
                                                      rocshmem_team_t* xaxis_team,
                                                      const rocshmem_team_config_t* yaxis_config, long yaxis_mask,
                                                      rocshmem_team_t* yaxis_team) {
  const char* fn = "rocshmem_team_split_2d";
  if (!xaxis_team || !yaxis_team) return report_error("%s: null output team pointer", fn), -1;
  *xaxis_team = *yaxis_team = ROCSHMEM_TEAM_INVALID;
  // Unlike split_strided, upstream (3.5+) refuses an INVALID parent with ROCSHMEM_ERROR.
  if (is_invalid_team(parent_team))
    return report_error("%s: parent team is ROCSHMEM_TEAM_INVALID; no team created", fn), ROCSHMEM_ERROR;
  Team* parent = team_from_handle(parent_team, fn);
  if (!parent) return ROCSHMEM_ERROR;
  if (xrange < 1) return report_error("%s: xrange %d must be positive", fn, xrange), ROCSHMEM_ERROR;
  const int n = parent->members.size;
  if (xrange > n) xrange = n;
  const int me = parent->my_index;
  const int x_start = me / xrange * xrange;
  const int x_size = std::min(xrange, n - x_start);
  const int y_start = me % xrange;
  const int y_size = (n - 1 - y_start) / xrange + 1;
  char x_label[sizeof Team::label], y_label[sizeof Team::label];
  const uint64_t x_id = next_split_id(parent, 1, x_label, sizeof x_label);
  const uint64_t y_id = next_split_id(parent, 2, y_label, sizeof y_label);
  Team* x = team_create(compose(parent, x_start, 1, x_size), contexts_from(xaxis_config, xaxis_mask), x_id, x_label);
  Team* y = team_create(compose(parent, y_start, xrange, y_size), contexts_from(yaxis_config, yaxis_mask), y_id, y_label);
  int status = (x && y) ? 0 : ROCSHMEM_ERROR;
  if (status == 0) {
    *xaxis_team = handle(x);
    *yaxis_team = handle(y);
  } else {
    if (x) team_destroy(x);
    if (y) team_destroy(y);
  }
  Collective call(fn, "xrange", static_cast<uint64_t>(xrange));
  team_barrier(parent, call);
  return status;
}

// Team state shared between PEs (the barrier slot) outlives the handle, so destroying needs
// no synchronisation; skipping the barrier also keeps PEs that destroy several teams in
// different orders (e.g. sorted by handle value) from deadlocking.
ROCSHMEM_EMU_API void rocshmem::rocshmem_team_destroy(rocshmem_team_t team) {
  if (team == ROCSHMEM_TEAM_INVALID) return;
  Team* t = team_lookup(team);
  if (!t) {
    if (is_initialized()) report_error("rocshmem_team_destroy: %p is not a live team handle; ignored", static_cast<void*>(team));
    return;
  }
  if (t->predefined) return;  // WORLD and SHARED
  std::atomic_thread_fence(std::memory_order_seq_cst);
  team_destroy(t);
}

ROCSHMEM_EMU_API int rocshmem::rocshmem_ctx_create(int64_t options, rocshmem_ctx_t* ctx) {
  if (!ctx) return report_error("rocshmem_ctx_create: ctx is null"), ROCSHMEM_ERROR;
  if (!require_initialized("rocshmem_ctx_create")) return ROCSHMEM_ERROR;
  // The same symbol serves device code: from a kernel it makes a device context.
  ctx->ctx_opaque = rocshmem_emu::ctx_create(options, rocshmem_emu_wi_in_kernel() != 0);
  ctx->team_opaque = ctx->ctx_opaque ? world_team() : nullptr;
  return ctx->ctx_opaque ? ROCSHMEM_SUCCESS : ROCSHMEM_ERROR;
}

// Destroying a context completes its operations (quiet). The default and INVALID
// contexts are left alone (OpenSHMEM: destroying them has no effect / is undefined).
ROCSHMEM_EMU_API void rocshmem::rocshmem_ctx_destroy(rocshmem_ctx_t ctx) {
  if (!ctx.ctx_opaque || ctx.ctx_opaque == default_ctx().ctx_opaque) return;
  complete_all();
  if (!rocshmem_emu::ctx_destroy(ctx.ctx_opaque))
    report_error("rocshmem_ctx_destroy: %p is not a live context of this PE; ignored", ctx.ctx_opaque);
}
