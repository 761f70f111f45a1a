// Communicator state. The public handle (struct ncclComm, which rccl.h only declares) points at a
// CommState shared with every task queued on a stream, so a destroyed or aborted handle never
// pulls memory from under work that is still queued.
#pragma once

#include <rccl/rccl.h>

#include <array>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <vector>

#include "segment.hpp"
#include "unique_id.hpp"

namespace rccl_emu {

// A reduction operator created by ncclRedOpCreatePreMulSum.
struct PreMulSum {
  ncclDataType_t type;
  bool on_device;                 // ncclScalarDevice: read when the collective runs
  unsigned char host_value[8];    // ncclScalarHostImmediate: read at creation
  const void* device_value;
};

struct CommState {
  // Fixed once joined.
  std::shared_ptr<Segment> segment;
  IdContent id{};
  int rank = 0;
  int nranks = 0;
  int device = 0;

  std::atomic<bool> ready{false};    // joined (false while an init waits for ncclGroupEnd)
  std::atomic<bool> aborted{false};  // ncclCommAbort / NCCL_SHRINK_ABORT: queued work is skipped
  std::atomic<int> async_error{ncclSuccess};

  // Enqueued work runs in ticket order, whatever stream it was queued on.
  std::mutex mutex;
  std::condition_variable changed;
  uint64_t submitted = 0;    // tickets handed out
  uint64_t completed = 0;    // the last ticket that ran (in order)
  int outstanding = 0;       // queued or running tasks
  int running = 0;           // tasks currently on a stream thread
  bool finalized = false;

  // Host-side exchanges and derived communicators (agree across ranks because calls are collective).
  uint64_t exchange_generation = 0;
  uint64_t split_sequence = 0;
  uint64_t shrink_sequence = 0;
  uint64_t collectives_run = 0;  // collectives executed (task threads run this communicator's tasks in order)

  std::map<int, PreMulSum> custom_ops;
  int next_custom_op = ncclNumOps;
  std::set<void*> registrations;
  std::set<void*> windows;

  // Records the first asynchronous failure and tells the peers (they stop waiting for us).
  void set_failed(ncclResult_t error);
};

using CommPtr = std::shared_ptr<CommState>;

// Handle registry: API entry points only accept live handles (a stale pointer is an error, not a crash).
void register_handle(ncclComm* handle);
void unregister_handle(ncclComm* handle);
CommPtr lookup(ncclComm_t handle);

// Host-side allgather of four int64 per rank through the rank slots (split, finalize). Split in two
// steps so that one thread can run it for several ranks of one communicator (groups).
ncclResult_t post_exchange(CommState& c, const std::array<int64_t, 4>& payload);
ncclResult_t collect_exchange(CommState& c, std::vector<std::array<int64_t, 4>>* payloads);

}  // namespace rccl_emu

// The public handle types rccl.h declares.
struct ncclComm {
  rccl_emu::CommPtr state;
};

struct ncclWindow {
  void* base;
  size_t size;
  int flags;
};
