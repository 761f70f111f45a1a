// Stream ordering: *_on_stream work is queued on the HIP stream with hipLaunchHostFunc (the
// CPU HIP runtime runs a stream as a FIFO worker thread), so it is ordered with the stream's
// copies and kernels exactly as on a GPU.
#pragma once

#include <functional>

#include "collectives.hpp"

namespace rocshmem_emu {

// Queues work on stream; false (after an error line naming fn) when HIP refuses it.
bool enqueue_on_stream(hipStream_t stream, const char* fn, std::function<void()> work);

template <class T, RedOp op>
int coll_reduce_on_stream(const rocshmem::rocshmem_ctx_t& ctx, rocshmem::rocshmem_team_t team, T* dest,
                          const T* source, int nreduce, hipStream_t stream, const char* fn) {
  if (is_invalid_team(team)) return kCollOk;
  Team* t = team_from_handle(team, fn);
  if (!t || !ctx_usable(ctx, fn)) return kCollError;
  if (nreduce < 0) return report_error("%s: negative nreduce %d; nothing done", fn, nreduce), kCollError;
  bool queued = enqueue_on_stream(stream, fn, [team, dest, source, nreduce, fn] {
    // Re-resolved on the worker: the team may have been destroyed in the meantime.
    if (Team* live = team_from_handle(team, fn)) reduce_core<T, op>(live, dest, source, nreduce, false, fn);
  });
  return queued ? kCollOk : kCollError;
}

}  // namespace rocshmem_emu
