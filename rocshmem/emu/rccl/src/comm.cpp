#include "comm.hpp"

#include <string>

#include "errors.hpp"
#include "waiting.hpp"

namespace rccl_emu {
namespace {

std::mutex g_handles_mutex;
std::set<ncclComm*>& handles() {
  static auto* live = new std::set<ncclComm*>;  // never destroyed: stream threads may outlive statics
  return *live;
}

// Waits until pred() holds for every rank; fails on abort, a departed or dead rank, or timeout.
template <class Pred>
ncclResult_t wait_all_ranks(CommState& c, const char* what, Pred pred) {
  Segment& seg = *c.segment;
  int64_t deadline = monotonic_ns() + static_cast<int64_t>(bootstrap_timeout_seconds() * 1e9);
  for (int r = 0; r < c.nranks; ++r) {
    Backoff backoff;
    while (!pred(seg.rank(r))) {
      backoff.pause();
      if (!backoff.time_to_check()) continue;
      if (c.aborted.load()) return fail(ncclInvalidUsage, std::string(what) + ": the communicator was aborted");
      int32_t state = seg.rank(r).state.load(std::memory_order_acquire);
      int pid = seg.rank(r).pid.load(std::memory_order_acquire);
      // A rank may do its part and leave right away (finalize, then destroy): look again before failing.
      if ((state != kRankActive || process_is_gone(pid)) && !pred(seg.rank(r))) {
        return fail(ncclRemoteError, std::string(what) + ": rank " + std::to_string(r) + " (pid " +
                                         std::to_string(pid) + ") " +
                                         (state == kRankActive ? "exited" : "left the communicator"));
      }
      if (monotonic_ns() > deadline) {
        return fail(ncclSystemError, std::string(what) + ": rank " + std::to_string(c.rank) + " timed out after " +
                                         std::to_string(static_cast<int>(bootstrap_timeout_seconds())) +
                                         " s waiting for rank " + std::to_string(r) +
                                         " (every rank must make the same call; ROCSHMEM_EMU_BOOTSTRAP_TIMEOUT)");
      }
    }
  }
  return ncclSuccess;
}

}  // namespace

void CommState::set_failed(ncclResult_t error) {
  int expected = ncclSuccess;
  async_error.compare_exchange_strong(expected, error);
  if (segment) segment->rank(rank).state.store(kRankAborted, std::memory_order_release);
}

void register_handle(ncclComm* handle) {
  std::lock_guard<std::mutex> lock(g_handles_mutex);
  handles().insert(handle);
}

void unregister_handle(ncclComm* handle) {
  std::lock_guard<std::mutex> lock(g_handles_mutex);
  handles().erase(handle);
}

CommPtr lookup(ncclComm_t handle) {
  std::lock_guard<std::mutex> lock(g_handles_mutex);
  return handles().count(handle) ? handle->state : nullptr;
}

ncclResult_t post_exchange(CommState& c, const std::array<int64_t, 4>& payload) {
  uint64_t generation = ++c.exchange_generation;
  // Our payload of the previous generation must have been read by everyone before it changes.
  ncclResult_t status = wait_all_ranks(c, "communicator exchange", [&](RankSlot& s) {
    return s.taken.load(std::memory_order_acquire) + 1 >= generation;
  });
  if (status != ncclSuccess) return status;
  RankSlot& mine = c.segment->rank(c.rank);
  for (size_t i = 0; i < payload.size(); ++i) mine.payload[i] = payload[i];
  mine.posted.store(generation, std::memory_order_release);
  return ncclSuccess;
}

ncclResult_t collect_exchange(CommState& c, std::vector<std::array<int64_t, 4>>* payloads) {
  uint64_t generation = c.exchange_generation;
  ncclResult_t status = wait_all_ranks(c, "communicator exchange", [&](RankSlot& s) {
    return s.posted.load(std::memory_order_acquire) >= generation;
  });
  if (status != ncclSuccess) return status;
  payloads->assign(c.nranks, {});
  for (int r = 0; r < c.nranks; ++r) {
    for (size_t i = 0; i < 4; ++i) (*payloads)[r][i] = c.segment->rank(r).payload[i];
  }
  c.segment->rank(c.rank).taken.store(generation, std::memory_order_release);
  return ncclSuccess;
}

}  // namespace rccl_emu
