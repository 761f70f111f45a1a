// Contexts: rocshmem_ctx_t carries a pointer to one of these. The emulator completes every
// operation eagerly, so a context only matters for validation and bookkeeping.
#pragma once

#include <cstdint>

#include "api_include.hpp"

namespace rocshmem_emu {

struct Context {
  uint64_t magic;
  int64_t options;
  bool device = false;  // counted against ROCSHMEM_MAX_NUM_CONTEXTS instead of the host limit
};
constexpr uint64_t kContextMagic = 0x787463756d65;  // "emuctx"

// The library's host default context (there is no public host variable for it).
rocshmem::rocshmem_ctx_t default_ctx();

// Every API taking a ctx checks it: a null ctx_opaque (ROCSHMEM_CTX_INVALID) is refused.
bool ctx_usable(const rocshmem::rocshmem_ctx_t& ctx, const char* fn);

// nullptr (after an error line) past ROCSHMEM_MAX_NUM_HOST_CONTEXTS, the default context included;
// a device context (device = true, from the wg_ context calls) past ROCSHMEM_MAX_NUM_CONTEXTS.
Context* ctx_create(int64_t options, bool device = false, const char* fn = "rocshmem_ctx_create");
// Device contexts (rocshmem_wg_ctx_create and friends): false past ROCSHMEM_MAX_NUM_CONTEXTS, where
// the caller returns non-zero and leaves the context null, as rocSHMEM 3.x does.
bool device_ctx_acquire(const char* fn);
void device_ctx_release();
bool ctx_destroy(void* opaque);  // false for handles this PE did not create
void contexts_finalize();
void contexts_init(void* world_team_handle);

}  // namespace rocshmem_emu
