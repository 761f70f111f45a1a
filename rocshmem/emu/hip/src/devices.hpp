// Virtual devices, streams and the ordering rules between them.
//
// Devices: ROCSHMEM_EMU_DEVICES virtual devices (unset or empty: 1). A value that is not an
// integer in [0, 256] is reported once on stderr and yields 0 devices, so every device API then
// fails with hipErrorNoDevice, exactly like the real runtime on a machine without a GPU.
// The current device is per host thread (default 0).
//
// Streams (documented semantics, mirroring HIP/CUDA "legacy default stream" rules):
//  - Every stream is a StreamWorker: a FIFO run by its own thread, so async work is really
//    asynchronous and strictly ordered within the stream.
//  - The null stream (0 / nullptr) and hipStreamLegacy are the same per-device stream with legacy
//    semantics: work submitted to it waits for all work previously submitted to the device's
//    blocking streams, and work submitted to a blocking stream waits for all work previously
//    submitted to the null stream. hipStreamNonBlocking streams never synchronise with it.
//  - hipStreamPerThread is a per-(host thread, device) blocking stream, created on first use and
//    drained/destroyed when the thread exits.
//  - hipStreamSynchronize/hipStreamQuery on the null stream cover the null stream and all blocking
//    streams of the device. Synchronous copies/memsets run on the null stream.
//  - An async failure (a host function that throws) is reported by the next synchronisation call
//    of that stream or device.
//  - Host functions run on the stream's thread and must not call HIP functions that wait for
//    streams (as on real HIP: that can deadlock).
#pragma once

#include <memory>
#include <mutex>
#include <set>
#include <vector>

#include "stream_worker.hpp"

// The HIP headers only declare this type; its layout is ours.
struct ihipStream_t {
  int device;
  unsigned int flags;  // hipStreamDefault or hipStreamNonBlocking
  int priority;
  enum class Kind { user, null_stream, per_thread } kind;
  std::shared_ptr<hip_emu::StreamWorker> worker;
};

namespace hip_emu {

constexpr int kMaxDevices = 256;
constexpr int kLeastStreamPriority = 1;
constexpr int kGreatestStreamPriority = -1;

int device_count();
bool is_valid_device(int device);
int& current_device();  // this thread's current device

// Validates the current device, returning hipErrorNoDevice when there are none.
hipError_t check_current_device();

// Resolves a handle (including null / legacy / per-thread) for the current device.
// Returns nullptr for a handle that is not a live stream.
ihipStream_t* resolve_stream(hipStream_t handle);

// Submits `task` to `stream`, adding the legacy null-stream dependencies and `extra`.
uint64_t submit(ihipStream_t* stream, std::function<void()> task,
                std::vector<Dependency> extra = {});

// Waits until everything submitted to `stream` so far completed (for the null stream: also the
// device's blocking streams) and returns the first async error found.
hipError_t synchronize_stream(ihipStream_t* stream);
bool stream_has_pending_work(ihipStream_t* stream);

// Waits for all streams of `device`.
hipError_t synchronize_device(int device);

ihipStream_t* create_stream(int device, unsigned int flags, int priority);
// Drains and removes a user stream; false when `stream` is not a live user stream.
bool destroy_stream(hipStream_t stream);
// Destroys every user stream of `device` (hipDeviceReset).
void destroy_user_streams(int device);

}  // namespace hip_emu
